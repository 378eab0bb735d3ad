"""Why a program failed on the offline engine, in a few lines a person can act on.

Exit status 3 comes with: where in the program, which resource (type and name) and which
invoke were involved, whether it is the program's own error or a limit of the offline engine,
and the way past it. The traceback is kept for ``--debug``.
"""

from __future__ import annotations

import traceback
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import Any

import pulumi

PROGRAM_ERROR = "program"
ENGINE_LIMIT = "offline-engine-limit"
MISSING_SDK = "missing-sdk"

_OWN_DIR = Path(__file__).resolve().parent
_MOCKS_HINT = "--mocks FILE (see docs/offline-preview.md#mocks)"
# Errors a program meets when a value it reads directly (not through an Output) is missing.
_MISSING_VALUE_ERRORS = (TypeError, AttributeError, KeyError, IndexError, ValueError)


@dataclass(frozen=True)
class ProgramFailure:
    kind: str
    """``program``, ``offline-engine-limit`` or ``missing-sdk``."""
    error: str
    """``ExceptionType: message``."""
    where: str = ""
    """``file:line: source`` of the innermost frame in the program."""
    resource: str = ""
    """``type "name"`` of the resource being declared, when there was one."""
    invokes: list[str] = field(default_factory=list)
    """Invokes the offline engine had no result for."""
    remedy: str = ""
    traceback: str = ""

    def message(self, *, debug: bool = False) -> str:
        what = {
            PROGRAM_ERROR: "the program's own error",
            ENGINE_LIMIT: "a limit of the offline engine, not an error in the program",
            MISSING_SDK: "a Python package the program needs is not installed",
        }[self.kind]
        lines = [f"error: the program failed: {self.error}"]
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


def _missing_sdk(err: BaseException) -> str:
    name = getattr(err, "name", None) or ""
    return name.split(".")[0] if isinstance(err, ModuleNotFoundError) else ""


def explain(
    err: BaseException, program_dir: Path, unanswered_invokes: Iterable[str] = ()
) -> ProgramFailure:
    """Classify ``err``, raised by the program run from ``program_dir``."""
    program_dir = program_dir.resolve()
    frames = [f for e in reversed(_chain(err)) for f in _frames(e.__traceback__)]
    text = "".join(traceback.format_exception(err))
    error = f"{type(err).__name__}: {err}"
    where = _where(frames, program_dir)
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
    # Raised in our code, or in code the program did not call (the SDK, on our behalf).
    paths = [Path(frame.f_code.co_filename).resolve() for frame, _ in frames]
    in_engine = bool(paths) and (
        paths[-1].is_relative_to(_OWN_DIR)
        or (not where and any(p.is_relative_to(_OWN_DIR) for p in paths))
    )
    if in_engine or (invokes and isinstance(err, _MISSING_VALUE_ERRORS)):
        example = invokes[0] if invokes else "<invoke token>"
        remedy = (
            f"give the offline engine the values with {_MOCKS_HINT}, e.g. "
            f"`invokes: {{{example}: {{<wireKey>: <value>}}}}`"
            if invokes
            else f"supply the missing values with {_MOCKS_HINT}"
        )
        return ProgramFailure(ENGINE_LIMIT, error, where, resource, invokes, remedy, text)
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
