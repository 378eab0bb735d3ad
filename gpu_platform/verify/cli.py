"""Command line of ``make verify``: check a live cluster against what the stack promised.

Exit status: 0 every check passed, 1 a check failed (an answer of the API server that is not
what Kubernetes sends included), 2 the check could not run (bad stack config or options, no
kubeconfig or its exec plugin missing or failing, API server unreachable, TLS or DNS failure,
credentials rejected, permission missing, a deadline passed), 130 interrupted. Read-only.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from gpu_facts.vendors import AMD, NVIDIA
from gpu_platform.plan.platform import ResolvedPlatform
from gpu_platform.settings import DriverCheckSettings
from gpu_platform.stack_config import NAMESPACE, ConfigError, load_platform
from gpu_platform.stack_config.files import PROJECT_FILES, project_name, read_stack_config

from .active import ProbePool, active_run
from .amd.expectations import AmdExpectation, amd_expectation
from .cluster import ClusterError, ClusterReader, connect
from .conformance import conformance_rows
from .deadline import REQUEST_TIMEOUT, RUN_TIMEOUT, Deadline
from .dra_expectations import DraExpectation, dra_expectation
from .driver import StreamExecReader
from .expectations import Expectations, expectations
from .exporter import ProxyMetricsReader
from .plan_expectations import plan_expectations
from .plan_file import MAX_BYTES as PLAN_MAX_BYTES
from .plan_file import PlanError, PlannedResource, plan_document, read_plan
from .progress import Progress
from .queue_expectations import queue_expectation
from .render import as_json, as_junit, as_markdown, table
from .results import CheckResult
from .seed_checks import ExecFactory
from .verify import Report, verify

if TYPE_CHECKING:
    from kubernetes import client

EXIT_OK, EXIT_FAILED, EXIT_ERROR = 0, 1, 2


class UsageError(Exception):
    """The stack config cannot be found or read."""


def load_stack(program: Path, stack: str, config_file: Path | None) -> ResolvedPlatform:
    """The stack's validated config, read like ``pulumi`` reads ``Pulumi.<stack>.yaml``."""
    path = config_file or program / f"Pulumi.{stack}.yaml"
    if not path.is_file():
        raise UsageError(f"no stack config at {path} (give --stack or --config)")
    try:
        project = project_name(program) if config_file is None else _config_project(path, program)
        stack_config = read_stack_config(path, project)
    except (OSError, ValueError, KeyError) as err:
        raise UsageError(f"cannot read {path}: {err}") from None
    raw: dict[str, object] = {}
    for key, value in stack_config.config.items():
        namespace, _, name = key.partition(":")
        if namespace != NAMESPACE or not name:
            continue
        decoded: object = value
        if value[:1] in ("{", "["):
            # Undecodable JSON stays a string: the model then reports the wrong type with its path.
            with contextlib.suppress(ValueError):
                decoded = json.loads(value)
        raw[name] = decoded
    return load_platform(raw)


def _config_project(config_file: Path, program: Path) -> str:
    """The project of a ``--config`` file: the ``Pulumi.yaml`` beside it, else the program's,
    else ours (a stack file copied out of its checkout still reads from any folder)."""
    for folder in (config_file.resolve().parent, program):
        if any((folder / name).is_file() for name in PROJECT_FILES):
            return project_name(folder)
    return NAMESPACE


def _nodes_found(report: Report) -> dict[str, int]:
    """Pool -> how many nodes its ``node-count`` row found."""
    found = {}
    for row in report.results:
        words = row.found.split()
        if row.check == "node-count" and words and words[0].isdigit():
            found[row.subject.removeprefix("pool/")] = int(words[0])
    return found


def probe_rows(
    reader: ClusterReader,
    *,
    deadline: Deadline,
    exp: Expectations,
    amd: AmdExpectation | None,
    dra: DraExpectation | None,
    report: Report,
    err: TextIO,
) -> list[CheckResult]:
    """``--active``: the probes of every GPU pool that has a node, then the cleanup's row."""
    images = DriverCheckSettings()
    nodes = _nodes_found(report)
    pools = [
        ProbePool(p.name, NVIDIA, sorted(p.allocatable)[0], images.image)
        for p in exp.pools
        if p.allocatable and nodes.get(p.name)
    ]
    # A DRA pool's GPUs are claimed from its DeviceClass: the official test's variant.
    pools += [
        ProbePool(p.pool.name, NVIDIA, p.device_class, images.image, p.device_class)
        for p in (dra.pools if dra is not None else [])
        if nodes.get(p.pool.name)
    ]
    pools += [
        ProbePool(p.pool.name, AMD, sorted(p.pool.allocatable)[0], images.amd_image)
        for p in (amd.pools if amd is not None else [])
        if p.pool.allocatable and nodes.get(p.pool.name)
    ]
    if not pools:
        why = "no GPU pool has a node to probe"
        return [CheckResult("probe-gpu", "stack", "-", why, "skip")]

    def say(line: str) -> None:
        err.write(line + "\n")
        err.flush()

    previous = signal.getsignal(signal.SIGTERM)
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, _interrupted)  # SIGTERM cleans up as Ctrl-C does
    try:
        with active_run(reader, deadline, say) as (run, cleanup):
            rows = run.probe(pools)
        return rows + cleanup
    finally:
        if threading.current_thread() is threading.main_thread():
            signal.signal(signal.SIGTERM, previous)


def _interrupted(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


PREVIEW_TIMEOUT = 300
"""Seconds the offline preview of a program may take (its own default)."""


STDERR_TAIL = 64 * 1024
"""What is kept of the preview's stderr: the program's own prints go there, without end if it
likes; the preview's last line says why it failed."""


def _preview_run(command: list[str], seconds: float) -> tuple[int, bytes, str]:
    """The preview's exit status, its plan (stdout, read up to the plan files' cap) and the end
    of its stderr; ``subprocess.TimeoutExpired`` past ``seconds`` (it is then killed)."""
    with tempfile.TemporaryFile() as out:
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.PIPE)
        tail = bytearray()

        def drain() -> None:
            stream = process.stderr
            assert stream is not None
            for chunk in iter(lambda: os.read(stream.fileno(), 65536), b""):
                tail.extend(chunk)
                del tail[:-STDERR_TAIL]

        reader = threading.Thread(target=drain, daemon=True)
        reader.start()
        try:
            process.wait(timeout=seconds)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
            raise
        reader.join(5.0)
        out.seek(0)
        plan = out.read(PLAN_MAX_BYTES + 1)
    return process.returncode, plan, tail.decode(errors="replace")


def load_plan(path: Path, err: TextIO) -> list[PlannedResource]:
    """A plan file's resources, or a program folder's as the offline preview plans it (a
    mandatory violation of the policy pack is said on stderr; the plan is still checked)."""
    if not path.is_dir():
        return read_plan(path)
    command = [sys.executable, "-m", "gpu_platform.offline_preview", "--program", str(path)]
    command += ["--format", "json", "--timeout", str(PREVIEW_TIMEOUT)]
    try:
        status, plan, stderr = _preview_run(command, PREVIEW_TIMEOUT + 30)
    except subprocess.TimeoutExpired:
        raise PlanError(
            f"the offline preview of {path} did not end within {PREVIEW_TIMEOUT + 30} s"
        ) from None
    if status not in (0, 1):
        lines = stderr.strip().splitlines()
        said = [line for line in lines if line.startswith("error: ")]  # the preview's, last
        why = (said or lines)[-1:] or [f"exit {status}"]
        raise PlanError(f"the offline preview of {path} failed: {why[0]}")
    if status == 1:
        err.write(f"verify: the policy pack finds mandatory violations in {path}'s plan\n")
    return plan_document(plan, f"the offline preview of {path}'s plan")


def _positive(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        n = 0
    if n < 1:
        raise argparse.ArgumentTypeError(f"must be a whole number of at least 1, not {text!r}")
    return n


def _seconds(text: str) -> float:
    try:
        n = float(text)
    except ValueError:
        n = 0.0
    if not 0 < n < float("inf"):
        raise argparse.ArgumentTypeError(f"must be a number of seconds above 0, not {text!r}")
    return n


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="gpu-platform-verify",
        description="Check a live cluster against the stack: GPU nodes (NVIDIA and AMD), labels "
        "and taint, device plugin, allocatable GPUs, driver version, namespace guardrails, the "
        "GPU metrics exporters and their series, the seeds' own checks (MIG devices, ACK "
        "GPU memory, MPS server, NVMe cache, node-image age), and Kueue's queues. Read-only.",
    )
    p.add_argument("--stack", default="dev", help="stack name: reads Pulumi.<stack>.yaml")
    p.add_argument("--config", type=Path, help="a stack config file instead of Pulumi.<stack>.yaml")
    p.add_argument("--program", type=Path, default=Path.cwd(), help="project directory")
    p.add_argument(
        "--plan",
        type=Path,
        help="verify what a program's plan promised instead of a stack config: the offline "
        "preview's JSON (also pulumi preview --json, pulumi stack export), or a program's "
        "folder, previewed offline first",
    )
    p.add_argument(
        "--kubeconfig", type=Path, help="kubeconfig file (default: $KUBECONFIG, ~/.kube/config)"
    )
    p.add_argument("--context", help="kubeconfig context (default: the current context)")
    p.add_argument(
        "--format",
        choices=("table", "json", "junit", "markdown"),
        default="table",
        help="table for people, json for automation, junit for CI test results, markdown for a "
        "pull-request comment",
    )
    p.add_argument(
        "--progress", action="store_true", help="progress on stderr even without a terminal"
    )
    p.add_argument(
        "--skip-driver",
        action="store_true",
        help="do not exec nvidia-smi: driver, MIG devices, MPS server (no pods/exec permission)",
    )
    p.add_argument(
        "--skip-metrics",
        action="store_true",
        help="do not read the GPU metrics exporters' /metrics (no pods/proxy permission)",
    )
    p.add_argument(
        "--active",
        action="store_true",
        help="also run probe pods on each GPU pool, in a namespace this run creates and deletes "
        "(a GPU pod must see its GPU, pods without one must see none); says on stderr what it "
        "creates. Needs create and delete on namespaces and pods, get on pods/log",
    )
    p.add_argument(
        "--conformance",
        action="store_true",
        help="add one row per AI Conformance 1.36 requirement about accelerators, from the "
        "rows that are its evidence (secure access needs --active)",
    )
    p.add_argument(
        "--parallel",
        type=_positive,
        default=8,
        help="nodes whose driver or metrics are read at once",
    )
    p.add_argument(
        "--timeout",
        type=_seconds,
        default=RUN_TIMEOUT,
        help=f"seconds the whole run may take (default {RUN_TIMEOUT:g})",
    )
    p.add_argument(
        "--request-timeout",
        type=_seconds,
        default=REQUEST_TIMEOUT,
        help=f"seconds one request may take, first byte to last (default {REQUEST_TIMEOUT:g})",
    )
    return p


def exec_readers(
    api: client.ApiClient, deadline: Deadline, skip: bool
) -> tuple[StreamExecReader | None, ExecFactory | None]:
    """``nvidia-smi``'s reader and the seed checks' reader per command, both held to the run's
    deadline; none with ``--skip-driver``."""
    if skip:
        return None, None
    run_in_pod = partial(StreamExecReader, api, deadline=deadline)
    return run_in_pod(), run_in_pod


def main(
    argv: list[str] | None = None, stdout: TextIO | None = None, stderr: TextIO | None = None
) -> int:
    out, err = stdout or sys.stdout, stderr or sys.stderr
    args = parser().parse_args(argv)
    try:
        if args.plan is not None:
            exp, amd, dra, queues = plan_expectations(load_plan(args.plan, err))
        else:
            platform = load_stack(args.program, args.stack, args.config)
            exp = expectations(platform)
            amd = amd_expectation(platform)
            dra = dra_expectation(platform)
            queues = queue_expectation(platform)
        deadline = Deadline(args.timeout, args.request_timeout)
        api = connect(args.kubeconfig, args.context, deadline)
        try:
            reader = ClusterReader(api, deadline=deadline)
            progress = Progress(err, enabled=args.progress or err.isatty())
            read_driver, run_in_pod = exec_readers(api, deadline, args.skip_driver)
            read_metrics = None if args.skip_metrics else ProxyMetricsReader(reader)
            report = verify(
                reader,
                exp,
                read_driver,
                progress,
                args.parallel,
                read_metrics=read_metrics,
                run_in_pod=run_in_pod,
                amd=amd,
                dra=dra,
                queues=queues,
            )
            if args.active:
                report = Report(
                    report.results
                    + probe_rows(
                        reader,
                        deadline=deadline,
                        exp=exp,
                        amd=amd,
                        dra=dra,
                        report=report,
                        err=err,
                    )
                )
            if args.conformance:
                report = Report(report.results + conformance_rows(report.results, exp.pools))
        finally:
            api.close()
    except (UsageError, ConfigError, ClusterError, PlanError) as error:
        err.write(f"verify: error: {error}\n")
        return EXIT_ERROR
    except KeyboardInterrupt:
        err.write("verify: interrupted\n")
        return 130
    stack = args.stack if args.config is None else str(args.config)
    if args.plan is not None:
        stack = f"the plan of {args.plan}"
    title = f"verify {stack} on {reader.server} ({args.context or 'current context'})"
    if args.format == "json":
        meta = {"stack": stack, "context": args.context, "server": reader.server}
        out.write(as_json(report, meta))
    elif args.format == "junit":
        out.write(as_junit(report, title))
    elif args.format == "markdown":
        out.write(as_markdown(report, title))
    else:
        out.write(table(report, title))
    return EXIT_OK if report.ok else EXIT_FAILED
