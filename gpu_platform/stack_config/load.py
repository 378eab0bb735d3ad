"""Read, validate and resolve the stack config: one error that names every bad key.

Three steps: the schema (``settings``), the rules (``rules.validate_and_resolve``: problems, and
the facts of each sound pool), then ``plan.resolve_platform`` on a config with no problem."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field

import pulumi
from pydantic import ValidationError

from gpu_platform.plan.clouds import cloud_plans
from gpu_platform.plan.platform import ResolvedPlatform, resolve_platform
from gpu_platform.settings import (
    FORMER_CLOUD_NAMES,
    GPU_POOL_SETTINGS,
    GpuPoolSettings,
    PlatformSettings,
)

from .rules import Problem, validate_and_resolve
from .rules.follow_on import related

NAMESPACE = "gpu-platform"
"""The config namespace: keys are ``gpu-platform:<key>`` in ``Pulumi.<stack>.yaml``."""
TOP_LEVEL_KEYS: frozenset[str] = frozenset(
    field.alias or name for name, field in PlatformSettings.model_fields.items()
)
SECRET_KEYS: frozenset[str] = frozenset({"kubeconfig"})
"""Secret keys read as ``Output.secret`` by the components, never into the typed model."""
RENAMED_KEYS: dict[str, str] = {"readiness": "driverCheck"}
"""Old top-level keys still read, as their new key (with a warning): the driver check was
called readiness in 0.1.0."""


class ConfigError(pulumi.RunError):
    """The stack config is invalid. ``RunError`` makes Pulumi print it without a traceback."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = problems
        lines = "\n".join(f"  {path}: {message}" for path, message in problems)
        noun = "problem" if len(problems) == 1 else "problems"
        super().__init__(f"invalid stack config ({len(problems)} {noun}):\n{lines}")


@dataclass(frozen=True)
class Structural:
    """What the schema made of the raw config: the settings, whole or in part, and its
    problems. In part: ``refused`` names the top-level fields it refused, ``pool_positions``
    the user's positions of the GPU pools it took, ``refused_pools`` of those it refused."""

    settings: PlatformSettings
    problems: list[Problem]
    refused: frozenset[str] = frozenset()
    pool_positions: list[int] | None = None
    refused_pools: list[int] = field(default_factory=list)


def _structural(raw: Mapping[str, object]) -> Structural:
    missing = [key for key in TOP_LEVEL_KEYS if key not in raw]
    meant_keys: set[str] = set()
    problems: list[Problem] = []
    for key in raw:
        if key in TOP_LEVEL_KEYS | SECRET_KEYS:
            continue
        # The error paths' modules are imported by a config that has an error.
        from .known_keys import closest, unknown_key_message

        meant = closest(key, missing, cutoff=0.5)
        if meant is not None:  # a key misspelt: its "Field required" or default is this mistake
            missing.remove(meant)
            meant_keys.add(meant)
            problems.append((key, f"unknown key; did you mean {meant!r}?"))
        else:
            problems.append((key, unknown_key_message(key, TOP_LEVEL_KEYS | SECRET_KEYS)))
    data = {k: v for k, v in raw.items() if k in TOP_LEVEL_KEYS}
    try:
        settings = PlatformSettings.model_validate(data)
        if not meant_keys:
            return Structural(settings, problems)
    except ValidationError as err:
        from .schema_errors import schema_problems

        problems.extend(p for p in schema_problems(err, data) if p[0] not in meant_keys)
    # A key written under a misspelt name is not its default either: its part is refused.
    parts = _in_parts(data, problems, meant_keys)
    if "cloud" in parts.refused:
        # The cluster's model follows the cloud: its problems wait until the cloud is right.
        problems[:] = [p for p in problems if not related(p[0], "cluster")]
    return parts


def _in_parts(
    data: Mapping[str, object], problems: list[Problem], misspelt: Collection[str] = ()
) -> Structural:
    """The settings the schema takes part by part: each top-level field on its own (the cluster
    after the cloud that picks its model), each GPU pool on its own. Keys written misspelt
    (``misspelt``) are refused."""
    validator = PlatformSettings.__pydantic_validator__
    parts: dict[str, object] = {}
    refused: set[str] = set()
    # One model for every part's assignment: it holds the parts taken so far and defaults for
    # the rest, as a model built anew for each part would (building one asks pydantic for each
    # default, and pydantic inspects each default factory's signature every time).
    model = PlatformSettings.model_construct()
    for name, info in PlatformSettings.model_fields.items():
        key = info.alias or name
        if key in misspelt:
            refused.add(name)
            continue
        if name == "gpu_pools":
            continue
        if key not in data:
            if info.is_required():
                refused.add(name)
            else:
                parts[name] = info.get_default(call_default_factory=True)
            continue
        if name == "cluster" and "cloud" in refused:
            refused.add(name)  # its model follows the cloud: not judged until that is right
            continue
        try:
            validator.validate_assignment(model, name, data[key])  # in place, when it passes
            parts[name] = model.__dict__[name]
        except ValidationError:
            refused.add(name)
    pools: list[GpuPoolSettings] = []
    positions: list[int] = []
    refused_pools: list[int] = []
    raw_pools = data.get("gpuPools", [])
    pool_model = GPU_POOL_SETTINGS.get(str(data.get("cloud")))
    if pool_model is None:
        refused.add("gpu_pools")  # its model follows the cloud: not judged until that is right
    elif isinstance(raw_pools, list):
        for i, item in enumerate(raw_pools):
            try:
                pools.append(pool_model.model_validate(item))
                positions.append(i)
            except ValidationError:
                refused_pools.append(i)
    else:
        refused.add("gpu_pools")
    settings = PlatformSettings.model_construct(**{**parts, "gpu_pools": pools})  # type: ignore[call-arg]
    return Structural(settings, problems, frozenset(refused), positions, refused_pools)


def _renamed_keys(
    raw: Mapping[str, object],
) -> tuple[dict[str, object], dict[str, str], list[Problem]]:
    """``raw`` with old keys under their new names; the renames made (new -> old); a problem
    for each old key given beside its new one."""
    data = dict(raw)
    renamed: dict[str, str] = {}
    problems: list[Problem] = []
    for old, new in RENAMED_KEYS.items():
        if old not in data:
            continue
        if new in data:
            problems.append((old, f"the old name of {new}; give only {new}"))
            del data[old]
            continue
        data[new] = data.pop(old)
        renamed[new] = old
    return data, renamed, problems


def _as_written(problems: list[Problem], renamed: Mapping[str, str]) -> list[Problem]:
    """Paths under a renamed key spelt the way the user wrote it."""
    out = []
    for path, message in problems:
        head, sep, rest = path.partition(".")
        out.append((renamed.get(head, head) + sep + rest, message))
    return out


def _former_cloud_name(data: dict[str, object]) -> list[str]:
    """``cloud`` by its name of a former release (``azure``) read as today's, in place; the
    warning."""
    cloud = data.get("cloud")
    new = FORMER_CLOUD_NAMES.get(cloud) if isinstance(cloud, str) else None
    if new is None:
        return []
    data["cloud"] = new
    return [f"cloud: {cloud} is the old name of {new} (read as {new}; write cloud: {new})"]


def _former_pool_keys(data: dict[str, object]) -> list[str]:
    """The GPU pools' keys of a former release read as today's (their cloud says which), in
    place; the warnings."""
    plan = cloud_plans().get(str(data.get("cloud")))
    pools = data.get("gpuPools")
    if plan is None or not isinstance(pools, list):
        return []
    warnings: list[str] = []
    read: list[object] = []
    for i, pool in enumerate(pools):
        if isinstance(pool, Mapping):
            pool, found = plan.former_pool_keys(pool, f"gpuPools[{i}]")
            warnings += found
        read.append(pool)
    data["gpuPools"] = read
    return warnings


def load_platform(raw: Mapping[str, object]) -> ResolvedPlatform:
    """Validate the ``gpu-platform:`` keys (without the namespace) and resolve them, or raise
    ``ConfigError`` naming every problem."""
    data, renamed, problems = _renamed_keys(raw)
    former = _former_cloud_name(data) + _former_pool_keys(data)
    schema = _structural(data)
    found, resolved = validate_and_resolve(
        schema.settings,
        schema.pool_positions,
        refused=schema.refused,
        refused_pools=schema.refused_pools,
    )
    problems += _as_written(schema.problems + found, renamed)
    if problems:
        raise ConfigError(problems)
    platform = resolve_platform(schema.settings, resolved)
    platform.warnings.extend(
        f"{old}: is the old name of {new}: (read as {new}; rename the key)"
        for new, old in renamed.items()
    )
    platform.warnings.extend(former)
    return platform


def raw_from_pulumi() -> dict[str, object]:
    """Every ``gpu-platform:*`` key of the running stack, structured values decoded."""
    return raw_from_config(
        {**pulumi.runtime.get_config_env(), **pulumi.runtime.config.CONFIG.get()}
    )


def raw_from_config(all_config: Mapping[str, object]) -> dict[str, object]:
    """Every ``gpu-platform:*`` key of a stack's config (``namespace:key`` -> value as the
    program receives it), without the namespace, structured values decoded."""
    raw: dict[str, object] = {}
    for key, value in all_config.items():
        namespace, _, name = key.partition(":")
        if namespace != NAMESPACE or not name:
            continue
        if isinstance(value, str) and value[:1] in ("{", "["):
            # Not JSON after all: the model reports the wrong type with its path.
            with contextlib.suppress(json.JSONDecodeError):
                value = json.loads(value)
        raw[name] = value
    return raw


def load_from_pulumi() -> ResolvedPlatform:
    """The running stack's validated platform config."""
    return load_platform(raw_from_pulumi())
