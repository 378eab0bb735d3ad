"""A Pulumi project and its stack files read the way the Pulumi CLI hands them over
(stack_config.files)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gpu_platform.stack_config.files import SECRET_PLACEHOLDER, project_name, read_stack_config

ROOT = Path(__file__).resolve().parents[2]


def test_the_projects_name() -> None:
    assert project_name(ROOT) == "gpu-platform"


def test_no_project_file_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match=r"no Pulumi\.yaml"):
        project_name(tmp_path)


def test_stack_config_as_the_program_receives_it(tmp_path: Path) -> None:
    stack = tmp_path / "Pulumi.dev.yaml"
    stack.write_text(
        "config:\n"
        "  gpu-platform:cloud: azure\n"
        "  workloads: [{name: a}]\n"
        "  aws:region: eu-west-1\n"
        "  gpu-platform:kubeconfig:\n"
        "    secure: AAABAK\n"
    )
    read = read_stack_config(stack, "gpu-platform")
    assert read.config["gpu-platform:cloud"] == "azure"
    # Keys without a namespace are the project's; structured values arrive as JSON.
    assert json.loads(read.config["gpu-platform:workloads"]) == [{"name": "a"}]
    assert read.config["aws:region"] == "eu-west-1"
    assert read.config["gpu-platform:kubeconfig"] == SECRET_PLACEHOLDER
    assert read.secret_keys == ["gpu-platform:kubeconfig"]


def test_an_empty_stack_file_has_no_config(tmp_path: Path) -> None:
    empty = tmp_path / "Pulumi.x.yaml"
    empty.write_text("")
    assert read_stack_config(empty, "p").config == {}
