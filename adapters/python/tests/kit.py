"""Where the kit's files are, for tests that read the spec's own data (schemas, examples, golden sessions)."""

import json
from pathlib import Path

KIT_ROOT = Path(__file__).resolve().parents[3]
SPEC_DIR = KIT_ROOT / "spec"
SCHEMA_DIR = SPEC_DIR / "json-schema"
GOLDEN_DIR = KIT_ROOT / "conformance" / "golden"


def read_json(path: Path):
    with path.open(encoding="utf-8") as f:
        return json.load(f)


def golden_lines():
    """Every line of the committed golden command sessions (W-9): {"request", "reply"}."""
    for path in sorted(GOLDEN_DIR.glob("session-*.jsonl")):
        with path.open(encoding="utf-8") as f:
            for n, text in enumerate(f, 1):
                if text.strip():
                    yield f"{path.name}:{n}", json.loads(text)
