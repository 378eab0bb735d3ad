"""Rules that span fields or consult the GPU catalog. Each finds every problem, with its path."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from ipaddress import IPv4Network, ip_network
from pathlib import Path

from gpu_facts import (
    AZURE_VM_SIZES,
    UnknownGpuFact,
    aks_mig_profile,
    azure_vm_size,
    ecs_instance_type,
    gpu_model,
)
from gpu_facts.ack_components import ACK_PRO_PREFIX
from gpu_facts.capacity import ACK_SHARING_MODES
from gpu_facts.device_plugin_chart import (
    MIN_VERSION,
    MIN_VERSION_MPS,
    at_least,
    version_tuple,
)
from gpu_facts.scheduling import (
    ACK_DEVICE_PLUGIN_DAEMONSET_SINCE,
    ACK_GPU_SCHEDULE_LABEL,
    WORKLOAD_TYPE_LABEL,
)

from .models import (
    MIN_KUBERNETES,
    SYSTEM_POOL_NAME,
    AckCluster,
    AksCluster,
    ExistingCluster,
    GpuPool,
    PlatformConfig,
    Workload,
)
from .pools import (
    ACK_MODES,
    ACK_MPS_MODE,
    PLUGIN_MODES,
    PoolFacts,
    cloud_sharing,
    resolve_pool,
)

Problem = tuple[str, str]
"""(key path, message)"""

_MIG_SIZES = ", ".join(sorted(n for n, s in AZURE_VM_SIZES.items() if s.mig))
_NVME_SIZES = ", ".join(sorted(n for n, s in AZURE_VM_SIZES.items() if s.has_nvme))
_ACK_SPEC = re.compile(rf"^(ack\.standard|{re.escape(ACK_PRO_PREFIX)}[a-z0-9]+)$")
_CHART_VERSION = re.compile(r"^\d+\.\d+\.\d+$")


def _pool_machine(cfg: PlatformConfig, i: int, pool: GpuPool) -> Iterator[Problem]:
    at = f"gpuPools[{i}]"
    if pool.name == SYSTEM_POOL_NAME and cfg.cloud in ("azure", "alicloud"):
        yield f"{at}.name", f"{SYSTEM_POOL_NAME!r} is the name of the cluster's system pool"
    if cfg.cloud == "azure" and pool.instance_type is not None:
        yield f"{at}.instanceType", "Alibaba instance types are for cloud 'alicloud'; use vmSize"
    if cfg.cloud == "alicloud" and pool.vm_size is not None:
        yield f"{at}.vmSize", "Azure VM sizes are for cloud 'azure'; use instanceType"
    if pool.vm_size is None and pool.instance_type is None:
        key = "instanceType" if cfg.cloud == "alicloud" else "vmSize"
        yield f"{at}.{key}", "required: the machine type decides GPUs, MIG and NVMe"
    if pool.vm_size is not None and pool.instance_type is not None and cfg.cloud == "existing":
        yield at, "give vmSize or instanceType, not both"
    if pool.vm_size is not None and cfg.cloud != "alicloud":
        try:
            azure_vm_size(pool.vm_size)
        except UnknownGpuFact as err:
            yield f"{at}.vmSize", f"{err} (a GPU pool needs a size with GPUs)"
    if pool.instance_type is not None and cfg.cloud != "azure":
        try:
            ecs_instance_type(pool.instance_type)
        except UnknownGpuFact as err:
            yield f"{at}.instanceType", f"{err} (a GPU pool needs a type with GPUs)"


def _pool_size(i: int, pool: GpuPool) -> Iterator[Problem]:
    at = f"gpuPools[{i}]"
    if (pool.count is None) == (pool.autoscale is None):
        yield at, "give exactly one of count or autoscale"
    if pool.autoscale is not None and pool.autoscale.min > pool.autoscale.max:
        yield f"{at}.autoscale.min", "must not exceed autoscale.max"


def _pool_mig(cfg: PlatformConfig, i: int, pool: GpuPool) -> Iterator[Problem]:
    if pool.mig is None:
        return
    at = f"gpuPools[{i}]"
    if cfg.cloud == "alicloud":
        yield f"{at}.mig", "MIG pools are supported on AKS (cloud 'azure') and existing clusters"
    if pool.autoscale is not None:
        yield (
            f"{at}.autoscale",
            "MIG pools do not support the cluster autoscaler; use count (BP-12)",
        )
    if pool.os_sku.startswith("AzureLinux"):
        yield f"{at}.osSku", "MIG is not supported on Azure Linux; use Ubuntu (BP-12)"
    if pool.sharing is not None and pool.sharing.mode == "mps":
        yield f"{at}.sharing.mode", "MPS cannot share MIG devices (device plugin 0.16+ refuses it)"
    if pool.vm_size is None:
        return
    try:
        size = azure_vm_size(pool.vm_size)
    except UnknownGpuFact:
        return  # reported by the machine rule
    if not size.mig:
        yield (
            f"{at}.mig.profile",
            f"{size.name} ({size.gpu_model}) does not support MIG; MIG sizes: {_MIG_SIZES}",
        )
        return
    try:
        aks_mig_profile(gpu_model(size.gpu_model), pool.mig.profile)
    except UnknownGpuFact as err:
        yield f"{at}.mig.profile", str(err)


def _pool_sharing(cfg: PlatformConfig, i: int, pool: GpuPool) -> Iterator[Problem]:
    if pool.sharing is None:
        return
    at = f"gpuPools[{i}].sharing"
    mode = pool.sharing.mode
    ack_native = cfg.cloud == "alicloud" and mode in ACK_MODES
    if mode not in PLUGIN_MODES and cfg.cloud != "alicloud":
        yield f"{at}.mode", f"'{mode}' is an ACK sharing mode (cloud 'alicloud')"
    if ack_native:
        if pool.sharing.replicas is not None:
            yield f"{at}.replicas", "ACK sharing splits GPU memory: pods ask aliyun.com/gpu-mem"
        if isinstance(cfg.cluster, AckCluster) and not cfg.cluster.cluster_spec.startswith(
            ACK_PRO_PREFIX
        ):
            yield (
                "cluster.clusterSpec",
                f"ACK GPU sharing ('{mode}') needs ACK Pro ({ACK_PRO_PREFIX}*)",
            )
        return
    if pool.sharing.replicas is None:
        yield f"{at}.replicas", f"required for {mode}: how many pods share one GPU"
    version = cfg.device_plugin.version
    if mode == "mps" and _valid_version(version) and not at_least(version, MIN_VERSION_MPS):
        yield "devicePlugin.version", f"MPS sharing needs device plugin {MIN_VERSION_MPS}+"


def _pool_nvme(cfg: PlatformConfig, i: int, pool: GpuPool) -> Iterator[Problem]:
    if not pool.nvme:
        return
    at = f"gpuPools[{i}].nvme"
    if cfg.cloud != "azure":
        yield at, "the NVMe cache uses Azure Container Storage (cloud 'azure')"
        return
    if pool.vm_size is None:
        return
    try:
        size = azure_vm_size(pool.vm_size)
    except UnknownGpuFact:
        return
    if not size.has_nvme:
        yield at, f"{size.name} has no local NVMe data disks; sizes with NVMe: {_NVME_SIZES}"


def _valid_version(version: str) -> bool:
    try:
        version_tuple(version)
    except ValueError:
        return False
    return True


def _platform(cfg: PlatformConfig) -> Iterator[Problem]:
    if cfg.cluster is not None and cfg.cluster.cloud != cfg.cloud:
        yield "cluster", f"settings are for cloud '{cfg.cluster.cloud}', not '{cfg.cloud}'"
    version = getattr(cfg.cluster, "kubernetes_version", None)
    if version is not None and version_tuple(version) < version_tuple(MIN_KUBERNETES):
        yield "cluster.kubernetesVersion", f"must be {MIN_KUBERNETES} or newer"
    if isinstance(cfg.cluster, AksCluster):
        if cfg.cluster.disable_local_accounts and not cfg.cluster.entra_id.enabled:
            yield "cluster.disableLocalAccounts", "needs entraId.enabled, or nobody can log in"
        if "kubelogin_mode" in cfg.cluster.model_fields_set and not cfg.cluster.entra_id.enabled:
            yield "cluster.kubeloginMode", "used only with entraId.enabled; set that, or remove it"
        if cfg.cluster.api_server.private and cfg.cluster.api_server.authorized_ip_ranges:
            yield "cluster.apiServer.authorizedIpRanges", "not allowed on a private API server"
        for j, cidr in enumerate(cfg.cluster.api_server.authorized_ip_ranges):
            try:
                ip_network(cidr, strict=False)  # AKS accepts host bits and single addresses
            except ValueError:
                yield f"cluster.apiServer.authorizedIpRanges[{j}]", f"not a CIDR: {cidr!r}"
    if isinstance(cfg.cluster, ExistingCluster) and cfg.cluster.kubeconfig_path is not None:
        unreadable = _unreadable(cfg.cluster.kubeconfig_path)
        if unreadable is not None:
            yield "cluster.kubeconfigPath", unreadable
    plugin = cfg.device_plugin
    if not _valid_version(plugin.version):
        yield "devicePlugin.version", f"not a version: {plugin.version!r}"
    elif not at_least(plugin.version, MIN_VERSION):
        yield (
            "devicePlugin.version",
            f"{plugin.version} is older than {MIN_VERSION}, "
            "the first chart with GFD built in (BP-14)",
        )
    if plugin.enabled and cfg.gpu_operator.enabled:
        yield (
            "gpuOperator.enabled",
            "the GPU Operator and the device plugin release would both own GPUs; "
            "disable devicePlugin",
        )
    if plugin.enabled and not _gfd_enabled(plugin.gfd, plugin.values):
        # BP-14, and the mandatory policy device-plugin-release-current-with-gfd: GFD comes from
        # the plugin's chart (MPS and the GPU node labels depend on it).
        key = "devicePlugin.values.gfd.enabled" if plugin.gfd else "devicePlugin.gfd"
        yield key, "GPU Feature Discovery must stay on while the device plugin is enabled (BP-14)"
    if cfg.gpu_operator.enabled and cfg.cloud == "alicloud":
        yield (
            "gpuOperator.enabled",
            "not on ACK: ACK GPU nodes come with an NVIDIA driver, and the GPU Operator would "
            "install a second one; use the device plugin (devicePlugin.enabled)",
        )
    for key, names in (
        ("gpuPools", [p.name for p in cfg.gpu_pools]),
        ("workloads", [w.name for w in cfg.workloads]),
    ):
        for name, n in Counter(names).items():
            if n > 1:
                yield key, f"duplicate name {name!r}"


def _unreadable(path: str) -> str | None:
    """Why a kubeconfig file cannot be read, or None when it can."""
    file = Path(path).expanduser()
    if not file.is_file():
        return f"no kubeconfig file at {path!r}"
    try:
        file.read_text()  # as the ExistingCluster component reads it
    except OSError as err:
        return f"cannot read {path!r}: {err.strerror or err}"
    except UnicodeDecodeError:
        return f"{path!r} is not a text file"
    return None


def _gfd_enabled(gfd: bool, values: Mapping[str, object]) -> bool:
    """Whether the release deploys GFD: ``devicePlugin.gfd`` unless ``values`` overrides it."""
    override = values.get("gfd")
    if isinstance(override, Mapping) and "enabled" in override:
        return override["enabled"] is True
    return gfd


def _networks(cidrs: list[tuple[str, str]]) -> tuple[list[IPv4Network], list[Problem]]:
    """Parse ``(path, cidr)`` pairs; the problems name the ones that are not CIDRs."""
    nets, problems = [], []
    for at, cidr in cidrs:
        try:
            nets.append(IPv4Network(cidr))
        except ValueError:
            problems.append((at, f"not an IPv4 CIDR (host bits must be zero): {cidr!r}"))
    return nets, problems


def _ack_cluster(cfg: PlatformConfig) -> Iterator[Problem]:
    """ACK: edition, networking (VPC, node and Terway pod vSwitches), upgrades, pinned
    GPU-sharing components."""
    cluster = cfg.cluster
    if not isinstance(cluster, AckCluster):
        return
    if not _ACK_SPEC.match(cluster.cluster_spec):
        yield (
            "cluster.clusterSpec",
            f"must be ack.standard or {ACK_PRO_PREFIX}<size> (e.g. {ACK_PRO_PREFIX}small)",
        )
    vpc = cluster.vpc
    if vpc.vpc_id is None:
        for key, existing in (
            ("vswitchIds", vpc.vswitch_ids),
            ("podVswitchIds", vpc.pod_vswitch_ids),
        ):
            if existing:
                yield f"cluster.vpc.{key}", "existing vSwitches need the existing vpcId they are in"
    if not vpc.vswitch_ids and not vpc.vswitches:
        yield "cluster.vpc", "give node vSwitches: vswitchIds (existing) or vswitches (to create)"
    if not vpc.pod_vswitch_ids and not vpc.pod_vswitches:
        yield "cluster.vpc", "Terway needs pod vSwitches: podVswitchIds or podVswitches"
    created = [
        (f"cluster.vpc.{key}[{i}].cidr", sw.cidr)
        for key, switches in (("vswitches", vpc.vswitches), ("podVswitches", vpc.pod_vswitches))
        for i, sw in enumerate(switches)
    ]
    nets, problems = _networks([("cluster.vpc.cidr", vpc.cidr), *created])
    service, service_problems = _networks([("cluster.serviceCidr", cluster.service_cidr)])
    yield from problems + service_problems
    if not problems and vpc.vpc_id is None:
        vpc_net, switch_nets = nets[0], nets[1:]
        for (at, cidr), net in zip(created, switch_nets, strict=True):
            if not net.subnet_of(vpc_net):
                yield at, f"{cidr} is not inside the VPC CIDR {vpc.cidr}"
        if service and service[0].overlaps(vpc_net):
            yield "cluster.serviceCidr", f"overlaps the VPC CIDR {vpc.cidr}"
    if not problems:
        for i, (at, cidr) in enumerate(created):
            for other_at, other in created[:i]:
                if IPv4Network(cidr).overlaps(IPv4Network(other)):
                    yield at, f"{cidr} overlaps {other_at}"
    if cluster.auto_upgrade_channel != "none" and cluster.kubernetes_version is not None:
        # pulumi-alicloud ManagedKubernetes.version: "Do not specify if cluster auto upgrade is
        # enabled": ACK moves the version itself, and a pinned one would fight it.
        yield (
            "cluster.kubernetesVersion",
            f"not with auto-upgrade ({cluster.auto_upgrade_channel}): ACK picks the version; "
            "remove kubernetesVersion, or set autoUpgradeChannel: none to pin it",
        )
    yield from _ack_gpu_pools(cfg, cluster)
    if cluster.auto_upgrade_channel != "none" and cluster.maintenance_window is None:
        yield (
            "cluster.maintenanceWindow",
            f"auto-upgrade ({cluster.auto_upgrade_channel}) runs inside the maintenance window: "
            "set one, or autoUpgradeChannel: none",
        )
    modes = {cloud_sharing("alicloud", pool) for pool in cfg.gpu_pools}
    pins = cfg.ack_gpu_sharing
    if modes & ACK_SHARING_MODES and pins.ai_installer_version is None:
        yield "ackGpuSharing.aiInstallerVersion", "required with ACK GPU sharing: pin the chart"
    if ACK_MPS_MODE in modes and pins.mps_control_version is None:
        yield (
            "ackGpuSharing.mpsControlVersion",
            "required with MPS pools: pin the chart (an upgrade crashes running GPU apps)",
        )
    for key, version in (
        ("aiInstallerVersion", pins.ai_installer_version),
        ("mpsControlVersion", pins.mps_control_version),
    ):
        if version is not None and not _CHART_VERSION.match(version):
            yield f"ackGpuSharing.{key}", f"not a chart version (x.y.z): {version!r}"


def _ack_gpu_pools(cfg: PlatformConfig, cluster: AckCluster) -> Iterator[Problem]:
    """ACK GPU pools: the ``ack.node.gpu.schedule`` label is ours, and pools served by the
    NVIDIA device plugin need it, with ACK's own plugin turned off by that label (1.32+)."""
    plugin_pools = []
    for i, pool in enumerate(cfg.gpu_pools):
        if ACK_GPU_SCHEDULE_LABEL in pool.labels:
            yield (
                f"gpuPools[{i}].labels.{ACK_GPU_SCHEDULE_LABEL}",
                "set by the platform from sharing.mode; remove it",
            )
        if cloud_sharing("alicloud", pool) not in ACK_SHARING_MODES:
            plugin_pools.append(pool.name)
    if not plugin_pools:
        return
    names = ", ".join(plugin_pools)
    # With the GPU Operator on, its own (ACK) rule says what to do instead.
    if not cfg.device_plugin.enabled and not cfg.gpu_operator.enabled:
        yield (
            "devicePlugin.enabled",
            f"pools {names} use the NVIDIA device plugin (ACK's own is turned off on them); "
            "enable it, or share those pools the ACK way (sharing.mode mps, cgpu or share)",
        )
    version = cluster.kubernetes_version
    if version is not None and version_tuple(version) < version_tuple(
        ACK_DEVICE_PLUGIN_DAEMONSET_SINCE
    ):
        yield (
            "cluster.kubernetesVersion",
            f"pools {names} need {ACK_DEVICE_PLUGIN_DAEMONSET_SINCE}+: before it ACK's device "
            "plugin is a static pod on every GPU node and would run next to the NVIDIA plugin",
        )


SYSTEM_NAMESPACES: frozenset[str] = frozenset({"default"})
SYSTEM_NAMESPACE_PREFIX = "kube-"
"""Namespaces Kubernetes owns: ``default`` and every ``kube-*`` (kube-system, kube-public,
kube-node-lease)."""


def _is_system_namespace(name: str) -> bool:
    return name in SYSTEM_NAMESPACES or name.startswith(SYSTEM_NAMESPACE_PREFIX)


def _platform_namespaces(cfg: PlatformConfig) -> list[tuple[str, str, bool]]:
    """The platform's own namespaces: (key, name, whether the config sets it). All of them,
    whether or not the GPU Operator or ACK MPS pools are in use: adding one later must not
    collide. The ACK MPS driver checks use ``<readiness.namespace>-mps``."""
    namespaces = [
        (f"{key}.namespace", settings.namespace, "namespace" in settings.model_fields_set)
        for key, settings in (
            ("devicePlugin", cfg.device_plugin),
            ("gpuOperator", cfg.gpu_operator),
            ("readiness", cfg.readiness),
        )
    ]
    readiness_explicit = "namespace" in cfg.readiness.model_fields_set
    namespaces.append(("readiness.namespace", cfg.readiness.mps_namespace, readiness_explicit))
    return namespaces


def _workloads(cfg: PlatformConfig, facts: dict[str, PoolFacts]) -> Iterator[Problem]:
    pool_names = {p.name for p in cfg.gpu_pools}
    offered = {r for pf in facts.values() for r in pf.capacity.per_node}
    # A namespace name -> the platform key that uses it; the explicitly set key wins.
    platform_namespaces = {
        ns: (key, explicit)
        for key, ns, explicit in sorted(_platform_namespaces(cfg), key=lambda item: item[2])
    }
    for i, wl in enumerate(cfg.workloads):
        at = f"workloads[{i}]"
        if _is_system_namespace(wl.name):
            yield f"{at}.name", f"{wl.name!r} is a Kubernetes system namespace; choose another"
        elif wl.name in platform_namespaces:
            key, explicit = platform_namespaces[wl.name]
            # Blame the key the user wrote: a platform namespace set to a workload's name, else
            # the workload named like a platform default.
            if explicit:
                yield key, f"{wl.name!r} is also a workload namespace ({at})"
            else:
                yield f"{at}.name", f"{wl.name!r} is the platform's own namespace ({key})"
        for j, pool in enumerate(wl.pools or ()):
            if pool not in facts and pool not in pool_names:
                yield f"{at}.pools[{j}]", f"no GPU pool named {pool!r}"
        if isinstance(wl.gpu_quota, dict) and facts:
            for resource in wl.gpu_quota:
                if resource not in offered:
                    yield (
                        f"{at}.gpuQuota.{resource}",
                        f"no pool exposes {resource}; pools expose: {', '.join(sorted(offered))}",
                    )


# --- Workload namespaces: logging keys, egress CIDRs, Pod Security next to ACK MPS --------

RESERVED_LABEL_DOMAINS: tuple[str, ...] = ("kubernetes.io", "k8s.io", "gpu-platform.io")
"""Key domains that Kubernetes (Pod Security, metadata) and the platform set on namespaces."""
_KEY_PREFIX = r"[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*"
_KEY_NAME = r"[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?"


def _key_problem(key: str) -> str | None:
    prefix, _, name = key.rpartition("/")
    if not re.fullmatch(_KEY_NAME, name) or (
        prefix and (len(prefix) > 253 or not re.fullmatch(_KEY_PREFIX, prefix))
    ):
        return "not a Kubernetes label/annotation key ([prefix/]name, name at most 63 characters)"
    if key == WORKLOAD_TYPE_LABEL or any(
        prefix == domain or prefix.endswith("." + domain) for domain in RESERVED_LABEL_DOMAINS
    ):
        return "set by the platform or Kubernetes; choose another key"
    return None


def workload_problems(wl: Workload, pools: list[PoolFacts], at: str) -> list[Problem]:
    """Problems of one workload namespace: logging keys, egress CIDRs, Pod Security on MPS."""
    problems: list[Problem] = []
    for kind, entries in (("labels", wl.logging.labels), ("annotations", wl.logging.annotations)):
        for key, value in entries.items():
            message = _key_problem(key)
            if message is None and kind == "labels" and not re.fullmatch(f"({_KEY_NAME})?", value):
                message = f"not a label value (at most 63 characters): {value!r}"
            if message is not None:
                problems.append((f"{at}.logging.{kind}.{key}", message))
    for j, cidr in enumerate(wl.traffic.egress_cidrs):
        try:
            ip_network(cidr)
        except ValueError:
            problems.append(
                (f"{at}.traffic.egressCidrs[{j}]", f"not a CIDR (host bits must be zero): {cidr!r}")
            )
    if wl.pod_security in ("baseline", "restricted") and any(pf.is_ack_mps for pf in pools):
        problems.append(
            (
                f"{at}.podSecurity",
                f"pods on ACK MPS pools need hostIPC: true, which Pod Security "
                f"'{wl.pod_security}' refuses; leave podSecurity unset (privileged, the admission "
                "policy enforces the rest of baseline)",
            )
        )
    return problems


def _workload_isolation(cfg: PlatformConfig, facts: dict[str, PoolFacts]) -> Iterator[Problem]:
    # The same pools as Platform.workload_pools: the listed ones, else every unshared pool.
    unshared = [n for n, pf in facts.items() if not pf.is_shared]
    for i, wl in enumerate(cfg.workloads):
        names = wl.pools if wl.pools is not None else unshared
        yield from workload_problems(wl, [facts[n] for n in names if n in facts], f"workloads[{i}]")


def _aks_pool(cfg: PlatformConfig, i: int, pool: GpuPool) -> Iterator[Problem]:
    """AKS pools: labels the platform sets itself, and surge values AKS accepts."""
    from gpu_facts.scheduling import DEVICE_PLUGIN_CONFIG_LABEL, GPU_PRESENT_LABEL, POOL_LABEL

    at = f"gpuPools[{i}]"
    reserved = {GPU_PRESENT_LABEL, DEVICE_PLUGIN_CONFIG_LABEL, POOL_LABEL}
    for key in pool.labels:
        domain = key.rpartition("/")[0]
        # Our own label domain and AKS's are set by the platform; a user value would fight it.
        if key in reserved or domain.endswith("gpu-platform.io"):
            yield f"{at}.labels.{key}", "set by the platform; choose another key"
        elif cfg.cloud == "azure" and domain.endswith("kubernetes.azure.com"):
            yield f"{at}.labels.{key}", "AKS reserves the kubernetes.azure.com label domain"
    surge = pool.upgrade.max_surge.removesuffix("%")
    if cfg.cloud == "azure" and not (surge.isdigit() and int(surge) > 0):
        yield f"{at}.upgrade.maxSurge", "a node count (e.g. 1) or a percentage (e.g. 10%)"


def _namespace_collisions(cfg: PlatformConfig) -> Iterator[Problem]:
    """The GPU layer's namespaces in use are ours alone, each distinct: PSA levels and quotas
    differ per namespace. The explicitly set key is blamed."""
    unused = "devicePlugin.namespace" if cfg.gpu_operator.enabled else "gpuOperator.namespace"
    mps = cfg.readiness.mps_namespace

    def what(key: str, namespace: str) -> str:
        mps_checks = key == "readiness.namespace" and namespace == mps
        return f"{key} + '-mps' (the ACK MPS checks)" if mps_checks else key

    seen: dict[str, tuple[str, bool]] = {}
    for key, namespace, explicit in _platform_namespaces(cfg):
        if key == unused:
            continue
        if namespace not in seen:
            seen[namespace] = (key, explicit)
            continue
        other, other_explicit = seen[namespace]
        blamed, named = (other, key) if other_explicit and not explicit else (key, other)
        yield (
            blamed,
            f"{what(blamed, namespace)} and {what(named, namespace)} are both {namespace!r}; "
            "each needs its own namespace",
        )


def _gpu_layer(cfg: PlatformConfig, facts: dict[str, PoolFacts]) -> Iterator[Problem]:
    """Device-plugin chart values, and what one GPU Operator release can serve."""
    # The component's own check, imported here: components import stack_config when loaded.
    from components.device_plugin_values import our_config_names, value_problems

    # Our config names are known once every pool resolved; else skip the config.default check.
    names = our_config_names(facts.values()) if len(facts) == len(cfg.gpu_pools) else None
    for path, message in value_problems(cfg.device_plugin.values, names):
        yield f"devicePlugin.values.{path}", message
    if cfg.gpu_operator.enabled:
        strategies = {p.mig.strategy for p in cfg.gpu_pools if p.mig is not None}
        if len(strategies) > 1:
            yield (
                "gpuPools",
                "the GPU Operator sets one MIG strategy for the cluster; MIG pools use "
                + ", ".join(sorted(strategies)),
            )
    yield from _namespace_collisions(cfg)
    for path, namespace, _ in _platform_namespaces(cfg):
        if _is_system_namespace(namespace):
            yield (
                path,
                f"{namespace!r} is a Kubernetes system namespace; the platform needs its own",
            )


_POOL_RULES: tuple[Callable[[PlatformConfig, int, GpuPool], Iterator[Problem]], ...] = (
    _pool_machine,
    lambda cfg, i, pool: _pool_size(i, pool),
    _pool_mig,
    _pool_sharing,
    _pool_nvme,
    _aks_pool,
)


def check(
    cfg: PlatformConfig, pool_index: list[int] | None = None
) -> tuple[list[Problem], dict[str, PoolFacts]]:
    """Every problem of a config, and the facts of the pools that are sound.

    ``pool_index`` gives each pool's position in the user's list when ``cfg`` holds only the
    pools that passed structural validation (so paths still point at the right item).
    """
    problems: list[Problem] = [*_platform(cfg), *_ack_cluster(cfg)]
    facts: dict[str, PoolFacts] = {}
    positions = pool_index if pool_index is not None else range(len(cfg.gpu_pools))
    for i, pool in zip(positions, cfg.gpu_pools, strict=True):
        pool_problems = [p for rule in _POOL_RULES for p in rule(cfg, i, pool)]
        problems.extend(pool_problems)
        if not pool_problems:
            facts[pool.name] = resolve_pool(cfg.cloud, pool)
    problems.extend(_gpu_layer(cfg, facts))
    problems.extend(_workloads(cfg, facts))
    problems.extend(_workload_isolation(cfg, facts))
    return list(dict.fromkeys(problems)), facts
