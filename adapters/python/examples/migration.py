"""Step 4's migration (ripa.py): spec/OPERATIONS.md OP-7 (RIPA Section 4, D-026).

The six phases `ripa.migration_fence` (OP-7.1), `_checkpoint` (OP-7.2), `_validate` (OP-7.3),
`_bind` (OP-7.4), `_rehydrate` (OP-7.5), `_resume` (OP-7.6), and the rollback `_cancel` (OP-7.7).
The migration in progress is the agent's ``ripa.migration`` view (phase `fenced` … `rehydrated`);
while it is there, OP-0.4's quiescence refuses the guarded operations (janma.quiescent). A phase
command, or a cancel, naming any other migration is NOT_FOUND right after the agent lookup (OP-7.c1,
review G-38); a phase out of order is I4. Each handler then runs its clause's checks in order
(spec/CHECKS.md, each commented with its number) and only then changes the world.

Beside the view an agent keeps ``migration_ids``: every migration id it ever fenced, cancelled ones
included (OP-7: unique per agent over all migrations ever started).
"""

from __future__ import annotations

from typing import Any

from advaita import Command, Event, World, first_duplicate, provider_set
from continuity import I1, I3, I4, I5, authorised, fresh_token, new_epoch, no_reserved_label
from encoding import digest_of
from samskara import I2
from srk_adapter import Refusal


def in_progress(world: World, command: Command) -> tuple[dict[str, Any], dict[str, Any]]:
    """OP-0.2, then OP-7.c1: the agent and the migration in progress, which the command must name."""
    agent = world.begin(command)
    migration = agent["ripa"]["migration"]
    if migration is None or migration["migration_id"] != command["migration_id"]:
        raise Refusal("NOT_FOUND", f"migration {command['migration_id']} is not the one in progress", path=["migration_id"])
    return agent, migration


def phase(migration: dict[str, Any], expected: str) -> None:
    if migration["phase"] != expected:
        raise Refusal(I4, f"the migration is {migration['phase']}, this phase needs {expected}", path=["migration_id"])


def marker(agent: dict[str, Any], migration: dict[str, Any], status: str) -> Event:
    ripa = agent["ripa"]
    ripa["marker"] = {"migration_id": migration["migration_id"], "status": status,
                      "target_execution_id": migration["target"]["execution"]["execution_id"]}
    return {"type": "migration.marker", "migration_id": migration["migration_id"], "status": status}


def capabilities(providers: list[dict[str, Any]]) -> set[str]:
    return {c for p in providers for c in p["capabilities"]}


# -- OP-7.1 ripa.migration_fence -------------------------------------------------------------------


def fence(world: World, command: Command) -> list[Event]:
    agent = world.begin(command)
    ripa = agent["ripa"]
    if ripa["migration"] is not None:  # c1
        raise Refusal(I4, f"migration {ripa['migration']['migration_id']} is in progress", path=["migration_id"])
    mid = command["migration_id"]
    if mid in agent.get("migration_ids", []):  # c2
        raise Refusal("DUPLICATE_ID", f"migration {mid} was started before", path=["migration_id"])
    if ripa["live_attempts"]:  # c3: export refuses while a task is running
        raise Refusal(I4, f"task {ripa['live_attempts'][0]['task_id']} has a live request attempt", path=["agent"])
    fresh_token(agent, command["token"])  # c4
    generation = ripa["authority"]["generation"] + 1
    epoch = new_epoch(agent, command["token"], generation, None)
    agent["migration_ids"] = [*agent.get("migration_ids", []), mid]
    ripa["fences"] = [*ripa["fences"], {"migration_id": mid, "status": "preparing", "body_revision": agent["substrate"]["body"]["revision"],
                                        "source_generation": generation, "bundle_digest": None}]
    ripa["migration"] = {"migration_id": mid, "phase": "fenced", "source_execution_id": ripa["execution"]["execution_id"],
                         "bundle": None, "bundle_digest": None, "target": None, "delta": None, "surfaces": []}
    world.commit(command["tick"])
    return [{"type": "migration.fenced", "migration_id": mid}, epoch]


# -- OP-7.2 ripa.migration_checkpoint --------------------------------------------------------------


def checkpoint(world: World, command: Command) -> list[Event]:
    agent, migration = in_progress(world, command)
    phase(migration, "fenced")  # c1
    ripa, substrate = agent["ripa"], agent["substrate"]
    own = next(f for f in ripa["fences"] if f["migration_id"] == migration["migration_id"])
    manifest = {
        "migration_id": migration["migration_id"],
        "identity": agent["identity"]["identity"],
        "identity_record_digest": digest_of("identityRecord", substrate["identity"]),  # OP-1.11
        "identity_version": substrate["identity"]["identity_version"],
        "memory_head": substrate["memory"]["ancestry"][-1],
        "store_head": agent["store"]["head"],
        "body_revision": substrate["body"]["revision"],
        "task_ids": list(substrate["memory"]["task_ids"]),
        "source_generation": own["source_generation"],
        "required_capabilities": list(ripa["required_capabilities"]),
    }
    bundle_digest = digest_of("bundle", manifest)
    own.update(status="exported", bundle_digest=bundle_digest)
    migration.update(phase="checkpointed", bundle=manifest, bundle_digest=bundle_digest)
    world.commit(command["tick"])
    return [{"type": "migration.checkpointed", "migration_id": migration["migration_id"], "bundle_digest": bundle_digest}]


# -- OP-7.3 ripa.migration_validate ----------------------------------------------------------------


def validate(world: World, command: Command) -> list[Event]:
    agent, migration = in_progress(world, command)
    phase(migration, "checkpointed")  # c1
    bundle, target, record = migration["bundle"], command["target"], agent["substrate"]["identity"]
    if command["bundle_digest"] != migration["bundle_digest"]:  # c2: a corrupt artefact
        raise Refusal(I2, "the bundle digest is not the checkpoint's", path=["bundle_digest"])
    if bundle["identity"] != agent["identity"]["identity"] or bundle["identity_version"] != record["identity_version"]:  # c3
        raise Refusal(I1, "the bundle's identity is not the installed one", path=["bundle_digest"])
    if target["body_revision"] != bundle["body_revision"]:  # c4: a mismatched import
        raise Refusal(I3, f"the target's body {target['body_revision']} is not the bundle's", path=["target", "body_revision"])
    if target["execution"]["execution_id"] == migration["source_execution_id"]:  # c5
        raise Refusal("DUPLICATE_ID", "the target execution is the source's", path=["target", "execution", "execution_id"])
    dup = first_duplicate([p["provider_id"] for p in target["providers"]])  # c6
    if dup is not None:
        raise Refusal("DUPLICATE_ID", f"provider {target['providers'][dup]['provider_id']} is listed twice", path=["target", "providers", dup, "provider_id"])
    granted = capabilities(target["providers"])
    for cap in bundle["required_capabilities"]:  # c7: fail closed
        if cap not in granted:
            raise Refusal(I5, f"no target provider grants the required capability {cap}", path=["target", "providers"])
    source = capabilities(agent["ripa"]["providers"])
    delta = {"gained": sorted(granted - source), "lost": sorted(source - granted), "unchanged": sorted(granted & source)}  # D-025
    if delta["gained"] and not authorised(agent, command["gain_authorization"]):  # c8
        raise Refusal(I5, f"the target gains {', '.join(delta['gained'])} without a valid authorisation", path=["gain_authorization"])
    migration.update(phase="validated", delta=delta,
                     target={"execution": target["execution"], "providers": provider_set(target["providers"]), "body_revision": target["body_revision"]})
    events: list[Event] = [{"type": "migration.validated", "migration_id": migration["migration_id"], "delta": delta},
                           marker(agent, migration, "importing")]
    world.commit(command["tick"])
    return events


# -- OP-7.4 ripa.migration_bind, OP-7.5 ripa.migration_rehydrate ----------------------------------------


def bind(world: World, command: Command) -> list[Event]:
    agent, migration = in_progress(world, command)
    phase(migration, "validated")  # c1
    no_reserved_label(command["labels"])  # c2
    dup = first_duplicate([s["surface_id"] for s in command["surfaces"]])  # c3
    if dup is not None:
        raise Refusal("DUPLICATE_ID", f"surface {command['surfaces'][dup]['surface_id']} is listed twice", path=["surfaces", dup, "surface_id"])
    surfaces = [{"surface": s, "labels": dict(command["labels"])} for s in command["surfaces"]]
    migration.update(phase="bound", surfaces=sorted(surfaces, key=lambda s: s["surface"]["surface_id"]))
    world.commit(command["tick"])
    return [{"type": "migration.bound", "migration_id": migration["migration_id"]}]


def rehydrate(world: World, command: Command) -> list[Event]:
    agent, migration = in_progress(world, command)
    phase(migration, "bound")  # c1
    migration["phase"] = "rehydrated"
    events = [marker(agent, migration, "imported")]
    world.commit(command["tick"])
    return events


# -- OP-7.6 ripa.migration_resume ------------------------------------------------------------------


def resume(world: World, command: Command) -> list[Event]:
    agent, migration = in_progress(world, command)
    phase(migration, "rehydrated")  # c1
    fresh_token(agent, command["token"])  # c2
    bundle, substrate, ripa = migration["bundle"], agent["substrate"], agent["ripa"]
    if digest_of("identityRecord", substrate["identity"]) != bundle["identity_record_digest"]:  # c3
        raise Refusal(I1, "the installed identity record is not the bundle's", path=["migration_id"])
    if substrate["memory"]["ancestry"][-1] != bundle["memory_head"] or agent["store"]["head"] != bundle["store_head"]:  # c4
        raise Refusal(I2, "the memory or store head is not the bundle's", path=["migration_id"])
    if substrate["body"]["revision"] != bundle["body_revision"]:  # c5
        raise Refusal(I3, "the body revision is not the bundle's", path=["migration_id"])

    target = migration["target"]
    target_id = target["execution"]["execution_id"]
    events: list[Event] = [marker(agent, migration, "activated")]
    generation = max(ripa["authority"]["generation"], bundle["source_generation"]) + 1  # review G-41
    events.append(new_epoch(agent, command["token"], generation, target_id))
    ripa.update(
        execution=target["execution"],
        providers=target["providers"],
        surfaces=migration["surfaces"],  # replaced wholesale (G-37)
        replicas=[r for r in ripa["replicas"] if r["execution_id"] != target_id],  # a promoted replica leaves the list (G-36)
    )
    events.append(marker(agent, migration, "verified"))
    report = {
        "migration_id": migration["migration_id"],
        "source_execution_id": migration["source_execution_id"],
        "target_execution_id": target_id,
        "bundle_digest": migration["bundle_digest"],
        "capability_delta": migration["delta"],
        "identity_preserved": True,
        "memory_ancestry_preserved": True,
        "body_preserved": True,
        "source_generation": bundle["source_generation"],
        "target_generation": generation,
    }
    ripa["reports"] = [*ripa["reports"], report]
    ripa["migration"] = None  # the source fence stays
    events.append({"type": "migration.resumed", "report": report})
    world.commit(command["tick"])
    return events


# -- OP-7.7 ripa.migration_cancel ------------------------------------------------------------------


def cancel(world: World, command: Command) -> list[Event]:
    agent, migration = in_progress(world, command)  # c1
    if not command["no_target_active"]:  # c2
        raise Refusal(I4, "a target may be active: the migration cannot be rolled back", path=["no_target_active"])
    if not authorised(agent, command["authorization"]):  # c3
        raise Refusal(I4, f"{command['authorization']['custodian']} is not a custodian of this agent", path=["authorization", "custodian"])
    ripa, mid = agent["ripa"], migration["migration_id"]
    ripa["fences"] = [f for f in ripa["fences"] if f["migration_id"] != mid]
    if ripa["marker"] is not None and ripa["marker"]["migration_id"] == mid:  # an earlier migration's marker stays (G-42)
        ripa["marker"] = None
    ripa["migration"] = None  # the epoch stays as the fence set it: the source must restart
    world.commit(command["tick"])
    return [{"type": "migration.cancelled", "migration_id": mid}]


def handlers() -> dict[str, Any]:
    return {
        "ripa.migration_fence": fence,
        "ripa.migration_checkpoint": checkpoint,
        "ripa.migration_validate": validate,
        "ripa.migration_bind": bind,
        "ripa.migration_rehydrate": rehydrate,
        "ripa.migration_resume": resume,
        "ripa.migration_cancel": cancel,
    }
