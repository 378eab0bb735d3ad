"""Which Python runs a team's program: ours, the program's own virtualenv, or a cached one.

A team program brings its own SDKs (pulumi-aws, pulumi-gcp, pulumi-eks...), which our
virtualenv does not have and should not grow with. As ``pulumi preview`` would, the program
runs with the packages its project declares:

1. ``Pulumi.yaml`` ``runtime.options.virtualenv``, when that virtualenv exists;
2. else a ``requirements.txt`` next to ``Pulumi.yaml``: when this interpreter already
   satisfies it, the program runs here (our own stacks and examples do); otherwise it is
   installed once, with uv, into a virtualenv cached by the file's content
   (``~/.cache/gpu-platform/venvs/<hash>``, or under ``$GPU_PLATFORM_CACHE``);
3. else this interpreter; a missing SDK then fails with a message that names it.

In another interpreter the program runs under ``offline_preview.program_runner``, found
through ``sys.path`` (our source folder appended, after the program's own packages), and ships
its registrations back as JSON: the policy pack and its dependencies stay in our virtualenv,
and the program gets exactly the SDK versions it pinned.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import os
import platform
import shutil
import subprocess
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path

from packaging.requirements import InvalidRequirement, Requirement

from gpu_platform.stack_config.files import PROJECT_FILES, Project, read_project

from .cache import cache_dir, find_uv

PACKAGE_DIR = Path(__file__).resolve().parents[1]
"""The ``gpu_platform`` package this preview runs from (a checkout or site-packages)."""


class ProgramEnvError(RuntimeError):
    """The program's Python environment could not be found or built."""


@dataclass(frozen=True)
class ProgramPython:
    python: Path | None
    """None: this interpreter runs the program, in this process."""
    origin: str
    """What chose it, for messages (``Pulumi.yaml runtime.options.virtualenv``...)."""


def cache_root() -> Path:
    return cache_dir("venvs")


def declared_virtualenv(program_dir: Path, project: Project | None = None) -> Path | None:
    """``runtime.options.virtualenv`` of the program's ``Pulumi.yaml`` (``project``, when the
    caller has read it already), resolved."""
    if project is None:
        if not any((program_dir / name).is_file() for name in PROJECT_FILES):
            return None
        project = read_project(program_dir)
    venv = project.options.get("virtualenv")
    return (program_dir / str(venv)).resolve() if venv else None


def _python_of(venv: Path) -> Path:
    return venv / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def _is_this_interpreter(venv: Path) -> bool:
    return venv.resolve() == Path(sys.prefix).resolve()


def _installed(name: str) -> str | None:
    try:
        return importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return None


def _local_project(path: Path) -> tuple[str, dict[str, list[str]]] | None:
    """The distribution name of a local project folder (``-e ./policies``) and its extras."""
    try:
        project = tomllib.loads((path / "pyproject.toml").read_text())["project"]
        return str(project["name"]), dict(project.get("optional-dependencies", {}))
    except (OSError, KeyError, tomllib.TOMLDecodeError):
        return None


def _satisfied(line: str, base: Path) -> bool:
    """Whether this interpreter already has what one requirements line asks for."""
    option, _, value = line.partition(" ")
    if option in ("-r", "--requirement"):
        return requirements_satisfied(base / value.strip())
    if option in ("-e", "--editable") or line.startswith((".", "/")):
        # A local project, with extras maybe (``-e .[azure]``): installed, and so are its extras.
        path, _, extras = (value if option.startswith("-") else line).strip().partition("[")
        local = _local_project(base / path)
        if local is None or _installed(local[0]) is None:
            return False
        wanted = [e.strip() for e in extras.rstrip("]").split(",") if e.strip()]
        return all(_satisfied(r, base) for e in wanted for r in local[1].get(e, [None]) if r)
    if line.startswith("-"):
        return True  # index and constraint options change no requirement
    try:
        req = Requirement(line)
    except InvalidRequirement:
        return False  # only an install can tell
    if req.marker is not None and not req.marker.evaluate():
        return True
    version = _installed(req.name)
    if req.url or version is None:
        return False
    return req.specifier.contains(version, prereleases=True)


def requirements_satisfied(requirements: Path) -> bool:
    lines = [line.split(" #")[0].strip() for line in requirements.read_text().splitlines()]
    return all(_satisfied(line, requirements.parent) for line in lines if line and line[0] != "#")


def _uv() -> str:
    found = find_uv()
    if not found:
        raise ProgramEnvError(
            "uv is needed to install the program's requirements.txt: run make venv"
        )
    return found


def cached_venv(requirements: Path) -> Path:
    """The virtualenv with ``requirements`` installed, built once per content and Python."""
    text = requirements.read_bytes()
    key = hashlib.sha256(text + f"{platform.python_version()} {sys.platform}".encode()).hexdigest()[
        :16
    ]
    venv = cache_root() / key
    if (venv / ".complete").exists():
        return venv
    uv = _uv()
    print(
        f"offline preview: installing {requirements} into {venv} (once; later runs reuse it)",
        file=sys.stderr,
    )
    if venv.exists():
        shutil.rmtree(venv)  # a half-built one from an interrupted run
    venv.parent.mkdir(parents=True, exist_ok=True)
    for command in (
        [uv, "venv", "-q", "-p", sys.executable, str(venv)],
        [uv, "pip", "install", "-q", "-p", str(_python_of(venv)), "-r", requirements.name],
    ):
        done = subprocess.run(
            command, cwd=requirements.parent, capture_output=True, text=True, check=False
        )
        if done.returncode != 0:
            raise ProgramEnvError(
                f"installing {requirements} failed ({' '.join(command[:3])}):\n"
                f"{done.stderr.strip()}"
            )
    (venv / ".complete").write_text(str(requirements) + "\n")
    return venv


def program_python(program_dir: Path, project: Project | None = None) -> ProgramPython:
    """The interpreter that runs ``program_dir`` (see the module docstring for the order);
    ``project``: its ``Pulumi.yaml``, when the caller has read it already."""
    program_dir = program_dir.resolve()
    venv = declared_virtualenv(program_dir, project)
    if venv is not None and _python_of(venv).exists():
        if _is_this_interpreter(venv):
            return ProgramPython(None, "this virtualenv (Pulumi.yaml runtime.options.virtualenv)")
        return ProgramPython(_python_of(venv), f"Pulumi.yaml runtime.options.virtualenv: {venv}")
    requirements = program_dir / "requirements.txt"
    if requirements.exists():
        if requirements_satisfied(requirements):
            return ProgramPython(None, "this virtualenv (it satisfies requirements.txt)")
        return ProgramPython(
            _python_of(cached_venv(requirements)), f"cached virtualenv for {requirements}"
        )
    return ProgramPython(None, "this virtualenv (the program declares no requirements)")
