"""Shared fixtures: stack configs, the mock-engine harness (offline_preview.run_callable), and
runs shared by every test of a process (``run_once``) or of the session (``stack_preview``)."""

from __future__ import annotations

import atexit
import copy
import fcntl
import functools
import gc
import hashlib
import json
import os
import pickle
import shutil
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, ParamSpec, TypeVar

import pulumi
import pytest
import yaml
from hypothesis import HealthCheck, settings

from gpu_platform.offline_preview import ProgramRun, RecordedResource, run_callable
from gpu_platform.plan.platform import ResolvedPlatform
from gpu_platform.stack_config import load_platform
from tests.assertion_bytecode import is_xdist_controller, write_missing
from tests.reference import reference_charts

if TYPE_CHECKING:
    from gpu_platform.offline_preview import PreviewResult
    from tests.provider.grpc_engine import ProviderSession

ROOT = Path(__file__).resolve().parent.parent


def _reference_charts() -> None:
    """Helm releases the offline preview renders find the reference charts (``../shared/
    reference``: NVIDIA's device plugin 0.20.0 and dcgm-exporter 4.8.2, the versions our stacks
    pin) as a copy the user gives, ``$GPU_PLATFORM_CHARTS``, unless the run sets its own. Each
    test process links them into a folder of its own, removed at exit."""
    if os.environ.get("GPU_PLATFORM_CHARTS"):
        return
    folder = Path(tempfile.mkdtemp(prefix="gpu-platform-charts-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    if reference_charts(folder) is not None:
        os.environ["GPU_PLATFORM_CHARTS"] = str(folder)


_reference_charts()

# Hypothesis' default 200 ms deadline and its too_slow health check are timing asserts in
# disguise: a loaded CI machine fails them with no bug. The default profile also
# derandomizes, so CI runs exactly what a local `make test` runs;
# `HYPOTHESIS_PROFILE=explore make unit` searches wider, at random.
_UNTIMED = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("default", _UNTIMED, derandomize=True, database=None)
settings.register_profile("explore", _UNTIMED, max_examples=1000)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


P = ParamSpec("P")
R = TypeVar("R")


def run_once(build: Callable[P, R]) -> Callable[P, R]:
    """``build`` runs once per test process for each set of arguments; every call gets a deep
    copy of that first result, so a test may change what it gets without touching another's.

    For whole-stack and component runs on the mock engine that many tests read: a recorded run
    is plain data, and running the same program again only costs time (an AKS cluster is
    ~0.3 s, a whole azure stack ~0.7 s, most of it the SDK's work). Arguments must be
    JSON-able (stack names, config changes), so equal arguments mean the same program.
    Exceptions are not kept: a failing build fails every test that asks for it.
    Each pytest-xdist worker is its own process, so a run is repeated at most once per worker.
    """
    results: dict[str, R] = {}

    @functools.wraps(build)
    def cached(*args: P.args, **kwargs: P.kwargs) -> R:
        key = json.dumps([args, kwargs], sort_keys=True)
        if key not in results:
            results[key] = build(*args, **kwargs)
        return copy.deepcopy(results[key])

    return cached


@functools.cache
def _stack_file(stack: str) -> dict[str, Any]:
    data = yaml.safe_load((ROOT / f"Pulumi.{stack}.yaml").read_text())["config"]
    return {k.split(":", 1)[1]: v for k, v in data.items() if k.startswith("gpu-platform:")}


def stack_raw(stack: str) -> dict[str, Any]:
    """The ``gpu-platform:`` keys of ``Pulumi.<stack>.yaml``, namespace stripped: a fresh copy
    of the file parsed once per process (pure-Python YAML takes ~40 ms a file)."""
    return copy.deepcopy(_stack_file(stack))


_SHARED_PREVIEWS: list[Path] = []
"""The folder where this session's xdist workers share stack previews (``stack_preview``),
once the session has started under xdist."""


@pytest.fixture(scope="session", autouse=True)
def _share_stack_previews(tmp_path_factory: pytest.TempPathFactory) -> None:
    """Each xdist worker's basetemp sits in the session's, new every run (pytest prunes old
    ones): a stack's name is the whole key, as the sources cannot change during a run."""
    if os.environ.get("PYTEST_XDIST_WORKER"):
        folder = tmp_path_factory.getbasetemp().parent / "stack-previews"
        folder.mkdir(exist_ok=True)
        _SHARED_PREVIEWS[:] = [folder]


def _once_per_session(key: str, build: Callable[[], R]) -> R:
    """``build()``, run by the first worker of the session that asks for ``key``; the others wait
    for it and read it (pickled, as ``run_once``'s deep copies, so equal data) instead of running
    it again. Exceptions are not kept: each worker that asks runs a failing build again."""
    if not _SHARED_PREVIEWS:
        return build()
    path = _SHARED_PREVIEWS[0] / hashlib.sha256(key.encode()).hexdigest()[:32]
    with open(path.with_suffix(".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when closed, even if build() raises
        if path.exists():
            return pickle.loads(path.read_bytes())
        result = build()
        path.with_suffix(".tmp").write_bytes(pickle.dumps(result, pickle.HIGHEST_PROTOCOL))
        path.with_suffix(".tmp").replace(path)
        return result


@run_once
def stack_preview(stack: str) -> PreviewResult:
    """``python -m gpu_platform.offline_preview --stack <stack>`` as data: our program on the mock
    engine with ``Pulumi.<stack>.yaml`` and the policy pack's verdicts. Run once per test session
    (``run_once``, shared by the xdist workers): tests that read a whole stack share it instead
    of each running it again (the amd-dev stack alone is ~4 s of CPU)."""
    from gpu_platform.offline_preview import (
        preview,
    )  # the pack's modules: only for tests that preview

    return _once_per_session(f"stack_preview {stack}", lambda: preview(ROOT, stack=stack))


@pytest.fixture
def raw_config() -> Callable[[str], dict[str, Any]]:
    """A fresh, mutable copy of a stack's raw config."""
    return stack_raw


def platform_of(raw: dict[str, Any]) -> ResolvedPlatform:
    return load_platform(raw)


def run(program: Callable[[], Any], **kwargs: Any) -> ProgramRun:
    """Run ``program`` on the mock engine; returns after every registration has completed."""
    return run_callable(program, **kwargs)


def by_type(run_result: ProgramRun, type_: str) -> list[RecordedResource]:
    return [r for r in run_result.resources if r.type == type_]


def one(run_result: ProgramRun, type_: str) -> RecordedResource:
    found = by_type(run_result, type_)
    assert len(found) == 1, f"expected one {type_}, found {[r.name for r in found]}"
    return found[0]


@pytest.fixture(autouse=True)
def _clean_pulumi_config() -> None:
    """Config is a process-wide ContextVar in the SDK; start every test without any."""
    pulumi.runtime.set_all_config({}, [])


@pytest.fixture(scope="session")
def component_provider() -> Iterator[ProviderSession]:
    """The component provider, started as Pulumi starts it, and the engine it talks to: one per
    test process, shared by every test that drives it over gRPC. Starting it is most of what
    those tests cost (it imports every component and infers the schema: about 2 s of CPU);
    each test reads only what its own Constructs registered or logged. The engine already holds
    the Kubernetes provider the wire inputs refer to, and refuses ``<ENGINE_REFUSED>-pool``."""
    from tests.provider.grpc_engine import ENGINE_REFUSED, provider_session
    from tests.provider.wire_inputs import KUBERNETES_PROVIDER

    with provider_session(
        {KUBERNETES_PROVIDER["urn"]: KUBERNETES_PROVIDER["id"]},
        refused=frozenset({f"{ENGINE_REFUSED}-pool"}),
    ) as running:
        yield running


def pytest_collection_finish(session: pytest.Session) -> None:
    """CPython's cyclic collector, tuned for a test process (each xdist worker).

    After collection the heap holds every SDK module's objects (~200,000 after the imports),
    and each test piles up more (Outputs, recorded runs): with the default thresholds
    (700, 10, 10) a full collection walks it every few seconds and the collector took about a
    quarter of the suite's CPU time. Freezing what collection imported keeps it out of every
    walk, and larger thresholds make the walks rarer: the collector's share fell from ~10 s to
    ~2 s on tests/components and tests/policies, for a few MB more memory. Nothing is left
    uncollected; garbage cycles only wait longer.
    """
    gc.collect()
    gc.freeze()
    gc.set_threshold(10_000, 50, 50)


def pytest_configure(config: pytest.Config) -> None:
    """Before pytest-xdist's workers start, the test modules they would each rewrite at once
    are rewritten here, once (tests/assertion_bytecode.py)."""
    if is_xdist_controller(config):
        write_missing(config)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Slow tests first (order otherwise kept): with `make test`'s workers a long test
    collected last would run alone at the end while the other core idles."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--dist-check",
        action="store_true",
        help="also run the packaging tests (build and install the wheels): make dist-check",
    )
    parser.addoption(
        "--bench-check",
        action="store_true",
        help="also run the benchmark harness's tests (tests/bench): make bench-check",
    )
