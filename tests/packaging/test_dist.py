"""The package as a user gets it: both wheels built from a clean clone, installed into fresh
virtualenvs at the versions ``constraints.txt`` pins, and programs outside the repository
(with their own ``components`` package and ``settings`` module) previewed with the installed
``gpu-platform-preview`` on the mock engine, our policy pack included.

Marked ``packaging``: ``make dist-check`` runs these (CI does, after ``make test``); they build
and install real distributions (about a minute), which ``make test``'s budget leaves out.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from email.parser import Parser
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CONSUMERS = Path(__file__).resolve().parent / "consumers"
VERSION = (ROOT / "policies" / "VERSION").read_text().strip()

pytestmark = pytest.mark.packaging


def uv() -> str:
    found = shutil.which("uv", path=f"{ROOT / '.venv' / 'bin'}{os.pathsep}{os.environ['PATH']}")
    assert found, "uv: make venv bootstraps it into .venv"
    return found


def run(*command: str | Path, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        [str(c) for c in command], cwd=cwd, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, f"{command}:\n{done.stdout}\n{done.stderr}"
    return done


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Wheels and sdists of both distributions, built from a clean clone of HEAD."""
    work = tmp_path_factory.mktemp("build")
    run("git", "clone", "-q", ROOT, work / "clone")
    out = work / "dist"
    for project in (work / "clone", work / "clone" / "policies"):
        run(uv(), "build", "-q", "--out-dir", out, project)
    return out


def wheel(dist: Path, name: str) -> Path:
    (found,) = dist.glob(f"{name}-{VERSION}-py3-none-any.whl")
    return found


def metadata(path: Path) -> dict[str, list[str]]:
    with zipfile.ZipFile(path) as whl:
        (meta,) = [n for n in whl.namelist() if n.endswith(".dist-info/METADATA")]
        parsed = Parser().parsestr(whl.read(meta).decode())
    return {key: parsed.get_all(key) or [] for key in set(parsed.keys())}


def top_level(path: Path) -> set[str]:
    with zipfile.ZipFile(path) as whl:
        return {n.split("/")[0] for n in whl.namelist() if ".dist-info/" not in n}


def test_both_distributions_build_at_one_version(dist: Path) -> None:
    assert sorted(p.name for p in dist.iterdir() if p.suffix in {".whl", ".gz"}) == sorted(
        [
            f"gpu_platform-{VERSION}-py3-none-any.whl",
            f"gpu_platform-{VERSION}.tar.gz",
            f"gpu_platform_policies-{VERSION}-py3-none-any.whl",
            f"gpu_platform_policies-{VERSION}.tar.gz",
        ]
    )


def test_nothing_generic_lands_at_the_top_of_site_packages(dist: Path) -> None:
    assert top_level(wheel(dist, "gpu_platform")) == {"gpu_platform"}
    assert top_level(wheel(dist, "gpu_platform_policies")) == {
        "gpu_facts",
        "gpu_policies",
        "gpu_policy_support",
    }
    with zipfile.ZipFile(wheel(dist, "gpu_platform")) as whl:
        names = set(whl.namelist())
    # The components are real files in the wheel (the checkout's link is resolved).
    assert "gpu_platform/components/aks/gpu_node_pool.py" in names
    assert "gpu_platform/observability/gpu-rules.yaml" in names
    assert not any(n.startswith(("gpu_platform/tests", "tests/", "bench/", "scan/")) for n in names)


def test_wheel_metadata(dist: Path) -> None:
    meta = metadata(wheel(dist, "gpu_platform"))
    assert meta["Name"] == ["gpu-platform"]
    assert meta["Version"] == [VERSION]
    assert sorted(meta["Provides-Extra"]) == ["alicloud", "azure", "verify"]
    requires = meta["Requires-Dist"]
    assert f"gpu-platform-policies=={VERSION}" in requires
    assert any(r.startswith("pulumi-azure-native") and 'extra == "azure"' in r for r in requires)
    assert any(r.startswith("pulumi-alicloud") and 'extra == "alicloud"' in r for r in requires)
    assert not any(
        r.startswith(("pulumi-azure-native", "pulumi-alicloud")) and "extra" not in r
        for r in requires
    )
    assert metadata(wheel(dist, "gpu_platform_policies"))["Version"] == [VERSION]


@pytest.mark.parametrize("name", ["gpu_platform", "gpu_platform_policies"])
def test_both_wheels_carry_the_apache_license(dist: Path, name: str) -> None:
    meta = metadata(wheel(dist, name))
    assert meta["License-Expression"] == ["Apache-2.0"]
    with zipfile.ZipFile(wheel(dist, name)) as whl:
        (text,) = [whl.read(n) for n in whl.namelist() if n.endswith(".dist-info/licenses/LICENSE")]
    assert text == (ROOT / "LICENSE").read_bytes()


def install(dist: Path, venv: Path, extra: str) -> Path:
    run(uv(), "venv", "-q", "-p", sys.executable, venv)
    python = venv / "bin" / "python"
    run(
        uv(), "pip", "install", "-q", "-p", python,
        "-c", ROOT / "constraints.txt",
        wheel(dist, "gpu_platform_policies"),
        f"gpu-platform[{extra}] @ {wheel(dist, 'gpu_platform').as_uri()}",
    )  # fmt: skip
    return venv


def preview(venv: Path, program: Path) -> dict:
    done = subprocess.run(
        [venv / "bin" / "gpu-platform-preview", "--stack", "dev", "--format", "json"],
        cwd=program,
        capture_output=True,
        text=True,
        check=False,
        env={k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")},
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_an_aks_team_program_previews_with_the_installed_package(
    dist: Path, tmp_path: Path
) -> None:
    venv = install(dist, tmp_path / "venv", "azure")
    program = shutil.copytree(CONSUMERS / "aks-team", tmp_path / "aks-team")
    plan = preview(venv, program)
    types = {(r["type"], r["name"]) for r in plan["resources"]}
    assert ("gpu-platform:index:AksGpuNodePool", "gpu") in types
    assert ("azure-native:containerservice:AgentPool", "gpu-pool") in types
    assert ("gpu-platform:index:NvidiaDevicePlugin", "plugin") in types
    assert plan["outputs"]["poolName"] == "t4"
    (agent_pool,) = [r for r in plan["resources"] if r["name"] == "gpu-pool"]
    assert agent_pool["inputs"]["nodeLabels"]["team"] == "vision"
    assert plan["violations"] == []


def test_an_ack_team_program_never_imports_azure_native(dist: Path, tmp_path: Path) -> None:
    venv = install(dist, tmp_path / "venv", "alicloud")
    found = subprocess.run(
        [venv / "bin" / "python", "-c", "import pulumi_azure_native"],
        capture_output=True,
        check=False,
    )
    assert found.returncode != 0, "gpu-platform[alicloud] must not install azure-native"
    program = shutil.copytree(CONSUMERS / "ack-team", tmp_path / "ack-team")
    (program / "Pulumi.dev.yaml").write_text("config: {}\n")
    plan = preview(venv, program)
    assert ("alicloud:cs/nodePool:NodePool", "gpu-pool") in {
        (r["type"], r["name"]) for r in plan["resources"]
    }
    assert plan["outputs"]["azureNativeImported"] is False


def test_the_provider_folder_installs_from_a_clone(tmp_path: Path) -> None:
    """What ``pulumi package add <repo>/provider@vX.Y.Z`` does: clone, make a virtualenv in the
    folder, install its requirements from inside it (the relative paths resolve in the clone),
    then start it as a plugin and ask its schema."""
    clone = tmp_path / "clone"
    run("git", "clone", "-q", ROOT, clone)
    folder = clone / "provider"
    venv = folder / "venv"
    run(uv(), "venv", "-q", "-p", sys.executable, venv)
    run(
        uv(), "pip", "install", "-q", "-p", venv / "bin" / "python",
        "-r", "requirements.txt", "-c", ROOT / "constraints.txt",
        cwd=folder,
    )  # fmt: skip
    schema = run(venv / "bin" / "python", "-m", "gpu_platform.component_provider", cwd=tmp_path)
    assert json.loads(schema.stdout) == json.loads((ROOT / "provider" / "schema.json").read_text())
