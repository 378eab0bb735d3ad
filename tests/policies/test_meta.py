"""Meta-test: every registered policy has a passing case, a failing case and BP-IDs."""

from __future__ import annotations

import importlib
import pkgutil
import re
from pathlib import Path

from gpu_policies.registry import REGISTERED, policies

from . import test_cloud_policies, test_pod_policies, test_practice_policies, test_stack_policies
from .harness import Case, assert_case

SPEC_IDS = {f"BP-{i:02d}" for i in range(1, 21)}
CASE_MODULES = (test_pod_policies, test_cloud_policies, test_stack_policies, test_practice_policies)


def declared_cases() -> list[Case]:
    return [case for module in CASE_MODULES for case in module.CASES]


def test_every_policy_has_a_passing_and_a_failing_case_that_hold() -> None:
    cases = declared_cases()
    for policy in policies():
        mine = [c for c in cases if c.policy == policy.name]
        passing = [c for c in mine if c.passes]
        failing = [c for c in mine if not c.passes]
        assert passing, f"{policy.name} has no passing case"
        assert failing, f"{policy.name} has no failing case"
        # Run one of each here too, so a declared case cannot be vacuous.
        assert_case(passing[0])
        assert_case(failing[0])


def test_cases_name_only_registered_policies() -> None:
    names = {p.name for p in policies()}
    assert {c.policy for c in declared_cases()} <= names


def test_every_policy_has_bp_ids_in_registry_and_tags() -> None:
    for entry in REGISTERED:
        policy = entry.policy
        assert entry.practices, policy.name
        assert set(entry.practices) <= SPEC_IDS, policy.name
        tagged = {t for t in policy.tags or [] if t.startswith("BP-")}
        assert tagged == set(entry.practices), policy.name


def test_policies_are_named_and_described_as_the_pack_requires() -> None:
    names = [p.name for p in policies()]
    assert len(names) == len(set(names))
    for policy in policies():
        assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)+", policy.name), policy.name
        assert policy.description.endswith("."), policy.name
        assert policy.description[0].isupper(), policy.name
        assert policy.severity is not None, policy.name
        assert policy.remediation_steps, policy.name


def test_every_policy_module_is_registered_once() -> None:
    """One policy per module: each module's POLICY is registered, and nothing else is."""
    package = importlib.import_module("gpu_policies")
    module_policies = []
    for info in pkgutil.iter_modules(package.__path__):
        module = importlib.import_module(f"gpu_policies.{info.name}")
        if hasattr(module, "POLICY"):
            module_policies.append(module.POLICY)
    assert sorted(map(id, module_policies)) == sorted(id(e.policy) for e in REGISTERED)


def test_docs_list_every_policy_with_its_bp_ids() -> None:
    docs = (Path(__file__).resolve().parents[2] / "docs" / "policies.md").read_text()
    for entry in REGISTERED:
        assert f"`{entry.policy.name}`" in docs, entry.policy.name
        for practice in entry.practices:
            assert practice in docs
