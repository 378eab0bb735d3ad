"""``python -m bench``: scale, overhead against the floor, start-up; ``--setup`` adds set-up/tests.

The default run measures every size of every cloud whose components exist and fits in five
minutes on a 2-core machine.
"""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

from .component_import import measure_component_imports
from .critical_path import stack_timings
from .fleet import FLEET_SIZES as PREVIEW_FLEET_SIZES
from .fleet import measure_fleet as measure_preview_fleet
from .provider_start import measure_provider_start
from .report import RESULTS_DIR, BenchResult, render_table, write_json
from .scale import measure_cloud, measure_validation
from .setup_time import fresh_setup, make_test
from .startup import PROJECT_ROOT, measure_startup, stack_file
from .synthetic import SIZES, BenchCloud, Size
from .verify_fleet import FLEET_SIZES, measure_fleet

CLOUDS: tuple[BenchCloud, ...] = ("existing", "aks")
"""Measured by default; ``--cloud ack`` adds ACK (it does not fit the five minutes too)."""


def _git_commit() -> str:
    done = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"],
        cwd=PROJECT_ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    return done.stdout.strip() or "unknown"


def _venv_python() -> Path:
    """The project's interpreter (the one `make preview` runs), else this one."""
    python = PROJECT_ROOT / ".venv" / "bin" / "python"
    return python if python.exists() else Path(sys.executable)


def _progress(line: str) -> None:
    """Progress on stderr, so stdout holds only the report."""
    print(f"bench: {line}", file=sys.stderr, flush=True)


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__)
    parser.add_argument(
        "--repeats", type=_positive, default=3, help="runs per size below the largest (median)"
    )
    parser.add_argument(
        "--largest-repeats", type=_positive, default=3, help="runs at the largest size"
    )
    parser.add_argument(
        "--sizes",
        type=_positive,
        default=len(SIZES),
        help="how many of the sizes 1p/2ns, 10p/20ns, 100p/200ns",
    )
    parser.add_argument(
        "--cloud",
        choices=(*CLOUDS, "ack"),
        action="append",
        help=f"clouds (default: {', '.join(CLOUDS)})",
    )
    parser.add_argument("--startup-runs", type=_positive, default=5, help="processes per command")
    parser.add_argument("--no-startup", action="store_true", help="skip the start-up processes")
    parser.add_argument("--stack", default="dev", help="stack for the start-up preview")
    parser.add_argument(
        "--package-runs",
        type=_positive,
        default=7,
        help="process pairs for the component import, provider starts for GetSchema",
    )
    parser.add_argument(
        "--no-package", action="store_true", help="skip the package's import and provider budgets"
    )
    parser.add_argument(
        "--package-only",
        action="store_true",
        help="only the package's budgets: importing an AKS component, the provider's GetSchema",
    )
    parser.add_argument(
        "--setup",
        action="store_true",
        help="also time set-up and `make test` on fresh clones, uv off the PATH (slow)",
    )
    parser.add_argument(
        "--setup-only", action="store_true", help="only the --setup figures (no scale, start-up)"
    )
    parser.add_argument(
        "--clock",
        choices=("cpu", "wall"),
        default="cpu",
        help="time the in-process ratios use (cpu: robust on a shared machine)",
    )
    parser.add_argument(
        "--gc",
        choices=("on", "off"),
        default="on",
        help="off: CPython's cyclic collector paused while each scale run is timed",
    )
    parser.add_argument(
        "--fleet",
        type=_positive,
        action="append",
        metavar="RESOURCES",
        help="fleet sizes of the team program (repeatable; default "
        f"{', '.join(str(n) for n in PREVIEW_FLEET_SIZES)})",
    )
    parser.add_argument(
        "--fleet-repeats", type=_positive, default=1, help="processes per fleet size"
    )
    parser.add_argument("--no-fleet", action="store_true", help="skip the fleet-scale previews")
    parser.add_argument(
        "--verify-sizes",
        type=int,
        nargs="*",
        default=list(FLEET_SIZES),
        help="GPU nodes of each make verify fleet run (20 pods per node); none: skip them",
    )
    parser.add_argument("--verify-only", action="store_true", help="only make verify at fleet size")
    parser.add_argument("--out", type=Path, default=RESULTS_DIR, help="folder of the JSON file")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.sizes > len(SIZES):
        print(f"error: --sizes is at most {len(SIZES)}", file=sys.stderr)
        return 2
    if not args.no_startup:
        try:
            stack_file(args.stack)
        except FileNotFoundError as err:
            print(f"error: {err}", file=sys.stderr)
            return 2
    sizes = SIZES[: args.sizes]
    started = time.perf_counter()
    result = BenchResult(
        meta={
            "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
            "commit": _git_commit(),
            "python": platform.python_version(),
            "machine": platform.machine(),
            "cpus": os.cpu_count(),
            "sizes": [s.label for s in sizes],
            "repeats": args.repeats,
            "largest_repeats": args.largest_repeats,
            "clock": args.clock,
            "gc": args.gc,
            "load_average_at_start": list(os.getloadavg()),
        }
    )

    def repeats_for(size: Size) -> int:
        return args.largest_repeats if size == sizes[-1] and len(sizes) > 1 else args.repeats

    only = args.setup_only or args.package_only or args.verify_only
    clouds = () if only else args.cloud or CLOUDS
    for cloud in clouds:
        result.scale.append(
            measure_cloud(
                cloud, sizes, repeats_for, args.clock, _progress, gc_during=args.gc == "on"
            )
        )
    if len(sizes) == len(SIZES):
        for cloud in clouds:
            _progress(f"{cloud}: config validation alone up to 1600 pools")
            result.validation.append(measure_validation(cloud))
    if not (args.no_startup or only):
        _progress(f"start-up: {args.startup_runs} processes of each command")
        result.startup = measure_startup(args.startup_runs, args.stack)
    if not (args.no_fleet or only):
        result.meta["load_average_before_fleet"] = list(os.getloadavg())
        result.fleet = measure_preview_fleet(
            args.fleet or PREVIEW_FLEET_SIZES,
            repeats=args.fleet_repeats,
            python=str(_venv_python()),
            progress=_progress,
        )
        result.meta["load_average_after_fleet"] = list(os.getloadavg())
    if args.setup or args.setup_only:
        _progress("set-up: a fresh clone's make venv, preview, lint, typecheck, unit")
        result.setup = fresh_setup()
        _progress("set-up: make venv, then make test, on another fresh clone")
        result.setup.extend(make_test())
    if args.package_only or not (args.no_package or args.setup_only or args.verify_only):
        _progress(f"package: {args.package_runs} pairs importing an AKS component and its SDKs")
        result.component_imports = measure_component_imports(args.package_runs)
        _progress(f"package: {args.package_runs} provider starts to a GetSchema answer")
        result.provider_start = measure_provider_start(args.package_runs)
    if args.verify_sizes and (args.verify_only or not only):
        _progress(f"make verify at fleet size: {', '.join(map(str, args.verify_sizes))} nodes")
        result.meta["verify_load_average_at_start"] = list(os.getloadavg())
        result.verify_fleet = measure_fleet(args.verify_sizes, progress=_progress)
    if not only:
        _progress("critical path: the dev and prod plans' dependency graphs")
        result.critical_paths = stack_timings()
    result.meta["duration_s"] = time.perf_counter() - started
    path = write_json(result, args.out)
    print(render_table(result))
    print(f"JSON: {path}")
    return 0
