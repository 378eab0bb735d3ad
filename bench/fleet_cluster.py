"""A GPU cluster of any size for ``make verify``'s bench, grown from the recorded one.

``tests/data/verify`` holds a cluster recorded from the stack ``Pulumi.verify.yaml``: MIG A100
nodes (56 ``1g.5gb`` each) and a time-sliced T4 pool. Its objects are the templates here: every
node, DaemonSet pod, workload pod, namespace guardrail and ``nvidia-smi`` answer of the fleet is
a recorded one renamed, so the fleet is as healthy as the recording and ``make verify`` passes on
it. Two thirds of the GPU nodes are MIG A100s, the rest T4s, in pools of at most
``POOL_NODES``; each GPU node runs ``pods_per_node`` workload pods (on a MIG node each holds one
MIG device, on a T4 four share the GPU and the rest ask for none), and each exporter page names
the node's GPU pods.
"""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gpu_platform.verify.pod_commands import MARK, commands_in

from .fake_api_server import FleetData, Item, item

ROOT = Path(__file__).resolve().parents[1]
RECORDED = ROOT / "tests" / "data" / "verify"
POOL_NODES = 500
"""Nodes per pool (AKS allows 1,000 per pool; pools of 500 give the 5,000-node fleet ten)."""
MIG_SHARE = 2 / 3
"""Share of the GPU nodes that are MIG A100s (they get two ``nvidia-smi`` reads each)."""
T4_GPU_PODS = 4
"""GPU pods per T4 node: its time-slicing replicas."""
PLUGIN_NS, EXPORTER_NS = "nvidia-device-plugin", "gpu-metrics"
MIG_INSTANCES_PER_GPU, A100_GPUS = 7, 8


@dataclass(frozen=True, slots=True)
class FleetPool:
    name: str
    mig: bool
    nodes: int
    namespace: str
    """The workload namespace whose pods run on the pool's nodes."""


@dataclass
class Fleet:
    """The stack config the fleet was built from, and what its fake API server serves."""

    nodes: int
    pools: list[FleetPool]
    stack_yaml: str
    data: FleetData
    objects: int = 0
    """Objects the API server holds (nodes, pods, DaemonSets, namespaces, guardrails)."""
    node_kinds: dict[str, bool] = field(default_factory=dict)
    """Node name -> MIG or not."""


def fleet_pools(nodes: int) -> list[FleetPool]:
    """The pools of a fleet of ``nodes`` GPU nodes: MIG A100 pools, then T4 pools."""
    mig = round(nodes * MIG_SHARE)
    pools: list[FleetPool] = []
    for kind, total in (("a100", mig), ("t4", nodes - mig)):
        for index, start in enumerate(range(0, total, POOL_NODES)):
            name = f"{kind}p{index}"
            namespace = f"{'train' if kind == 'a100' else 'serve'}-{name}"
            pools.append(FleetPool(name, kind == "a100", min(POOL_NODES, total - start), namespace))
    return pools


def stack_yaml(pools: list[FleetPool]) -> str:
    """The fleet's stack config, in the shape of ``Pulumi.verify.yaml``."""
    lines = [
        "config:",
        "  gpu-platform:cloud: existing",
        "  gpu-platform:cluster:",
        "    name: fleet",
    ]
    lines.append("  gpu-platform:gpuPools:")
    for pool in pools:
        lines += [f"    - name: {pool.name}", f"      count: {pool.nodes}"]
        if pool.mig:
            lines += [
                "      vmSize: Standard_ND96asr_v4",
                "      mig:",
                "        profile: MIG1g",
                "        strategy: mixed",
            ]
        else:
            lines += [
                "      vmSize: Standard_NC4as_T4_v3",
                "      sharing:",
                "        mode: timeSlicing",
                "        replicas: 4",
                "      labels:",
                "        team: inference",
            ]
    lines.append("  gpu-platform:workloads:")
    for pool in pools:
        quota = pool.nodes * (A100_GPUS * MIG_INSTANCES_PER_GPU if pool.mig else T4_GPU_PODS)
        lines += [
            f"    - name: {pool.namespace}",
            f"      type: {'training' if pool.mig else 'inference'}",
            f"      gpuQuota: {quota}",
            f"      pools: [{pool.name}]",
        ]
    lines += ["  gpu-platform:driverCheck:", "    minDriverMajor: 535"]
    return "\n".join(lines) + "\n"


def _recorded(kind: str) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = json.loads((RECORDED / f"{kind}.json").read_text())["items"]
    return items


def _named(items: list[dict[str, Any]], name: str) -> dict[str, Any]:
    return next(i for i in items if i["metadata"]["name"] == name)


def _uid(kind: int, n: int) -> str:
    return f"{kind:08x}-0000-4000-8000-{n:012x}"


class _Templates:
    """The recorded objects each fleet object is copied from."""

    def __init__(self) -> None:
        nodes, pods = _recorded("nodes"), _recorded("pods")
        self.mig_node = _named(nodes, "aks-a100-31415926-vmss000000")
        self.t4_node = _named(nodes, "aks-t4-27182818-vmss000000")
        self.system_node = _named(nodes, "aks-system-16180339-vmss000000")
        self.daemonsets = _recorded("daemonsets")
        self.node_pods = {
            owner: next(p for p in pods if p["metadata"]["ownerReferences"][0]["name"] == owner)
            for owner in (
                "nvidia-device-plugin",
                "nvidia-device-plugin-gpu-feature-discovery",
                "nvidia-device-plugin-node-feature-discovery-worker",
                "dcgm-exporter",
            )
        }
        self.mig_pod = _named(pods, "trainer-0")
        self.t4_pod = _named(pods, "server-6f9c8d7b5-x2k4p")
        self.namespace = _named(_recorded("namespaces"), "gpu-training")
        self.policies = [
            p for p in _recorded("networkpolicies") if p["metadata"]["namespace"] == "gpu-training"
        ]
        self.quotas = [
            q for q in _recorded("resourcequotas") if q["metadata"]["namespace"] == "gpu-training"
        ]
        self.limit_ranges = [
            r for r in _recorded("limitranges") if r["metadata"]["namespace"] == "gpu-training"
        ]
        self.bindings = _recorded("validatingadmissionpolicybindings")
        exec_dir = RECORDED / "exec"
        self.mig_table = (exec_dir / "a100_mig_table.txt").read_text()
        self.mig_list = (exec_dir / "a100_mig_list.txt").read_text()
        self.t4_table = (exec_dir / "t4_table.txt").read_text()


def _node(template: dict[str, Any], name: str, pool: FleetPool, n: int) -> dict[str, Any]:
    node = copy.deepcopy(template)
    meta = node["metadata"]
    meta["name"], meta["uid"] = name, _uid(1, n)
    labels = meta["labels"]
    labels["kubernetes.io/hostname"] = name
    labels["gpu-platform.io/pool"] = pool.name
    labels["nvidia.com/device-plugin.config"] = pool.name
    return node


def _pod(
    template: dict[str, Any], name: str, namespace: str, node: str, uid: str
) -> dict[str, Any]:
    pod = copy.deepcopy(template)
    meta = pod["metadata"]
    meta["name"], meta["namespace"], meta["uid"] = name, namespace, uid
    pod["spec"]["nodeName"] = node
    return pod


def _workload_pods(
    t: _Templates, pool: FleetPool, node: str, per_node: int, n: int
) -> list[dict[str, Any]]:
    """The node's workload pods: every one on a MIG slice, or four on the shared T4 and the rest
    without a GPU."""
    pods = []
    for k in range(per_node):
        name = f"{'trainer' if pool.mig else 'server'}-{n}-{k}"
        pod = _pod(
            t.mig_pod if pool.mig else t.t4_pod, name, pool.namespace, node, _uid(2, n * 1000 + k)
        )
        if not pool.mig and k >= T4_GPU_PODS:
            for container in pod["spec"]["containers"]:
                for section in container["resources"].values():
                    section.pop("nvidia.com/gpu.shared", None)
        pods.append(pod)
    return pods


def _mig_page(node: str, pods: list[str], namespace: str) -> str:
    """A MIG node's dcgm-exporter page as the recorded one shows it: per GPU its temperature
    and XID, per ``1g.5gb`` instance its memory and engine activity, the node's pods on theirs."""
    out = []
    for metric, help_text in (
        ("DCGM_FI_DEV_GPU_TEMP", "GPU temperature (in C)."),
        ("DCGM_FI_DEV_XID_ERRORS", "Value of the last XID error encountered."),
        ("DCGM_FI_DEV_FB_USED", "Framebuffer memory used (in MiB)."),
        ("DCGM_FI_PROF_GR_ENGINE_ACTIVE", "Ratio of time the graphics engine is active."),
    ):
        out += [f"# HELP {metric} {help_text}", f"# TYPE {metric} gauge"]
        per_instance = metric in ("DCGM_FI_DEV_FB_USED", "DCGM_FI_PROF_GR_ENGINE_ACTIVE")
        for gpu in range(A100_GPUS):
            base = (
                f'gpu="{gpu}",UUID="GPU-{gpu:08x}-c320-53e2-a9d9-75ec1efc59fb",'
                f'pci_bus_id="0000000{gpu + 1}:00:00.0",device="nvidia{gpu}",'
                'modelName="NVIDIA A100-SXM4-40GB"'
            )
            for instance in range(MIG_INSTANCES_PER_GPU if per_instance else 1):
                labels = base
                if per_instance:
                    labels += f',GPU_I_PROFILE="1g.5gb",GPU_I_ID="{7 + instance}"'
                labels += f',hostname="{node}",DCGM_FI_DRIVER_VERSION="550.127.08"'
                slot = gpu * MIG_INSTANCES_PER_GPU + instance
                if per_instance and slot < len(pods):
                    labels += f',container="trainer",namespace="{namespace}",pod="{pods[slot]}"'
                out.append(f"{metric}{{{labels}}} {0.5 if per_instance else 33}")
    return "\n".join(out) + "\n"


def _t4_page(node: str, pods: list[str], namespace: str) -> str:
    """A time-sliced T4's page: one GPU, one series per pod sharing it (as the exporter shows
    shared GPUs with ``KUBERNETES_VIRTUAL_GPUS``)."""
    out = []
    for metric in ("DCGM_FI_DEV_GPU_TEMP", "DCGM_FI_DEV_GPU_UTIL", "DCGM_FI_DEV_FB_USED"):
        out += [f"# HELP {metric} {metric}.", f"# TYPE {metric} gauge"]
        for pod in pods or [""]:
            labels = (
                'gpu="0",UUID="GPU-9917c7a3-3df2-585c-beed-22b5fe81c8af",pci_bus_id="00000001:00:00.0",'
                f'device="nvidia0",modelName="Tesla T4",hostname="{node}",'
                'DCGM_FI_DRIVER_VERSION="550.127.08"'
            )
            if pod:
                labels += f',container="server",namespace="{namespace}",pod="{pod}"'
            out.append(f"{metric}{{{labels}}} 44")
    return "\n".join(out) + "\n"


class _Builder:
    """The fleet's objects, pages and exec answers, node by node."""

    def __init__(self, pods_per_node: int) -> None:
        self.t = _Templates()
        self.pods_per_node = pods_per_node
        self.items: dict[str, list[Item]] = {kind: [] for kind in ("nodes", "pods", "daemonsets")}
        self.pages: dict[str, tuple[str, bool, list[str], str]] = {}
        """Exporter pod -> (node, MIG, the node's GPU pods, their namespace)."""
        self.execs: dict[str, str] = {}
        """``<pod>`` (nvidia-smi) or ``<pod> -L`` -> what it prints."""
        self.namespaces: dict[str, bytes] = {}

    def node(self, pool: FleetPool, n: int) -> str:
        t = self.t
        kind = "a100" if pool.mig else "t4"
        name = f"aks-{kind}-{n // POOL_NODES:08d}-vmss{n:06d}"
        self.items["nodes"].append(
            item(_node(t.mig_node if pool.mig else t.t4_node, name, pool, n))
        )
        for owner, template in t.node_pods.items():
            namespace = template["metadata"]["namespace"]
            pod_name = f"{owner}-{n:06d}"
            pod = _pod(template, pod_name, namespace, name, _uid(3, n * 10 + len(pod_name)))
            self.items["pods"].append(item(pod))
            if owner == "nvidia-device-plugin":
                self.execs[pod_name] = t.mig_table if pool.mig else t.t4_table
                if pool.mig:
                    self.execs[f"{pod_name} -L"] = t.mig_list
            elif owner == "dcgm-exporter":
                workload = _workload_pods(t, pool, name, self.pods_per_node, n)
                gpu_pods = [
                    p["metadata"]["name"]
                    for p in workload
                    if pool.mig or "nvidia.com/gpu.shared" in str(p["spec"])
                ]
                self.pages[pod_name] = (name, pool.mig, gpu_pods, pool.namespace)
                self.items["pods"] += [item(p) for p in workload]
        return name

    def cluster_wide(self, nodes: int) -> None:
        """The system node, the DaemonSets (one pod per GPU node), the admission binding."""
        self.items["nodes"].append(item(copy.deepcopy(self.t.system_node)))
        for ds in self.t.daemonsets:
            ds = copy.deepcopy(ds)
            if ds["metadata"]["name"] != "nvidia-device-plugin-mps-control-daemon":
                status = ds["status"]
                for key in (
                    "currentNumberScheduled",
                    "desiredNumberScheduled",
                    "numberReady",
                    "updatedNumberScheduled",
                    "numberAvailable",
                ):
                    status[key] = nodes
            self.items["daemonsets"].append(item(ds))
        self.items["validatingadmissionpolicybindings"] = [item(b) for b in self.t.bindings]

    def namespace(self, pool: FleetPool) -> None:
        """The pool's workload namespace with its deny-all NetworkPolicy and GPU quota."""
        t = self.t
        namespace = copy.deepcopy(t.namespace)
        meta = namespace["metadata"]
        meta["name"] = meta["labels"]["kubernetes.io/metadata.name"] = pool.namespace
        meta["labels"]["workload"] = "training" if pool.mig else "inference"
        self.namespaces[pool.namespace] = item(namespace).data
        for policy in t.policies:
            policy = copy.deepcopy(policy)
            policy["metadata"]["namespace"] = pool.namespace
            self.items.setdefault("networkpolicies", []).append(item(policy))
        for limits in t.limit_ranges:
            limits = copy.deepcopy(limits)
            limits["metadata"]["namespace"] = pool.namespace
            self.items.setdefault("limitranges", []).append(item(limits))
        for quota in t.quotas:
            quota = copy.deepcopy(quota)
            quota["metadata"]["namespace"] = pool.namespace
            if quota["metadata"]["name"] == "gpu-quota":
                resource = "nvidia.com/mig-1g.5gb" if pool.mig else "nvidia.com/gpu.shared"
                per = A100_GPUS * MIG_INSTANCES_PER_GPU if pool.mig else T4_GPU_PODS
                quota["spec"]["hard"] = {f"requests.{resource}": str(pool.nodes * per)}
            self.items.setdefault("resourcequotas", []).append(item(quota))

    def page(self, pod: str) -> str | None:
        found = self.pages.get(pod)
        if found is None:
            return None
        node, mig, gpu_pods, namespace = found
        return (_mig_page if mig else _t4_page)(node, gpu_pods, namespace)

    def run(self, pod: str, command: str) -> str | None:
        if command.startswith("sh -c "):  # verify's script of several commands
            commands = commands_in(command.removeprefix("sh -c ")) or ()
            parts = [self.run(pod, " ".join(c)) for c in commands]
            if not parts or None in parts:
                return None
            return "".join(f"{part}{MARK}0\n" for part in parts)
        if command == "nvidia-smi":
            return self.execs.get(pod)
        return self.execs.get(f"{pod} {command.removeprefix('nvidia-smi ')}")


def build_fleet(nodes: int, pods_per_node: int = 20) -> Fleet:
    """A healthy fleet of ``nodes`` GPU nodes and what its fake API server answers."""
    build = _Builder(pods_per_node)
    pools = fleet_pools(nodes)
    node_kinds: dict[str, bool] = {}
    n = 0
    for pool in pools:
        for _ in range(pool.nodes):
            n += 1
            node_kinds[build.node(pool, n)] = pool.mig
        build.namespace(pool)
    build.cluster_wide(nodes)
    data = FleetData(build.items, build.namespaces, build.page, build.run)
    objects = sum(len(found) for found in build.items.values()) + len(build.namespaces)
    return Fleet(nodes, pools, stack_yaml(pools), data, objects, node_kinds)
