"""Read, validate and resolve the stack config: one error that names every bad key.

Three steps: the schema (``settings``), the rules (``rules.check``: problems only), then
``plan.resolve_platform`` on a config with no problem."""

from __future__ import annotations

import contextlib
import json
import re
from collections.abc import Mapping

import pulumi
from pydantic import ValidationError

from gpu_platform.plan.platform import ResolvedPlatform, resolve_platform
from gpu_platform.settings import GpuPoolSettings, PlatformSettings

from .rules import Problem, check, check_and_resolve

NAMESPACE = "gpu-platform"
"""The config namespace: keys are ``gpu-platform:<key>`` in ``Pulumi.<stack>.yaml``."""
TOP_LEVEL_KEYS: frozenset[str] = frozenset(
    field.alias or name for name, field in PlatformSettings.model_fields.items()
)
SECRET_KEYS: frozenset[str] = frozenset({"kubeconfig"})
"""Secret keys read as ``Output.secret`` by the components, never into the typed model."""
RENAMED_KEYS: dict[str, str] = {"readiness": "driverCheck"}
"""Old top-level keys still read, as their new key (with a warning): the driver check was
called readiness, the name ``make verify`` keeps."""


class ConfigError(pulumi.RunError):
    """The stack config is invalid. ``RunError`` makes Pulumi print it without a traceback."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = problems
        lines = "\n".join(f"  {path}: {message}" for path, message in problems)
        noun = "problem" if len(problems) == 1 else "problems"
        super().__init__(f"invalid stack config ({len(problems)} {noun}):\n{lines}")


# Pydantic names union members in error locations; they are not keys the user wrote.
_UNION_TAG = re.compile(r"^(constrained-\w+|(dict|list)\[.*\]|int|str|bool|float)$")


def _path(loc: tuple[int | str, ...]) -> str:
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        elif _UNION_TAG.match(part):
            continue
        else:
            out += f".{part}" if out else str(part)
    return out or "(root)"


def _structural(raw: Mapping[str, object]) -> tuple[PlatformSettings | None, list[Problem]]:
    problems: list[Problem] = [
        (key, f"unknown key; known keys: {', '.join(sorted(TOP_LEVEL_KEYS))}")
        for key in raw
        if key not in TOP_LEVEL_KEYS | SECRET_KEYS
    ]
    data = {k: v for k, v in raw.items() if k in TOP_LEVEL_KEYS}
    try:
        return PlatformSettings.model_validate(data), problems
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
        elif e["type"] == "value_error":
            message = message.removeprefix("Value error, ")
        elif e["type"] in ("int_type", "int_parsing", "int_from_float"):
            message = "must be a whole number"
        problems.append((_path((*prefix, *e["loc"])), message))
    return list(dict.fromkeys(problems))


def _salvaged_rule_problems(data: Mapping[str, object]) -> list[Problem]:
    """Run the cross-field rules on the parts that are valid, so one error lists everything."""
    fields = PlatformSettings.model_fields
    parts: dict[str, object] = {}
    for name, info in fields.items():
        key = info.alias or name
        if key not in data:
            continue
        if name == "gpu_pools":
            continue
        try:
            parts[name] = PlatformSettings.__pydantic_validator__.validate_assignment(
                PlatformSettings.model_construct(),  # type: ignore[call-arg]
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
                pools.append(GpuPoolSettings.model_validate(item))
                index.append(i)
            except ValidationError:
                continue
    defaults = {
        name: info.get_default(call_default_factory=True)
        for name, info in fields.items()
        if not info.is_required()
    }
    cfg = PlatformSettings.model_construct(
        **{**defaults, "cluster": None, **parts, "gpu_pools": pools}
    )
    return check(cfg, index)


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


def load_platform(raw: Mapping[str, object]) -> ResolvedPlatform:
    """Validate the ``gpu-platform:`` keys (without the namespace) and resolve them, or raise
    ``ConfigError`` naming every problem."""
    data, renamed, problems = _renamed_keys(raw)
    settings, found = _structural(data)
    problems += _as_written(found, renamed)
    if settings is None:
        raise ConfigError(problems)
    found, resolved = check_and_resolve(settings)
    problems += _as_written(found, renamed)
    if problems:
        raise ConfigError(problems)
    platform = resolve_platform(settings, resolved)
    platform.warnings.extend(
        f"{old}: is the old name of {new}: (read as {new}; rename the key)"
        for new, old in renamed.items()
    )
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


def load_from_pulumi() -> ResolvedPlatform:
    """The running stack's validated platform config."""
    return load_platform(raw_from_pulumi())
