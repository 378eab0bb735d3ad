"""Read, validate and resolve the stack config: one error that names every bad key."""

from __future__ import annotations

import contextlib
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from types import MappingProxyType

import pulumi
from pydantic import ValidationError

from .models import GpuPool, PlatformConfig, Workload
from .pools import PoolFacts
from .rules import Problem, check

NAMESPACE = "gpu-platform"
"""The config namespace: keys are ``gpu-platform:<key>`` in ``Pulumi.<stack>.yaml``."""
TOP_LEVEL_KEYS: frozenset[str] = frozenset(
    field.alias or name for name, field in PlatformConfig.model_fields.items()
)
SECRET_KEYS: frozenset[str] = frozenset({"kubeconfig"})
"""Secret keys read as ``Output.secret`` by the components, never into the typed model."""


class ConfigError(pulumi.RunError):
    """The stack config is invalid. ``RunError`` makes Pulumi print it without a traceback."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = problems
        lines = "\n".join(f"  {path}: {message}" for path, message in problems)
        noun = "problem" if len(problems) == 1 else "problems"
        super().__init__(f"invalid stack config ({len(problems)} {noun}):\n{lines}")


@dataclass(frozen=True)
class Platform:
    """A validated config with its GPU pools resolved against the catalog."""

    config: PlatformConfig
    pools: dict[str, PoolFacts]
    warnings: list[str] = field(default_factory=list)

    def workload_pools(self, workload: Workload) -> list[PoolFacts]:
        """The pools a workload namespace may use: the listed ones, else every unshared pool."""
        if workload.pools is not None:
            return [self.pools[name] for name in workload.pools]
        return list(self._unshared_pools)

    def pool_workload_types(self) -> Mapping[str, list[str]]:
        """Pool name -> the sorted workload types whose namespaces may use the pool (AKS
        labels the pool's nodes with them). Every pool is a key."""
        return self._pool_workload_types

    @cached_property
    def _pool_workload_types(self) -> Mapping[str, list[str]]:
        # One pass over the workloads, not one per pool.
        types: dict[str, set[str]] = {name: set() for name in self.pools}
        for workload in self.config.workloads:
            for pf in self.workload_pools(workload):
                types[pf.name].add(workload.type)
        return MappingProxyType({name: sorted(found) for name, found in types.items()})

    @cached_property
    def _unshared_pools(self) -> list[PoolFacts]:
        return [pf for pf in self.pools.values() if not pf.is_shared]


# Pydantic names union members in error locations; they are not keys the user wrote.
_UNION_TAG = re.compile(r"^(constrained-\w+|(dict|list)\[.*\]|int|str|bool|float)$")


def _path(loc: tuple[int | str, ...]) -> str:
    out = ""
    for i, part in enumerate(loc):
        if isinstance(part, int):
            out += f"[{part}]"
        elif i == 1 and loc[0] == "cluster" and part in ("azure", "alicloud", "existing"):
            continue  # the discriminator's tag, not a key the user wrote
        elif _UNION_TAG.match(part):
            continue
        else:
            out += f".{part}" if out else str(part)
    return out or "(root)"


def _structural(raw: Mapping[str, object]) -> tuple[PlatformConfig | None, list[Problem]]:
    problems: list[Problem] = [
        (key, f"unknown key; known keys: {', '.join(sorted(TOP_LEVEL_KEYS))}")
        for key in raw
        if key not in TOP_LEVEL_KEYS | SECRET_KEYS
    ]
    data = {k: v for k, v in raw.items() if k in TOP_LEVEL_KEYS}
    cluster = data.get("cluster")
    if (
        isinstance(cluster, Mapping)
        and "cloud" not in cluster
        and isinstance(data.get("cloud"), str)
    ):
        # The cloud is chosen once, at the top; the cluster settings follow it.
        data["cluster"] = {**cluster, "cloud": data["cloud"]}
    try:
        return PlatformConfig.model_validate(data), problems
    except ValidationError as err:
        problems.extend(_problems(err))
        problems.extend(_salvaged_rule_problems(data))
        return None, problems


def _problems(err: ValidationError, prefix: tuple[int | str, ...] = ()) -> list[Problem]:
    problems = []
    for e in err.errors(include_url=False):
        message = e["msg"]
        if e["type"] == "extra_forbidden":
            message = "unknown key"
        elif e["type"] == "union_tag_invalid":
            message = "cloud must be one of azure, alicloud, existing"
        elif e["type"] in ("int_type", "int_parsing", "int_from_float"):
            message = "must be a whole number"
        problems.append((_path((*prefix, *e["loc"])), message))
    return list(dict.fromkeys(problems))


def _salvaged_rule_problems(data: Mapping[str, object]) -> list[Problem]:
    """Run the cross-field rules on the parts that are valid, so one error lists everything."""
    fields = PlatformConfig.model_fields
    parts: dict[str, object] = {}
    for name, info in fields.items():
        key = info.alias or name
        if key not in data:
            continue
        if name == "gpu_pools":
            continue
        try:
            parts[name] = PlatformConfig.__pydantic_validator__.validate_assignment(
                PlatformConfig.model_construct(),  # type: ignore[call-arg]
                name,
                data[key],
            ).__dict__[name]
        except ValidationError:
            continue
    if "cloud" not in parts:
        return []
    pools, index = [], []
    raw_pools = data.get("gpuPools")
    if isinstance(raw_pools, list):
        for i, item in enumerate(raw_pools):
            try:
                pools.append(GpuPool.model_validate(item))
                index.append(i)
            except ValidationError:
                continue
    defaults = {
        name: info.get_default(call_default_factory=True)
        for name, info in fields.items()
        if not info.is_required()
    }
    cfg = PlatformConfig.model_construct(
        **{**defaults, "cluster": None, **parts, "gpu_pools": pools}
    )
    problems, _ = check(cfg, index)
    return problems


def _quota_warnings(platform: Platform) -> list[str]:
    warnings = []
    for i, wl in enumerate(platform.config.workloads):
        offered: dict[str, int] = {}
        for pf in platform.workload_pools(wl):
            for resource, n in pf.capacity.total.items():
                offered[resource] = offered.get(resource, 0) + n
        asked = (
            wl.gpu_quota if isinstance(wl.gpu_quota, dict) else dict.fromkeys(offered, wl.gpu_quota)
        )
        for resource, n in asked.items():
            if n > offered.get(resource, 0):
                warnings.append(
                    f"workloads[{i}].gpuQuota: {n} {resource} is more than the cluster can "
                    f"ever offer ({offered.get(resource, 0)})"
                )
    return warnings


def load_platform(raw: Mapping[str, object]) -> Platform:
    """Validate the ``gpu-platform:`` keys (without the namespace) or raise ``ConfigError``."""
    cfg, problems = _structural(raw)
    if cfg is None:
        raise ConfigError(problems)
    rule_problems, pools = check(cfg)
    problems += rule_problems
    if problems:
        raise ConfigError(problems)
    platform = Platform(cfg, pools)
    platform.warnings.extend(_quota_warnings(platform))
    return platform


def raw_from_pulumi() -> dict[str, object]:
    """Every ``gpu-platform:*`` key of the running stack, structured values decoded."""
    all_config: dict[str, object] = {
        **pulumi.runtime.get_config_env(),
        **pulumi.runtime.config.CONFIG.get(),
    }
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


def load_from_pulumi() -> Platform:
    """The running stack's validated platform config."""
    return load_platform(raw_from_pulumi())
