"""Pulumi.yaml declares the stack config the way the Pulumi CLI's project schema accepts it."""

from __future__ import annotations

from pathlib import Path

import yaml

from gpu_platform.stack_config.load import SECRET_KEYS, TOP_LEVEL_KEYS

ROOT = Path(__file__).resolve().parents[2]
# The CLI's project schema: these types only, and an array must type its items.
SIMPLE_TYPES = {"string", "integer", "boolean", "array"}


def _project() -> dict:
    return yaml.safe_load((ROOT / "Pulumi.yaml").read_text())


def test_project_runs_python_from_its_virtualenv() -> None:
    project = _project()
    assert project["name"] == "gpu-platform"
    assert project["runtime"]["name"] == "python"
    assert project["runtime"]["options"]["virtualenv"] == ".venv"


def test_every_config_key_is_declared_with_a_description() -> None:
    declared = _project()["config"]
    assert set(declared) == TOP_LEVEL_KEYS | SECRET_KEYS
    for key, spec in declared.items():
        assert spec["description"], key


def test_declared_types_are_ones_the_cli_accepts() -> None:
    for key, spec in _project()["config"].items():
        if "type" in spec:
            assert spec["type"] in SIMPLE_TYPES, key
            if spec["type"] == "array":
                assert "items" in spec, f"{key}: an array must declare its items"


def test_stack_files_use_only_declared_keys() -> None:
    declared = set(_project()["config"])
    for stack_file in ROOT.glob("Pulumi.*.yaml"):
        keys = yaml.safe_load(stack_file.read_text())["config"]
        ours = {k.split(":", 1)[1] for k in keys if k.startswith("gpu-platform:")}
        assert ours <= declared, (stack_file.name, ours - declared)
