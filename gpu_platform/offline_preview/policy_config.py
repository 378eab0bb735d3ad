"""``--policy-config FILE``: the policy pack's config, read and checked as the Pulumi CLI checks
``--policy-pack-config``, before the program runs.

The CLI (pulumi/pulumi pkg/resource/analyzer/config.go) reads a JSON object, empty content
being no config. Each key is ``all`` or a policy's name; each value an enforcement level
(``advisory``, ``mandatory``, ``remediate``, ``disabled``: ``apitype.EnforcementLevel``, the
values of pulumi_policy's ``EnforcementLevel``) or an object with an optional
``enforcementLevel`` and the policy's properties. It then validates every policy's properties,
its schema's defaults filled in, against the policy's ``configSchema`` as a JSON schema
(``{"type": "object", "properties": ..., "required": ...}``). Refused here as well, where the CLI
would take the file and ignore the part: a key that names no policy of the pack, a property
the policy's schema does not declare, properties under ``all`` (only its level applies), a key
given twice.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from pulumi_policy import EnforcementLevel

from gpu_platform.stack_config.yaml_file import FileProblem, InputFileError, read_text

LEVELS = tuple(level.value for level in EnforcementLevel)
"""The enforcement levels Pulumi accepts."""
ALL = "all"
LEVEL_KEY = "enforcementLevel"


class _Duplicate(ValueError):
    pass


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise _Duplicate(f"key {key!r} given twice")
        out[key] = value
    return out


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def read_policy_config(path: Path) -> dict[str, Any]:
    """The file's JSON object (``{}`` for an empty file), or ``InputFileError``."""
    text = read_text(path)
    if not text.strip():
        return {}
    try:
        data = json.loads(text, object_pairs_hook=_object, parse_constant=_no_constant)
    except json.JSONDecodeError as err:
        problem = FileProblem(f"not JSON: {err.msg}", err.lineno, err.colno)
        raise InputFileError(path, [problem]) from None
    except (_Duplicate, ValueError) as err:
        raise InputFileError(path, [FileProblem(str(err))]) from None
    except RecursionError:
        raise InputFileError(path, [FileProblem("nested too deep")]) from None
    if not isinstance(data, dict):
        raise InputFileError(
            path, [FileProblem("a JSON object of policy names (or all) to levels or objects")]
        )
    return data


def _level_problem(key: str, value: object) -> str | None:
    if isinstance(value, str) and value in LEVELS:
        return None
    return f"{value!r} is not an enforcement level ({', '.join(LEVELS)})"


def _entry_problems(key: str, value: object, policy: Any) -> list[tuple[str, str]]:
    """Problems of one entry: its level, and properties the policy's schema does not declare."""
    if isinstance(value, str):
        problem = _level_problem(key, value)
        return [] if problem is None else [(key, problem)]
    if not isinstance(value, Mapping):
        return [(key, f"{value!r} is neither an enforcement level nor an object")]
    problems = []
    if LEVEL_KEY in value and (problem := _level_problem(key, value[LEVEL_KEY])) is not None:
        problems.append((f"{key}.{LEVEL_KEY}", problem))
    properties = [k for k in value if k != LEVEL_KEY]
    if key == ALL:
        problems.extend(
            (f"{key}.{p}", "only enforcementLevel applies to every policy") for p in properties
        )
        return problems
    schema = policy.config_schema
    declared = list(schema.properties) if schema is not None else []
    for prop in properties:
        if prop not in declared:
            from gpu_platform.stack_config.known_keys import closest  # on an error only

            match = closest(prop, declared)
            hint = f"did you mean {match!r}?" if match else f"it takes: {', '.join(declared)}"
            problems.append(
                (f"{key}.{prop}", f"not a property of this policy (Pulumi ignores it); {hint}")
            )
    return problems


def policy_properties(policy: Any, given: Mapping[str, Any]) -> dict[str, Any]:
    """A policy's config as it runs: its schema's defaults, then the ``given`` entry of the
    pack config (its enforcement level left out)."""
    schema = policy.config_schema
    properties = schema.properties if schema is not None else {}
    config = {k: v["default"] for k, v in properties.items() if "default" in v}
    config.update({k: v for k, v in given.items() if k != LEVEL_KEY})
    return config


def _schema_problems(policy: Any, given: Mapping[str, Any]) -> list[tuple[str, str]]:
    """The policy's properties, defaults filled in, against its config schema."""
    from jsonschema import Draft7Validator

    schema = policy.config_schema
    if schema is None:
        return []
    document = policy_properties(policy, given)
    json_schema: dict[str, Any] = {"type": "object", "properties": schema.properties}
    if schema.required:
        json_schema["required"] = list(schema.required)
    problems = []
    for error in sorted(Draft7Validator(json_schema).iter_errors(document), key=str):
        at = ".".join(str(p) for p in (policy.name, *error.absolute_path))
        problems.append((at, error.message))
    return problems


def policy_config_problems(
    config: Mapping[str, Any], policies: Iterable[Any]
) -> list[tuple[str, str]]:
    """Every problem of a policy pack config, each with the key path of the bad key."""
    by_name = {p.name: p for p in policies}
    problems: list[tuple[str, str]] = []
    for key, value in config.items():
        if key != ALL and key not in by_name:
            from gpu_platform.stack_config.known_keys import closest  # on an error only

            match = closest(key, [*by_name, ALL])
            hint = f"did you mean {match!r}?" if match else "see docs/policies.md"
            problems.append(
                (key, f"no policy of the pack has this name (Pulumi ignores it); {hint}")
            )
            continue
        problems.extend(_entry_problems(key, value, by_name.get(key)))
    for name, policy in by_name.items():
        given = config.get(name)
        if given is None or isinstance(given, Mapping):
            problems.extend(_schema_problems(policy, given or {}))
    return problems


def validate_policy_config(
    config: Mapping[str, Any], policies: Sequence[Any], source: Path | str = "policy pack config"
) -> None:
    """Raise ``InputFileError`` naming every bad key of ``config``."""
    problems = policy_config_problems(config, policies)
    if problems:
        raise InputFileError(
            source, [FileProblem(f"{key}: {message}") for key, message in problems]
        )
