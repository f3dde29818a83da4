#!/usr/bin/env python3
"""The adapter with an empty handler table: the empty profile (no family, no crash hook).

The adapter answers everything itself: the handshake, every hostile line, commands (MALFORMED or
UNSUPPORTED), queries over the empty world, reset and shutdown. ``srk certify`` passes its
handshake and wire stages and ends inconclusive (exit 2), since an empty profile certifies no
invariant (D-036). From the kit's root:

    npx srk certify --impl "python3 adapters/python/examples/empty.py"
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # adapters/python, where srk_adapter is

from srk_adapter import serve  # noqa: E402

raise SystemExit(serve(name="python-adapter-empty", version="0.1.0", profile=[], handlers={}))
