"""What the adapter reads from the kit's spec/ folder: the JSON Schemas and the tables.

Nothing normative is copied into this package: the operations and their families (TAB-4), the error
codes with their invariant and definiteness (TAB-3), the query names (W-6) and every schema are read
from the spec's machine-readable files, so the adapter follows the spec of the kit it sits in.

Where spec/ is, first found wins: the ``spec_dir`` argument; the ``SRK_SPEC_DIR`` environment
variable; the kit this file sits in (``adapters/python/srk_adapter`` → ``spec``); the kit installed
as an npm package under the working directory (``node_modules/samsara-ripa-kit/spec``).
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .schema import Schemas


@dataclass(frozen=True)
class ErrorCode:
    code: str
    kind: str  # "operation" or "wire"
    invariant: str | None
    definite: bool


def find_spec_dir(spec_dir: str | os.PathLike[str] | None = None) -> Path:
    """The spec folder to read (see the module's docstring); a ``FileNotFoundError`` naming every place tried."""
    tried: list[Path] = []
    candidates: list[Path] = []
    if spec_dir is not None:
        candidates.append(Path(spec_dir))
    elif os.environ.get("SRK_SPEC_DIR"):
        candidates.append(Path(os.environ["SRK_SPEC_DIR"]))
    else:
        candidates.append(Path(__file__).resolve().parents[3] / "spec")
        candidates.append(Path.cwd() / "node_modules" / "samsara-ripa-kit" / "spec")
    for c in candidates:
        if (c / "tables.json").is_file() and (c / "json-schema").is_dir():
            return c
        tried.append(c)
    raise FileNotFoundError(
        "the kit's spec folder (tables.json and json-schema/) was not found; tried "
        + ", ".join(str(t) for t in tried)
        + ". Pass spec_dir= to serve() or set SRK_SPEC_DIR."
    )


class Spec:
    """The tables and schemas of one spec folder."""

    def __init__(self, spec_dir: str | os.PathLike[str] | None = None) -> None:
        self.directory = find_spec_dir(spec_dir)
        with open(self.directory / "tables.json", encoding="utf-8") as f:
            tables: dict[str, Any] = json.load(f)
        #: TAB-4: every operation and the family it belongs to (custody.* is janma's, D-034).
        self.operations: dict[str, str] = {row["op"]: row["family"] for row in tables["operations"]}
        #: The protocol families, in the table's order of first appearance.
        self.families: tuple[str, ...] = tuple(dict.fromkeys(self.operations.values()))
        #: TAB-3: every error code.
        self.error_codes: dict[str, ErrorCode] = {
            row["code"]: ErrorCode(row["code"], row["kind"], row["invariant"], row["definite"]) for row in tables["error_codes"]
        }
        self.schemas = Schemas(self.directory / "json-schema")
        query = self.schemas.document("Query")
        #: W-6: every query name, in the schema's order.
        self.query_names: tuple[str, ...] = tuple(
            query.defs[branch["$ref"].split("/")[-1]]["properties"]["name"]["const"] for branch in query.defs["Query"]["oneOf"]
        )
