"""scripts/install.sh picks the uv that installs: the PATH's, the one the interpreter can import,
else the pinned one that pip installs into the new venv.

Each situation runs the real script against a fake uv that records how it was called (and
makes the venv with ``python -m venv``), on the base interpreter, with a PATH and an
environment of the test's own: no network, no uv of the machine, no cache.
"""

from __future__ import annotations

import functools
import importlib.metadata
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.wheels import write_wheel

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "install.sh"
PIN = next(
    line for line in (ROOT / "constraints.txt").read_text().splitlines() if line.startswith("uv==")
)
VERSION = PIN.removeprefix("uv==")
BASE = Path(getattr(sys, "_base_executable", sys.executable))
"""The interpreter our venv was made from: a user's ``python3``, with its own pip."""
SYSTEM_PATH = "/usr/bin:/bin"

FAKE_UV = """\
import json, os, subprocess, sys
args = sys.argv[1:]
with open(os.environ["FAKE_UV_LOG"], "a") as log:
    log.write(json.dumps([os.environ["FAKE_UV_WHO"] if "FAKE_UV_WHO" in os.environ
                          else __file__, *args]) + "\\n")
if args == ["--version"]:
    print("uv {version} (fake)")
elif args[:1] == ["venv"]:
    subprocess.run([args[args.index("-p") + 1], "-m", "venv", "--without-pip", args[-1]],
                   check=True)
""".replace("{version}", VERSION)


@functools.cache
def _base_has_pip() -> bool:
    done = subprocess.run(
        [BASE, "-m", "pip", "--version"], capture_output=True, env=_env(), check=False
    )
    return done.returncode == 0


@functools.cache
def _base_runs_uv() -> bool:
    done = subprocess.run(
        [BASE, "-m", "uv", "--version"], capture_output=True, env=_env(), check=False
    )
    return done.returncode == 0


def _env(**extra: str) -> dict[str, str]:
    """A user's shell without uv: no user site-packages, no pip index (pip may only read the
    test's wheels), no virtualenv of ours."""
    keep = ("HOME", "LANG", "SSL_CERT_FILE", "SSL_CERT_DIR", "TMPDIR")
    env = {k: os.environ[k] for k in keep if k in os.environ}
    return {"PATH": SYSTEM_PATH, "PYTHONNOUSERSITE": "1", "PIP_NO_INDEX": "1", **env, **extra}


pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        shutil.which("uv", path=SYSTEM_PATH) is not None, reason=f"uv is in {SYSTEM_PATH}"
    ),
]


def _install(tmp_path: Path, **env: str) -> tuple[Path, list[list[str]]]:
    """Run install.sh for the base interpreter into a fresh venv; the venv and the fake uv's
    calls (first item: which uv)."""
    log = tmp_path / "uv-calls.jsonl"
    venv = tmp_path / "venv"
    done = subprocess.run(
        ["bash", SCRIPT, str(BASE), str(venv)],
        cwd=ROOT,
        env=_env(FAKE_UV_LOG=str(log), **env),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    calls = [json.loads(line) for line in log.read_text().splitlines()] if log.exists() else []
    return venv, calls


def _installs_requirements(venv: Path) -> list[str]:
    return [
        "pip",
        "install",
        "-q",
        "-p",
        f"{venv}/bin/python",
        "-r",
        "requirements-dev.txt",
        "-c",
        "constraints.txt",
        "-b",
        "constraints.txt",
    ]


def test_uv_on_the_path_installs(tmp_path: Path) -> None:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "uv").write_text(f"#!{BASE}\n{FAKE_UV}")
    (bin_dir / "uv").chmod(0o755)
    venv, calls = _install(tmp_path, PATH=f"{bin_dir}:{SYSTEM_PATH}", FAKE_UV_WHO="path")
    assert calls == [
        ["path", "venv", "-q", "-p", str(BASE), str(venv)],
        ["path", *_installs_requirements(venv)],
    ]
    assert (venv / "bin" / "python").exists()


def _importable_uv(tmp_path: Path, runnable: bool) -> Path:
    """A uv distribution on PYTHONPATH, as ``pip install --user uv`` leaves one: pip counts it
    as installed. ``runnable``: ``python -m uv`` works (else its binary is missing)."""
    site = tmp_path / "site"
    (site / "uv").mkdir(parents=True)
    (site / "uv" / "__init__.py").write_text("")
    if runnable:
        (site / "uv" / "__main__.py").write_text(FAKE_UV)
    meta = site / f"uv-{VERSION}.dist-info"
    meta.mkdir()
    (meta / "METADATA").write_text(f"Metadata-Version: 2.1\nName: uv\nVersion: {VERSION}\n")
    (meta / "RECORD").write_text("")
    return site


def test_uv_the_interpreter_imports_installs_without_being_on_the_path(tmp_path: Path) -> None:
    site = _importable_uv(tmp_path, runnable=True)
    venv, calls = _install(tmp_path, PYTHONPATH=str(site), FAKE_UV_WHO="python -m uv")
    assert calls == [
        ["python -m uv", "--version"],
        ["python -m uv", "venv", "-q", "-p", str(BASE), str(venv)],
        ["python -m uv", *_installs_requirements(venv)],
    ]


@pytest.mark.parametrize("seen_by_pip", [False, True], ids=["clean", "uv-seen-by-pip"])
def test_without_uv_pip_bootstraps_the_pinned_uv_into_the_venv(
    tmp_path: Path, seen_by_pip: bool
) -> None:
    """A clean interpreter; and one whose pip sees a uv it cannot run (pip would answer
    "already satisfied" to an install into the venv's prefix and install nothing)."""
    # Asked here, not in a skipif: that would start both interpreters in every test process
    # as it collects (each xdist worker), whether this test runs there or not.
    if not _base_has_pip():
        pytest.skip(f"{BASE} has no pip")
    if _base_runs_uv():
        pytest.skip(f"uv is installed into {BASE} itself")
    wheels = tmp_path / "wheels"
    wheels.mkdir()
    script = f"#!python\n{FAKE_UV}".encode()
    write_wheel(wheels, "uv", VERSION, {f"uv-{VERSION}.data/scripts/uv": script})
    extra = {"PYTHONPATH": str(_importable_uv(tmp_path, runnable=False))} if seen_by_pip else {}
    venv, calls = _install(tmp_path, PIP_FIND_LINKS=str(wheels), FAKE_UV_WHO="venv", **extra)
    assert calls == [["venv", *_installs_requirements(venv)]]
    assert (venv / "bin" / "uv").read_text().endswith(FAKE_UV)
    assert not (venv / "bin" / "pip").exists()  # the venv was not seeded with pip


def test_the_venv_always_gets_the_pinned_uv() -> None:
    """Whichever uv installed, requirements-dev.txt puts the pinned one into .venv/bin."""
    dev = (ROOT / "requirements-dev.txt").read_text().splitlines()
    assert any(line.split(">")[0].split("=")[0].strip() == "uv" for line in dev)
    # And this venv, installed by the script, has it.
    assert importlib.metadata.version("uv") == VERSION
    assert (Path(sys.prefix) / "bin" / "uv").is_file()
