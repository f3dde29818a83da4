#!/usr/bin/env python3
"""Step 3 of the implementer's path: the profile ["janma", "samskara", "advaita"], which certifies
J-1 … J-4, S-1 … S-5 and AD-1 … AD-4 (D-049).

Everything of steps 1 and 2 (advaita.py, janma.py) stays as it is. This step adds the samskara
family to the same world: the store algebra of spec/OPERATIONS.md OP-1 (in store.py: distillate
digest, aggregation, state digest, genesis, merge step, replay, excision, karmic momentum) and the
operations of OP-4: `samskara.merge` (OP-4.1), `samskara.excise` (OP-4.2) and `samskara.replay`
(OP-4.3); `advaita.project_write` (OP-4.4) is step 1's. Each handler runs the checks of its clause
in order (spec/CHECKS.md, each commented with its number), the first failing one deciding the code
(D-032), and only then changes the world.

A merged distillate's content is kept beside the agent's view (``retained``, by distillate id): the
view shows only its id and digest, but replay and excision aggregate the content again. An excision
deletes it, and since the state file is rewritten whole (durable.py) no byte of it stays on disk
(W-7.2).

``--families a,b`` declares a smaller profile, a non-empty subset of janma, samskara and advaita:
the handlers of the other families are left out of the table, and the adapter refuses their
well-formed commands with UNSUPPORTED (W-5.2; advaita.mint stays, D-034). So every certifiable
profile without ripa has a Python example: ``--families janma``, ``--families janma,samskara``…

From the kit's root:

    npx srk certify --impl "python3 adapters/python/examples/samskara.py"
    npx srk certify --impl "python3 adapters/python/examples/samskara.py --families janma,samskara"
"""

from __future__ import annotations

import sys
from typing import Any, Callable

import advaita  # step 1; importing it also puts srk_adapter on sys.path
import janma  # step 2
from advaita import Command, Event, World
from encoding import digest_of
from janma import J4, discharge, quiescent
from srk_adapter import Refusal
from store import derive, distillate_digest, merge_step, momentum

FAMILIES = ("janma", "samskara", "advaita")  # this program's families, in the order it declares them
I2, S4 = "RIPA_MEMORY_ANCESTRY_BROKEN", "SAMSKARA_REPLAY_DIVERGED"


# -- the agent's store ------------------------------------------------------------------------------


def retained(agent: dict[str, Any]) -> dict[str, Any]:
    """The content of every distillate the store retains, by id (not in the view; see the docstring)."""
    return agent.get("retained", {})


def extend_memory(agent: dict[str, Any], cause: str) -> Event:
    """OP-1.10 (D-024): append a snapshot of the new store head to the memory ancestry."""
    memory, head = agent["substrate"]["memory"], agent["store"]["head"]
    snapshot = digest_of("memorySnapshot", {"prev": memory["ancestry"][-1], "cause": cause, "store_head": head, "task_ids": memory["task_ids"]})
    memory["ancestry"].append(snapshot)
    memory["store_head"] = head
    return {"type": "memory.extended", "snapshot": snapshot}


def recorded_batches(agent: dict[str, Any], leave_out: set[str] = frozenset()) -> list[list[dict[str, Any]]]:
    """The recorded batches' distillates in chain order, without those of ``leave_out`` (OP-1.7, OP-1.8)."""
    content = retained(agent)
    return [[content[m["distillate_id"]] for m in b["members"] if m["distillate_id"] not in leave_out] for b in agent["store"]["batches"]]


# -- OP-4.1 samskara.merge --------------------------------------------------------------------------


def merge(world: World, command: Command) -> list[Event]:
    agent = world.begin(command)
    quiescent(agent)  # c1
    listed = command["obligation_ids"]
    ids = list(dict.fromkeys(listed))  # de-duplicated first, in the order listed
    records = []
    for oid in ids:  # c2: every one is looked up before any J-4 check (review G-23)
        found = agent["obligations"].get(oid)
        if found is None:
            raise Refusal("NOT_FOUND", f"no obligation {oid}", path=["obligation_ids", listed.index(oid)])
        records.append(found)
    for record in records:
        ob = record["view"]
        if ob["status"] == "discharged" and ob["outcome"] != "applied":  # c3
            raise Refusal(J4, f"obligation {ob['obligation_id']} was discharged {ob['outcome']}", path=["obligation_ids", listed.index(ob["obligation_id"])])
        if ob["status"] == "pending" and command["tick"] >= ob["deadline_tick"]:  # c4, strict: at the deadline only custody.expire acts (D-060)
            raise Refusal(J4, f"obligation {ob['obligation_id']} reached its deadline, tick {ob['deadline_tick']}", path=["obligation_ids", listed.index(ob["obligation_id"])])

    pending = sorted((r for r in records if r["view"]["status"] == "pending"), key=lambda r: r["view"]["obligation_id"])
    if not pending:  # every one is already applied: a no-op (D-008)
        world.commit(command["tick"])
        return [{"type": "store.merge_noop", "obligation_ids": sorted(ids)}]

    store, content = agent["store"], dict(retained(agent))
    batch = [r["distillate"] for r in pending]
    version, record, state = merge_step(store["chain"][-1], list(content.values()), batch)
    store["momentum"].append(momentum(store["state"], state))
    store["chain"].append(version)
    store["batches"].append(record)
    store.update(head=version["version_id"], state=state)
    for d in batch:
        content[d["distillate_id"]] = d
    agent["retained"] = content
    store["distillates"] = sorted(({"distillate_id": i, "digest": distillate_digest(d)} for i, d in content.items()), key=lambda m: m["distillate_id"])
    events: list[Event] = [{"type": "store.merged", "version_id": version["version_id"], "batch_digest": record["batch_digest"],
                            "added": sorted(d["distillate_id"] for d in batch)}]
    for r in pending:  # sorted by obligation id; discharging drops the held distillate, now in the store
        events += discharge(agent, r, "applied", fail_safe=False)
    events.append(extend_memory(agent, "merge"))
    world.commit(command["tick"])
    return events


# -- OP-4.2 samskara.excise -------------------------------------------------------------------------


def excise(world: World, command: Command) -> list[Event]:
    agent = world.begin(command)
    quiescent(agent)  # c1
    store = agent["store"]
    if command["excision_id"] in [x["excision_id"] for x in store["excisions"]]:  # c2
        raise Refusal("DUPLICATE_ID", f"excision {command['excision_id']} exists", path=["excision_id"])
    if command["authorization"]["custodian"] not in agent["ripa"]["custodians"]:  # c3 (OP-0.5, D-022)
        raise Refusal(I2, f"{command['authorization']['custodian']} is not a custodian of this agent", path=["authorization", "custodian"])
    listed = command["distillate_ids"]
    ids = list(dict.fromkeys(listed))
    content = retained(agent)
    for i in ids:  # c4
        if i not in content:
            raise Refusal("NOT_FOUND", f"the store retains no distillate {i}", path=["distillate_ids", listed.index(i)])

    gone = set(ids)
    lineage = derive(store["chain"][0], recorded_batches(agent, leave_out=gone))  # OP-1.8
    prior = store["head"]
    excised = sorted(({"distillate_id": i, "digest": distillate_digest(content[i])} for i in ids), key=lambda m: m["digest"])
    agent["retained"] = {i: d for i, d in content.items() if i not in gone}  # the content is deleted
    store.update(
        head=lineage["chain"][-1]["version_id"], chain=lineage["chain"], batches=lineage["batches"], state=lineage["state"],
        momentum=lineage["momentum"],
        distillates=[m for m in store["distillates"] if m["distillate_id"] not in gone],
    )
    store["excisions"].append({"excision_id": command["excision_id"], "tick": command["tick"], "excised": excised,
                               "prior_head": prior, "new_head": store["head"], "authorization": command["authorization"]})
    events: list[Event] = [{"type": "store.excised", "excision_id": command["excision_id"], "new_head": store["head"]}]
    events.append(extend_memory(agent, "excise"))
    world.commit(command["tick"])
    return events


# -- OP-4.3 samskara.replay -------------------------------------------------------------------------


def replay(world: World, command: Command) -> list[Event]:
    agent = world.begin(command)
    store = agent["store"]
    lineage = derive(store["chain"][0], recorded_batches(agent))  # OP-1.7
    if lineage["chain"] != store["chain"]:  # c1
        raise Refusal(S4, "replaying the recorded batches from genesis does not reproduce the chain")
    claim = {
        "claim_type": "samskara.lineage_replay/v1",
        "identity": agent["identity"]["identity"],
        "genesis": agent["identity"]["lineage_root"],
        "head": store["head"],
        "versions": len(store["chain"]),
        "batch_digests": [b["batch_digest"] for b in store["batches"]],
        "state_digest": store["chain"][-1]["state_digest"],
        "excisions": len(store["excisions"]),
    }
    world.commit(command["tick"])  # only the tick changes
    return [{"type": "lineage.replayed", "claim": claim}]


# -- the handler table and the profile -------------------------------------------------------------


def handlers() -> dict[str, Callable[[World, Any], Any]]:
    """Step 2's table, and the samskara family."""
    return {**janma.handlers(), "samskara.merge": merge, "samskara.excise": excise, "samskara.replay": replay}


def families(argv: list[str], allowed: tuple[str, ...] = FAMILIES) -> list[str]:
    """The profile: ``--families a,b`` (or ``--families=a,b``), a non-empty subset of ``allowed``
    (this program's FAMILIES; step 4 passes its own); all of them by default."""
    given = None
    for n, arg in enumerate(argv):
        if arg == "--families":
            if n + 1 >= len(argv):
                raise SystemExit("--families needs a list, e.g. --families janma,samskara")
            given = argv[n + 1]
        elif arg.startswith("--families="):
            given = arg[len("--families="):]
    if given is None:
        return list(allowed)
    chosen = [f for f in given.split(",") if f]
    unknown = [f for f in chosen if f not in allowed]
    if not chosen or unknown:
        raise SystemExit(f"--families {given!r}: a non-empty subset of {','.join(allowed)}")
    return [f for f in allowed if f in chosen]


def table_for(profile: list[str], table: dict[str, Callable[[World, Any], Any]] | None = None) -> dict[str, Callable[[World, Any], Any]]:
    """The handlers of ``table`` (this step's, by default) the runner may send to ``profile``: its
    families' operations, advaita.mint (D-034) and the queries. Any other operation is answered
    UNSUPPORTED by the adapter."""
    family = janma.SPEC.operations  # TAB-4: operation -> family
    return {k: v for k, v in (table or handlers()).items() if k not in family or k == "advaita.mint" or family[k] in profile}


if __name__ == "__main__":
    profile = families(sys.argv[1:])
    raise SystemExit(advaita.run("python-example-samskara", profile, table_for(profile)))
