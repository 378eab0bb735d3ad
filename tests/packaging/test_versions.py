"""One version: ``policies/VERSION``. Everything else that states it reads that file, or is
checked against it here (what cannot read a file: the pin in pyproject.toml, the pack's
PulumiPolicy.yaml, the changelog's newest entry)."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import yaml

import gpu_platform
from gpu_policies.registry import PACK_VERSION

ROOT = Path(__file__).resolve().parents[2]
VERSION = (ROOT / "policies" / "VERSION").read_text().strip()


def test_the_version_is_semver() -> None:
    assert re.fullmatch(r"\d+\.\d+\.\d+", VERSION)


def test_the_package_and_the_pack_report_it() -> None:
    assert gpu_platform.__version__ == VERSION
    assert PACK_VERSION == VERSION


def test_the_pack_manifest_states_it() -> None:
    manifest = yaml.safe_load((ROOT / "policies" / "PulumiPolicy.yaml").read_text())
    assert str(manifest["version"]) == VERSION


def test_gpu_platform_pins_the_policies_of_the_same_release() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert f"gpu-platform-policies=={VERSION}" in project["dependencies"]
    assert project["dynamic"] == ["version"]
    policies = tomllib.loads((ROOT / "policies" / "pyproject.toml").read_text())["project"]
    assert policies["dynamic"] == ["version"]


def test_the_changelog_describes_it() -> None:
    entries = re.findall(r"^## \[?(\d+\.\d+\.\d+)\]?", (ROOT / "CHANGELOG.md").read_text(), re.M)
    assert entries, "CHANGELOG.md has no release entries"
    assert entries[0] == VERSION
