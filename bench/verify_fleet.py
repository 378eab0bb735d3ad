"""``make verify`` at fleet size: whole processes against the fake API server.

For each size (GPU nodes, 20 workload pods each), ``bench.fleet_cluster`` grows the recorded
cluster and ``bench.fake_api_server`` serves it; ``python -m gpu_platform.verify`` then runs
against it twice, as a platform team runs it:

- **reads only** (``--skip-driver --skip-metrics``): every list and check, no exec, no
  ``/metrics``;
- **full**: the same with every node's ``nvidia-smi`` execs and exporter page.

Each run is one process, timed from its start to its exit: wall time, CPU (user + system, from
``wait4``), peak resident memory (``ru_maxrss``), and the requests the server answered, by kind.
The machine's load average is kept beside each figure: the API server shares the two cores.
"""

from __future__ import annotations

import contextlib
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from .fake_api_server import serving, url_of
from .fleet_cluster import build_fleet

ROOT = Path(__file__).resolve().parents[1]
FLEET_SIZES: tuple[int, ...] = (10, 100, 1000, 5000)
"""GPU nodes per size (issue 34's sizes)."""
PODS_PER_NODE = 20
MODES: dict[str, tuple[str, ...]] = {
    "reads": ("--skip-driver", "--skip-metrics"),
    "full": (),
}
"""What each run passes besides the stack and cluster: no exec or metric read, or all of them."""
BUDGETS = {("reads", 5000): 60.0, ("full", 5000): 30.0}
"""Wall seconds the 5,000-node runs must stay under (issue 33: reads; issue 34: with execs)."""


@dataclass
class FleetRun:
    nodes: int
    mode: str
    objects: int
    """Objects the API server held."""
    wall_s: float
    cpu_s: float
    max_rss_mb: float
    exit_code: int
    rows: int
    failed_rows: int
    requests: dict[str, int]
    load_before: float
    load_after: float
    server_cpu_s: float = 0.0
    """CPU the fake API server (this process) spent answering the run."""
    stderr_tail: str = ""

    @property
    def wall_ms_per_node(self) -> float:
        return 1000 * self.wall_s / self.nodes

    @property
    def cpu_ms_per_node(self) -> float:
        return 1000 * self.cpu_s / self.nodes


@dataclass
class FleetResult:
    runs: list[FleetRun] = field(default_factory=list)

    def as_json(self) -> list[dict[str, Any]]:
        return [
            {
                **asdict(r),
                "wall_ms_per_node": r.wall_ms_per_node,
                "cpu_ms_per_node": r.cpu_ms_per_node,
            }
            for r in self.runs
        ]


def _kubeconfig(path: Path, server: str) -> Path:
    doc = {
        "apiVersion": "v1",
        "kind": "Config",
        "clusters": [{"name": "fleet", "cluster": {"server": server}}],
        "users": [{"name": "bench", "user": {"token": "bench"}}],
        "contexts": [{"name": "fleet", "context": {"cluster": "fleet", "user": "bench"}}],
        "current-context": "fleet",
    }
    path.write_text(json.dumps(doc))
    return path


def _run_verify(argv: list[str], env: dict[str, str]) -> tuple[int, str, str, float, Any]:
    """One ``gpu_platform.verify`` process: exit code, stdout, stderr, wall seconds, rusage."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        started = time.perf_counter()
        process = subprocess.Popen(argv, stdout=out, stderr=err, env=env, cwd=ROOT)
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - started
        process.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        return process.returncode, out.read().decode(), err.read().decode(), wall, usage


def measure_fleet(
    sizes: Sequence[int] = FLEET_SIZES,
    modes: Sequence[str] = tuple(MODES),
    progress: Callable[[str], None] = lambda line: None,
    pods_per_node: int = PODS_PER_NODE,
) -> FleetResult:
    result = FleetResult()
    env = {**os.environ, "NO_PROXY": "127.0.0.1,localhost", "no_proxy": "127.0.0.1,localhost"}
    for nodes in sizes:
        progress(f"verify: building a fleet of {nodes} GPU nodes, {pods_per_node} pods each")
        fleet = build_fleet(nodes, pods_per_node)
        with tempfile.TemporaryDirectory() as tmp, serving(fleet.data) as server:
            folder = Path(tmp)
            config = folder / "Pulumi.fleet.yaml"
            config.write_text(fleet.stack_yaml)
            kubeconfig = _kubeconfig(folder / "kubeconfig", url_of(server))
            for mode in modes:
                progress(f"verify: {nodes} nodes, {mode}")
                argv = [
                    sys.executable,
                    "-m",
                    "gpu_platform.verify",
                    "--config",
                    str(config),
                    "--kubeconfig",
                    str(kubeconfig),
                    "--format",
                    "json",
                    *MODES[mode],
                ]
                server.requests.clear()
                load_before = os.getloadavg()[0]
                served = resource.getrusage(resource.RUSAGE_SELF)
                code, out, err, wall, usage = _run_verify(argv, env)
                served_after = resource.getrusage(resource.RUSAGE_SELF)
                rows: list[dict[str, str]] = []
                with contextlib.suppress(ValueError, KeyError):
                    rows = json.loads(out)["results"]
                result.runs.append(
                    FleetRun(
                        nodes=nodes,
                        mode=mode,
                        objects=fleet.objects,
                        wall_s=wall,
                        cpu_s=usage.ru_utime + usage.ru_stime,
                        max_rss_mb=usage.ru_maxrss / 1024,
                        exit_code=code,
                        rows=len(rows),
                        failed_rows=sum(1 for r in rows if r.get("status") == "fail"),
                        requests=dict(server.requests),
                        load_before=load_before,
                        load_after=os.getloadavg()[0],
                        stderr_tail=err[-400:],
                        server_cpu_s=served_after.ru_utime
                        + served_after.ru_stime
                        - served.ru_utime
                        - served.ru_stime,
                    )
                )
        del fleet
    return result


def render_fleet(result: FleetResult) -> list[str]:
    """The report's section: per size and mode, then flatness and the budgets."""
    lines = [
        "make verify at fleet size (whole processes against the fake API server; "
        f"{PODS_PER_NODE} pods per node)",
        "",
        "| nodes | mode | objects | wall s | CPU s | wall ms/node | CPU ms/node | peak MB "
        "| requests | rows (failed) | exit | server CPU s | load |",
        "|---:|---|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|---|",
    ]
    for r in result.runs:
        lines.append(
            f"| {r.nodes:,} | {r.mode} | {r.objects:,} | {r.wall_s:.2f} | {r.cpu_s:.2f} "
            f"| {r.wall_ms_per_node:.2f} | {r.cpu_ms_per_node:.2f} | {r.max_rss_mb:.0f} "
            f"| {sum(r.requests.values()):,} | {r.rows:,} ({r.failed_rows}) | {r.exit_code} "
            f"| {r.server_cpu_s:.1f} | {r.load_before:.1f} → {r.load_after:.1f} |"
        )
    for mode in MODES:
        runs = [r for r in result.runs if r.mode == mode and r.nodes >= 1000]
        if len(runs) >= 2:
            small, large = runs[0], runs[-1]
            lines.append(
                f"- {mode}: CPU per node {large.nodes:,} / {small.nodes:,} nodes: "
                f"{large.cpu_ms_per_node / small.cpu_ms_per_node:.2f}× (flat within 15%: "
                f"{'yes' if large.cpu_ms_per_node <= 1.15 * small.cpu_ms_per_node else 'no'}); "
                f"peak memory per object {large.max_rss_mb / large.objects * 1024:.1f} KB "
                f"against {small.max_rss_mb / small.objects * 1024:.1f} KB"
            )
    for (mode, nodes), budget in BUDGETS.items():
        for r in result.runs:
            if (r.mode, r.nodes) == (mode, nodes):
                verdict = "met" if r.wall_s < budget and r.exit_code == 0 else "NOT met"
                lines.append(
                    f"- budget {nodes:,} nodes, {mode}: {r.wall_s:.1f} s wall < {budget:g} s: "
                    f"{verdict}"
                )
    return lines


def main(argv: list[str] | None = None) -> int:
    """``python -m bench.verify_fleet [SIZES...]``: the fleet runs alone."""
    sizes = [int(a) for a in (argv if argv is not None else sys.argv[1:])] or list(FLEET_SIZES)
    result = measure_fleet(sizes, progress=lambda line: print(line, file=sys.stderr, flush=True))
    print("\n".join(render_fleet(result)))
    for run in result.runs:
        if run.exit_code not in (0,):
            print(
                f"{run.nodes} {run.mode}: exit {run.exit_code}: {run.stderr_tail}", file=sys.stderr
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
