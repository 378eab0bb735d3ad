"""Namespaces that run GPU workloads are declared by the program, so they can be judged.

The deny-all and quota policies judge every Namespace the stack declares. A GPU workload in a
namespace the program does not declare (made by hand, or by another stack) cannot be judged
that way: this policy says so, unless the stack itself gives that namespace both a deny-all
NetworkPolicy and a GPU quota. ``default`` is left to ``gpu-pods-not-in-default-namespace``.
"""

from __future__ import annotations

from pulumi_policy import EnforcementLevel, Severity, StackValidationArgs

from gpu_facts.network_policy import is_deny_all
from gpu_facts.scheduling import NVIDIA_GPU
from gpu_policy_support.claims import stack_claims
from gpu_policy_support.pod_specs import DEFAULT_NAMESPACE
from gpu_policy_support.pod_specs import namespace as namespace_of
from gpu_policy_support.policy_factory import (
    Config,
    PolicyInfo,
    Report,
    exempt_names,
    exempt_namespaces,
    stack_policy,
)
from gpu_policy_support.props import path
from gpu_policy_support.resource_types import NETWORK_POLICY, RESOURCE_QUOTA
from gpu_policy_support.stack_index import (
    declared_namespaces,
    gpu_workload_namespaces,
    index_by_type,
    raise_if_unknown,
    workload_names,
)

from .gpu_namespaces_have_gpu_quota import caps_gpu

INFO = PolicyInfo(
    name="gpu-namespaces-declared",
    description=(
        "Every namespace the stack runs GPU workloads in is a Namespace the program declares "
        "(or one the stack gives a deny-all NetworkPolicy and a GPU ResourceQuota), so its "
        "isolation and GPU quota are judged at preview."
    ),
    practices=("BP-07", "BP-08", "BP-09"),
    enforcement_level=EnforcementLevel.ADVISORY,
    severity=Severity.MEDIUM,
    remediation_steps=(
        "Declare the Namespace in the program, with a deny-all NetworkPolicy and a "
        f"ResourceQuota on requests.{NVIDIA_GPU}; or, when another stack governs it, exempt "
        "the namespace (exemptNamespaces) here and check it there."
    ),
)


def validate(args: StackValidationArgs, config: Config, report: Report) -> None:
    index = index_by_type(args.resources)
    claims = stack_claims(index)
    declared, unknown = declared_namespaces(index)
    denied = {namespace_of(np.props) for np in index[NETWORK_POLICY] if is_deny_all(np.props)}
    capped = {
        namespace_of(q.props)
        for q in index[RESOURCE_QUOTA]
        if caps_gpu(path(q.props, "spec", "hard"), claims)
    }
    skip_namespaces, skip_names = exempt_namespaces(config), exempt_names(config)
    running = gpu_workload_namespaces(index, claims)
    for name, workloads in sorted(running.items()):
        if name in declared or name == DEFAULT_NAMESPACE or name in skip_namespaces:
            continue
        if name in skip_names or (name in denied and name in capped):
            continue
        missing = [
            what
            for what, present in (
                ("a deny-all NetworkPolicy", name in denied),
                ("a GPU ResourceQuota", name in capped),
            )
            if not present
        ]
        report(
            f"Namespace '{name}' runs GPU workloads ({workload_names(workloads)}) but the "
            f"program does not declare it, so its isolation and GPU quota cannot be judged "
            f"here (the stack gives it no {' and no '.join(m[2:] for m in missing)}).",
            workloads[0].urn,
        )
    raise_if_unknown(unknown, running.unknown)


POLICY = stack_policy(INFO, validate)
