"""The checks: compare a cluster snapshot with what the stack promised. Pure functions.

BP-05 (driver, healthy device plugin, GPUs allocatable), BP-13 (MIG resources per strategy),
BP-16 (ACK MPS control daemon and ``aliyun.com/gpu-mem``), and the namespace guardrails
(BP-08 deny-all NetworkPolicy, BP-09 GPU quota, BP-04 admission binding).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

# The pack's definition of the guide's deny-all, so preview and verify agree on it.
from gpu_facts.network_policy import is_deny_all
from gpu_facts.scheduling import ALIYUN_GPU_MEM, GFD_LABELS, is_gpu_resource
from gpu_platform.settings.base import quantity_value

from .cluster import Obj
from .daemons import DaemonPods, exec_container, pod_problem, uid_of
from .driver import ExecTarget
from .expectations import GpuDaemon, NamespaceExpectation, PoolExpectation
from .objects import count, entries, labels_of, mapping, name_of, text, whole
from .results import CheckResult, many, outcome
from .selectors import SelectorError, matches


def resources_text(resources: Mapping[str, object]) -> str:
    """``a: 1, b: 2`` (``none``): how rows show resources; the allocatable row's expected."""
    return ", ".join(f"{k}: {v}" for k, v in sorted(resources.items())) or "none"


# --- pools and nodes ---------------------------------------------------------------------


def pool_size(pool: PoolExpectation, nodes: list[Obj]) -> CheckResult:
    if pool.min_nodes == pool.max_nodes:
        expected = many(pool.min_nodes, "node")
    else:
        expected = f"{pool.min_nodes}–{pool.max_nodes} nodes"
    n = len(nodes)
    found = many(n, "node") if n else "no node carries the pool label"
    return outcome(
        "node-count", f"pool/{pool.name}", expected, found, pool.min_nodes <= n <= pool.max_nodes
    )


def node_ready(node: Obj) -> CheckResult:
    conditions = {text(c, "type"): c for c in entries(node, "status", "conditions")}
    ready = conditions.get("Ready", {})
    ok = text(ready, "status") == "True"
    found = "Ready" if ok else f"not Ready ({text(ready, 'reason') or 'no Ready condition'})"
    unschedulable = mapping(node, "spec").get("unschedulable") is True
    if ok and unschedulable:
        found, ok = "Ready but cordoned", False
    return outcome("node-ready", f"node/{name_of(node)}", "Ready, schedulable", found, ok)


def node_labels(pool: PoolExpectation, node: Obj) -> CheckResult:
    labels = labels_of(node)
    expected = ", ".join(f"{k}={v}" for k, v in sorted(pool.labels.items()))
    problems = []
    for key, want in sorted(pool.labels.items()):
        have = labels.get(key)
        if not have:
            problems.append(f"{key} missing")
        elif have != want:
            problems.append(f"{key}={have}")
    found = "; ".join(problems) if problems else "all present"
    return outcome("labels", f"node/{name_of(node)}", expected, found, not problems)


def node_taint(pool: PoolExpectation, node: Obj) -> CheckResult:
    taints = [
        (text(t, "key"), text(t, "value"), text(t, "effect"))
        for t in entries(node, "spec", "taints")
    ]
    want = pool.taint
    ok = (want.key, want.value, want.effect) in taints
    shown = [f"{key}={value}:{effect}" for key, value, effect in taints]
    found = ", ".join(shown) if shown else "no taints"
    return outcome("taint", f"node/{name_of(node)}", str(want), found, ok)


def gfd_labels(node: Obj) -> CheckResult:
    labels = labels_of(node)
    missing = [k for k in GFD_LABELS if not labels.get(k)]
    found = (
        f"missing {', '.join(missing)}: GPU Feature Discovery has not labelled this node"
        if missing
        else ", ".join(f"{k}={labels[k]}" for k in GFD_LABELS)
    )
    return outcome("gfd-labels", f"node/{name_of(node)}", ", ".join(GFD_LABELS), found, not missing)


# ACK advertises the GPU memory the driver reports, in whole GiB: a little under the marketed
# size the capacity model uses (an upper bound). Accept down to this share of it.
GPU_MEM_FLOOR = 0.85


def _count_matches(resource: str, found: int | str | None, expected: int) -> bool:
    if resource == ALIYUN_GPU_MEM and isinstance(found, int):
        return expected * GPU_MEM_FLOOR <= found <= expected
    return found == expected


def allocatable(pool: PoolExpectation, node: Obj) -> CheckResult:
    raw = mapping(node, "status", "allocatable")
    found: dict[str, int | str] = {}
    for name, value in raw.items():
        if not is_gpu_resource(name):
            continue
        n = whole(value)
        if n != 0:
            found[name] = n if n is not None else str(value)
    short = [
        f"{r} {found.get(r, 0)} of {n}"
        for r, n in sorted(pool.allocatable.items())
        if not _count_matches(r, found.get(r, 0), n)
    ]
    ok = not short and set(found) == set(pool.allocatable)
    shown = resources_text(found)
    if not ok:
        extra = sorted(set(found) - set(pool.allocatable))
        notes = short + [f"unexpected {r}" for r in extra]
        shown = f"{shown} ({'; '.join(notes)})"
    return outcome(
        "allocatable", f"node/{name_of(node)}", resources_text(pool.allocatable), shown, ok
    )


def ready_pod_on_node(
    check: str, title: str, daemons: list[Obj], pods: DaemonPods, node: Obj
) -> tuple[CheckResult, Obj | None]:
    """The pod of one of ``daemons`` on the node must be Ready; returns the pod when it is."""
    subject = f"node/{name_of(node)}"
    expected = f"{title} pod Ready"
    if not daemons:
        return outcome(check, subject, expected, f"no {title} DaemonSet found", False), None
    node_name = name_of(node)
    for ds in daemons:
        pod = pods.get(uid_of(ds), {}).get(node_name)
        if pod is None:
            continue
        problem = pod_problem(pod)
        if problem is None:
            return outcome(check, subject, expected, f"{name_of(pod)} Ready", True), pod
        return outcome(check, subject, expected, f"{name_of(pod)}: {problem}", False), None
    names = ", ".join(name_of(d) for d in daemons)
    return outcome(check, subject, expected, f"no pod of {names} on this node", False), None


def daemon_on_node(
    pool: PoolExpectation, daemons: list[Obj], pods: DaemonPods, node: Obj
) -> tuple[CheckResult, Obj | None]:
    """The GPU daemon's pod on the node must be Ready; returns the pod when it is."""
    return ready_pod_on_node("gpu-daemon", pool.daemon.report_name, daemons, pods, node)


def daemonset_status(title: str, ds: Obj) -> CheckResult:
    """Every pod the DaemonSet controller wants is ready; ``title`` names the daemon."""
    subject = f"daemonset/{text(ds, 'metadata', 'namespace')}/{name_of(ds)}"
    expected = f"{title} ready on every node"
    desired, ready = (
        count(ds, "status", "desiredNumberScheduled"),
        count(ds, "status", "numberReady"),
    )
    if desired is None or ready is None:
        return outcome(
            "daemonset", subject, expected, "no status from the DaemonSet controller", False
        )
    # Zero desired is fine for a pool scaled to zero; a node without its pod fails per node.
    found = f"{ready}/{desired} ready" + ("" if desired else ": scheduled on no node")
    return outcome("daemonset", subject, expected, found, ready == desired)


def pool_checks(
    pool: PoolExpectation, nodes: list[Obj], daemons: list[Obj], pods: DaemonPods
) -> tuple[list[CheckResult], list[ExecTarget]]:
    """Every check of one pool, and where to read each ready node's driver version.

    ``pods`` is the index of DaemonSet pods (``daemons.daemon_pods``), built once per run."""
    results = [pool_size(pool, nodes)]
    targets: list[ExecTarget] = []
    for node in sorted(nodes, key=name_of):
        subject = f"node/{name_of(node)}"
        results += [node_ready(node), node_labels(pool, node), node_taint(pool, node)]
        if pool.gfd:
            results.append(gfd_labels(node))
        results.append(allocatable(pool, node))
        if pool.daemon is GpuDaemon.NONE:
            results.append(
                CheckResult(
                    "gpu-daemon",
                    subject,
                    "-",
                    "ACK cGPU/share components are not inspected",
                    "skip",
                )
            )
            continue
        row, pod = daemon_on_node(pool, daemons, pods, node)
        results.append(row)
        if pod is not None:
            namespace = text(pod, "metadata", "namespace")
            targets.append(ExecTarget(name_of(node), namespace, name_of(pod), exec_container(pod)))
    return results, targets


# --- workload namespaces -----------------------------------------------------------------


def network_policy(ns: NamespaceExpectation, policies: list[Obj]) -> CheckResult:
    expected = "deny-all NetworkPolicy (podSelector {}, Ingress+Egress, no rules)"
    deny = [name_of(p) for p in policies if is_deny_all(p)]
    if deny:
        found = ", ".join(deny)
    elif policies:
        found = f"none denies all traffic (found {', '.join(name_of(p) for p in policies)})"
    else:
        found = "no NetworkPolicy in the namespace: all traffic is allowed"
    return outcome("network-policy", f"namespace/{ns.name}", expected, found, bool(deny))


def effective_hard(quotas: list[Obj], counted: Callable[[str], bool]) -> dict[str, int | str]:
    """The hard limits of the keys ``counted`` picks: every quota applies, so the tightest hard
    limit per key is the effective one (a value that is no whole number is shown as it is)."""
    effective: dict[str, int | str] = {}
    for quota in quotas:
        for key, value in mapping(quota, "spec", "hard").items():
            if not counted(key):
                continue
            n = whole(value)
            current = effective.get(key)
            if n is None:
                effective[key] = str(value)
            elif current is None or (isinstance(current, int) and n < current):
                effective[key] = n
    return effective


def gpu_quota(ns: NamespaceExpectation, quotas: list[Obj]) -> CheckResult:
    expected = resources_text(ns.gpu_quota)
    effective = effective_hard(
        quotas,
        lambda key: (
            key in ns.gpu_quota or (key.startswith("requests.") and is_gpu_resource(key[9:]))
        ),
    )
    ok = all(effective.get(k) == v for k, v in ns.gpu_quota.items())
    if not effective:
        found = "no ResourceQuota limits a GPU resource"
    else:
        found = resources_text(effective)
        missing = [k for k in ns.gpu_quota if k not in effective]
        if missing:
            found += f" (missing {', '.join(missing)})"
    return outcome("gpu-quota", f"namespace/{ns.name}", expected, found, ok)


def admission_binding(ns: NamespaceExpectation, namespace: Obj, bindings: list[Obj]) -> CheckResult:
    if not ns.admission_action:
        why = "not checked: the plan registers no GpuAdmissionPolicy"
        return CheckResult("admission-binding", f"namespace/{ns.name}", "-", why, "skip")
    expected = f"a ValidatingAdmissionPolicyBinding selecting it, action {ns.admission_action}"
    labels = labels_of(namespace)
    selecting, wrong_action = [], []
    for binding in bindings:
        spec = mapping(binding, "spec")
        selector = mapping(spec, "matchResources").get("namespaceSelector")
        try:
            selected = matches(selector, labels)
        except SelectorError as err:
            return outcome(
                "admission-binding",
                f"namespace/{ns.name}",
                expected,
                f"{name_of(binding)}: {err}",
                False,
            )
        if not selected:
            continue
        actions = spec.get("validationActions")
        actions = actions if isinstance(actions, list) else []
        if ns.admission_action in actions:
            selecting.append(name_of(binding))
        else:
            wrong_action.append(f"{name_of(binding)} {actions}")
    if selecting:
        found = ", ".join(selecting)
    elif wrong_action:
        found = f"selected with other actions: {', '.join(wrong_action)}"
    else:
        found = "no binding selects this namespace: GPU pods are not checked at admission"
    return outcome("admission-binding", f"namespace/{ns.name}", expected, found, bool(selecting))


def _same_quantity(found: object, wanted: str) -> bool:
    try:
        return quantity_value(str(found)) == quantity_value(wanted)
    except (KeyError, ArithmeticError, ValueError):
        return str(found) == wanted


def limit_range(ns: NamespaceExpectation, ranges: list[Obj]) -> CheckResult:
    """The configured container defaults in a ``Container`` item of a LimitRange, and no item
    naming a GPU resource: a ``max`` without a ``default`` becomes every container's default
    limit (Kubernetes ``SetDefaults_LimitRangeItem``), which would hand each container GPUs."""
    assert ns.container_defaults is not None
    cpu, memory = ns.container_defaults
    subject = f"namespace/{ns.name}"
    expected = (
        f"a LimitRange giving containers cpu {cpu}, memory {memory} by default (request and "
        "limit), naming no GPU resource"
    )
    gpu_items, matching, seen = [], [], []
    for lr in ranges:
        for item in entries(lr, "spec", "limits"):
            named = {
                r
                for key in ("default", "defaultRequest", "max", "min", "maxLimitRequestRatio")
                for r in mapping(item, key)
                if is_gpu_resource(r)
            }
            if named:
                gpu_items.append(f"{name_of(lr)} names {', '.join(sorted(named))}")
            if text(item, "type") != "Container":
                continue
            default, request = mapping(item, "default"), mapping(item, "defaultRequest")
            shown = f"default {resources_text(default)}; request {resources_text(request)}"
            seen.append(f"{name_of(lr)}: {shown}")
            if all(
                _same_quantity(section.get(key), want)
                for section in (default, request)
                for key, want in (("cpu", cpu), ("memory", memory))
            ):
                matching.append(name_of(lr))
    if gpu_items:
        found = "; ".join(gpu_items) + ": containers that ask for no GPU would get one by default"
        return outcome("limit-range", subject, expected, found, False)
    if matching:
        return outcome("limit-range", subject, expected, ", ".join(matching), True)
    found = (
        "; ".join(seen)
        if seen
        else "no LimitRange with a Container item: containers without "
        "requests get none, and the quota refuses them"
    )
    return outcome("limit-range", subject, expected, found, False)


def namespace_checks(
    ns: NamespaceExpectation,
    namespace: Obj | None,
    policies: list[Obj],
    quotas: list[Obj],
    bindings: list[Obj],
    *,
    ranges: Sequence[Obj] = (),
) -> list[CheckResult]:
    if namespace is None:
        subject = f"namespace/{ns.name}"
        return [outcome("namespace", subject, "exists", "namespace not found", False)]
    rows = [
        network_policy(ns, policies),
        gpu_quota(ns, quotas),
        admission_binding(ns, namespace, bindings),
    ]
    if ns.container_defaults is not None:
        rows.append(limit_range(ns, list(ranges)))
    return rows
