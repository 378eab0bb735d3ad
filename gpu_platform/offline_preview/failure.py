"""Why a program failed on the offline engine, in a few lines a person can act on.

Exit status 3 comes with: where in the program, which resource (type and name) and which
invoke were involved, whether it is the program's own error or a limit of the offline engine,
and the way past it. The traceback is kept for ``--debug``.
"""

from __future__ import annotations

import re
import traceback
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import Any

import pulumi
from pulumi import _types as sdk_types

from .kube_manifests import (
    MANIFEST_MAX_BYTES,
    MANIFEST_MAX_DEPTH,
    MANIFEST_MAX_VALUES,
    ManifestError,
)
from .program_guard import ProgramExited, ProgramOutOfMemory, ProgramRaised, ProgramTimedOut

PROGRAM_ERROR = "program"
ENGINE_LIMIT = "offline-engine-limit"
MISSING_SDK = "missing-sdk"
EXITED = "exited"
TIMED_OUT = "timed-out"
OUT_OF_MEMORY = "out-of-memory"

_OWN_DIR = Path(__file__).resolve().parent
_MOCKS_HINT = "--mocks FILE (see docs/offline-preview.md#mocks)"
# Errors a program meets when a value it reads directly (not through an Output) is missing.
_MISSING_VALUE_ERRORS = (TypeError, AttributeError, KeyError, IndexError, ValueError)


@dataclass(frozen=True)
class ProgramFailure:
    kind: str
    """``program``, ``offline-engine-limit``, ``missing-sdk``, ``exited``, ``timed-out`` or
    ``out-of-memory``."""
    error: str
    """``ExceptionType: message``."""
    where: str = ""
    """``file:line: source`` of the innermost frame in the program."""
    resource: str = ""
    """``type "name"`` of the resource being declared, when there was one."""
    invokes: list[str] = field(default_factory=list)
    """Invokes the offline engine had no result for."""
    remedy: str = ""
    mocks_entry: str = ""
    """The ``--mocks`` file entry that answers the invoke (YAML), when one is missing."""
    traceback: str = ""

    def message(self, *, debug: bool = False) -> str:
        what = {
            PROGRAM_ERROR: "the program's own error",
            ENGINE_LIMIT: "a limit of the offline engine, not an error in the program",
            MISSING_SDK: "a Python package the program needs is not installed",
            EXITED: "the program ended itself: nothing after that line was declared",
            TIMED_OUT: "the program runs too long, or forever (a loop, a wait for something "
            "only the cloud would give)",
            OUT_OF_MEMORY: "the program allocates more memory than it may (data built up in "
            "a loop, a large file read whole)",
        }[self.kind]
        headline = (
            self.error
            if self.kind in (EXITED, TIMED_OUT, OUT_OF_MEMORY)
            else f"the program failed: {self.error}"
        )
        lines = [f"error: {headline}"]
        if self.where:
            lines.append(f"  at: {self.where}")
        if self.resource:
            lines.append(f"  resource: {self.resource}")
        if self.invokes:
            lines.append(
                "  invokes without an offline result (unknown, as data a preview cannot read): "
                + ", ".join(self.invokes)
            )
        lines.append(f"  cause: {what}")
        if self.remedy:
            lines.append(f"  way past: {self.remedy}")
        lines.extend(f"      {line}" for line in self.mocks_entry.splitlines())
        if debug and self.traceback:
            lines.append(self.traceback.rstrip())
        elif self.traceback:
            lines.append("  (--debug shows the traceback)")
        return "\n".join(lines)

    def to_json(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in self.__dataclass_fields__}


def _frames(tb: TracebackType | None) -> list[tuple[Any, int]]:
    found = []
    while tb is not None:
        found.append((tb.tb_frame, tb.tb_lineno))
        tb = tb.tb_next
    return found


def _chain(err: BaseException) -> list[BaseException]:
    """The error and the ones it was raised from or during, innermost cause last."""
    chain, seen = [err], {id(err)}
    while (nxt := err.__cause__ or err.__context__) is not None and id(nxt) not in seen:
        chain.append(nxt)
        seen.add(id(nxt))
        err = nxt
    return chain


def _resource_of(frames: Iterable[tuple[Any, int]]) -> str:
    """The resource being declared or serialized in the innermost frame that has one."""
    for frame, _ in reversed(list(frames)):
        local = frame.f_locals
        obj = local.get("self", local.get("__self__"))
        if isinstance(obj, pulumi.Resource):
            typ = getattr(obj, "_type", None) or getattr(type(obj), "pulumi_type", "")
            name = getattr(obj, "_name", None) or local.get("resource_name") or local.get("name")
            if typ or name:
                return f'{typ or type(obj).__name__} "{name}"'
        typ, name = local.get("ty", local.get("t")), local.get("name")
        if isinstance(typ, str) and ":" in typ and isinstance(name, str):
            return f'{typ} "{name}"'
    return ""


def _where(frames: list[tuple[Any, int]], program_dir: Path) -> str:
    for frame, line in reversed(frames):
        path = Path(frame.f_code.co_filename)
        if path.is_absolute() and path.resolve().is_relative_to(program_dir):
            source = traceback.FrameSummary(str(path), line, frame.f_code.co_name).line
            return f"{path.relative_to(program_dir)}:{line}: {source}"
    return ""


def _syntax_where(err: SyntaxError, program_dir: Path) -> str:
    """``file:line: text`` of a syntax error in the program's own files."""
    if not err.filename or not err.lineno:
        return ""
    path = Path(err.filename)
    shown = path.relative_to(program_dir) if path.is_relative_to(program_dir) else path
    return f"{shown}:{err.lineno}: {(err.text or '').strip()}"


def _missing_sdk(err: BaseException) -> str:
    name = getattr(err, "name", None) or ""
    return name.split(".")[0] if isinstance(err, ModuleNotFoundError) else ""


def _function_name(token: str) -> str:
    """The Python function an SDK generates for an invoke: ``aws:ec2/getAmi:getAmi`` ->
    ``get_ami`` (Pulumi's codegen: the token's member, in snake case)."""
    member = token.rpartition(":")[2]
    return re.sub(r"(?<!^)(?=[A-Z])", "_", member).lower()


def _sdk_invoke(frames: Iterable[tuple[Any, int]], invokes: Iterable[str]) -> tuple[str, Any]:
    """The unanswered invoke whose SDK function the error passed through, with that frame."""
    by_function = {_function_name(token): token for token in invokes}
    for frame, _ in reversed(list(frames)):
        token = by_function.get(frame.f_code.co_name)
        if token is not None:
            return token, frame
    return "", None


def _result_keys(token: str, frame: Any) -> list[str]:
    """The wire keys of the invoke's result, from the SDK's result type next to its function
    (``GetAmiResult`` beside ``get_ami``); none when there is no such type."""
    if frame is None:
        return []
    member = token.rpartition(":")[2]
    result = frame.f_globals.get(f"{member[:1].upper()}{member[1:]}Result")
    try:
        return sorted(sdk_types.output_type_types(result))  # the SDK's own name map
    except (AssertionError, AttributeError, TypeError):
        return []


SHOWN_KEYS = 12


def mocks_entry(token: str, keys: list[str]) -> str:
    """The ``--mocks`` file entry answering ``token``, as YAML: its result's keys when known
    (``id`` first), each with a placeholder to replace."""
    keys = sorted(keys, key=lambda k: (k != "id", k)) or ["<wireKey>"]
    lines = ["invokes:", f"  {token}:"]
    lines += [f"    {key}: <value>" for key in keys[:SHOWN_KEYS]]
    if len(keys) > SHOWN_KEYS:
        lines.append(f"    # and, as the program reads them: {', '.join(keys[SHOWN_KEYS:])}")
    return "\n".join(lines)


def explain(
    err: BaseException, program_dir: Path, unanswered_invokes: Iterable[str] = ()
) -> ProgramFailure:
    """Classify ``err``, raised by the program run from ``program_dir``."""
    program_dir = program_dir.resolve()
    error = f"{type(err).__name__}: {err}"
    if isinstance(err, ProgramRaised):  # a BaseException of the program's: judged as it is
        error, err = str(err), err.raised
    frames = [f for e in reversed(_chain(err)) for f in _frames(e.__traceback__)]
    text = "".join(traceback.format_exception(err))
    where = _where(frames, program_dir)
    if isinstance(err, SyntaxError) and not where:
        where = _syntax_where(err, program_dir)
        return ProgramFailure(
            PROGRAM_ERROR,
            error,
            where,
            remedy="fix the program at the line above",
            traceback=text,
        )
    if isinstance(err, ProgramOutOfMemory):
        return ProgramFailure(
            OUT_OF_MEMORY,
            str(err),
            where,
            _resource_of(frames),
            remedy="allocate less, or allow more with --memory MIB if the program needs it",
            traceback=text,
        )
    if isinstance(err, ProgramExited | ProgramTimedOut):
        kind, remedy = (
            (
                EXITED,
                "a Pulumi program ends by reaching the end of its __main__.py; remove the exit",
            )
            if isinstance(err, ProgramExited)
            else (TIMED_OUT, "end the loop or wait, or give it time with --timeout SECONDS")
        )
        return ProgramFailure(
            kind, str(err), where, _resource_of(frames), remedy=remedy, traceback=text
        )
    invokes = sorted(set(unanswered_invokes))
    module = _missing_sdk(err)
    if module:
        package = module.replace("_", "-")
        return ProgramFailure(
            MISSING_SDK,
            error,
            where,
            remedy=(
                f"list `{package}` in a requirements.txt next to Pulumi.yaml (the preview "
                "installs it into a cached virtualenv), point Pulumi.yaml's "
                "runtime.options.virtualenv at a virtualenv that has it, or install it here: "
                f".venv/bin/uv pip install -p .venv/bin/python {package}"
            ),
            traceback=text,
        )
    resource = _resource_of(frames)
    if isinstance(err, EOFError):
        return ProgramFailure(
            PROGRAM_ERROR,
            error,
            where,
            resource,
            remedy="a preview gives a program no stdin: read input from the stack config "
            "(pulumi.Config) instead",
            traceback=text,
        )
    # A manifest the provider refuses to decode (a v1 yaml.ConfigFile's text, asked through
    # kubernetes:yaml:decode): the SDK wraps it, but it is the program's to fix.
    manifest = next((e for e in _chain(err) if isinstance(e, ManifestError)), None)
    if manifest is not None:
        return ProgramFailure(
            PROGRAM_ERROR,
            f"{type(manifest).__name__}: {manifest}",
            where,
            resource,
            remedy=(
                "correct the manifest (YAML or JSON objects; the preview reads one within "
                f"{MANIFEST_MAX_BYTES // 2**20} MiB, {MANIFEST_MAX_DEPTH} levels and "
                f"{MANIFEST_MAX_VALUES:,} values with aliases expanded)"
            ),
            traceback=text,
        )
    # Raised in our code, or in code the program did not call (the SDK, on our behalf).
    paths = [Path(frame.f_code.co_filename).resolve() for frame, _ in frames]
    in_engine = bool(paths) and (
        paths[-1].is_relative_to(_OWN_DIR)
        or (not where and any(p.is_relative_to(_OWN_DIR) for p in paths))
    )
    # A plain invoke nothing answered: its SDK function fails on the empty result (pulumi.get
    # asserts), or the program fails on the value it did not get.
    token, frame = _sdk_invoke(frames, invokes)
    if token or in_engine or (invokes and isinstance(err, _MISSING_VALUE_ERRORS)):
        if not (token or invokes):
            remedy = f"supply the missing values with {_MOCKS_HINT}"
            return ProgramFailure(ENGINE_LIMIT, error, where, resource, invokes, remedy, "", text)
        token = token or invokes[0]
        remedy = (
            f"the invoke {token} reads data only the cloud has, and nothing answers it offline: "
            f"give its result with {_MOCKS_HINT}, an entry such as"
        )
        entry = mocks_entry(token, _result_keys(token, frame))
        return ProgramFailure(ENGINE_LIMIT, error, where, resource, invokes, remedy, entry, text)
    return ProgramFailure(
        PROGRAM_ERROR,
        error,
        where,
        resource,
        invokes,
        remedy=(
            "fix the program at the line above; if it needs a value only the cloud knows, "
            f"give it with {_MOCKS_HINT}"
        ),
        traceback=text,
    )
