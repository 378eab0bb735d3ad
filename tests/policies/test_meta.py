"""Meta-test: every registered policy has its own test file, laid out like the code, whose cases
hold both ways; pod policies on every pod-bearing kind. Also the pack's naming and BP-IDs."""

from __future__ import annotations

import importlib
import pkgutil
import re
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from gpu_policies.registry import MODULES, REGISTERED, policies
from gpu_policy_support.pod_specs import pod_bearing
from gpu_policy_support.policy_factory import FIX_PREFIX

from .crd_fixtures import CLUSTER_SCOPED, GPU_FREE
from .harness import Case, assert_case, messages, violations
from .pod_fixtures import (
    KINDS,
    KINDS_WITHOUT_THE_FIELD,
    NO_FIELD,
    container,
    mutated,
    without_gpus,
)

SPEC_IDS = {f"BP-{i:02d}" for i in range(1, 21)}
HERE = Path(__file__).resolve().parent
POLICY_MODULES = {module.__name__.rsplit(".", 1)[-1]: module for module in MODULES}


def policy_test_module(module_name: str) -> ModuleType:
    """``tests/policies/test_<policy module>.py`` of a policy module."""
    return importlib.import_module(f"{__package__}.test_{module_name}")


def declared_cases(module_name: str) -> list[Case]:
    cases: list[Case] = policy_test_module(module_name).CASES
    return cases


def _bad_everything(spec: dict[str, Any]) -> None:
    spec.update(tolerations=[], hostIPC=True)
    container(spec).update(
        image="nvidia/cuda:latest",
        resources={"limits": {"nvidia.com/gpu": 0.5}},
        securityContext={"privileged": True},
        env=[{"name": "NVIDIA_VISIBLE_DEVICES", "value": "all"}],
    )


def is_pod_policy(module: ModuleType) -> bool:
    """A policy that judges a GPU workload on its own (resource or stack policy): it must be
    tested both ways on every pod-bearing kind. Found by running it on one workload that
    breaks every pod rule, in ``default`` and in a namespace the stack does not declare."""
    return any(
        violations(module.POLICY, [mutated("Deployment", _bad_everything, namespace=ns)])
        for ns in ("default", "team-a")
    )


def judges_pods_without_gpus(module: ModuleType) -> bool:
    """A pod policy that also judges pods asking for no GPU (the env var, CUDA tags): it must
    fail on the kinds whose pods never ask for one (``GPU_FREE``) too."""

    def bad_without_gpus(spec: dict[str, Any]) -> None:
        _bad_everything(spec)
        without_gpus(spec)

    return any(
        violations(module.POLICY, [mutated("Deployment", bad_without_gpus, namespace=ns)])
        for ns in ("default", "team-a")
    )


NAMESPACE_POLICIES = frozenset({"gpu-pods-not-in-default-namespace", "gpu-namespaces-declared"})
"""Policies about a workload's namespace: a cluster-wide runtime has none, so it never fails
them (its pods run in the namespace of what uses it)."""


def kinds_of(case: Case) -> set[str]:
    """The pod-bearing kinds among a case's resources, by label (``RayCluster.ray.io``)."""
    found = set()
    for res in case.resources:
        kind = pod_bearing(res.type)
        if kind is not None:
            found.add(kind.label)
    return found


def test_the_fixtures_cover_every_pod_bearing_kind_of_the_pack() -> None:
    """Every kind the pack reads pods from has a fixture (its current version), and every
    fixture is a kind the pack reads: the table in gpu_facts and the tests cannot drift."""
    from gpu_facts.pod_templates import POD_BEARING_KINDS

    labels = {k.label for k in POD_BEARING_KINDS}
    assert set(KINDS) == labels
    assert {label for label, token in KINDS.items() if pod_bearing(token) is None} == set()


def test_every_policy_module_has_its_own_test_file() -> None:
    for name in POLICY_MODULES:
        assert (HERE / f"test_{name}.py").is_file(), f"no tests/policies/test_{name}.py"


@pytest.mark.parametrize("module_name", sorted(POLICY_MODULES))
def test_each_file_tests_its_policy_both_ways(module_name: str) -> None:
    """Per file: its cases are about its own policy, at least one passes and one fails, and a
    pod policy is tested both ways on every pod-bearing kind. One of each runs here too, so a
    declared case cannot be vacuous (each file runs all of its cases itself)."""
    module = POLICY_MODULES[module_name]
    policy = module.POLICY
    cases = declared_cases(module_name)
    assert {c.policy for c in cases} == {policy.name}, f"test_{module_name}.py names others"
    passing = [c for c in cases if c.passes]
    failing = [c for c in cases if not c.passes]
    assert passing, f"{policy.name} has no passing case"
    assert failing, f"{policy.name} has no failing case"
    assert_case(passing[0])
    assert_case(failing[0])
    no_field = KINDS_WITHOUT_THE_FIELD.get(policy.name, frozenset())
    assert NO_FIELD.get(policy.name, set()) == no_field, f"{policy.name}: kinds without a case"
    if is_pod_policy(module):
        any_pod = judges_pods_without_gpus(module)
        for kind in KINDS:
            assert any(kind in kinds_of(c) for c in passing), f"{policy.name}: no passing {kind}"
            if policy.name in NAMESPACE_POLICIES and kind in CLUSTER_SCOPED:
                continue
            if kind in GPU_FREE and not any_pod:
                continue  # its pods ask for no GPU: a rule about GPU pods never fails there
            if kind in no_field:
                continue  # the kind has no field to break the rule with (declared, sourced)
            assert any(kind in kinds_of(c) for c in failing), f"{policy.name}: no failing {kind}"


def test_pod_policies_are_found_by_what_they_judge() -> None:
    """The behavioural test above finds the workload policies, so none can slip out of the
    every-kind requirement by how it is written."""
    found = {m.POLICY.name for m in MODULES if is_pod_policy(m)}
    assert {
        "gpu-workloads-tolerate-gpu-taint",
        "gpu-limits-whole-numbers",
        "no-nvidia-visible-devices-env",
        "no-privileged-gpu-containers",
        "cuda-images-pinned",
        "host-ipc-only-for-gpu-mem-pods",
        "gpu-pods-not-in-default-namespace",
        "gpu-namespaces-declared",
    } <= found


@pytest.mark.parametrize("module_name", sorted(POLICY_MODULES))
def test_every_message_ends_with_what_to_change(module_name: str) -> None:
    """Each failing case's messages end with the remediation, after ' Fix: '."""
    for case in declared_cases(module_name):
        for message in messages(case) if not case.passes else []:
            _, marker, fix = message.partition(FIX_PREFIX)
            assert marker, f"{case.policy}/{case.id}: no remediation in {message!r}"
            assert len(fix) > 20 and fix.rstrip(")").endswith("."), message


def test_every_policy_module_is_registered_once() -> None:
    """One policy per module: each module's POLICY is registered, and nothing else is."""
    package = importlib.import_module("gpu_policies")
    module_policies = []
    for info in pkgutil.iter_modules(package.__path__):
        module = importlib.import_module(f"gpu_policies.{info.name}")
        if hasattr(module, "POLICY"):
            module_policies.append(module.POLICY)
    assert sorted(map(id, module_policies)) == sorted(id(e.policy) for e in REGISTERED)


def test_the_policies_package_holds_policies_only() -> None:
    """gpu_policies holds the policies and their registry; what they share lives beside them
    in gpu_policy_support, which holds no policy."""
    package = importlib.import_module("gpu_policies")
    others = [
        info.name
        for info in pkgutil.iter_modules(package.__path__)
        if info.name != "registry"
        and not hasattr(importlib.import_module(f"gpu_policies.{info.name}"), "POLICY")
    ]
    assert others == [], f"not policies: move {others} to gpu_policy_support"
    support = importlib.import_module("gpu_policy_support")
    for info in pkgutil.iter_modules(support.__path__):
        module = importlib.import_module(f"gpu_policy_support.{info.name}")
        assert not hasattr(module, "POLICY"), f"gpu_policy_support.{info.name} is a policy"


def test_every_policy_has_bp_ids_in_registry_and_tags() -> None:
    for entry, module in zip(REGISTERED, MODULES, strict=True):
        policy = entry.policy
        assert entry.practices, policy.name
        assert set(entry.practices) <= SPEC_IDS, policy.name
        assert entry.practices == module.INFO.practices, policy.name
        tagged = {t for t in policy.tags or [] if t.startswith("BP-")}
        assert tagged == set(entry.practices), policy.name


def test_bp_ids_are_written_once_per_policy() -> None:
    """A policy module names its practices in INFO only, not again in its text."""
    for name, module in POLICY_MODULES.items():
        source = Path(module.__file__ or "").read_text()
        written = re.findall(r"BP-\d\d", source)
        assert sorted(written) == sorted(module.INFO.practices), name


def test_policies_are_named_and_described_as_the_pack_requires() -> None:
    names = [p.name for p in policies()]
    assert len(names) == len(set(names))
    for policy in policies():
        assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)+", policy.name), policy.name
        assert policy.description.endswith("."), policy.name
        assert policy.description[0].isupper(), policy.name
        assert policy.severity is not None, policy.name
        assert policy.remediation_steps, policy.name


def test_docs_list_every_policy_with_its_bp_ids() -> None:
    docs = (HERE.parents[1] / "docs" / "policies.md").read_text()
    for entry in REGISTERED:
        assert f"`{entry.policy.name}`" in docs, entry.policy.name
        for practice in entry.practices:
            assert practice in docs
