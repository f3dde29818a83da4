#!/usr/bin/env python3
"""Step 4 of the implementer's path: the full profile ["janma", "samskara", "advaita", "ripa"],
which certifies all 19 invariants, J-1 … J-4, S-1 … S-5, AD-1 … AD-4 and I1 … I6 (D-049).

Everything of steps 1 to 3 (advaita.py, janma.py, samskara.py with store.py) stays as it is. This
step adds the ripa family to the same world: the continuity operations of spec/OPERATIONS.md OP-6
(continuity.py: restart, tasks, attempts, replies, pauses, effects, body evolution, identity
updates, surfaces, replicas, descent) and the migration of OP-7 (migration.py: fence, checkpoint,
validate, bind, rehydrate, resume, cancel). While a migration is in progress, the quiescence of
OP-0.4 (janma.quiescent, which steps 2 and 3 already call) refuses the guarded operations with I4.

``--families a,b`` declares a smaller profile, any non-empty subset of the four families (the
handlers of the others are left out, and the adapter answers their well-formed commands
UNSUPPORTED, W-5.2; advaita.mint stays, D-034). So every certifiable profile has a Python example.

From the kit's root:

    npx srk certify --impl "python3 adapters/python/examples/ripa.py"
    npx srk certify --impl "python3 adapters/python/examples/ripa.py --families advaita,ripa"
"""

from __future__ import annotations

import sys
from typing import Any, Callable

import advaita  # step 1; importing it also puts srk_adapter on sys.path
import continuity
import migration
import samskara  # step 3
from advaita import World

FAMILIES = ("janma", "samskara", "advaita", "ripa")  # in the order this program declares them


def handlers() -> dict[str, Callable[[World, Any], Any]]:
    """Step 3's table, and the ripa family."""
    return {**samskara.handlers(), **continuity.handlers(), **migration.handlers()}


if __name__ == "__main__":
    profile = samskara.families(sys.argv[1:], FAMILIES)
    raise SystemExit(advaita.run("python-example-ripa", profile, samskara.table_for(profile, handlers())))
