"""Read a Pulumi project and its stack config files the way the Pulumi CLI hands them over.

Both are read with ``yaml_file`` (bounded, duplicate keys refused). What the CLI would take
but silently ignore is refused here: a stack file's top-level key it does not know (``confg:``
drops every value), and a config key whose namespace is almost the project's
(``gpu-platfrom:observability`` is another namespace to Pulumi, so prod's settings would fall
back to the defaults without a word). Keys of other namespaces (``azure-native:location``,
``kubernetes:...``) are the providers' and pass.
"""

from __future__ import annotations

import difflib
import functools
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any

from .yaml_file import FileProblem, InputFileError, YamlDocument, read_yaml

SECRET_PLACEHOLDER = "offline-preview-secret"
"""Stands in for ``secure:`` values, which only the stack's secrets provider can decrypt."""

PROJECT_FILES = ("Pulumi.yaml", "Pulumi.yml")
STACK_FILE_KEYS = frozenset(
    {
        "config",
        "environment",
        "encryptedkey",
        "encryptionsalt",
        "mainEnvironment",
        "secretsprovider",
    }
)
"""The top-level keys of ``Pulumi.<stack>.yaml`` (``ProjectStack`` in pulumi/pulumi
sdk/go/common/workspace/project.go)."""
NEAR_MISS = 0.85
"""``difflib`` similarity from which a namespace is taken for a misspelling of the project's.
Short names fall below it (``ml`` and ``lm`` are 0.5) and are let through: one edit makes
another provider's namespace of a short name (``aks``, ``aws``), and refusing a valid stack
costs more than missing a typo."""


@dataclass(frozen=True)
class StackConfig:
    config: dict[str, str]
    """``namespace:key`` -> value as the program receives it (structured values as JSON)."""
    secret_keys: list[str]


@dataclass(frozen=True)
class Project:
    """What the preview needs of ``Pulumi.yaml``."""

    path: Path
    name: str
    runtime: str
    """``runtime`` or ``runtime.name``: ``python`` for the programs the preview runs."""
    options: dict[str, Any] = field(default_factory=dict)
    """``runtime.options`` (``virtualenv``, ``toolchain``...)."""
    main: str | None = None
    """``main``: the program's file or folder, when not the project folder."""
    stack_config_dir: str | None = None
    """``stackConfigDir``: where the ``Pulumi.<stack>.yaml`` files are."""

    @property
    def folder(self) -> Path:
        return self.path.parent

    def stack_file(self, stack: str) -> Path:
        return self.folder / (self.stack_config_dir or ".") / f"Pulumi.{stack}.yaml"


def project_file(program_dir: Path) -> Path:
    for candidate in PROJECT_FILES:
        path = program_dir / candidate
        if path.is_file():
            return path
    what = "no such folder" if not program_dir.is_dir() else "no Pulumi.yaml in it"
    raise InputFileError(
        program_dir, [FileProblem(f"{what}: not a Pulumi project (--program names its folder)")]
    )


def _at(doc: YamlDocument, *path: str | int) -> tuple[int | None, int | None]:
    return doc.position(*path) or (None, None)


def read_project(program_dir: Path) -> Project:
    """``Pulumi.yaml`` (or ``Pulumi.yml``) of ``program_dir``, checked as the CLI checks it."""
    path = project_file(program_dir)
    doc = read_yaml(path)
    data = doc.data
    if not isinstance(data, Mapping):
        raise InputFileError(
            path, [FileProblem("a project file is a mapping (name:, runtime:)", *doc.root)]
        )
    problems: list[FileProblem] = []
    name = data.get("name")
    if not isinstance(name, str) or not name:
        problems.append(FileProblem("name: required, the project's name", *_at(doc, "name")))
    runtime = data.get("runtime")
    runtime_name, options = runtime, {}
    if isinstance(runtime, Mapping):
        runtime_name, options = runtime.get("name"), runtime.get("options") or {}
    if not isinstance(runtime_name, str) or not isinstance(options, Mapping):
        problems.append(
            FileProblem(
                "runtime: a name, or name: and options: (e.g. runtime: python)",
                *_at(doc, "runtime"),
            )
        )
    main, config_dir = data.get("main"), data.get("stackConfigDir")
    virtualenv = options.get("virtualenv") if isinstance(options, Mapping) else None
    for key, value, at in (
        ("main", main, ("main",)),
        ("stackConfigDir", config_dir, ("stackConfigDir",)),
        ("runtime.options.virtualenv", virtualenv, ("runtime", "options", "virtualenv")),
    ):
        # A NUL byte names no file: the path functions would raise ValueError on it.
        if value is not None and (not isinstance(value, str) or "\0" in value):
            problems.append(FileProblem(f"{key}: a path, relative to Pulumi.yaml", *_at(doc, *at)))
    declared = data.get("config")
    if isinstance(declared, Mapping) and isinstance(name, str):
        problems.extend(_namespace_problems(doc, declared, name, ("config",)))
    if problems:
        raise InputFileError(path, problems)
    return Project(path, str(name), str(runtime_name), dict(options), main, config_dir)


def project_name(program_dir: Path) -> str:
    return read_project(program_dir).name


def _namespace_problems(
    doc: YamlDocument, config: Mapping[Any, Any], project: str, at: tuple[str, ...]
) -> list[FileProblem]:
    """Config keys that are not text, and keys in a namespace that is almost the project's."""
    problems = []
    for key in config:
        where = _at(doc, *at, str(key))
        if not isinstance(key, str) or not key.strip(":"):
            problems.append(FileProblem(f"config key {key!r}: text, namespace:name", *where))
            continue
        namespace, colon, _ = key.partition(":")
        if not colon or namespace == project:
            continue
        if _almost(namespace.lower(), project.lower()) and not _installed(namespace):
            fixed = f"{project}{key[len(namespace) :]}"
            problems.append(
                FileProblem(
                    f"{key!r}: namespace {namespace!r} is almost the project's, {project!r}: "
                    f"Pulumi would pass it to no one and the program would fall back to its "
                    f"default; did you mean {fixed!r}?",
                    *where,
                )
            )
    return problems


def _almost(namespace: str, project: str) -> bool:
    return difflib.SequenceMatcher(None, namespace, project).ratio() >= NEAR_MISS


@functools.cache
def _installed(namespace: str) -> bool:
    """The namespace of a Pulumi provider SDK installed in this interpreter (``kubernetes``:
    pulumi-kubernetes): that provider's config, whatever the project is called. (A program
    run in its own virtualenv may have others, which the similarity alone then judges.)"""
    try:
        metadata.distribution(f"pulumi-{namespace}")
    except (metadata.PackageNotFoundError, ValueError):
        return False
    return True


def read_stack_config(path: Path, project: str) -> StackConfig:
    """Config of a ``Pulumi.<stack>.yaml`` file (or any file of that format)."""
    doc = read_yaml(path)
    data = doc.data if doc.data is not None else {}
    if not isinstance(data, Mapping):
        raise InputFileError(
            path,
            [
                FileProblem(
                    "a stack file is a mapping with config: (and secretsprovider:...)", *doc.root
                )
            ],
        )
    problems: list[FileProblem] = []
    for key in data:
        if key not in STACK_FILE_KEYS:
            close = difflib.get_close_matches(str(key), sorted(STACK_FILE_KEYS), n=1)
            hint = (
                f"did you mean {close[0]!r}?"
                if close
                else "keys: " + ", ".join(sorted(STACK_FILE_KEYS))
            )
            problems.append(
                FileProblem(f"unknown key {key!r} of a stack file; {hint}", *_at(doc, str(key)))
            )
    raw = data.get("config") or {}
    if not isinstance(raw, Mapping):
        problems.append(
            FileProblem("config: a mapping of namespace:key to values", *_at(doc, "config"))
        )
        raw = {}
    problems.extend(_namespace_problems(doc, raw, project, ("config",)))
    if problems:
        raise InputFileError(path, problems)
    config: dict[str, str] = {}
    secret_keys: list[str] = []
    for key, value in raw.items():
        full_key = key if ":" in key else f"{project}:{key}"
        if isinstance(value, Mapping) and set(value) == {"secure"}:
            secret_keys.append(full_key)
            value = SECRET_PLACEHOLDER
        config[full_key] = value if isinstance(value, str) else json.dumps(value)
    return StackConfig(config, secret_keys)


def program_main(project: Project) -> Path:
    """The program's entry point: ``__main__.py`` of the project folder, or of ``main``
    (a folder), or ``main`` itself (a file), as Pulumi's Python host runs it."""
    main = (project.folder / (project.main or ".")).resolve()
    if main.is_dir():
        entry = main / "__main__.py"
        if entry.is_file():
            return entry
        raise InputFileError(
            main,
            [
                FileProblem(
                    "no __main__.py: a Pulumi Python program starts there (or Pulumi.yaml "
                    "main: names its file or folder)"
                )
            ],
        )
    if main.is_file():
        return main
    raise InputFileError(project.path, [FileProblem(f"main: {project.main!r} does not exist")])
