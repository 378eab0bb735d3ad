"""Every rule at once, each problem once; each sound pool resolved once for the rules across
pools and for the platform (stack_config.rules)."""

from __future__ import annotations

import ast
import sys
from pathlib import Path
from types import FrameType
from typing import Any

import pytest

from gpu_platform.settings import PlatformSettings
from gpu_platform.stack_config.rules import POOL_RULES, RULES, validate, validate_and_resolve
from gpu_platform.stack_config.rules.base import ConfigUnderRules, Problem, Rule
from tests.conftest import ROOT
from tests.stack_config.rules.subjects import Mutation, Raw, subject


def test_a_valid_stack_has_no_problem_and_every_pool_resolved() -> None:
    cfg = subject("dev")
    problems, sound = validate_and_resolve(cfg.settings)
    assert problems == []
    assert list(sound) == [p.name for p in cfg.settings.gpu_pools]
    assert validate(cfg.settings) == []


def test_a_pool_with_problems_is_not_resolved_and_paths_keep_its_place() -> None:
    def break_second(raw: dict) -> None:
        raw["gpuPools"][1]["vmSize"] = "Standard_D4s_v5"

    settings = subject("dev", break_second).settings
    only_second = settings.model_copy(update={"gpu_pools": settings.gpu_pools[1:]})
    problems, sound = validate_and_resolve(only_second, [1])
    assert [path for path, _ in problems][:1] == ["gpuPools[1].vmSize"]
    assert sound == {}


def test_each_problem_once() -> None:
    settings = PlatformSettings.model_validate(
        {"cloud": "existing", "cluster": {}, "gpuPools": [{"name": "a"}, {"name": "a"}]}
    )
    problems = validate(settings)
    assert len(problems) == len(set(problems))
    assert ("gpuPools", "duplicate name 'a'") in problems


def test_the_rule_lists() -> None:
    assert POOL_RULES and RULES
    assert not set(POOL_RULES) & set(RULES)


# --- Every rule is an adapter over a plan rule -------------------------------------------------


def _set(path: str, value: object) -> Mutation:
    """A change of the raw config: ``path`` (``gpuPools.1.vmSize``) set to ``value``."""

    def change(raw: Raw) -> None:
        *parents, last = path.split(".")
        node: Any = raw
        for key in parents:
            node = node[int(key)] if isinstance(node, list) else node.setdefault(key, {})
        if isinstance(node, list):
            node[int(last)] = value
        else:
            node[last] = value

    return change


def _both(*changes: Mutation) -> Mutation:
    def change(raw: Raw) -> None:
        for one in changes:
            one(raw)

    return change


def _no_count(i: int) -> Mutation:
    return lambda raw: raw["gpuPools"][i].pop("count", None)


FAULTS: dict[str, tuple[str, Mutation]] = {
    # A config each rule finds at least one problem in: rule (module.name) -> (stack, change).
    "pools.pool_machine": ("dev", _set("gpuPools.1.vmSize", "Standard_D4s_v5")),
    "pools.pool_size": ("dev", _set("gpuPools.1.autoscale", {"min": 3, "max": 1})),
    "pools.pool_mig": ("dev", _both(_no_count(0), _set("gpuPools.0.autoscale", {"max": 2}))),
    "pools.pool_sharing": (
        "dev",
        _both(
            _set("gpuPools.1.sharing", {"mode": "mps", "replicas": 2}),
            _set("devicePlugin.version", "0.15.0"),
        ),
    ),
    "pools.pool_nvme": ("dev", _set("gpuPools.1.nvme", True)),
    "pools.pool_labels": ("dev", _set("gpuPools.1.labels", {"gpu-platform.io/pool": "x"})),
    "pools.pool_dra": (
        "dra-dev",
        _set("gpuPools.2.sharing", {"mode": "timeSlicing", "replicas": 2}),
    ),
    "amd.pool_amd": ("amd-dev", _set("gpuPools.0.osSku", "AzureLinux")),
    "clusters.kubernetes_version": ("dev", _set("cluster.kubernetesVersion", "1.29")),
    "clusters.existing_kubeconfig": ("existing", _set("cluster.kubeconfigPath", "/nonexistent/k")),
    "limits.region": ("dev", _set("cluster.location", "westeurop")),
    "limits.pool_limit": ("dev", _set("gpuPools.1.autoscale", {"min": 0, "max": 5000})),
    "limits.cpu_pool_limits": ("dev", _set("cpuPools.0.autoscale", {"min": 0, "max": 5000})),
    "limits.cluster_size": ("dev", _set("cluster.systemPool.count", 1001)),
    "aks.cluster": ("dev", _set("cluster.systemPool.maxPods", 10)),
    "aks.node_hardening": ("ack-dev", _set("cpuPools.0.maxPods", 110)),
    "ack._ack_cluster": ("ack-dev", _set("gpuPools.1.labels", {"ack.node.gpu.schedule": "x"})),
    "cpu_pools.cpu_pools": ("dev", _set("cpuPools.0.vmSize", "Standard_NC4as_T4_v3")),
    "cpu_pools.system_pool": (
        "ack-dev",
        _set("cluster.systemPool.instanceType", "ecs.gn6i-c4g1.xlarge"),
    ),
    "cloud_values.cluster_values": ("dev", _set("cluster.name", "gpu dev!")),
    "cloud_values.pool_labels": ("dev", _set("gpuPools.1.labels", {"bad key": "x"})),
    "cloud_values.pool_zones": ("dev", _set("gpuPools.0.zones", ["4"])),
    "cloud_values.driver_check_schedule": ("dev", _set("driverCheck.schedule", "every day")),
    "pools.duplicate_names": ("dev", _set("cpuPools.0.name", "t4")),
    "pools.dra_cluster": ("dra-dev", _set("cluster.kubernetesVersion", "1.33")),
    "gpu_layer.device_plugin": ("dev", _set("devicePlugin.version", "0.14.5")),
    "gpu_layer.dra_driver": ("dra-dev", _set("draDriver.version", "0.4.1")),
    "gpu_layer.gpu_layer": ("dev", _set("driverCheck.namespace", "nvidia-device-plugin")),
    "amd.amd_layer": ("amd-dev", lambda raw: raw["amdGpuOperator"]["driver"].pop("image")),
    "workloads.duplicate_names": ("dev", _set("workloads.1.name", "gpu-training")),
    "workloads.workloads": ("dev", _set("workloads.0.pools", ["nope"])),
    "workloads.workload_isolation": (
        "dev",
        _set("workloads.0.traffic", {"egressCidrs": ["10.0.0.1/8"]}),
    ),
    "observability.metrics": ("dev", _set("observability.metrics", {"scrape": "serviceMonitor"})),
    "observability.ack_logs": ("ack-dev", _set("workloads.0.name", "w" * 57)),
    "observability.grafana": ("ack-dev", _set("observability.grafana", {"enabled": True})),
    "queues.queues": ("queues-dev", _set("queues.version", "0.18.6")),
}


def _rule_name(rule: Rule) -> str:
    return f"{rule.__module__.rsplit('.', 1)[-1]}.{rule.__name__}"


def _messages_out_of(value: object, into: set[str]) -> None:
    """The messages in what a plan function returned or yielded: a message, a problem
    (path, message), or a list of either."""
    if isinstance(value, str):
        into.add(value)
    elif isinstance(value, tuple) and len(value) == 2 and isinstance(value[1], str):
        into.add(value[1])
    elif isinstance(value, list | tuple):
        for item in value:
            _messages_out_of(item, into)


def _asked(rule: Rule, cfg: ConfigUnderRules) -> tuple[list[Problem], set[str]]:
    """What ``rule`` finds in ``cfg``, and every message that left a ``plan`` (or ``gpu_facts``)
    function meanwhile: a profiler sees each return and each yield. ``plan.problems`` only moves
    paths (``under``, ``join_path``), so what passes through it is not counted."""
    from_plan: set[str] = set()

    def profile(frame: FrameType, event: str, arg: object) -> None:
        module = frame.f_globals.get("__name__", "")
        ours = module.startswith(("gpu_platform.plan.", "gpu_facts"))
        if event == "return" and ours and module != "gpu_platform.plan.problems":
            _messages_out_of(arg, from_plan)

    sys.setprofile(profile)
    try:
        found = list(rule(cfg))
    finally:
        sys.setprofile(None)
    return found, from_plan


def test_every_rule_has_a_config_it_faults() -> None:
    assert sorted(FAULTS) == sorted(_rule_name(rule) for rule in (*POOL_RULES, *RULES))


@pytest.mark.parametrize("rule", [*POOL_RULES, *RULES], ids=_rule_name)
def test_each_rule_says_what_a_plan_rule_says(rule: Rule) -> None:
    """The proof that a rule is a thin adapter: on a config it faults, each message it reports
    is one a ``plan`` rule returned, word for word (the rule may only place the path); the
    components ask the same ``plan`` rules, so the config and the components say the same."""
    stack, change = FAULTS[_rule_name(rule)]
    found, from_plan = _asked(rule, subject(stack, change))
    assert found, f"{_rule_name(rule)} finds nothing in its faulty {stack} config"
    authored = [(path, message) for path, message in found if message not in from_plan]
    assert authored == [], "messages written by the stack config, not asked of plan"


RULE_MODULES = sorted(
    path
    for path in (ROOT / "gpu_platform" / "stack_config" / "rules").glob("*.py")
    if path.name not in {"__init__.py", "follow_on.py"}
)


@pytest.mark.parametrize("path", RULE_MODULES, ids=lambda path: path.stem)
def test_no_rule_module_writes_a_message(path: Path) -> None:
    """Beside the proof above (which sees the configs it is given), the rules' source holds no
    message at all: no text with a space in it but docstrings (key paths have none)."""
    tree = ast.parse(path.read_text())
    # Docstrings, of modules, functions and names alike, are bare expression statements.
    docstrings = {id(node.value) for node in ast.walk(tree) if isinstance(node, ast.Expr)}
    texts = [
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and " " in node.value
        and id(node) not in docstrings
    ]
    assert texts == []
