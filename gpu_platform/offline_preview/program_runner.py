"""Run a program in another interpreter (its own virtualenv) and ship the run back as JSON.

The parent (``program_env``) starts ``python -c BOOTSTRAP ROOT REQUEST RESULT`` with the
program's interpreter. This module needs only the Pulumi SDK and PyYAML (which the SDK
requires), never the policy pack: the parent judges what comes back.
"""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from .program_guard import DEFAULT_MEMORY_MIB, DEFAULT_TIMEOUT, STOPPED_MARK, ProgramTimedOut

BOOTSTRAP = (
    "import sys; sys.path.append(sys.argv[1]); "
    "from gpu_platform.offline_preview.program_runner import child_main; "
    "child_main(sys.argv[2], sys.argv[3])"
)


class ChildFailure(Exception):
    """The program failed in its own interpreter; ``failure`` is a ``ProgramFailure``'s JSON."""

    def __init__(self, failure: dict[str, Any]) -> None:
        super().__init__(failure.get("error", "the program failed"))
        self.failure = failure


class ChildConfigError(Exception):
    """The program rejected its stack config (our ``ConfigError``), in its own interpreter."""


CHILD_GRACE = 10.0
"""Seconds past the timeout before the child is killed (it reports its own timeout first)."""


def _forward(stdout: str | bytes | None, stderr: str | bytes | None) -> None:
    for text in (stdout, stderr):
        if text:
            sys.stderr.write(text if isinstance(text, str) else text.decode(errors="replace"))


TRACEBACK_START = "Traceback (most recent call last):"


def split_traceback(stderr: str) -> tuple[str, str]:
    """``stderr`` without the traceback an interpreter printed as it died, and that
    traceback (kept for ``--debug``)."""
    at = stderr.rfind(TRACEBACK_START)
    if at < 0 or (at > 0 and stderr[at - 1] != "\n"):
        return stderr, ""
    return stderr[:at], stderr[at:]


def _no_result(python: Path, status: int, stderr: str, traceback: str = "") -> dict[str, Any]:
    """The child ended without a result: the program ended the interpreter (os._exit from
    native code, a signal), or the interpreter cannot run the preview's runner."""
    last = (traceback or stderr).strip().splitlines()[-1:] or [""]
    if "No module named 'pulumi'" in last[0] or "No module named 'gpu_platform" in last[0]:
        return {
            "kind": "offline-engine-limit",
            "error": f"{python} cannot run the program: {last[0]}",
            "remedy": "check that this interpreter runs and has the pulumi package",
            "traceback": traceback,
        }
    how = f"signal {-status}" if status < 0 else f"exit status {status}"
    return {
        "kind": "exited",
        "error": f"the program exited before it finished ({how}, in {python})",
        "remedy": "a Pulumi program ends by reaching the end of its __main__.py",
        "traceback": traceback,
    }


def child_main(request_path: str, result_path: str) -> None:
    """In the program's interpreter: run it, write ``{"run": ...}`` or ``{"failure": ...}``."""
    from .engine import PreviewMocks, RecordingMonitor, run_program
    from .failure import explain
    from .user_mocks import UserMocks
    from .wire import to_wire

    request = json.loads(Path(request_path).read_text())
    program_dir = Path(request["program_dir"])
    monitor = RecordingMonitor(PreviewMocks(UserMocks(**request["mocks"])))
    try:
        run = run_program(
            program_dir,
            project=request["project"],
            stack=request["stack"],
            config=request["config"],
            secret_keys=request["secret_keys"],
            monitor=monitor,
            main=Path(request["main"]),
            timeout=request["timeout"],
            memory_mib=request["memory_mib"],
        )
        result: dict[str, Any] = {
            "run": {
                "project": run.project,
                "stack": run.stack,
                "outputs": to_wire(run.outputs),
                "resources": [
                    {
                        **dataclasses.asdict(r),
                        "inputs": to_wire(r.inputs),
                        "outputs": to_wire(r.outputs),
                    }
                    for r in run.resources
                ],
            }
        }
    except BaseException as err:  # any: reported to the parent, which prints it
        if type(err).__name__ == "ConfigError":
            result = {"config_error": str(err)}
        else:
            unanswered = [i.token for i in monitor.invokes if not i.answered]
            result = {"failure": explain(err, program_dir, unanswered).to_json()}
    Path(result_path).write_text(json.dumps(result))


def run_in(
    python: Path,
    program_dir: Path,
    *,
    project: str,
    stack: str,
    config: Mapping[str, str],
    secret_keys: list[str],
    mocks: dict[str, Any],
    main: Path,
    timeout: float | None = DEFAULT_TIMEOUT,
    memory_mib: int | None = DEFAULT_MEMORY_MIB,
) -> Any:
    """Run the program with ``python``; returns a ``ProgramRun`` or raises ``ChildFailure``.

    The child runs it under the same guards as this process would (``program_guard``, its
    memory bound included), and
    its own output and stdin are not ours (captured; empty). Should it still not finish, it
    is killed a little after ``timeout``."""
    from .engine import ProgramRun, RecordedResource
    from .program_env import PACKAGE_DIR
    from .wire import markers

    with tempfile.TemporaryDirectory(prefix="offline-preview-") as tmp:
        request, result = Path(tmp, "request.json"), Path(tmp, "result.json")
        # The child sees our package and nothing else of this interpreter's site-packages (its
        # own venv brings the SDKs): a folder holding only a link to the package.
        import_root = Path(tmp, "import-root")
        import_root.mkdir()
        (import_root / PACKAGE_DIR.name).symlink_to(PACKAGE_DIR, target_is_directory=True)
        request.write_text(
            json.dumps(
                {
                    "program_dir": str(program_dir),
                    "project": project,
                    "stack": stack,
                    "config": dict(config),
                    "secret_keys": secret_keys,
                    "mocks": mocks,
                    "main": str(main),
                    "timeout": timeout,
                    "memory_mib": memory_mib,
                }
            )
        )
        command = [str(python), "-c", BOOTSTRAP, str(import_root), str(request), str(result)]
        try:
            done = subprocess.run(
                command,
                cwd=program_dir,
                stdin=subprocess.DEVNULL,
                capture_output=True,
                text=True,
                errors="replace",
                check=False,
                timeout=None if timeout is None else timeout + CHILD_GRACE,
            )
        except subprocess.TimeoutExpired as err:
            _forward(err.stdout, err.stderr)
            raise ProgramTimedOut(timeout or 0) from None
        # The program's own prints and logs go to our stderr: stdout is the plan's. A child
        # that died without a result printed a traceback: that is for --debug.
        printed, died = (done.stderr, "") if result.exists() else split_traceback(done.stderr)
        _forward(done.stdout, printed)
        if not result.exists():
            if STOPPED_MARK in done.stderr:  # it caught every interruption: ended by the guard
                raise ProgramTimedOut(timeout or 0)
            raise ChildFailure(_no_result(python, done.returncode, printed, died))
        answer = json.loads(result.read_text())
    if "config_error" in answer:
        raise ChildConfigError(answer["config_error"])
    if "failure" in answer:
        raise ChildFailure(answer["failure"])
    data = answer["run"]
    resources = [
        RecordedResource(**{**r, "inputs": markers(r["inputs"]), "outputs": markers(r["outputs"])})
        for r in data["resources"]
    ]
    return ProgramRun(data["project"], data["stack"], resources, markers(data["outputs"]))
