"""The replay floor: a process that registers exactly what a preview registered, with none of
our code.

A preview's run is recorded (``offline_preview.RecordedResource``: type, name, parent, inputs as
the engine received them, provider, options, dependencies) and replayed through the SDK's
generic classes (``pulumi.CustomResource``, ``ProviderResource``, ``ComponentResource``): the
same inputs, secrets as secret Outputs, unknowns as unknown Outputs, each property's
dependencies as the resources its Output carries, and the rest as ``depends_on``. The
components' ``register_outputs`` and the stack's exports are replayed too. No settings model,
no typed ``*Args`` class, no component code and no policy runs: what the preview costs above
this floor is ours and the typed SDK classes' first use.

``plan_of`` is what the check compares: the replay's recorded run must equal the preview's,
field for field (``differences``), or the floor measures something else.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from graphlib import TopologicalSorter
from typing import Any

import pulumi

from gpu_platform.offline_preview.engine import RecordedResource
from gpu_platform.offline_preview.wire import Secret, Unknown, markers, to_wire

PROVIDER_PREFIX = "pulumi:providers:"

COMPARED = (
    "urn",
    "type",
    "name",
    "custom",
    "parent",
    "inputs",
    "provider",
    "protect",
    "replace_on_changes",
    "delete_before_replace",
    "ignore_changes",
    "retain_on_delete",
    "dependencies",
    "property_dependencies",
    "aliases",
    "remote",
)
"""The fields of a registration the replay must reproduce (not its outputs: the mocks')."""


@dataclass
class ReplayPlan:
    """What a preview registered, JSON-able (``to_wire`` values) for the floor process."""

    registrations: list[dict[str, Any]]
    """``plan_of`` each recorded resource, in the run's (tree) order."""
    registered_outputs: dict[str, dict[str, Any]] = field(default_factory=dict)
    """What each component passed to ``register_outputs``, by URN."""
    outputs: dict[str, Any] = field(default_factory=dict)
    """The stack's exports."""

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


def plan_of(resource: RecordedResource) -> dict[str, Any]:
    """The compared fields of one registration, JSON-able; lists whose order the SDK does not
    keep (dependencies, aliases) sorted."""
    entry = {name: getattr(resource, name) for name in COMPARED}
    entry["inputs"] = to_wire(entry["inputs"])
    entry["dependencies"] = sorted(entry["dependencies"])
    entry["aliases"] = sorted(entry["aliases"])
    entry["property_dependencies"] = {
        key: sorted(urns) for key, urns in sorted(entry["property_dependencies"].items())
    }
    return entry


def recorded_plan(
    resources: Iterable[RecordedResource],
    registered_outputs: Mapping[str, dict[str, Any]],
    outputs: Mapping[str, Any],
) -> ReplayPlan:
    return ReplayPlan(
        registrations=[plan_of(r) for r in resources],
        registered_outputs={urn: to_wire(markers(v)) for urn, v in registered_outputs.items()},
        outputs=to_wire(dict(outputs)),
    )


def differences(
    expected: Sequence[dict[str, Any]], replayed: Sequence[dict[str, Any]]
) -> list[str]:
    """Where a replay's registrations differ from the preview's: empty when identical."""
    found: list[str] = []
    by_urn = {entry["urn"]: entry for entry in replayed}
    for entry in expected:
        other = by_urn.pop(entry["urn"], None)
        if other is None:
            found.append(f"{entry['urn']}: not replayed")
            continue
        found.extend(
            f"{entry['urn']}: {name} {entry[name]!r} != {other[name]!r}"
            for name in COMPARED
            if entry[name] != other[name]
        )
    found.extend(f"{urn}: replayed, not in the preview" for urn in by_urn)
    return found


def _resolved(value: Any) -> asyncio.Future[Any]:
    future: asyncio.Future[Any] = asyncio.get_event_loop().create_future()
    future.set_result(value)
    return future


def _unknown() -> pulumi.Output[Any]:
    return pulumi.Output(set(), _resolved(None), _resolved(False), _resolved(False))


def _value(value: Any) -> Any:
    """A recorded value (``markers``) as a program's input: secrets and unknowns as Outputs."""
    if isinstance(value, Unknown):
        return _unknown()
    if isinstance(value, Secret):
        return pulumi.Output.secret(_value(value.value))
    if isinstance(value, dict):
        return {k: _value(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_value(v) for v in value]
    return value


def _carrying(value: Any, resources: set[pulumi.Resource]) -> pulumi.Output[Any]:
    """``value`` as an Output that depends on ``resources``, as a property built from their
    outputs does (the SDK records them as the property's dependencies)."""
    inner = pulumi.Output.from_input(value)
    return pulumi.Output(resources, inner.future(), inner.is_known(), inner.is_secret())


def _order(registrations: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every resource after what it names (parent, provider, dependencies), the run's order
    kept otherwise."""
    urns = {entry["urn"] for entry in registrations}
    graph: TopologicalSorter[str] = TopologicalSorter()
    for entry in registrations:
        named = {entry["parent"], entry["provider"].rpartition("::")[0], *entry["dependencies"]}
        named.update(u for urns_ in entry["property_dependencies"].values() for u in urns_)
        graph.add(entry["urn"], *(u for u in named if u in urns and u != entry["urn"]))
    position = {entry["urn"]: i for i, entry in enumerate(registrations)}
    by_urn = {entry["urn"]: entry for entry in registrations}
    graph.prepare()
    ordered: list[dict[str, Any]] = []
    while graph.is_active():
        ready = sorted(graph.get_ready(), key=position.__getitem__)
        ordered.extend(by_urn[urn] for urn in ready)
        graph.done(*ready)
    return ordered


def replay(plan: ReplayPlan) -> None:
    """Register ``plan`` (a Pulumi program: run it on the engine, ``run_callable``)."""
    made: dict[str, pulumi.Resource] = {}
    providers: dict[str, pulumi.ProviderResource] = {}
    for entry in _order(plan.registrations):
        inputs = markers(entry["inputs"])
        by_property = entry["property_dependencies"]
        props = {
            key: _carrying(_value(value), {made[u] for u in by_property[key]})
            if by_property.get(key)
            else _value(value)
            for key, value in inputs.items()
        }
        implicit = {u for urns in by_property.values() for u in urns}
        provider_urn = entry["provider"].rpartition("::")[0]
        opts = pulumi.ResourceOptions(
            parent=made.get(entry["parent"] or ""),
            provider=providers.get(provider_urn),
            depends_on=[made[u] for u in entry["dependencies"] if u not in implicit],
            protect=entry["protect"] or None,
            replace_on_changes=entry["replace_on_changes"] or None,
            delete_before_replace=entry["delete_before_replace"] or None,
            ignore_changes=entry["ignore_changes"] or None,
            retain_on_delete=entry["retain_on_delete"] or None,
            aliases=list(entry["aliases"]) or None,
        )
        kind = entry["type"]
        if kind.startswith(PROVIDER_PREFIX):
            provider = pulumi.ProviderResource(
                kind.removeprefix(PROVIDER_PREFIX), entry["name"], props, opts
            )
            made[entry["urn"]] = providers[entry["urn"]] = provider
        elif entry["custom"]:
            made[entry["urn"]] = pulumi.CustomResource(kind, entry["name"], props, opts)
        else:
            made[entry["urn"]] = pulumi.ComponentResource(kind, entry["name"], props, opts)
    for urn, outputs in plan.registered_outputs.items():
        component = made.get(urn)  # the stack's own are its exports, below
        if isinstance(component, pulumi.ComponentResource):
            component.register_outputs(_value(markers(outputs)))
    for name, value in plan.outputs.items():
        pulumi.export(name, _value(markers(value)))
