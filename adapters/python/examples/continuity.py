"""Step 4's continuity operations (ripa.py): spec/OPERATIONS.md OP-6, the RIPA family without migration.

Tasks (OP-6.2, OP-6.3), request attempts and their replies and pauses (OP-6.4, OP-6.5, OP-6.12),
effects under the authority epoch (OP-6.6), body evolution (OP-6.7), identity updates (OP-6.8),
surfaces and their labels (OP-6.9), replicas (OP-6.10), descent (OP-6.11) and restart (OP-6.1).
Each handler runs the checks of its clause in order (spec/CHECKS.md, each commented with its
number), the first failing one deciding the code (D-032), and only then changes the world.

Beside the view an agent keeps what only these checks read: ``used_tokens`` (step 1, D-026) and
``used_nonces``, every attempt nonce it ever published (OP-6.4.c3: a nonce is never published twice).
"""

from __future__ import annotations

import json
from typing import Any

from advaita import Command, Event, World, new_agent
from encoding import SPEC_DIR
from janma import J4, quiescent
from samskara import I2, extend_memory
from srk_adapter import Refusal

I1, I3, I4, I5, I6 = ("RIPA_IDENTITY_DISCONTINUOUS", "RIPA_BODY_MISMATCH", "RIPA_AUTHORITY_CONFLICT",
                      "RIPA_CAPABILITY_UNDECLARED", "RIPA_LABEL_OVERWRITES_IDENTITY")
AD1 = "ADVAITA_IDENTITY_NOT_SINGLE"

# TAB-2 (spec/tables.json, reserved_label_keys): label keys that would overwrite the identity (D-033).
RESERVED = frozenset(json.loads((SPEC_DIR / "tables.json").read_text("utf-8"))["reserved_label_keys"])


# -- shared checks ---------------------------------------------------------------------------------


def authorised(agent: dict[str, Any], authorization: dict[str, Any] | None) -> bool:
    """OP-0.5 (D-022): an authorisation is valid iff its custodian is one of the agent's custodians."""
    return authorization is not None and authorization["custodian"] in agent["ripa"]["custodians"]


def fresh_token(agent: dict[str, Any], token: str, code: str = I4) -> None:
    """D-026: a command that takes a new epoch with a token the agent used before is refused (I4)."""
    if token in agent["used_tokens"]:
        raise Refusal(code, f"the authority token {token} was used before by this agent", path=["token"])


def no_reserved_label(labels: dict[str, str]) -> None:
    """TAB-2 (D-033): no label key may be one that names the identity (I6)."""
    for key in labels:
        if key in RESERVED:
            raise Refusal(I6, f"the label key {key} is reserved for the identity", path=["labels", key])


def task_recorded(agent: dict[str, Any], command: Command) -> None:
    if command["task_id"] not in agent["substrate"]["memory"]["task_ids"]:
        raise Refusal(I2, f"no task {command['task_id']} is recorded", path=["task_id"])


def live_attempt(agent: dict[str, Any], task_id: str) -> str | None:
    return next((a["attempt_nonce"] for a in agent["ripa"]["live_attempts"] if a["task_id"] == task_id), None)


def set_attempt(agent: dict[str, Any], task_id: str, nonce: str | None) -> None:
    """The task's only live attempt becomes ``nonce`` (None: cleared); the list stays sorted by task id."""
    others = [a for a in agent["ripa"]["live_attempts"] if a["task_id"] != task_id]
    if nonce is not None:
        others.append({"task_id": task_id, "attempt_nonce": nonce})
    agent["ripa"]["live_attempts"] = sorted(others, key=lambda a: a["task_id"])


def new_epoch(agent: dict[str, Any], token: str, generation: int, holder: str | None) -> Event:
    """A new authority epoch: the token is used from now on (D-026)."""
    agent["ripa"]["authority"] = {"token": token, "generation": generation, "holder": holder}
    agent["used_tokens"] = [*agent["used_tokens"], token]
    return {"type": "epoch.advanced", "generation": generation, "holder": holder}


# -- OP-6.1 ripa.restart ---------------------------------------------------------------------------


def restart(world: World, command: Command) -> list[Event]:
    agent = world.begin(command)
    quiescent(agent)  # c1
    ripa = agent["ripa"]
    if command["execution_id"] != ripa["execution"]["execution_id"]:  # c2
        raise Refusal(I4, f"{command['execution_id']} is not the bound execution", path=["execution_id"])
    fresh_token(agent, command["token"])  # c3
    event = new_epoch(agent, command["token"], ripa["authority"]["generation"] + 1, command["execution_id"])
    world.commit(command["tick"])
    return [event]


# -- OP-6.2 … OP-6.5, OP-6.12: tasks and attempts ----------------------------------------------------


def task_start(world: World, command: Command) -> list[Event]:
    agent = world.begin(command)
    quiescent(agent)  # c1
    memory = agent["substrate"]["memory"]
    if command["task_id"] in memory["task_ids"]:  # c2
        raise Refusal("DUPLICATE_ID", f"task {command['task_id']} exists", path=["task_id"])
    memory["task_ids"] = [*memory["task_ids"], command["task_id"]]
    events: list[Event] = [{"type": "task.started", "task_id": command["task_id"]}, extend_memory(agent, "task_start")]
    world.commit(command["tick"])
    return events


def task_resume(world: World, command: Command) -> list[Event]:
    agent = world.begin(command)
    quiescent(agent)  # c1
    task_recorded(agent, command)  # c2
    world.commit(command["tick"])
    return [{"type": "task.resumed", "task_id": command["task_id"]}]


def request(world: World, command: Command) -> list[Event]:
    agent = world.begin(command)
    quiescent(agent)  # c1
    task_recorded(agent, command)  # c2
    nonce = command["attempt_nonce"]
    if nonce in agent.get("used_nonces", []):  # c3
        raise Refusal(I4, f"the attempt nonce {nonce} was used before", path=["attempt_nonce"])
    agent["used_nonces"] = [*agent.get("used_nonces", []), nonce]
    set_attempt(agent, command["task_id"], nonce)
    world.commit(command["tick"])
    return [{"type": "attempt.published", "task_id": command["task_id"], "attempt_nonce": nonce}]


def the_live_attempt(agent: dict[str, Any], command: Command) -> None:
    if live_attempt(agent, command["task_id"]) != command["attempt_nonce"]:
        raise Refusal(I4, f"{command['attempt_nonce']} is not the live attempt of task {command['task_id']} (stale or duplicate)",
                      path=["attempt_nonce"])


def reply(world: World, command: Command) -> list[Event]:
    agent = world.begin(command)
    task_recorded(agent, command)  # c1
    the_live_attempt(agent, command)  # c2
    set_attempt(agent, command["task_id"], None)
    world.commit(command["tick"])
    return [{"type": "reply.accepted", "task_id": command["task_id"], "attempt_nonce": command["attempt_nonce"]}]


def task_pause(world: World, command: Command) -> list[Event]:
    agent = world.begin(command)  # not refused while quiesced (OP-0.4, review G-53)
    task_recorded(agent, command)  # c1
    the_live_attempt(agent, command)  # c2
    set_attempt(agent, command["task_id"], None)  # the nonce stays used
    world.commit(command["tick"])
    return [{"type": "task.paused", "task_id": command["task_id"], "attempt_nonce": command["attempt_nonce"]}]


# -- OP-6.6 ripa.effect ----------------------------------------------------------------------------


def effect(world: World, command: Command) -> list[Event]:
    agent = world.begin(command)
    ripa = agent["ripa"]
    authority = ripa["authority"]
    if command["token"] != authority["token"] or command["execution_id"] != authority["holder"]:  # c1
        raise Refusal(I4, "the token is not the current one or the execution does not hold it", path=["token"])
    provider = next((p for p in ripa["providers"] if p["provider_id"] == command["provider_id"]), None)
    if provider is None:  # c2
        raise Refusal(I5, f"provider {command['provider_id']} is not bound", path=["provider_id"])
    if command["capability"] not in provider["capabilities"]:  # c3: fail closed, never substitute
        raise Refusal(I5, f"provider {command['provider_id']} does not grant {command['capability']}", path=["capability"])
    if command["effect_id"] in ripa["effects"]:  # c4: accepted as a no-op
        world.commit(command["tick"])
        return [{"type": "effect.duplicate", "effect_id": command["effect_id"]}]
    ripa["effects"] = sorted([*ripa["effects"], command["effect_id"]])
    world.commit(command["tick"])
    return [{"type": "effect.performed", "effect_id": command["effect_id"], "provider_id": command["provider_id"],
             "capability": command["capability"]}]


# -- OP-6.7 ripa.evolve, OP-6.8 ripa.identity_update -------------------------------------------------


def evolve(world: World, command: Command) -> list[Event]:
    agent = world.begin(command)
    quiescent(agent)  # c1
    if not authorised(agent, command["authorization"]):  # c2
        raise Refusal(I3, f"{command['authorization']['custodian']} is not a custodian of this agent", path=["authorization", "custodian"])
    body = agent["substrate"]["body"]
    if command["revision"] in body["lineage"]:  # c3
        raise Refusal(I3, f"revision {command['revision']} is already in the body lineage", path=["revision"])
    body.update(revision=command["revision"], lineage=[*body["lineage"], command["revision"]])
    world.commit(command["tick"])
    return [{"type": "body.evolved", "revision": command["revision"]}]


def identity_update(world: World, command: Command) -> list[Event]:
    agent = world.begin(command)
    quiescent(agent)  # c1
    if not authorised(agent, command["authorization"]):  # c2
        raise Refusal(I1, f"{command['authorization']['custodian']} is not a custodian of this agent", path=["authorization", "custodian"])
    record = agent["substrate"]["identity"]
    record.update(designation=command["designation"], identity_version=record["identity_version"] + 1)
    world.commit(command["tick"])
    return [{"type": "identity.updated", "identity_version": record["identity_version"]}]


# -- OP-6.9 ripa.bind_surface, OP-6.10 ripa.replicate ------------------------------------------------


def bind_surface(world: World, command: Command) -> list[Event]:
    agent = world.begin(command)  # surface binding stays allowed while quiesced (OP-0.4)
    no_reserved_label(command["labels"])  # c1
    sid = command["surface"]["surface_id"]
    ripa = agent["ripa"]
    kept = [s for s in ripa["surfaces"] if s["surface"]["surface_id"] != sid]  # a replaced surface's labels go with it (G-40)
    ripa["surfaces"] = sorted([*kept, {"surface": command["surface"], "labels": command["labels"]}], key=lambda s: s["surface"]["surface_id"])
    world.commit(command["tick"])
    return [{"type": "surface.bound", "surface_id": sid}]


def replicate(world: World, command: Command) -> list[Event]:
    agent = world.begin(command)
    quiescent(agent)  # c1
    ripa = agent["ripa"]
    eid = command["execution"]["execution_id"]
    if eid == ripa["execution"]["execution_id"] or any(r["execution_id"] == eid for r in ripa["replicas"]):  # c2
        raise Refusal("DUPLICATE_ID", f"execution {eid} is already bound or a replica", path=["execution", "execution_id"])
    ripa["replicas"] = sorted([*ripa["replicas"], command["execution"]], key=lambda r: r["execution_id"])  # holding no authority
    world.commit(command["tick"])
    return [{"type": "replica.created", "execution_id": eid}]


# -- OP-6.11 ripa.descend --------------------------------------------------------------------------


def descend(world: World, command: Command) -> list[Event]:
    parent = world.begin(command)
    quiescent(parent)  # c1
    store = parent["store"]
    if store["head"] in store["quarantined"]:  # c2
        raise Refusal(J4, "the store head is quarantined", path=["agent"])
    if command["root"] in world.state["roots_used"]:  # c3
        raise Refusal(AD1, f"root {command['root']} was already used", path=["root"])
    ripa = parent["ripa"]
    # OP-5.1 with the parent's base digest, body revision, custodians, providers and required
    # capabilities; lineage [parent's revision], no surfaces, no replicas, its own used tokens (G-35).
    child = new_agent(parent["identity"]["base_digest"], command["root"], command["designation"],
                      parent["substrate"]["body"]["revision"], ripa["custodians"], command["execution"], ripa["providers"],
                      ripa["required_capabilities"], command["authority_token"])
    identity = child["identity"]["identity"]
    world.state["agents"][identity] = child
    world.state["roots_used"] = sorted([*world.state["roots_used"], command["root"]])
    world.commit(command["tick"])
    return [
        {"type": "agent.minted", "identity": identity, "genesis": child["identity"]["lineage_root"]},
        {"type": "epoch.advanced", "generation": 1, "holder": command["execution"]["execution_id"]},
        {"type": "agent.descended", "parent": parent["identity"]["identity"], "child": identity},
    ]


def handlers() -> dict[str, Any]:
    return {
        "ripa.restart": restart,
        "ripa.task_start": task_start,
        "ripa.task_resume": task_resume,
        "ripa.request": request,
        "ripa.reply": reply,
        "ripa.task_pause": task_pause,
        "ripa.effect": effect,
        "ripa.evolve": evolve,
        "ripa.identity_update": identity_update,
        "ripa.bind_surface": bind_surface,
        "ripa.replicate": replicate,
        "ripa.descend": descend,
    }
