"""The pool args: they agree with the settings field for field (name, type, required, docstring),
and GPU pool args made from resolved facts carry them, so no component resolves a pool again."""

from __future__ import annotations

import ast
import inspect
import textwrap
import types
from typing import Annotated, Any, Literal, Union, cast, get_args, get_origin, get_type_hints

import pytest
from pydantic import BaseModel

from gpu_platform.components import pool_args
from gpu_platform.components.pool_args import (
    AutoscaleArgs,
    CpuPoolArgs,
    GpuPoolArgs,
    MigArgs,
    NodeGpuArgs,
    SharingArgs,
    UpgradeArgs,
    cloud_arg,
    gpu_pool_args,
    validate_gpu_pool_args,
    validate_gpu_pools_args,
)
from gpu_platform.plan.pools import resolve_pool
from gpu_platform.settings import (
    FORMER_CLOUD_NAMES,
    AckGpuPoolSettings,
    AksGpuPoolSettings,
    AutoscaleSettings,
    CpuPoolSettings,
    ExistingGpuPoolSettings,
    GpuPoolSettings,
    MigSettings,
    NodeGpuSettings,
    SharingSettings,
    UpgradeSettings,
)
from tests.pools import gpu_pool

ARGS_OF: dict[type[BaseModel], type] = {
    AksGpuPoolSettings: GpuPoolArgs,
    AckGpuPoolSettings: GpuPoolArgs,
    ExistingGpuPoolSettings: GpuPoolArgs,
    NodeGpuSettings: NodeGpuArgs,
    CpuPoolSettings: CpuPoolArgs,
    AutoscaleSettings: AutoscaleArgs,
    MigSettings: MigArgs,
    SharingSettings: SharingArgs,
    UpgradeSettings: UpgradeArgs,
}
"""Each settings model of a pool and the args TypedDict that carries it to a component (every
cloud's GPU pool model to the one ``GpuPoolArgs``: a component takes pools of any cloud)."""


def attribute_docs(cls: type) -> dict[str, str]:
    """Field -> its attribute docstring (whitespace folded), own and inherited."""
    docs: dict[str, str] = {}
    for klass in reversed(cls.__mro__):
        if klass.__module__.split(".")[0] in ("builtins", "pydantic", "typing"):
            continue
        body = ast.parse(textwrap.dedent(inspect.getsource(klass))).body[0]
        assert isinstance(body, ast.ClassDef)
        for node, after in zip(body.body, body.body[1:], strict=False):
            if (
                isinstance(node, ast.AnnAssign)
                and isinstance(node.target, ast.Name)
                and isinstance(after, ast.Expr)
                and isinstance(after.value, ast.Constant)
            ):
                docs[node.target.id] = " ".join(str(after.value.value).split())
    return docs


def args_type(annotation: Any) -> Any:
    """The args type a settings field's type maps to: the schema's plain types (a ``Literal``
    of strings is ``str``, ``X | None`` is ``X``: optional in the TypedDict), a nested model
    its own args."""
    origin = get_origin(annotation)
    if origin is Annotated:  # constraints (ranges, patterns) are the settings' to check
        return args_type(get_args(annotation)[0])
    if origin in (Union, types.UnionType):
        [member] = [a for a in get_args(annotation) if a is not type(None)]
        return args_type(member)
    if origin is Literal:
        [kind] = {type(value) for value in get_args(annotation)}
        return kind
    if origin in (list, dict):
        return origin[tuple(args_type(a) for a in get_args(annotation))]
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return ARGS_OF[annotation]
    return annotation


@pytest.mark.parametrize("settings", list(ARGS_OF), ids=lambda s: s.__name__)
def test_args_agree_with_the_settings(settings: type[BaseModel]) -> None:
    args = ARGS_OF[settings]
    fields = settings.model_fields
    hints = get_type_hints(args)
    # The models args carry: one model, or every cloud's pool model (the args are their union).
    models = [model for model, carried in ARGS_OF.items() if carried is args]
    every = {name for model in models for name in model.model_fields}
    assert set(hints) == every, f"{args.__name__} and {settings.__name__} differ in fields"
    for name, field in fields.items():
        assert hints[name] == args_type(field.annotation), f"{args.__name__}.{name}: type"
        required = name in args.__required_keys__  # type: ignore[attr-defined]
        everywhere = all(
            name in m.model_fields and m.model_fields[name].is_required() for m in models
        )
        assert required == everywhere, f"{args.__name__}.{name}: required"
    settings_docs, args_docs = attribute_docs(settings), attribute_docs(args)
    for name in fields:
        assert args_docs.get(name) == settings_docs.get(name), f"{args.__name__}.{name}: doc"
        assert args_docs.get(name), f"{args.__name__}.{name} has no docstring"


def test_a_docstring_that_drifts_fails() -> None:
    """The comparison is not vacuous: a changed docstring or type is told apart."""

    class Drifted(AksGpuPoolSettings):
        nvme: bool = False
        """Offer the NVMe disks."""

    assert attribute_docs(Drifted)["nvme"] != attribute_docs(GpuPoolArgs)["nvme"]
    assert args_type(AksGpuPoolSettings.model_fields["count"].annotation) is int
    assert args_type(AksGpuPoolSettings.model_fields["os_sku"].annotation) is str
    assert args_type(AksGpuPoolSettings.model_fields["mig"].annotation) is MigArgs


# --- one resolution per pool -------------------------------------------------------------


T4: dict[str, Any] = {"name": "t4", "vmSize": "Standard_NC4as_T4_v3", "count": 2}


def counted_resolutions(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    calls: list[str] = []

    def counting(cloud: Any, pool: GpuPoolSettings) -> Any:
        calls.append(pool.name)
        return resolve_pool(cloud, pool)

    monkeypatch.setattr(pool_args, "resolve_pool", counting)
    return calls


def test_args_of_resolved_facts_are_not_resolved_again(monkeypatch: pytest.MonkeyPatch) -> None:
    facts = resolve_pool("aks", gpu_pool(T4))
    calls = counted_resolutions(monkeypatch)
    args = gpu_pool_args(facts)
    assert dict(args) == facts.pool.model_dump(exclude_none=True)
    for _ in range(3):
        assert validate_gpu_pool_args("aks", args, "pool") == (facts, [])
    assert calls == []


def test_changed_args_and_another_cloud_are_checked_afresh(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    facts = resolve_pool("aks", gpu_pool(T4))
    calls = counted_resolutions(monkeypatch)
    args = gpu_pool_args(facts)
    args["count"] = 3
    changed, problems = validate_gpu_pool_args("aks", args, "pool")
    assert problems == [] and changed is not None and changed.capacity.max_nodes == 3
    other, problems = validate_gpu_pool_args("ack", gpu_pool_args(facts), "pool")
    assert other is None
    # Another cloud's pool model: the AKS fields are no fields of it.
    assert ("pool.instanceType", "Field required") in problems
    assert calls == ["t4"]


def test_carried_facts_still_meet_the_pool_rules() -> None:
    """Facts resolved without the rules (plan.pools.resolve_pool asks none) do not slip past
    a component: the rules run on the carried settings too."""
    bad = resolve_pool("aks", gpu_pool({**T4, "name": "system"}))
    facts, problems = validate_gpu_pool_args("aks", gpu_pool_args(bad), "pool")
    assert facts is None
    assert problems == [("pool.name", "'system' is the name of the cluster's system pool")]


@pytest.mark.parametrize(("former", "today"), sorted(FORMER_CLOUD_NAMES.items()))
def test_a_former_cloud_name_is_read_as_todays_with_a_warning(
    former: str, today: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A component's ``cloud`` of 0.1 (``azure``, ``alicloud``) still works for one release."""
    warned: list[str] = []
    monkeypatch.setattr(pool_args.pulumi.log, "warn", lambda message, *_: warned.append(message))
    pool = {**T4, "instanceType": "ecs.gn6i-c4g1.xlarge"} if today == "ack" else T4
    if today == "ack":
        del pool["vmSize"]
    args = [cast(GpuPoolArgs, gpu_pool(pool).model_dump(exclude_none=True))]
    assert validate_gpu_pools_args(former, args, "pools") == validate_gpu_pools_args(
        today, args, "pools"
    )
    assert warned == [f"cloud: {former} is the old name of {today} (read as {today}; pass {today})"]
    assert cloud_arg({"cloud": former}) == cloud_arg({"cloud": today}) == today
    assert cloud_arg({}) == "existing"
