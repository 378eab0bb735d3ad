"""plan.names: cloud and Kubernetes names and IDs, by the owners' rules, at both sides of each
boundary, with the exact messages."""

from __future__ import annotations

import pytest

from gpu_facts.name_rules import (
    ACK_CLUSTER_NAME,
    AKS_CLUSTER_NAME,
    AKS_DNS_PREFIX,
    AKS_POOL_NAME,
    DNS1123_LABEL,
    RESOURCE_GROUP_NAME,
)
from gpu_platform.plan.names import (
    ack_cluster_name_problem,
    aks_cluster_name_problem,
    entra_object_id_problems,
    name_problem,
    namespace_problem,
    resource_group_name_problem,
    sls_project_problem,
    vswitch_id_problems,
)

AKS_RULE = (
    "AKS cluster names are 1-63 characters: letters, digits, '-' and '_', starting and ending "
    "with a letter or digit (Azure's rule for Microsoft.ContainerService/managedClusters)"
)
DNS_PREFIX_RULE = (
    "the platform uses the cluster name as its dnsPrefix, which AKS takes as 1-54 letters, "
    "digits and '-', starting and ending with a letter or digit (no '_' or '.')"
)
RG_RULE = (
    "resource group names are 1-90 characters: letters, digits, '_', '-', '.', '(' and ')', "
    "not ending with '.' (Azure's rule for Microsoft.Resources/resourceGroups)"
)
ACK_RULE = (
    "ACK cluster names are 1-63 characters: letters, digits and '-', not starting with '-' "
    "(Alibaba Cloud's rule for CreateCluster)"
)
NAMESPACE_RULE = (
    "Kubernetes namespace names are RFC 1123 labels: 1-63 characters, lowercase letters, "
    "digits and '-', starting and ending with a letter or digit"
)


@pytest.mark.parametrize("name", ["a", "gpu-dev", "gpu-dev-1", "A9", "x" * 54])
def test_aks_cluster_names_accepted(name: str) -> None:
    assert aks_cluster_name_problem(name) is None


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("gpu dev!", f"'gpu dev!': {AKS_RULE}"),
        ("", f"'' (0 characters): {AKS_RULE}"),
        ("x" * 64, f"'{'x' * 64}' (64 characters): {AKS_RULE}"),
        ("-gpu", f"'-gpu': {AKS_RULE}"),
        ("gpu_", f"'gpu_': {AKS_RULE}"),
        # Azure takes these as cluster names, but not as the DNS prefix the platform derives.
        ("gpu_dev", f"'gpu_dev': {DNS_PREFIX_RULE}"),
        ("x" * 55, f"'{'x' * 55}' (55 characters): {DNS_PREFIX_RULE}"),
        ("x" * 63, f"'{'x' * 63}' (63 characters): {DNS_PREFIX_RULE}"),
    ],
)
def test_aks_cluster_names_refused(name: str, expected: str) -> None:
    assert aks_cluster_name_problem(name) == expected


@pytest.mark.parametrize(
    "name", ["rg", "rg-gpu-dev", "rg_(gpu).dev", "r" * 90, "résumé", "x.y", "a", "_"]
)
def test_resource_group_names_accepted(name: str) -> None:
    assert resource_group_name_problem(name) is None


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("rg/gpu#dev.", f"'rg/gpu#dev.': {RG_RULE}"),
        ("rg.", f"'rg.': {RG_RULE}"),
        ("rg gpu", f"'rg gpu': {RG_RULE}"),
        ("r" * 91, f"'{'r' * 91}' (91 characters): {RG_RULE}"),
        ("", f"'' (0 characters): {RG_RULE}"),
    ],
)
def test_resource_group_names_refused(name: str, expected: str) -> None:
    assert resource_group_name_problem(name) == expected


@pytest.mark.parametrize("name", ["gpu-ack-dev", "a", "9-", "A" * 63, "集群"])
def test_ack_cluster_names_accepted(name: str) -> None:
    assert ack_cluster_name_problem(name) is None


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("-gpu ack/dev", f"'-gpu ack/dev': {ACK_RULE}"),
        ("-gpu", f"'-gpu': {ACK_RULE}"),
        ("gpu_ack", f"'gpu_ack': {ACK_RULE}"),
        ("a" * 64, f"'{'a' * 64}' (64 characters): {ACK_RULE}"),
        ("", f"'' (0 characters): {ACK_RULE}"),
    ],
)
def test_ack_cluster_names_refused(name: str, expected: str) -> None:
    assert ack_cluster_name_problem(name) == expected


@pytest.mark.parametrize("name", ["gpu-training", "a", "0", "n" * 63])
def test_namespace_names_accepted(name: str) -> None:
    assert namespace_problem(name) is None


@pytest.mark.parametrize(
    ("name", "shown"),
    [
        ("Gpu", "'Gpu'"),
        ("gpu_training", "'gpu_training'"),
        ("-gpu", "'-gpu'"),
        ("gpu-", "'gpu-'"),
        ("gpu.training", "'gpu.training'"),
        ("", "'' (0 characters)"),
        ("n" * 64, f"'{'n' * 64}' (64 characters)"),
    ],
)
def test_namespace_names_refused(name: str, shown: str) -> None:
    assert namespace_problem(name) == f"{shown}: {NAMESPACE_RULE}"


def test_sls_project_names() -> None:
    rule = (
        "Simple Log Service project names are 3-63 lowercase letters, digits and '-', starting "
        "and ending with a letter or digit (Alibaba Cloud's rule for CreateProject)"
    )
    for name in ("k8s-log-c1", "abc", "p" * 63):
        assert sls_project_problem(name) is None
    assert sls_project_problem("ab") == f"'ab' (2 characters): {rule}"
    assert sls_project_problem("p" * 64) == f"'{'p' * 64}' (64 characters): {rule}"
    assert sls_project_problem("Audit_Logs") == f"'Audit_Logs': {rule}"
    assert sls_project_problem("audit-") == f"'audit-': {rule}"


def test_pool_names_follow_the_aks_agent_pool_pattern() -> None:
    assert AKS_POOL_NAME.matches("a100mig") and AKS_POOL_NAME.matches("a" * 12)
    for name in ("a" * 13, "T4", "1gpu", "gpu-a", ""):
        assert not AKS_POOL_NAME.matches(name), name


def test_entra_object_ids_are_guids_each_once() -> None:
    good = "00000000-0000-0000-0000-00000000a001"
    assert entra_object_id_problems([good, "ABCDEF01-2345-6789-abcd-ef0123456789"]) == []
    rule = (
        "an Entra object ID is a GUID: 8-4-4-4-12 hexadecimal digits, e.g. "
        "00000000-0000-0000-0000-000000000000"
    )
    assert entra_object_id_problems(["admins", good, good, good + "0"]) == [
        ("[0]", f"'admins' (6 characters): {rule}"),
        ("[2]", f"'{good}' is listed twice"),
        ("[3]", f"'{good}0' (37 characters): {rule}"),
    ]
    assert entra_object_id_problems(["0000000g-0000-0000-0000-000000000000"]) == [
        ("[0]", f"'0000000g-0000-0000-0000-000000000000': {rule}")
    ]


def test_vswitch_ids() -> None:
    rule = (
        "a vSwitch ID starts with 'vsw-' followed by lowercase letters and digits (the alicloud "
        "provider's rule for vswitch_ids)"
    )
    assert vswitch_id_problems(["vsw-bp1abc", "vsw-2"]) == []
    assert vswitch_id_problems(["vsw-lab-node", "sw-1", "vsw-bp1abc", "vsw-bp1abc"]) == [
        ("[0]", f"'vsw-lab-node': {rule}"),
        ("[1]", f"'sw-1': {rule}"),
        ("[3]", "'vsw-bp1abc' is listed twice"),
    ]


@pytest.mark.parametrize(
    "rule", [AKS_CLUSTER_NAME, AKS_DNS_PREFIX, RESOURCE_GROUP_NAME, ACK_CLUSTER_NAME, DNS1123_LABEL]
)
def test_each_rule_takes_its_longest_name_and_refuses_one_more(rule: object) -> None:
    from gpu_facts.name_rules import NameRule

    assert isinstance(rule, NameRule)
    longest = "a" * rule.max_length
    assert name_problem(rule, longest) is None
    assert name_problem(rule, longest + "a") == (
        f"'{longest}a' ({rule.max_length + 1} characters): {rule.text}"
    )
    assert rule.source.startswith("https://")
