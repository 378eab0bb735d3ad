"""``--mocks FILE``: results a user gives the offline engine, as Pulumi's test mocks do.

The file (YAML or JSON) has two optional maps, both with wire (camelCase) keys::

    invokes:                     # invoke token -> its result
      aws:ec2/getVpc:getVpc: {id: vpc-0abc, cidrBlock: 10.0.0.0/16}
    resources:                   # resource type -> outputs added to every such resource
      aws:eks/cluster:Cluster: {endpoint: https://example.eks.amazonaws.com}
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the child of program_runner imports UserMocks only, without pydantic
    from gpu_platform.stack_config.yaml_file import FileProblem, YamlDocument


@dataclass(frozen=True)
class UserMocks:
    invokes: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    """Invoke token -> result."""
    resources: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    """Resource type token -> outputs (they win over the engine's own)."""


SECTIONS = ("invokes", "resources")


def _section(doc: YamlDocument, key: str) -> tuple[dict[str, dict[str, Any]], list[FileProblem]]:
    """One section's tokens and values, with the problems of its keys (path and line)."""
    section = doc.data.get(key)
    if section is None:
        return {}, []
    if not isinstance(section, Mapping):
        return {}, [_problem(doc, f"{key}: must map a token to its values", key)]
    problems = []
    for token, value in section.items():
        where = f"{key}.{token}"
        if not isinstance(token, str) or token.count(":") < 2:
            problems.append(
                _problem(
                    doc,
                    f"{where}: not a token (package:module:Name, such as "
                    "aws:index/getRegion:getRegion)",
                    key,
                    token,
                )
            )
        elif not isinstance(value, Mapping):
            problems.append(_problem(doc, f"{where}: must be a mapping of wire keys", key, token))
        elif bad := [k for k in value if not isinstance(k, str)]:
            problems.append(
                _problem(doc, f"{where}: wire keys are text, not {bad[0]!r}", key, token)
            )
    if problems:
        return {}, problems
    return {str(k): dict(v) for k, v in section.items()}, []


def _problem(doc: YamlDocument, message: str, *path: Any) -> FileProblem:
    from gpu_platform.stack_config.yaml_file import FileProblem

    at = doc.position(*path) if all(isinstance(p, str | int) for p in path) else None
    return FileProblem(message, *(at or (None, None)))


def load_mocks(path: Path) -> UserMocks:
    """Read a mocks file (JSON is YAML, so one parser reads both); ``InputFileError`` names
    each problem's key and line."""
    from gpu_platform.stack_config.yaml_file import FileProblem, InputFileError, read_yaml

    doc = read_yaml(path)
    if doc.data is None:
        return UserMocks()
    if not isinstance(doc.data, Mapping):
        raise InputFileError(
            path, [FileProblem("expected a mapping with `invokes` and/or `resources`", 1, 1)]
        )
    problems = [
        _problem(doc, f"{key}: unknown key; use `invokes` and `resources`", key)
        for key in doc.data
        if key not in SECTIONS
    ]
    invokes, invoke_problems = _section(doc, "invokes")
    resources, resource_problems = _section(doc, "resources")
    problems += invoke_problems + resource_problems
    if problems:
        raise InputFileError(path, problems)
    return UserMocks(invokes, resources)
