"""Names and IDs the cloud or Kubernetes validates, judged by the same rules before anything is
registered (``gpu_facts.name_rules``: each rule with its owner and source). The stack config's
rules and the components ask here."""

from __future__ import annotations

from collections.abc import Sequence

from gpu_facts.name_rules import (
    ACK_CLUSTER_NAME,
    AKS_CLUSTER_NAME,
    AKS_DNS_PREFIX,
    DNS1123_LABEL,
    ENTRA_OBJECT_ID,
    RESOURCE_GROUP_NAME,
    SLS_PROJECT_NAME,
    VSWITCH_ID,
    NameRule,
)

from .problems import Problem


def name_problem(rule: NameRule, value: str) -> str | None:
    """Why ``value`` breaks ``rule`` (the value, its length when that is what breaks it, and
    the rule's own words), or None."""
    return rule.refusal(value)


def aks_cluster_name_problem(name: str) -> str | None:
    """The AKS cluster name rule, then the ``dnsPrefix`` rule (the platform passes the name as
    the cluster's DNS prefix too: ``gpu_dev`` is a cluster name but no DNS prefix)."""
    return name_problem(AKS_CLUSTER_NAME, name) or name_problem(AKS_DNS_PREFIX, name)


def resource_group_name_problem(name: str) -> str | None:
    return name_problem(RESOURCE_GROUP_NAME, name)


def ack_cluster_name_problem(name: str) -> str | None:
    return name_problem(ACK_CLUSTER_NAME, name)


def sls_project_problem(name: str) -> str | None:
    return name_problem(SLS_PROJECT_NAME, name)


def namespace_problem(name: str) -> str | None:
    return name_problem(DNS1123_LABEL, name)


def _each(rule: NameRule, values: Sequence[str]) -> list[Problem]:
    """(``[i]``, why) of each value that breaks ``rule``, and of each repeated one."""
    problems: list[Problem] = []
    for i, value in enumerate(values):
        problem = name_problem(rule, value)
        if problem is None and value in values[:i]:
            problem = f"{value!r} is listed twice"
        if problem is not None:
            problems.append((f"[{i}]", problem))
    return problems


def entra_object_id_problems(ids: Sequence[str]) -> list[Problem]:
    """Entra group object IDs (``adminGroupObjectIds``): GUIDs, each once."""
    return _each(ENTRA_OBJECT_ID, ids)


def vswitch_id_problems(ids: Sequence[str]) -> list[Problem]:
    """Existing vSwitch IDs (``vswitchIds``, ``podVswitchIds``): ``vsw-...``, each once."""
    return _each(VSWITCH_ID, ids)
