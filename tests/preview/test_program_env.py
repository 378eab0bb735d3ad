"""A team program brings its own SDKs: it runs in its own (or a cached) virtualenv, and its
registrations come back to our policy pack unchanged. Offline: uv installs from wheels the test
makes, with a cache of its own."""

from __future__ import annotations

import importlib.metadata
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from gpu_platform.offline_preview.cli import EXIT_OK, EXIT_PROGRAM, main
from gpu_platform.offline_preview.program_env import program_python, requirements_satisfied
from tests.wheels import wheelhouse, write_wheel

UV = Path(sys.prefix) / "bin" / "uv"
SITE_PACKAGES = next(p for p in sys.path if p.endswith("site-packages"))

PROGRAM = """
import sys
import pulumi
import pulumi_kubernetes as k8s

cfg = pulumi.Config()
if cfg.get_bool("fail"):
    raise RuntimeError("the team's own bug")
ns = k8s.core.v1.Namespace("ml", metadata={"name": "ml"})
pod = k8s.core.v1.Pod(
    "train",
    metadata={"namespace": "default"},
    spec={"containers": [{"name": "t", "image": "nvidia/cuda:latest",
                          "resources": {"limits": {"nvidia.com/gpu": 1}}}]},
)
pulumi.export("prefix", sys.prefix)
pulumi.export("podName", pod.metadata.name)
pulumi.export("token", pulumi.Output.secret("s3cret"))
"""


def _program(root: Path, runtime: str = "python") -> Path:
    program = root / "team"
    program.mkdir()
    (program / "Pulumi.yaml").write_text(f"name: team\nruntime: {runtime}\n")
    (program / "__main__.py").write_text(PROGRAM)
    return program


def _preview(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict[str, Any], str]:
    code = main([*argv, "--format", "json"])
    captured = capsys.readouterr()
    return code, json.loads(captured.out) if captured.out else {}, captured.err


@pytest.mark.slow
def test_a_declared_virtualenv_runs_the_program_and_the_pack_judges_it_as_here(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    program = _program(tmp_path, "\n  name: python\n  options:\n    virtualenv: venv")
    venv = program / "venv"
    subprocess.run([UV, "venv", "-q", "-p", sys.executable, venv], check=True)
    # Its packages: ours, through a .pth (a team's venv would have installed its own).
    (next(venv.glob("lib/python*/site-packages")) / "ours.pth").write_text(SITE_PACKAGES + "\n")
    assert program_python(program).python == venv.resolve() / "bin" / "python"

    code, there, _ = _preview(capsys, "--program", str(program), "--debug")
    assert code in (EXIT_OK, 1), _
    # Auto-named as pulumi-kubernetes' Check names it, which a preview knows.
    assert re.fullmatch(r"train-[0-9a-f]{8}", there["outputs"].pop("podName"))
    assert there["outputs"] == {"prefix": str(venv.resolve()), "token": "[secret]"}
    # The same program in this interpreter: the same plan and the same verdicts.
    (program / "Pulumi.yaml").write_text("name: team\nruntime: python\n")
    code_here, here, _ = _preview(capsys, "--program", str(program))
    assert code_here == code
    assert here["outputs"]["prefix"] == sys.prefix
    assert here["resources"] == there["resources"]
    assert here["violations"] == there["violations"] != []

    # A failure in there is explained as one here.
    (program / "Pulumi.yaml").write_text(
        "name: team\nruntime:\n  name: python\n  options:\n    virtualenv: venv\n"
    )
    (program / "Pulumi.dev.yaml").write_text("config:\n  team:fail: 'true'\n")
    code, plan, err = _preview(capsys, "--program", str(program))
    assert (code, plan) == (EXIT_PROGRAM, {})
    assert err.splitlines()[:3] == [
        "error: the program failed: RuntimeError: the team's own bug",
        '  at: __main__.py:8: raise RuntimeError("the team\'s own bug")',
        "  cause: the program's own error",
    ]


@pytest.mark.slow
def test_requirements_install_once_into_a_cached_virtualenv(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GPU_PLATFORM_CACHE", str(tmp_path / "cache"))
    # Hermetic: uv's own cache, empty, and no index; the only packages are the wheels of
    # pulumi and its dependencies repacked from this venv (the versions we run), so the
    # resolution is the same on every machine whatever the machine's uv cache holds.
    wheels = tmp_path / "wheels"
    wheels.mkdir()
    wheelhouse("pulumi", wheels)
    # Where packages come from is the requirements' own say (`--find-links`): the install
    # reads no uv or pip setting of the environment that says so.
    for var, value in {"UV_OFFLINE": "1", "UV_CACHE_DIR": str(tmp_path / "uv-cache")}.items():
        monkeypatch.setenv(var, value)
    program = tmp_path / "team"
    program.mkdir()
    (program / "Pulumi.yaml").write_text("name: team\nruntime: python\n")
    (program / "__main__.py").write_text(
        "import sys\nimport pulumi\nimport team_gpu_sdk\n"
        "pulumi.export('sdk', team_gpu_sdk.GREETING)\npulumi.export('prefix', sys.prefix)\n"
    )
    wheel = write_wheel(
        program, "team_gpu_sdk", "1.0.0", {"team_gpu_sdk.py": b"GREETING = 'from the team venv'\n"}
    )
    pulumi_version = importlib.metadata.version("pulumi")
    (program / "requirements.txt").write_text(
        f"--find-links {wheels}\npulumi=={pulumi_version}\n./{wheel.name}\n"
    )
    assert not requirements_satisfied(program / "requirements.txt")

    code, plan, err = _preview(capsys, "--program", str(program))
    assert (code, plan["outputs"]["sdk"]) == (EXIT_OK, "from the team venv"), err
    venv = Path(plan["outputs"]["prefix"])
    assert venv.parent == tmp_path / "cache" / "venvs"
    assert "offline preview: installing" in err
    # Once: the next run reuses it.
    assert program_python(program).python == venv / "bin" / "python"
    assert capsys.readouterr().err == ""


def test_requirements_this_interpreter_satisfies_run_here(tmp_path: Path) -> None:
    requirements = tmp_path / "requirements.txt"
    requirements.write_text(
        "# the team's pins\npulumi>=3.0.0,<4.0.0\npulumi-kubernetes>=4.0  # k8s\n"
        "--index-url https://example.invalid/simple\n"
        'pulumi-gcp>=7 ; python_version < "3.0"\n'
    )
    assert requirements_satisfied(requirements)
    assert program_python(tmp_path).python is None
    requirements.write_text("pulumi>=3.0.0\npulumi-aws>=6.0.0,<7.0.0\n")
    assert not requirements_satisfied(requirements)
    requirements.write_text("pulumi<3\n")
    assert not requirements_satisfied(requirements)


def test_our_own_project_runs_here() -> None:
    root = Path(__file__).resolve().parents[2]
    assert requirements_satisfied(root / "requirements.txt")  # `-e ./policies` included
    assert program_python(root).python is None


def test_team_examples_bring_sdks_we_do_not_install() -> None:
    examples = Path(__file__).resolve().parents[2] / "examples"
    assert not requirements_satisfied(examples / "eks-gpu-team" / "requirements.txt")
    assert not requirements_satisfied(examples / "gke-gpu-team" / "requirements.txt")
    assert requirements_satisfied(examples / "good-gpu-workload" / "requirements.txt")
    ours = (examples.parent / "requirements.txt").read_text()
    assert "pulumi-aws" not in ours and "pulumi-gcp" not in ours
