"""``python -m scan`` (``make scan``): export a stack's plan, run checkov, compare the baseline.

Exit status: 0 every failure is accepted with its reason, 1 a new failure or an entry without
a reason, 2 the plan, the export, the baseline or checkov could not be had.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from . import baseline, checkov, docs
from .arm import ArmExportError
from .export import export_plan
from .plan import PlanResource
from .report import render

ROOT = Path(__file__).resolve().parent.parent
EXIT_OK, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2


def plan_of(stack: str, config: Path | None, program: Path) -> list[PlanResource]:
    """The stack's plan from the offline preview (the program on Pulumi's mock engine)."""
    from gpu_platform.offline_preview import preview
    from gpu_platform.offline_preview.render import public

    run = preview(program, stack=stack, config_file=config).run
    return [
        PlanResource(r.type, r.name, public(r.inputs), r.custom, r.remote) for r in run.resources
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="scan", description=__doc__)
    parser.add_argument("--stack", default="dev", help="stack name: reads Pulumi.<stack>.yaml")
    parser.add_argument("--config", type=Path, help="a stack config file to use instead")
    parser.add_argument("--program", type=Path, default=ROOT, help="Pulumi program folder")
    parser.add_argument("--baseline", type=Path, help="default: scan/baseline-<stack>.yaml")
    parser.add_argument("--out", type=Path, help="export folder (default: build/scan/<stack>)")
    parser.add_argument("--checkov", type=Path, default=ROOT / ".venv-scan" / "bin" / "checkov")
    parser.add_argument(
        "--update-baseline",
        action="store_true",
        help="rewrite the baseline: new failures as `reason: TODO`, stale entries dropped",
    )
    parser.add_argument(
        "--write-docs", action="store_true", help="only rewrite docs/security.md's tables"
    )
    args = parser.parse_args(argv)
    if args.write_docs:
        print("docs/security.md " + ("updated" if docs.write() else "already in sync"))
        return EXIT_OK

    from gpu_platform.stack_config import ConfigError

    baseline_file = args.baseline or docs.baseline_path(args.stack)
    out = args.out or ROOT / "build" / "scan" / args.stack
    try:
        entries = baseline.load(baseline_file)
        export = export_plan(plan_of(args.stack, args.config, args.program))
        written = export.write(out)
        report = checkov.run(args.checkov, out)
        checkov.check_coverage(report, written)
    except (ConfigError, baseline.BaselineError, ArmExportError, checkov.CheckovError) as err:
        print(f"error: {err}", file=sys.stderr)
        return EXIT_ERROR

    findings = report.findings + export.coverage_findings()
    if args.update_baseline:
        entries = baseline.updated(findings, entries)
        baseline_file.write_text(baseline.dump(entries, args.stack))
        print(f"wrote {baseline_file}")
    comparison = baseline.compare(findings, entries)
    print(render(args.stack, report, comparison))
    return EXIT_OK if comparison.ok else EXIT_FINDINGS
