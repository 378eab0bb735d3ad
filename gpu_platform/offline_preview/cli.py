"""``python -m offline_preview``: the program and the policy pack on Pulumi's mock engine.

Exit status: 0 no mandatory violation, 1 a mandatory violation, 2 invalid stack config (or
mocks file), 3 the program itself failed.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from gpu_platform.stack_config.files import project_name, read_stack_config

from .engine import PreviewMocks, ProgramRun, RecordingMonitor, run_program
from .failure import ProgramFailure, explain
from .policy_runner import Violation, run_policies
from .program_env import ProgramEnvError, program_python
from .program_runner import ChildConfigError, ChildFailure, run_in
from .render import RENDERERS
from .user_mocks import MocksFileError, UserMocks, load_mocks

PROJECT_ROOT = Path(__file__).resolve().parent.parent

EXIT_OK, EXIT_MANDATORY, EXIT_CONFIG, EXIT_PROGRAM = 0, 1, 2, 3


@dataclass
class PreviewResult:
    run: ProgramRun
    violations: list[Violation]

    @property
    def exit_code(self) -> int:
        mandatory = any(v.enforcement == "mandatory" for v in self.violations)
        return EXIT_MANDATORY if mandatory else EXIT_OK


def preview(
    program_dir: Path = PROJECT_ROOT,
    *,
    stack: str = "dev",
    config_file: Path | None = None,
    pack_config: dict[str, Any] | None = None,
    mocks: UserMocks | None = None,
    monitor: RecordingMonitor | None = None,
) -> PreviewResult:
    """Run a program and the policy pack; raises the program's own errors (``ConfigError``...).

    A program that needs SDKs this interpreter lacks runs in its own virtualenv
    (``program_env``); its failures then arrive as ``ChildFailure``, already explained.
    """
    from gpu_policies.registry import policies  # the pack's modules, as the CLI would load them

    program_dir = program_dir.resolve()
    project = project_name(program_dir)
    path = config_file or program_dir / f"Pulumi.{stack}.yaml"
    stack_config = read_stack_config(path, project) if path.exists() else None
    config = stack_config.config if stack_config else {}
    secret_keys = stack_config.secret_keys if stack_config else []
    python = program_python(program_dir).python
    if python is None:
        run = run_program(
            program_dir,
            project=project,
            stack=stack,
            config=config,
            secret_keys=secret_keys,
            monitor=monitor or RecordingMonitor(PreviewMocks(mocks)),
        )
    else:
        run = run_in(
            python,
            program_dir,
            project=project,
            stack=stack,
            config=config,
            secret_keys=secret_keys,
            mocks=asdict(mocks or UserMocks()),
        )
    violations = run_policies(run.resources, policies(), pack_config)
    return PreviewResult(run, violations)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="offline-preview", description=__doc__)
    parser.add_argument("--stack", default="dev", help="stack name: reads Pulumi.<stack>.yaml")
    parser.add_argument("--config", type=Path, help="a stack config file to use instead")
    parser.add_argument(
        "--program", type=Path, default=PROJECT_ROOT, help="Pulumi Python program folder"
    )
    parser.add_argument("--format", choices=sorted(RENDERERS), default="table")
    parser.add_argument(
        "--policy-config", type=Path, help="policy pack config (JSON), as --policy-pack-config"
    )
    parser.add_argument(
        "--mocks",
        type=Path,
        help="YAML/JSON results for invokes (token -> result) and resource outputs "
        "(type -> outputs), as Pulumi's test mocks",
    )
    parser.add_argument("--debug", action="store_true", help="the traceback of a failed program")
    args = parser.parse_args(argv)

    from gpu_platform.stack_config import ConfigError

    pack_config = json.loads(args.policy_config.read_text()) if args.policy_config else None
    try:
        mocks = load_mocks(args.mocks) if args.mocks else None
    except MocksFileError as err:
        print(f"error: --mocks {err}", file=sys.stderr)
        return EXIT_CONFIG
    monitor = RecordingMonitor(PreviewMocks(mocks))
    try:
        result = preview(
            args.program,
            stack=args.stack,
            config_file=args.config,
            pack_config=pack_config,
            mocks=mocks,
            monitor=monitor,
        )
    except (ConfigError, ChildConfigError) as err:
        print(f"error: {err}", file=sys.stderr)
        return EXIT_CONFIG
    except ChildFailure as err:
        print(ProgramFailure(**err.failure).message(debug=args.debug), file=sys.stderr)
        return EXIT_PROGRAM
    except ProgramEnvError as err:
        print(f"error: the program's Python environment: {err}", file=sys.stderr)
        return EXIT_PROGRAM
    except Exception as err:  # any program failure is reported, not raised
        unanswered = [i.token for i in monitor.invokes if not i.answered]
        failure = explain(err, args.program, unanswered)
        print(failure.message(debug=args.debug), file=sys.stderr)
        return EXIT_PROGRAM
    print(RENDERERS[args.format](result.run, result.violations))
    return result.exit_code
