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

BOOTSTRAP = (
    "import sys; sys.path.append(sys.argv[1]); "
    "from offline_preview.program_runner import child_main; child_main(sys.argv[2], sys.argv[3])"
)


class ChildFailure(Exception):
    """The program failed in its own interpreter; ``failure`` is a ``ProgramFailure``'s JSON."""

    def __init__(self, failure: dict[str, Any]) -> None:
        super().__init__(failure.get("error", "the program failed"))
        self.failure = failure


class ChildConfigError(Exception):
    """The program rejected its stack config (our ``ConfigError``), in its own interpreter."""


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
    except Exception as err:  # reported to the parent, which prints it
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
) -> Any:
    """Run the program with ``python``; returns a ``ProgramRun`` or raises ``ChildFailure``."""
    from .engine import ProgramRun, RecordedResource
    from .program_env import PROJECT_ROOT
    from .wire import markers

    with tempfile.TemporaryDirectory(prefix="offline-preview-") as tmp:
        request, result = Path(tmp, "request.json"), Path(tmp, "result.json")
        request.write_text(
            json.dumps(
                {
                    "program_dir": str(program_dir),
                    "project": project,
                    "stack": stack,
                    "config": dict(config),
                    "secret_keys": secret_keys,
                    "mocks": mocks,
                }
            )
        )
        done = subprocess.run(
            [str(python), "-c", BOOTSTRAP, str(PROJECT_ROOT), str(request), str(result)],
            cwd=program_dir,
            capture_output=True,
            text=True,
            check=False,
        )
        # The program's own prints and logs go to our stderr: stdout is the plan's.
        sys.stderr.write(done.stdout + done.stderr)
        if not result.exists():
            raise ChildFailure(
                {
                    "kind": "offline-engine-limit",
                    "error": f"{python} exited with status {done.returncode} and no result",
                    "remedy": "check that this interpreter runs and has the pulumi package",
                }
            )
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
