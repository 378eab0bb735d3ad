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
from typing import Any

import yaml


class MocksFileError(ValueError):
    """The mocks file cannot be used; the message says where and why."""


@dataclass(frozen=True)
class UserMocks:
    invokes: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    """Invoke token -> result."""
    resources: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    """Resource type token -> outputs (they win over the engine's own)."""


def _token_map(data: Mapping[str, Any], key: str, path: Path) -> dict[str, dict[str, Any]]:
    section = data.get(key) or {}
    if not isinstance(section, Mapping):
        raise MocksFileError(f"{path}: `{key}` must map a token to its values")
    for token, value in section.items():
        if not isinstance(value, Mapping):
            raise MocksFileError(f"{path}: {key}.{token} must be a mapping of wire keys")
        if token.count(":") < 2:
            raise MocksFileError(
                f"{path}: {key}.{token} is not a token (package:module:Name, such as "
                "aws:index/getRegion:getRegion)"
            )
    return {str(k): dict(v) for k, v in section.items()}


def load_mocks(path: Path) -> UserMocks:
    """Read a mocks file (JSON is YAML, so one parser reads both)."""
    try:
        data = yaml.safe_load(path.read_text()) or {}
    except (OSError, yaml.YAMLError) as err:
        raise MocksFileError(f"{path}: {err}") from err
    if not isinstance(data, Mapping):
        raise MocksFileError(f"{path}: expected a mapping with `invokes` and/or `resources`")
    unknown = sorted(set(data) - {"invokes", "resources"})
    if unknown:
        raise MocksFileError(
            f"{path}: unknown key(s) {', '.join(unknown)}; use `invokes` and `resources`"
        )
    return UserMocks(_token_map(data, "invokes", path), _token_map(data, "resources", path))
