#!/usr/bin/env python3
"""Step 1 of the implementer's path: the profile ["advaita"], which certifies AD-1 (D-049).

It implements the advaita family's two operations, `advaita.mint` (OP-5.1) and
`advaita.project_write` (OP-4.4), and the eleven queries of W-6 over a world of minted agents, with
the world view of spec/json-schema/WorldView.schema.json; the adapter (srk_adapter) does the whole
wire. Every accepted command is one atomic durable write (durable.py, W-7), and the crash hook is
offered (W-7.3). A projection is a janma instance, so without janma `advaita.project_write` can only
be refused NOT_FOUND (OP-4.4.c1): the runner still sends it (its family is declared), and AD-2 is
reported not applicable (D-049).

From the kit's root:

    npx srk certify --impl "python3 adapters/python/examples/advaita.py"

Step 2 (janma.py) imports this module and adds the janma family to the same world.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, Callable

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # adapters/python, where srk_adapter is

from srk_adapter import Refusal, data_dir, serve  # noqa: E402

from durable import SnapshotFile  # noqa: E402
from encoding import EMPTY_STATE_DIGEST, digest_of, genesis_version_of, identity_of  # noqa: E402

Command = dict[str, Any]
Event = dict[str, Any]


def empty_world() -> dict[str, Any]:
    """OP-0.1 and W-2.4: tick 0, no agents, no roots. Agents are keyed by identity digest."""
    return {"tick": 0, "roots_used": [], "agents": {}}


class World:
    """The state, its durable copy, and the common checks of OP-0.2 and OP-0.3.

    A handler first runs every check (each failing one raises a Refusal and changes nothing), then
    changes ``self.state`` and calls ``commit``: so a rejection leaves the state, the tick included,
    unchanged (OP-0.3), and an accepted command is exactly one durable write (W-7.1)."""

    def __init__(self, file: SnapshotFile) -> None:
        self.file = file
        self.state: dict[str, Any] = file.load() or empty_world()  # recovered before serve answers hello
        self._committed = json.dumps(self.state)

    # -- OP-0.2 steps 2 and 3, OP-0.3 -------------------------------------------------------------

    def check_tick(self, command: Command) -> None:
        if command["tick"] < self.state["tick"]:
            raise Refusal("TICK_REGRESSED", f"tick {command['tick']} is before the world tick {self.state['tick']}", path=["tick"])

    def agent(self, identity: str, path: list[str | int]) -> dict[str, Any]:
        found = self.state["agents"].get(identity)
        if found is None:
            raise Refusal("NOT_FOUND", f"no agent {identity}", path=path)
        return found

    def begin(self, command: Command) -> dict[str, Any]:
        """The common checks of a command that names an agent: its tick, then the agent (OP-0.2)."""
        self.check_tick(command)
        return self.agent(command["agent"], ["agent"])

    def commit(self, tick: int) -> None:
        """Accept: the world tick becomes the command's (OP-0.3), then one durable write (W-7.1).

        If the write fails the in-memory state goes back to the last committed one, and the adapter
        answers an indefinite INTERNAL (the write may or may not have reached the disk, W-3.4)."""
        self.state["tick"] = tick
        text = json.dumps(self.state, ensure_ascii=False, separators=(",", ":"))
        try:
            self.file.save(text)
        except BaseException:
            self.state = json.loads(self._committed)
            raise
        self._committed = text

    def reset(self) -> None:
        """W-2.4: the empty world, as one durable write."""
        self.state = empty_world()
        self.commit(0)


# -- OP-5.1 advaita.mint ---------------------------------------------------------------------------


def provider_set(providers: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """OP-5.2: providers sorted by id, each grant's capabilities a set (sorted, each once)."""
    grants = [{**p, "capabilities": sorted(set(p["capabilities"]))} for p in providers]
    return sorted(grants, key=lambda p: p["provider_id"])


def first_duplicate(values: list[str]) -> int | None:
    """The index of the first value that occurs earlier in the list, or None."""
    seen: set[str] = set()
    for n, v in enumerate(values):
        if v in seen:
            return n
        seen.add(v)
    return None


def new_agent(base_digest: str, root: str, designation: str, body_revision: str, custodians: list[str],
              execution: dict[str, Any], providers: list[dict[str, Any]], required_capabilities: list[str],
              authority_token: str) -> dict[str, Any]:
    """A freshly installed agent (OP-5.1 effects): genesis and identity by OP-1.4 and OP-1.5.

    The record is the agent's WorldView entry, except that instances and obligations are kept by id
    (their views are rendered sorted, TAB-5) and the tokens the agent has used are kept aside: they
    are not in the view, and only ripa operations read them (OP-6, D-026)."""
    genesis = genesis_version_of(base_digest, root)
    identity = identity_of(base_digest, genesis)
    install = digest_of("memorySnapshot", {"prev": None, "cause": "install", "store_head": genesis, "task_ids": []})
    return {
        "identity": {"identity": identity, "base_digest": base_digest, "lineage_root": genesis, "root": root},
        "substrate": {
            "identity": {"identity": identity, "designation": designation, "identity_version": 1},
            "memory": {"ancestry": [install], "store_head": genesis, "task_ids": []},
            "body": {"revision": body_revision, "lineage": [body_revision]},
        },
        "store": {
            "head": genesis,
            "chain": [{"version_id": genesis, "seq": 0, "parent": None, "batch_digest": None, "state_digest": EMPTY_STATE_DIGEST}],
            "batches": [],
            "state": {"entries": []},
            "distillates": [],
            "excisions": [],
            "quarantined": [],
            "momentum": [],
        },
        "instances": {},
        "obligations": {},
        "ripa": {
            "custodians": sorted(set(custodians)),
            "execution": execution,
            "replicas": [],
            "surfaces": [],
            "providers": provider_set(providers),
            "required_capabilities": sorted(set(required_capabilities)),
            "authority": {"token": authority_token, "generation": 1, "holder": execution["execution_id"]},
            "live_attempts": [],
            "effects": [],
            "fences": [],
            "marker": None,
            "migration": None,
            "reports": [],
        },
        "used_tokens": [authority_token],
    }


def mint(world: World, command: Command) -> list[Event]:
    world.check_tick(command)  # OP-0.2: mint names no agent
    if command["root"] in world.state["roots_used"]:  # OP-5.1.c1
        raise Refusal("ADVAITA_IDENTITY_NOT_SINGLE", f"root {command['root']} was already used", path=["root"])
    dup = first_duplicate([p["provider_id"] for p in command["providers"]])  # OP-5.1.c2
    if dup is not None:
        raise Refusal("DUPLICATE_ID", f"provider {command['providers'][dup]['provider_id']} is listed twice", path=["providers", dup, "provider_id"])
    agent = new_agent(command["base_digest"], command["root"], command["designation"], command["body_revision"],
                      command["custodians"], command["execution"], command["providers"], command["required_capabilities"],
                      command["authority_token"])
    identity = agent["identity"]["identity"]
    world.state["agents"][identity] = agent
    world.state["roots_used"] = sorted([*world.state["roots_used"], command["root"]])
    world.commit(command["tick"])
    return [
        {"type": "agent.minted", "identity": identity, "genesis": agent["identity"]["lineage_root"]},
        {"type": "epoch.advanced", "generation": 1, "holder": command["execution"]["execution_id"]},
    ]


# -- OP-4.4 advaita.project_write --------------------------------------------------------------------


def project_write(world: World, command: Command) -> list[Event]:
    agent = world.begin(command)
    if command["instance_id"] not in agent["instances"]:  # OP-4.4.c1
        raise Refusal("NOT_FOUND", f"no instance {command['instance_id']}", path=["instance_id"])
    # OP-4.4.c2 (D-020): a projection never writes the store; its one path there is its distillate.
    raise Refusal("ADVAITA_PROJECTION_STATEFUL", "a projection cannot write the store (AD-2)", path=["disposition"])


# -- W-6 queries: each result is a slice of the world view ------------------------------------------


def instance_view(record: dict[str, Any]) -> dict[str, Any]:
    """What the world shows of an instance (InstanceView). Step 1 has none; step 2 stores them."""
    return record["view"]


def obligation_view(record: dict[str, Any]) -> dict[str, Any]:
    """What the world shows of an obligation (DistillationObligation). Step 1 has none."""
    return record["view"]


def agent_view(agent: dict[str, Any]) -> dict[str, Any]:
    return {
        "identity": agent["identity"],
        "substrate": agent["substrate"],
        "store": agent["store"],
        "instances": [instance_view(agent["instances"][k]) for k in sorted(agent["instances"])],
        "obligations": [obligation_view(agent["obligations"][k]) for k in sorted(agent["obligations"])],
        "ripa": agent["ripa"],
    }


def world_view(world: World) -> dict[str, Any]:
    agents = world.state["agents"]
    return {
        "tick": world.state["tick"],
        "roots_used": world.state["roots_used"],
        "agents": [agent_view(agents[k]) for k in sorted(agents)],
    }


def instance_state(agent: dict[str, Any], instance_id: str) -> dict[str, Any]:
    found = agent["instances"].get(instance_id)
    return {"instance_id": instance_id, "state": "avyakrta" if found is None else instance_view(found)["state"]}  # D-017


def _slice(*fields: str) -> Callable[[dict[str, Any]], dict[str, Any]]:
    return lambda view: {f: view["ripa"][f] for f in fields}


# The result of each query that names an agent, as a function of that agent's view (W-6).
SLICES: dict[str, Callable[[dict[str, Any]], Any]] = {
    "agent": lambda view: view,
    "store": lambda view: view["store"],
    "lineage": lambda view: {
        "identity": view["identity"]["identity"],
        "genesis": view["identity"]["lineage_root"],
        **{f: view["store"][f] for f in ("head", "chain", "batches", "excisions")},
    },
    "instances": lambda view: view["instances"],
    "obligations": lambda view: view["obligations"],
    "identity": lambda view: {
        "identity": view["identity"],
        "record": view["substrate"]["identity"],
        "record_digest": digest_of("identityRecord", view["substrate"]["identity"]),  # OP-1.11
    },
    "substrate": lambda view: view["substrate"],
    "authority": _slice("authority", "execution", "replicas"),
    "migration": _slice("fences", "marker", "migration", "reports"),
}


def query(world: World, q: dict[str, Any]) -> Any:
    """Every W-6 query. The adapter has checked the Query schema; an unknown agent is NOT_FOUND."""
    if q["name"] == "world":
        return world_view(world)
    agent = world.agent(q["agent"], ["query", "agent"])
    if q["name"] == "instance_state":
        return instance_state(agent, q["instance_id"])
    return SLICES[q["name"]](agent_view(agent))


QUERY_NAMES = ("world", "instance_state", *SLICES)


def handlers() -> dict[str, Callable[[World, Any], Any]]:
    """The handler table of step 1: the advaita family's operations and every query."""
    return {"advaita.mint": mint, "advaita.project_write": project_write, **{name: query for name in QUERY_NAMES}}


def run(name: str, profile: list[str], table: dict[str, Callable[[World, Any], Any]]) -> int:
    """Recover the state from the data directory, then serve the runner (shared with step 2)."""
    world = World(SnapshotFile(data_dir()))
    return serve(
        name=name, version="0.1.0", profile=profile, handlers=table, state=world,
        reset=lambda w: w.reset(),
        crash_after=lambda w, writes, at: w.file.arm(writes, at),
    )


if __name__ == "__main__":
    raise SystemExit(run("python-example-advaita", ["advaita"], handlers()))
