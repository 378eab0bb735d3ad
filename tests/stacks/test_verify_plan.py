"""``make verify --plan``: what a program's plan promised, checked on the recorded cluster.

The plans are real: our stacks' and examples/aks-gpu-pool's as the offline preview makes them,
examples/yaml-gpu-pool's as the component provider builds it over gRPC. The expectations are
the stack config path's, field for field, on every stack of the repository; a plan run and a
stack-config run give the same rows on the recorded cluster.
"""

from __future__ import annotations

import dataclasses
import io
import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
import yaml
from google.protobuf import json_format, struct_pb2
from pulumi.runtime.proto import provider_pb2

from gpu_facts.aks.nodes import NODE_IMAGE_VERSION_LABEL
from gpu_platform.offline_preview.render import as_json
from gpu_platform.verify.amd.expectations import amd_expectation
from gpu_platform.verify.cli import load_stack, main
from gpu_platform.verify.dra_expectations import dra_expectation
from gpu_platform.verify.expectations import expectations
from gpu_platform.verify.plan_expectations import plan_expectations
from gpu_platform.verify.plan_file import plan_resources
from gpu_platform.verify.queue_expectations import queue_expectation
from gpu_platform.verify.seed_expectations import SeedExpectations
from tests.conftest import run_once, stack_preview
from tests.provider.grpc_engine import PROJECT, STACK, ProviderSession
from tests.stacks.test_verify import (
    A100_1,
    DATA,
    T4_0,
    FakeCluster,
    Run,
    serving,
    verify,
    write_kubeconfig,
)
from tests.stacks.test_verify_queues import _recorded_with_queues

ROOT = Path(__file__).resolve().parents[2]
STACKS = {
    "dev": None,
    "prod": None,
    "amd-dev": None,
    "ack-dev": None,
    "existing": None,
    "dra-dev": None,
    "queues-dev": None,
    "verify": DATA / "Pulumi.verify.yaml",
    "verify-queues": DATA / "Pulumi.verify-queues.yaml",
}
"""Every stack of the repository, and the recorded cluster's."""

pytestmark = pytest.mark.slow


def _plan(stack: str, config: Path | None) -> dict[str, Any]:
    return _plan_of(stack, None if config is None else str(config))


@run_once
def _plan_of(stack: str, config: str | None) -> dict[str, Any]:
    """The stack's plan (the preview's JSON), previewed once per test process: several tests
    read the same stack's."""
    if config is None:
        result = stack_preview(stack)
    else:
        from gpu_platform.offline_preview import preview

        result = preview(ROOT, stack=stack, config_file=Path(config))
    plan: dict[str, Any] = json.loads(as_json(result.run, result.violations))
    return plan


def _by_name(items: list[Any]) -> list[Any]:
    return sorted(items, key=lambda item: item.name)


def _seeds_by_name(seeds: SeedExpectations) -> SeedExpectations:
    return dataclasses.replace(seeds, pools=tuple(_by_name(list(seeds.pools))))


@pytest.mark.parametrize("stack", sorted(STACKS))
def test_a_stacks_plan_promises_what_its_config_does(stack: str) -> None:
    config = STACKS[stack]
    platform = load_stack(ROOT, stack, config)
    from_config, amd = expectations(platform), amd_expectation(platform)
    dra = dra_expectation(platform)
    from_plan, planned_amd, planned_dra, planned_queues = plan_expectations(
        plan_resources(_plan(stack, config))
    )
    # The plan holds the namespaces in its own (sorted) order; everything else is equal.
    assert _by_name(from_plan.namespaces) == _by_name(from_config.namespaces)
    assert from_plan.pools == from_config.pools
    assert from_plan.exporter == from_config.exporter
    # The plan's pools in its order; the seeds' facts of each pool equal.
    assert _seeds_by_name(from_plan.seeds) == _seeds_by_name(from_config.seeds)
    assert from_plan.logs == from_config.logs
    assert (from_plan.plugin_namespace, from_plan.min_driver_major) == (
        from_config.plugin_namespace,
        from_config.min_driver_major,
    )
    assert planned_amd == amd
    assert planned_queues == queue_expectation(platform)
    assert (planned_queues is None) == (stack not in ("queues-dev", "verify-queues"))
    if dra is None or planned_dra is None:
        assert planned_dra == dra
    else:  # the DRA pools in the plan's order
        ordered = sorted(planned_dra.pools, key=lambda p: p.pool.name)
        assert dataclasses.replace(planned_dra, pools=ordered) == dataclasses.replace(
            dra, pools=sorted(dra.pools, key=lambda p: p.pool.name)
        )


def _rows(run: Run) -> list[tuple[str, str, str, str, str]]:
    return sorted(tuple(r.values()) for r in run.rows())  # type: ignore[misc]


def _verify_plan(kubeconfig: Path, plan: Path, *extra: str) -> Run:
    out, err = io.StringIO(), io.StringIO()
    argv = ["--plan", str(plan), "--kubeconfig", str(kubeconfig), "--format", "json", *extra]
    code = main(argv, stdout=out, stderr=err)
    return Run(code, out.getvalue(), err.getvalue())


def test_the_plan_and_the_stack_config_give_the_same_rows(kubeconfig: Path, tmp_path: Path) -> None:
    plan = tmp_path / "plan.json"
    plan.write_text(json.dumps(_plan("verify", STACKS["verify"])))
    by_plan, by_config = _verify_plan(kubeconfig, plan), verify(kubeconfig)
    assert by_plan.code == by_config.code == 0, by_plan.failures()
    assert _rows(by_plan) == _rows(by_config)
    assert json.loads(by_plan.out)["stack"] == f"the plan of {plan}"


def test_a_short_pool_fails_its_row_by_name(
    kubeconfig: Path, cluster: FakeCluster, tmp_path: Path
) -> None:
    cluster.items("nodes").remove(cluster.find("nodes", A100_1))
    plan = tmp_path / "plan.json"
    plan.write_text(json.dumps(_plan("verify", STACKS["verify"])))
    run = _verify_plan(kubeconfig, plan)
    assert run.code == 1
    assert run.row("node-count", "pool/a100") == {
        "check": "node-count",
        "subject": "pool/a100",
        "expected": "2 nodes",
        "found": "1 node",
        "status": "fail",
    }


def _as_aks_example_node(cluster: FakeCluster) -> None:
    """The recorded T4 node as examples/aks-gpu-pool's pool makes it: one whole GPU (no
    time-slicing), the inference workload label, a fresh AKS node image."""
    node = cluster.find("nodes", T4_0)
    for section in ("capacity", "allocatable"):
        node["status"][section].pop("nvidia.com/gpu.shared", None)
        node["status"][section]["nvidia.com/gpu"] = "1"
    built = datetime.now(UTC).strftime("%Y%m.%d")
    node["metadata"]["labels"].update(
        {
            "workload.gpu-platform.io/inference": "true",
            NODE_IMAGE_VERSION_LABEL: f"AKSUbuntu-2204gen2containerd-{built}.0",
        }
    )


def test_the_aks_example_program_verifies(cluster: FakeCluster, tmp_path: Path) -> None:
    """examples/aks-gpu-pool, a platform engineer's own program: its folder is previewed
    offline, and its pool, plugin and exporter are checked."""
    _as_aks_example_node(cluster)
    with serving(cluster) as url:
        kubeconfig = write_kubeconfig(tmp_path / "kubeconfig", url)
        run = _verify_plan(kubeconfig, ROOT / "examples" / "aks-gpu-pool")
    assert run.code == 0, run.failures()
    checks = {(r["check"], r["subject"]) for r in run.rows() if r["status"] == "pass"}
    assert {
        ("node-count", "pool/t4"),
        ("labels", f"node/{T4_0}"),
        ("allocatable", f"node/{T4_0}"),
        ("gpu-daemon", f"node/{T4_0}"),
        ("driver", f"node/{T4_0}"),
        ("exporter", f"node/{T4_0}"),
        ("gpu-series", f"node/{T4_0}"),
        ("node-image", "pool/t4"),
    } <= checks
    # Only what the program registered is checked: no namespaces, no A100 pool.
    assert not [r for r in run.rows() if r["subject"].startswith(("namespace/", "pool/a100"))]


def test_a_pool_the_cluster_lacks_fails_by_name(
    cluster: FakeCluster, tmp_path: Path, yaml_program_plan: str
) -> None:
    _as_aks_example_node(cluster)
    cluster.find("nodes", T4_0)["metadata"]["labels"]["gpu-platform.io/pool"] = "other"
    plan = tmp_path / "plan.json"
    with serving(cluster) as url:
        kubeconfig = write_kubeconfig(tmp_path / "kubeconfig", url)
        plan.write_text(yaml_program_plan)  # the YAML program's t4 pool: now without a node
        run = _verify_plan(kubeconfig, plan)
    assert run.row("node-count", "pool/t4")["found"] == "no node carries the pool label"


@pytest.fixture(scope="session")
def yaml_program_plan(component_provider: ProviderSession) -> str:
    """The plan of ``_constructed_yaml_program`` as JSON, built once per test process."""
    return json.dumps({"resources": _constructed_yaml_program(component_provider)})


def _constructed_yaml_program(session: ProviderSession) -> list[dict[str, Any]]:
    """examples/yaml-gpu-pool's components built by the component provider over gRPC, as the
    engine records them (config: the cluster and resource group a team would set). The
    provider is the one this test process shares: what it registered before is not this
    program's."""
    program = yaml.safe_load((ROOT / "examples" / "yaml-gpu-pool" / "Pulumi.yaml").read_text())
    config = {"clusterName": "lab", "resourceGroup": "rg-lab"}

    def resolved(value: Any) -> Any:
        if isinstance(value, str) and value.startswith("${") and value.endswith("}"):
            name = value[2:-1]
            return (
                resolved(program["variables"][name])
                if name in program["variables"]
                else (config[name])
            )
        if isinstance(value, dict):
            return {k: resolved(v) for k, v in value.items()}
        if isinstance(value, list):
            return [resolved(v) for v in value]
        return value

    before = len(session.monitor.recorded)
    for name, resource in program["resources"].items():
        if not resource["type"].startswith("gpu-platform:"):
            continue
        session.provider.Construct(
            provider_pb2.ConstructRequest(
                project=PROJECT,
                stack=STACK,
                dryRun=True,
                parallel=4,
                monitorEndpoint=session.monitor_address,
                type=resource["type"],
                name=name,
                inputs=json_format.ParseDict(resolved(resource["properties"]), struct_pb2.Struct()),
            ),
            timeout=60,
        )
    return [
        {"type": r.type, "name": r.name, "inputs": r.inputs}
        for r in session.monitor.recorded[before:]
    ]


def test_the_yaml_programs_plan_verifies(
    kubeconfig: Path, tmp_path: Path, yaml_program_plan: str
) -> None:
    """examples/yaml-gpu-pool (time-sliced T4 pool, plugin, exporter) through the provider: the
    recorded cluster's T4 node is what it asks for."""
    plan = tmp_path / "plan.json"
    plan.write_text(yaml_program_plan)
    run = _verify_plan(kubeconfig, plan)
    assert run.code == 0, run.failures()
    assert run.row("allocatable", f"node/{T4_0}")["found"] == "nvidia.com/gpu.shared: 4"
    assert run.row("node-count", "pool/t4")["status"] == "pass"
    assert run.row("node-image", "stack")["found"] == (
        "the plan's AKS pools are on a cluster it does not create (no AksCluster): its node OS "
        "channel and NVMe cache are not in the plan"
    )


def test_a_plan_with_nothing_to_verify_says_so(kubeconfig: Path, tmp_path: Path) -> None:
    plan = tmp_path / "plan.json"
    plan.write_text(json.dumps({"resources": [{"type": "kubernetes:core/v1:Namespace"}]}))
    run = _verify_plan(kubeconfig, plan)
    assert run.code == 2
    assert run.err.startswith("verify: error: nothing to verify: the plan registers none of")


def test_junit_of_a_plan_run(kubeconfig: Path, tmp_path: Path) -> None:
    plan = tmp_path / "plan.json"
    plan.write_text(json.dumps(_plan("verify", STACKS["verify"])))
    run = _verify_plan(kubeconfig, plan, "--format", "junit")
    assert run.code == 0
    assert run.out.startswith('<?xml version="1.0" encoding="UTF-8"?>\n<testsuites ')
    assert 'failures="0"' in run.out.splitlines()[1]


@pytest.mark.parametrize("stack", ["queues-dev", "verify-queues"])
def test_a_stack_with_queues_gives_the_same_rows_by_plan_and_by_config(
    stack: str, tmp_path: Path
) -> None:
    """On the recorded cluster with Kueue (healthy for verify-queues; queues-dev's own pools
    and quotas differ from it): the two paths give the same rows, queue rows and the
    conformance row they are the evidence of included."""
    config = STACKS[stack]
    plan = tmp_path / "plan.json"
    plan.write_text(json.dumps(_plan(stack, config)))
    extra = ("--skip-driver", "--skip-metrics", "--conformance")
    with serving(_recorded_with_queues()) as url:
        kubeconfig = write_kubeconfig(tmp_path / "kubeconfig", url)
        by_plan = _verify_plan(kubeconfig, plan, *extra)
        by_config = verify(kubeconfig, *extra, config=config or ROOT / f"Pulumi.{stack}.yaml")
    assert by_plan.code == by_config.code
    assert _rows(by_plan) == _rows(by_config)
    queue_checks = {"kueue-controller", "resource-flavor", "cluster-queue", "local-queue"}
    assert {r["check"] for r in by_plan.rows()} >= queue_checks
    gang = by_plan.row("conformance", "ai-conformance-1.36/gang_scheduling")
    if stack == "verify-queues":
        assert by_plan.code == 0, by_plan.failures()
        assert gang["status"] == "pass"
        assert gang["found"].startswith("7 of 7 rows pass; Kueue admits a workload whole")
    else:
        assert gang["status"] == "fail"
