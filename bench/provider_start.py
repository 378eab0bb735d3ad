"""The component provider's start: from process start to its ``GetSchema`` answer.

Issue 20's budget: the provider answers ``GetSchema`` within 3 s of start on the 2-core
machine. The provider is started as Pulumi's Python language host starts a plugin
(``python provider <engine-address>``, from the repository's root). ``GetSchema`` needs no
engine, so the address is that of a closed port on this machine. The clock starts just
before the process is spawned and stops when the answer has arrived: the interpreter, the
imports of every hosted component and their SDKs, the schema inferred from their args, the
gRPC server, and the call itself. The answer is compared with the reviewed
``provider/schema.json``.

The gRPC client is imported here, before any clock starts.
"""

from __future__ import annotations

import json
import os
import resource
import socket
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import grpc
from pulumi.runtime.proto import provider_pb2, provider_pb2_grpc

from .startup import PROJECT_ROOT
from .timing import Timing

BUDGET_S = 3.0
"""Process start to the ``GetSchema`` answer, wall time (issue 20)."""
ANSWER_TIMEOUT_S = 120.0


@dataclass
class ProviderStart:
    to_schema: Timing = field(default_factory=Timing)
    """Per run: wall time from spawn to the answer; CPU time of the provider process."""
    schema_matches_reviewed: bool = True
    """Every answer equals ``provider/schema.json``."""
    resources: int = 0
    """Components in the answered schema."""
    load: tuple[float, float] = (float("nan"), float("nan"))
    """One-minute load average before and after the timed starts (the machine is shared)."""

    @property
    def met(self) -> bool:
        return self.schema_matches_reviewed and self.to_schema.median("wall") <= BUDGET_S

    def as_dict(self) -> dict[str, Any]:
        return {
            "to_schema": self.to_schema.as_dict(),
            "budget_s": BUDGET_S,
            "met": self.met,
            "schema_matches_reviewed": self.schema_matches_reviewed,
            "resources": self.resources,
            "load_before_after": list(self.load),
        }


def closed_port_address() -> str:
    """``127.0.0.1:<port>`` of a port nothing listens on (bound, then released)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    return f"127.0.0.1:{port}"


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def time_to_schema(python: str, plugin_dir: Path, env: dict[str, str]) -> tuple[float, float, str]:
    """One provider process: seconds from spawn to the ``GetSchema`` answer, the process's CPU
    seconds (until it was stopped, right after), and the schema it answered."""
    address = closed_port_address()
    cpu_before = _children_cpu()
    start = time.perf_counter()
    process = subprocess.Popen(
        [python, str(plugin_dir), address],
        cwd=PROJECT_ROOT,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        assert process.stdout is not None
        port = process.stdout.readline().decode().strip()
        if not port.isdigit():
            process.kill()
            _out, err = process.communicate(timeout=30)
            raise RuntimeError(f"the provider did not start:\n{err.decode()[-2000:]}")
        with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
            answer = provider_pb2_grpc.ResourceProviderStub(channel).GetSchema(
                provider_pb2.GetSchemaRequest(version=0),
                timeout=ANSWER_TIMEOUT_S,
                wait_for_ready=True,
            )
        elapsed = time.perf_counter() - start
    finally:
        if process.poll() is None:
            process.terminate()
    process.communicate(timeout=30)
    return elapsed, _children_cpu() - cpu_before, answer.schema


def measure_provider_start(
    runs: int, python: str | None = None, *, warm_up: bool = True
) -> ProviderStart:
    """``runs`` provider processes, after one unmeasured start that writes their bytecode."""
    python = python or str(PROJECT_ROOT / ".venv" / "bin" / "python")
    plugin_dir = PROJECT_ROOT / "provider"
    reviewed = json.loads((plugin_dir / "schema.json").read_text())
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    result = ProviderStart()
    if warm_up:
        time_to_schema(python, plugin_dir, env)
    load_before = os.getloadavg()[0]
    for _ in range(max(runs, 1)):
        wall, cpu, schema = time_to_schema(python, plugin_dir, env)
        result.to_schema.wall_s.append(wall)
        result.to_schema.cpu_s.append(cpu)
        answered = json.loads(schema)
        result.schema_matches_reviewed &= answered == reviewed
        result.resources = len(answered.get("resources", {}))
    result.load = (load_before, os.getloadavg()[0])
    return result


def report_lines(start: ProviderStart) -> list[str]:
    verdict = "met" if start.met else "NOT met"
    timing = start.to_schema
    schema = "the reviewed one" if start.schema_matches_reviewed else "NOT provider/schema.json"
    return [
        f"Component provider: process start to the GetSchema answer (budget ≤ {BUDGET_S:g} s)",
        f"  {timing.median('wall'):.3f} s wall ({timing.median('cpu'):.3f} s CPU), median of "
        f"{timing.runs} (load {start.load[0]:.1f}→{start.load[1]:.1f}); runs "
        f"{', '.join(f'{w:.2f}' for w in timing.wall_s)} s: {verdict}",
        f"  schema: {start.resources} components, {schema}",
    ]
