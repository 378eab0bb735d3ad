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

The install is confined (the program's folder is untrusted): uv runs with ``--no-config`` and
an environment without uv or pip settings that say where packages come from or go
(``cache.isolated_install_env``: a ``uv.toml``, ``[tool.uv]`` or ``pip.conf`` beside the
program, ``UV_INDEX_URL``, ``PIP_TARGET``... are not read; what the environment set is named on
stderr), so it goes only into the cached virtualenv, from PyPI or the indexes the
``requirements.txt`` itself names. The virtualenv is marked complete only once its own
interpreter, isolated, finds every requirement installed inside it. ``requirements.txt`` is
read within bounds (``MAX_REQUIREMENTS_BYTES`` a file, ``-r`` includes each once: a file that
includes itself is refused with its line). Under ``--offline`` only a virtualenv already cached
is used, or one installed from uv's cache alone with every requirement pinned by hash.

In another interpreter the program runs under ``offline_preview.program_runner``, found
through ``sys.path`` (our source folder appended, after the program's own packages), and ships
its registrations back as JSON: the policy pack and its dependencies stay in our virtualenv,
and the program gets exactly the SDK versions it pinned.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import json
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
from gpu_platform.stack_config.yaml_file import FileProblem, InputFileError, read_text

from .cache import cache_dir, find_uv, ignored_installer_env, isolated_install_env, offline_mode

PACKAGE_DIR = Path(__file__).resolve().parents[1]
"""The ``gpu_platform`` package this preview runs from (a checkout or site-packages)."""


MAX_REQUIREMENTS_BYTES = 1024 * 1024
"""Largest requirements (or constraints) file read: a team's is a few hundred bytes."""
MAX_INCLUDE_DEPTH = 16
"""Deepest chain of ``-r`` includes followed."""
INCLUDES = ("-r", "--requirement")
CONSTRAINTS = ("-c", "--constraint")


class ProgramEnvError(RuntimeError):
    """The program's Python environment could not be found or built."""


@dataclass(frozen=True)
class RequirementLine:
    """One line of a requirements file (comments and blanks gone), and where it is."""

    file: Path
    number: int
    text: str

    @property
    def where(self) -> str:
        return f"{self.file.name}:{self.number}"


@dataclass(frozen=True)
class Requirements:
    """A ``requirements.txt`` with what it includes: its lines, and every file read (for the
    cache key)."""

    lines: list[RequirementLine]
    files: dict[Path, str]


def _option(text: str) -> tuple[str, str]:
    """``-r file``, ``-rfile``, ``--requirement=file`` -> (``-r``/``--requirement``, file)."""
    for option in (*INCLUDES, *CONSTRAINTS):
        for joiner in (" ", "="):
            if text.startswith(option + joiner):
                return option, text[len(option) + 1 :].strip()
        if option.startswith("-") and not option.startswith("--") and text.startswith(option):
            rest = text[len(option) :]
            if rest and not rest.startswith("-"):
                return option, rest.strip()
    return "", ""


def read_requirements(path: Path) -> Requirements:
    """Every line of ``path`` and the files it includes (``-r``), each within
    ``MAX_REQUIREMENTS_BYTES``; constraint files (``-c``) read for the key only. Bad input
    (``InputFileError`` at the file and line): a file that includes itself, directly or not,
    includes past ``MAX_INCLUDE_DEPTH``, or names a file that cannot be read."""
    lines: list[RequirementLine] = []
    files: dict[Path, str] = {}

    def read(file: Path, at: RequirementLine | None) -> str:
        try:
            return read_text(file, MAX_REQUIREMENTS_BYTES)
        except InputFileError as err:
            if at is None:
                raise
            why = f"{at.text}: {err.problems[0].message}"
            raise InputFileError(at.file, [FileProblem(why, at.number)]) from None

    def walk(file: Path, chain: tuple[Path, ...], at: RequirementLine | None) -> None:
        text = read(file, at)
        files[file] = text
        for number, raw in enumerate(text.splitlines(), 1):
            line = raw.split(" #")[0].strip()
            if not line or line.startswith("#"):
                continue
            entry = RequirementLine(file, number, line)
            option, target = _option(line)
            if option in INCLUDES:
                included = (file.parent / target).resolve()
                if included in (*chain, file):
                    cycle = " -> ".join(p.name for p in (*chain, file, included))
                    why = f"{line}: includes a file already being read ({cycle})"
                    raise InputFileError(file, [FileProblem(why, number)])
                if len(chain) >= MAX_INCLUDE_DEPTH:
                    why = f"{line}: includes nested deeper than {MAX_INCLUDE_DEPTH} files"
                    raise InputFileError(file, [FileProblem(why, number)])
                walk(included, (*chain, file), entry)
            elif option in CONSTRAINTS:
                constraints = (file.parent / target).resolve()
                files[constraints] = read(constraints, entry)
                lines.append(entry)
            else:
                lines.append(entry)

    walk(path.resolve(), (), None)
    return Requirements(lines, files)


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
        text = read_text(path / "pyproject.toml", MAX_REQUIREMENTS_BYTES)  # bounded, no FIFO
        project = tomllib.loads(text)["project"]
        return str(project["name"]), dict(project.get("optional-dependencies", {}))
    except (InputFileError, KeyError, TypeError, tomllib.TOMLDecodeError):
        return None


def _satisfied(line: str, base: Path) -> bool:
    """Whether this interpreter already has what one requirements line asks for (an include
    is read line by line: ``read_requirements``)."""
    option, _, value = line.partition(" ")
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
    return all(
        _satisfied(line.text, line.file.parent) for line in read_requirements(requirements).lines
    )


def _requirement_names(requirements: Requirements) -> list[str]:
    """The distributions the requirements name, for this interpreter (markers evaluated):
    what the virtualenv must hold."""
    names: list[str] = []
    for line in requirements.lines:
        text = line.text
        option, _, value = text.partition(" ")
        if option in ("-e", "--editable") or text.startswith((".", "/")):
            given = (value if option.startswith("-") else text).split(" --hash")[0].strip()
            path = given.partition("[")[0]
            if path.endswith(".whl"):  # the wheel's file name holds its distribution's name
                names.append(Path(path).name.split("-", 1)[0])
            elif (local := _local_project(line.file.parent / path)) is not None:
                names.append(local[0])
            continue
        if text.startswith("-"):
            continue
        try:
            req = Requirement(text.split(" --hash")[0].strip())
        except InvalidRequirement:
            continue
        if req.marker is None or req.marker.evaluate():
            names.append(req.name)
    return names


def _pinned_by_hash(requirements: Requirements) -> list[RequirementLine]:
    """The requirement lines without a ``--hash`` (what ``--offline`` refuses to install)."""
    return [
        line
        for line in requirements.lines
        if not line.text.startswith("-") and "--hash=" not in line.text
    ]


_VERIFY = """
import importlib.metadata as metadata, json, os, sys
prefix = os.path.realpath(sys.prefix)
found = {"prefix": prefix, "missing": [], "outside": []}
for name in json.loads(sys.argv[1]):
    try:
        dist = metadata.distribution(name)
    except metadata.PackageNotFoundError:
        found["missing"].append(name)
        continue
    where = os.path.realpath(str(dist.locate_file("")))
    if os.path.commonpath([prefix, where]) != prefix:
        found["outside"].append(f"{name} ({where})")
print(json.dumps(found))
"""
"""Run by the virtualenv's own interpreter, isolated (``-I``: no PYTHONPATH, no user site):
which requirements it does not find, or finds outside itself."""


def verify_venv(venv: Path, names: list[str]) -> str:
    """Why ``venv`` does not hold ``names`` (empty: it does)."""
    done = subprocess.run(
        [str(_python_of(venv)), "-I", "-c", _VERIFY, json.dumps(names)],
        capture_output=True,
        text=True,
        check=False,
        cwd=venv,
        env=isolated_install_env(),
    )
    if done.returncode != 0:
        return f"its interpreter does not run: {done.stderr.strip()[-300:]}"
    found = json.loads(done.stdout)
    if Path(found["prefix"]) != venv.resolve():
        return f"its interpreter runs from {found['prefix']}, not from the virtualenv"
    if found["missing"]:
        return f"not installed in it: {', '.join(found['missing'])}"
    if found["outside"]:
        return f"installed outside it: {', '.join(found['outside'])}"
    return ""


def _uv() -> str:
    found = find_uv()
    if not found:
        raise ProgramEnvError(
            "uv is needed to install the program's requirements.txt: run make venv"
        )
    return found


def _key(requirements: Requirements) -> str:
    """The cache key: every file read (the requirements, their includes and constraints),
    this Python and platform."""
    digest = hashlib.sha256(f"{platform.python_version()} {sys.platform}".encode())
    for path, text in sorted(requirements.files.items()):
        digest.update(f"\0{path.name}\0{text}".encode())
    return digest.hexdigest()[:16]


COMPLETE = ".complete"
"""Written into a cached virtualenv once it is verified; a virtualenv without it is rebuilt."""


def cached_venv(requirements: Path) -> Path:
    """The virtualenv with ``requirements`` installed, built once per content and Python,
    confined to the cache and verified before it is marked complete."""
    read = read_requirements(requirements)
    venv = cache_root() / _key(read)
    if (venv / COMPLETE).exists() and _python_of(venv).exists():
        return venv
    offline = offline_mode()
    if offline and (unpinned := _pinned_by_hash(read)):
        shown = "; ".join(f"{line.where}: {line.text}" for line in unpinned[:3])
        raise ProgramEnvError(
            f"--offline installs only requirements pinned by hash, and {len(unpinned)} of "
            f"{requirements} are not ({shown}): pin them (`uv pip compile --generate-hashes`), "
            "or build the cached virtualenv once without --offline"
        )
    uv = _uv()
    ignored = ignored_installer_env()
    print(
        f"offline preview: installing {requirements} into {venv} (once; later runs reuse it)"
        + (f"; not read from the environment: {', '.join(ignored)}" if ignored else ""),
        file=sys.stderr,
    )
    if venv.exists():
        shutil.rmtree(venv)  # a half-built or unverified one
    venv.parent.mkdir(parents=True, exist_ok=True)
    install = [uv, "pip", "install", "-q", "--no-config", "-p", str(_python_of(venv))]
    if offline:
        install += ["--offline", "--require-hashes"]
    for command in (
        [uv, "venv", "-q", "--no-config", "-p", sys.executable, str(venv)],
        [*install, "-r", str(requirements.resolve())],
    ):
        done = subprocess.run(
            command,
            cwd=requirements.parent,
            capture_output=True,
            text=True,
            check=False,
            env=isolated_install_env(),
        )
        if done.returncode != 0:
            raise ProgramEnvError(
                f"installing {requirements} failed ({' '.join(command[1:3])}):\n"
                f"{done.stderr.strip()[-2000:]}"
            )
    problem = verify_venv(venv, _requirement_names(read))
    if problem:
        shutil.rmtree(venv, ignore_errors=True)
        raise ProgramEnvError(
            f"installing {requirements} into {venv} did not give a virtualenv that holds "
            f"them: {problem}"
        )
    (venv / COMPLETE).write_text(str(requirements) + "\n")
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
