"""``python -m offline_preview``: the program and the policy pack on Pulumi's mock engine.

Exit status: 0 no mandatory violation, 1 a mandatory violation, 2 invalid stack config,
3 the program itself failed.
"""

from __future__ import annotations

import argparse
import json
import sys
import traceback
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from stack_config.files import project_name, read_stack_config

from .engine import ProgramRun, run_program
from .policy_runner import Violation, run_policies
from .render import RENDERERS

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
) -> PreviewResult:
    """Run a program and the policy pack; raises the program's own errors (``ConfigError``...)."""
    from gpu_policies.registry import policies  # the pack's modules, as the CLI would load them

    program_dir = program_dir.resolve()
    project = project_name(program_dir)
    path = config_file or program_dir / f"Pulumi.{stack}.yaml"
    stack_config = read_stack_config(path, project) if path.exists() else None
    run = run_program(
        program_dir,
        project=project,
        stack=stack,
        config=stack_config.config if stack_config else {},
        secret_keys=stack_config.secret_keys if stack_config else [],
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
    args = parser.parse_args(argv)

    from stack_config import ConfigError

    pack_config = json.loads(args.policy_config.read_text()) if args.policy_config else None
    try:
        result = preview(
            args.program, stack=args.stack, config_file=args.config, pack_config=pack_config
        )
    except ConfigError as err:
        print(f"error: {err}", file=sys.stderr)
        return EXIT_CONFIG
    except Exception:  # any program failure is reported, not raised
        print("error: the program failed:", file=sys.stderr)
        traceback.print_exc(file=sys.stderr)
        return EXIT_PROGRAM
    print(RENDERERS[args.format](result.run, result.violations))
    return result.exit_code
