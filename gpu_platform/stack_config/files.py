"""Read a Pulumi project and its stack config files the way the Pulumi CLI hands them over."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

SECRET_PLACEHOLDER = "offline-preview-secret"
"""Stands in for ``secure:`` values, which only the stack's secrets provider can decrypt."""


SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
"""YAML's safe loader, in C where libyaml is installed (the same documents, read faster)."""


@dataclass(frozen=True)
class StackConfig:
    config: dict[str, str]
    """``namespace:key`` -> value as the program receives it (structured values as JSON)."""
    secret_keys: list[str]


def project_name(program_dir: Path) -> str:
    for candidate in ("Pulumi.yaml", "Pulumi.yml"):
        path = program_dir / candidate
        if path.exists():
            data = yaml.load(path.read_text(), SAFE_LOADER) or {}
            return str(data["name"])
    raise FileNotFoundError(f"no Pulumi.yaml in {program_dir}")


def read_stack_config(path: Path, project: str) -> StackConfig:
    """Config of a ``Pulumi.<stack>.yaml`` file (or any file of that format)."""
    data = yaml.load(path.read_text(), SAFE_LOADER) or {}
    raw: dict[str, Any] = data.get("config") or {}
    config: dict[str, str] = {}
    secret_keys: list[str] = []
    for key, value in raw.items():
        full_key = key if ":" in key else f"{project}:{key}"
        if isinstance(value, dict) and set(value) == {"secure"}:
            secret_keys.append(full_key)
            value = SECRET_PLACEHOLDER
        config[full_key] = value if isinstance(value, str) else json.dumps(value)
    return StackConfig(config, secret_keys)
