#!/usr/bin/env python3
"""Step 2 of the implementer's path: the profile ["janma", "advaita"], which certifies J-1 … J-4,
AD-1, AD-2 and AD-4 (D-049; AD-3 needs samskara).

Everything of step 1 (advaita.py) stays as it is: the world, its durable write, `advaita.mint`, the
queries, and `advaita.project_write`, which now meets instances and so reaches its AD-2 refusal.
This step adds the janma family to the same world: the lifecycle of an instance (conceive, birth,
act, acquire, expire, withdraw, distil, dissolve; OP-2) and the custody of its distillation
obligation (custody.attempt, custody.expire; OP-3). Each handler runs the checks of its clause in
spec/OPERATIONS.md (the table in spec/CHECKS.md) in order, the first failing one deciding the code
(D-032), and only then changes the world. The rules themselves are in janma_rules.py.

An instance is kept as its InstanceView (``view``, what the world shows) beside what the view does
not show: its manifest and its trace, which distillation destroys (S-1, W-7.2). An obligation is kept
as its DistillationObligation beside the distillate it carries until discharged.

From the kit's root:

    npx srk certify --impl "python3 adapters/python/examples/janma.py"
"""

from __future__ import annotations

from typing import Any

import advaita  # step 1; importing it also puts srk_adapter on sys.path
from advaita import Command, Event, World
from encoding import digest_of
from janma_rules import Leakage, covers, grantable, holds, may_persist, signal_refusal, tool_offered, weight_valid
from srk_adapter import Refusal, Spec

SPEC = Spec()  # for the distillate's own schema, which janma.distil applies itself (OP-2.7.c4)
LEAKAGE = Leakage()

# The rejection codes of TAB-3 this step raises, by invariant.
J1, J2, J3, J4 = "JANMA_INCOMPLETE_AT_BIRTH", "JANMA_CAPABILITY_OUT_OF_SCOPE", "JANMA_LIFETIME_EXCEEDED", "JANMA_DISTILLATION_OBLIGATION"
S1, S2 = "SAMSKARA_NON_DISPOSITIONAL", "SAMSKARA_WEIGHT_NOT_PRINCIPAL_SIGNED"
AD2, AD3, AD4 = "ADVAITA_PROJECTION_STATEFUL", "ADVAITA_RECONCILIATION_DIVERGED", "ADVAITA_ATTRIBUTION_LOST"
I4 = "RIPA_AUTHORITY_CONFLICT"


# -- common checks ---------------------------------------------------------------------------------


def quiescent(agent: dict[str, Any]) -> None:
    """OP-0.4: no conception, birth or act while a migration is in progress (I4). Only ripa starts a
    migration, so without ripa this never refuses; it stays so the check order is the clause's."""
    if agent["ripa"]["migration"] is not None:
        raise Refusal(I4, "a migration is in progress (OP-0.4)")


def instance(agent: dict[str, Any], command: Command) -> dict[str, Any]:
    found = agent["instances"].get(command["instance_id"])
    if found is None:
        raise Refusal("NOT_FOUND", f"no instance {command['instance_id']}", path=["instance_id"])
    return found


def obligation(agent: dict[str, Any], command: Command) -> dict[str, Any]:
    found = agent["obligations"].get(command["obligation_id"])
    if found is None:
        raise Refusal("NOT_FOUND", f"no obligation {command['obligation_id']}", path=["obligation_id"])
    return found


def withdraw(view: dict[str, Any], reason: dict[str, Any], tick: int) -> Event:
    view.update(state="withdrawn", withdrawal=reason, withdrawn_tick=tick)
    return {"type": "instance.withdrawn", "instance_id": view["instance_id"], "reason": reason}


# -- OP-2.1 janma.conceive --------------------------------------------------------------------------


def conceive(world: World, command: Command) -> list[Event]:
    agent = world.begin(command)
    quiescent(agent)  # c1
    manifest = command["manifest"]
    if command["instance_id"] in agent["instances"]:  # c2
        raise Refusal("DUPLICATE_ID", f"instance {command['instance_id']} exists", path=["instance_id"])
    if any(i["view"]["nonce"] == command["nonce"] for i in agent["instances"].values()):  # c3
        raise Refusal(AD2, f"nonce {command['nonce']} was already used by an instance of this agent", path=["nonce"])
    if manifest["substrate"]["base_digest"] != agent["identity"]["base_digest"]:  # c4
        raise Refusal(J1, "the manifest's base digest is not the agent's", path=["manifest", "substrate", "base_digest"])
    pin = manifest["substrate"]["store_version"]
    if pin in agent["store"]["quarantined"]:  # c5
        raise Refusal(J4, f"the pinned version {pin} is quarantined", path=["manifest", "substrate", "store_version"])
    agent["instances"][command["instance_id"]] = {
        "view": {
            "instance_id": command["instance_id"],
            "nonce": command["nonce"],
            "manifest_digest": digest_of("manifest", manifest),
            "state": "conceived",
            "born_from": pin,
            "born_tick": None,
            "acts": 0,
            "failures": 0,
            "consecutive_failures": 0,
            "tools_used": [],
            "trace_entries": 0,
            "grants": [],
            "tools": [],
            "withdrawal": None,
            "withdrawn_tick": None,
            "obligation_id": None,
        },
        "manifest": manifest,
        "trace": [],
    }
    world.commit(command["tick"])
    return [{"type": "instance.conceived", "instance_id": command["instance_id"]}]


# -- OP-2.2 janma.birth -----------------------------------------------------------------------------


def birth(world: World, command: Command) -> list[Event]:
    agent = world.begin(command)
    quiescent(agent)  # c1
    record = instance(agent, command)  # c2
    view, manifest, env = record["view"], record["manifest"], command["environment"]
    if view["state"] != "conceived":  # c3
        raise Refusal(J1, f"the instance is {view['state']}, not conceived")
    if view["born_from"] not in [v["version_id"] for v in agent["store"]["chain"]]:  # c4
        raise Refusal(J1, "the pinned version is not in the agent's chain", path=["instance_id"])
    if view["born_from"] in agent["store"]["quarantined"]:  # c5
        raise Refusal(J1, "the pinned version is quarantined", path=["instance_id"])
    for binding in manifest["tool_bindings"]:  # c6
        if not tool_offered(binding, env["tools"]):
            raise Refusal(J1, f"tool {binding['tool']} is not offered with all of its bound capabilities", path=["environment", "tools"])
    for grant in manifest["capability_grants"]:  # c7
        if not grantable(grant, env["grantable"]):
            raise Refusal(J1, f"grant {grant} is not grantable here", path=["environment", "grantable"])
    view.update(
        state="ready",
        born_tick=command["tick"],
        tools=sorted(b["tool"] for b in manifest["tool_bindings"]),
        grants=sorted(set(manifest["capability_grants"])),
    )
    world.commit(command["tick"])
    return [{"type": "instance.born", "instance_id": command["instance_id"]}]


# -- OP-2.3 janma.act -------------------------------------------------------------------------------


def signature_valid(agent: dict[str, Any], view: dict[str, Any], signed: dict[str, Any], tick: int) -> bool:
    """D-021: the act is bound to this projection, and its signature recomputes."""
    preimage = {k: signed[k] for k in ("identity", "nonce", "manifest_digest", "action")}
    return (
        signed["identity"] == agent["identity"]["identity"]
        and signed["nonce"] == view["nonce"]
        and signed["manifest_digest"] == view["manifest_digest"]
        and signed["action"]["tick"] == tick
        and signed["signature"] == digest_of("action", preimage)
    )


def in_scope(view: dict[str, Any], manifest: dict[str, Any], action: dict[str, Any]) -> bool:
    """D-016: the tool was bound at birth, the capability is one of its binding's, a grant covers it."""
    if action["tool"] not in view["tools"]:
        return False
    binding = next(b for b in manifest["tool_bindings"] if b["tool"] == action["tool"])
    return action["capability"] in binding["capabilities"] and any(covers(g, action["capability"]) for g in view["grants"])


def act(world: World, command: Command) -> list[Event]:
    agent = world.begin(command)
    quiescent(agent)  # c1
    record = instance(agent, command)  # c2
    view, manifest = record["view"], record["manifest"]
    signed, tick = command["signed"], command["tick"]
    action = signed["action"]
    if view["state"] == "conceived":  # c3
        raise Refusal(J1, "the instance is not born yet")
    if view["state"] in ("withdrawn", "dissolved"):  # c4
        raise Refusal(J3, f"the instance is {view['state']}")
    if not signature_valid(agent, view, signed, tick):  # c5, before the deadline (review G-29)
        raise Refusal(AD4, "the act is not signed by this projection (D-021)", path=["signed"])
    if tick >= view["born_tick"] + manifest["ttl_ticks"]:  # c6 (D-014)
        raise Refusal(J3, f"the lifetime ended at tick {view['born_tick'] + manifest['ttl_ticks']}", path=["tick"])
    if not in_scope(view, manifest, action):  # c7
        raise Refusal(J2, f"{action['tool']}/{action['capability']} is outside the instance's scope", path=["signed", "action"])

    view["state"] = "active"
    view["acts"] += 1
    if action["outcome"] == "failed":
        view["failures"] += 1
        view["consecutive_failures"] += 1
    else:
        view["consecutive_failures"] = 0
    view["tools_used"] = sorted(set(view["tools_used"]) | {action["tool"]})
    record["trace"].extend(action["trace"])
    view["trace_entries"] = len(record["trace"])
    events = [{"type": "instance.acted", "instance_id": view["instance_id"], "tool": action["tool"],
               "capability": action["capability"], "outcome": action["outcome"]}]
    # D-015: the conditions in declaration order, on the counters after this act; the first that holds withdraws.
    fired = next((c for c in manifest["termination_conditions"] if holds(c["when"], view, tick)), None)
    if fired is not None:
        events.append(withdraw(view, {"kind": "termination_condition", "condition_id": fired["id"]}, tick))
    world.commit(tick)
    return events


# -- OP-2.4 janma.acquire, OP-2.5 janma.expire, OP-2.6 janma.withdraw --------------------------------


def acquire(world: World, command: Command) -> list[Event]:
    agent = world.begin(command)
    instance(agent, command)  # c1
    # c2 (D-017): nothing is ever acquired after conception.
    if command["acquisition"]["kind"] == "tool":
        raise Refusal(J1, "a tool cannot be acquired after conception", path=["acquisition"])
    raise Refusal(J2, "a capability cannot be acquired after conception", path=["acquisition"])


def expire(world: World, command: Command) -> list[Event]:
    agent = world.begin(command)
    record = instance(agent, command)  # c1
    view, manifest = record["view"], record["manifest"]
    events = []
    if view["state"] in ("ready", "active") and command["tick"] >= view["born_tick"] + manifest["ttl_ticks"]:
        events.append(withdraw(view, {"kind": "ttl"}, command["tick"]))
    world.commit(command["tick"])  # accepted either way: the tick advances
    return events


def withdraw_op(world: World, command: Command) -> list[Event]:
    agent = world.begin(command)
    view = instance(agent, command)["view"]  # c1
    if view["state"] == "conceived":  # c2
        raise Refusal(J1, "a conceived instance was never born")
    if view["state"] in ("withdrawn", "dissolved"):  # c3
        raise Refusal(J4, f"the instance is already {view['state']}")
    events = [withdraw(view, {"kind": command["reason"]}, command["tick"])]
    world.commit(command["tick"])
    return events


# -- OP-2.7 janma.distil ----------------------------------------------------------------------------


def distillate_ids_used(agent: dict[str, Any]) -> set[str]:
    """Every distillate id the agent has seen: its obligations (whatever their outcome), and the
    store's retained and excised distillates (OP-2.7.c10, review G-31)."""
    used = {o["view"]["distillate_id"] for o in agent["obligations"].values()}
    used |= {d["distillate_id"] for d in agent["store"]["distillates"]}
    used |= {m["distillate_id"] for x in agent["store"]["excisions"] for m in x["excised"]}
    return used


def distil(world: World, command: Command) -> list[Event]:
    agent = world.begin(command)
    record = instance(agent, command)  # c1
    view, manifest = record["view"], record["manifest"]
    if view["state"] != "withdrawn" or view["obligation_id"] is not None:  # c2
        raise Refusal(J4, "only a withdrawn life that has not been distilled is distilled")
    if command["obligation_id"] in agent["obligations"]:  # c3
        raise Refusal("DUPLICATE_ID", f"obligation {command['obligation_id']} exists", path=["obligation_id"])
    d = command["distillate"]
    issue = SPEC.schemas.check(d, "SamskaraDistillate")  # c4 (D-028): a malformed distillate is S-1
    if issue is not None:
        raise Refusal(S1, f"the distillate does not match SamskaraDistillate: {issue}", path=["distillate", *issue.path])
    source = d["source"]
    if (source["identity"], source["nonce"], source["instance_id"], d["born_from"]) != (
            agent["identity"]["identity"], view["nonce"], view["instance_id"], view["born_from"]):  # c5
        raise Refusal(AD4, "the distillate is not attributed to this life", path=["distillate", "source"])
    signal = d["signal"]
    refused = signal_refusal(signal, d["dispositions"], manifest["distillation_policy"]["satisfaction_model"])
    if refused is not None:  # c6: the principal's satisfaction model (D-053), the no-feedback distillate (D-057)
        raise Refusal(S2, refused[0], path=["distillate", *refused[1]])
    for n, disp in enumerate(d["dispositions"]):  # c7
        if not weight_valid(disp["weight"], signal["valence"]):
            raise Refusal(S2, "the weight must follow the valence's sign and not exceed it (D-012)", path=["distillate", "dispositions", n, "weight"])
    for n, disp in enumerate(d["dispositions"]):  # c8
        if not may_persist(disp["category"], manifest["consent_scope"]):
            raise Refusal(S1, f"category {disp['category']} may not persist under the consent grant for both storage and training (D-011, D-058)", path=["distillate", "dispositions", n, "category"])
    runs = LEAKAGE.runs(record["trace"])
    for n, disp in enumerate(d["dispositions"]):  # c9
        if LEAKAGE.leaks(disp["guidance"], runs):
            raise Refusal(S1, "the guidance repeats 4 consecutive trace tokens (D-010)", path=["distillate", "dispositions", n, "guidance"])
    if d["distillate_id"] in distillate_ids_used(agent):  # c10
        raise Refusal(AD3, f"distillate id {d['distillate_id']} was already used", path=["distillate", "distillate_id"])

    destroyed = len(record["trace"])
    record["trace"] = []  # the trace is destroyed (D-029)
    view.update(trace_entries=0, obligation_id=command["obligation_id"])
    policy, tick = manifest["distillation_policy"], command["tick"]
    kind = "corrective" if signal["valence"] < 0 else "reinforcing"  # D-013
    agent["obligations"][command["obligation_id"]] = {
        "view": {
            "obligation_id": command["obligation_id"],
            "instance_id": view["instance_id"],
            "kind": kind,
            "distillate_id": d["distillate_id"],
            "distillate_digest": digest_of("distillate", d),
            "born_from": view["born_from"],
            "created_tick": tick,
            "deadline_tick": tick + policy["deadline_ticks"],
            "max_retries": policy["max_retries"],
            "attempts": 0,
            "status": "pending",
            "outcome": None,
            # Only a corrective obligation declares the quarantine fail-safe (D-019, D-063).
            "fail_safe": {"action": "quarantine", "store_version": view["born_from"]} if kind == "corrective" else None,
        },
        "distillate": d,  # held until merged or discharged otherwise
    }
    world.commit(tick)
    return [
        {"type": "trace.destroyed", "instance_id": view["instance_id"], "entries": destroyed},
        {"type": "obligation.emitted", "obligation_id": command["obligation_id"], "kind": kind},
    ]


# -- OP-2.8 janma.dissolve --------------------------------------------------------------------------


def dissolve(world: World, command: Command) -> list[Event]:
    agent = world.begin(command)
    view = instance(agent, command)["view"]  # c1
    if view["state"] != "withdrawn":  # c2
        raise Refusal(J4, f"the instance is {view['state']}, not withdrawn")
    owed = agent["obligations"].get(view["obligation_id"]) if view["obligation_id"] is not None else None
    if owed is None or owed["view"]["status"] != "discharged":  # c3
        raise Refusal(J4, "the life's distillation obligation is not discharged")
    view["state"] = "dissolved"
    world.commit(command["tick"])
    return [{"type": "instance.dissolved", "instance_id": view["instance_id"]}]


# -- OP-3 custody (D-018, D-019) --------------------------------------------------------------------


def discharge(agent: dict[str, Any], record: dict[str, Any], outcome: str, fail_safe: bool) -> list[Event]:
    """Discharge an obligation: its distillate is dropped; the fail-safe, asked only for a corrective
    obligation (the only kind that declares one, D-063), quarantines the pin."""
    ob = record["view"]
    ob.update(status="discharged", outcome=outcome)
    record["distillate"] = None
    events: list[Event] = [{"type": "custody.discharged", "obligation_id": ob["obligation_id"], "outcome": outcome}]
    safe = ob["fail_safe"] if fail_safe else None
    if safe is not None and safe["store_version"] not in agent["store"]["quarantined"]:
        pin = safe["store_version"]
        agent["store"]["quarantined"] = sorted([*agent["store"]["quarantined"], pin])
        events.append({"type": "version.quarantined", "store_version": pin})
    return events


def custody_attempt(world: World, command: Command) -> list[Event]:
    agent = world.begin(command)
    record = obligation(agent, command)  # c1
    ob, tick, ack = record["view"], command["tick"], command["ack"]
    if ob["status"] != "pending":  # c2
        raise Refusal(J4, f"obligation {ob['obligation_id']} is already discharged")
    if tick >= ob["deadline_tick"]:  # c3, strict: the deadline tick belongs to custody.expire (D-060)
        raise Refusal(J4, f"the deadline is tick {ob['deadline_tick']}; an attempt comes before it", path=["tick"])
    if ob["attempts"] >= ob["max_retries"] + 1:  # c4
        raise Refusal(J4, "no attempt is left")
    ob["attempts"] += 1
    events: list[Event] = [{"type": "custody.attempted", "obligation_id": ob["obligation_id"], "ack": ack, "attempts": ob["attempts"]}]
    if ob["kind"] == "reinforcing":
        events += discharge(agent, record, "declined" if ack == "declined" else "best_effort", fail_safe=False)
    elif ack == "declined":
        events += discharge(agent, record, "declined", fail_safe=True)
    elif ob["attempts"] == ob["max_retries"] + 1:
        events += discharge(agent, record, "escalated", fail_safe=True)
    world.commit(tick)
    return events


def custody_expire(world: World, command: Command) -> list[Event]:
    agent = world.begin(command)
    record = obligation(agent, command)  # c1
    ob = record["view"]
    if ob["status"] != "pending":  # c2
        raise Refusal(J4, f"obligation {ob['obligation_id']} is already discharged")
    if command["tick"] < ob["deadline_tick"]:  # c3
        raise Refusal(J4, f"the deadline is tick {ob['deadline_tick']}", path=["tick"])
    if ob["kind"] == "corrective":
        events = discharge(agent, record, "escalated", fail_safe=True)
    else:
        events = discharge(agent, record, "best_effort", fail_safe=False)
    world.commit(command["tick"])
    return events


def handlers() -> dict[str, Any]:
    """Step 1's table, and the janma family."""
    return {
        **advaita.handlers(),
        "janma.conceive": conceive,
        "janma.birth": birth,
        "janma.act": act,
        "janma.acquire": acquire,
        "janma.expire": expire,
        "janma.withdraw": withdraw_op,
        "janma.distil": distil,
        "janma.dissolve": dissolve,
        "custody.attempt": custody_attempt,
        "custody.expire": custody_expire,
    }


if __name__ == "__main__":
    raise SystemExit(advaita.run("python-example-janma", ["janma", "advaita"], handlers()))
