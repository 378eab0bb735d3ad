"""NvidiaDevicePlugin: the NVIDIA device plugin chart with GFD, one config per GPU pool (BP-14).

One Helm release in its own namespace: the plugin, GPU Feature Discovery (``gfd.enabled``, from
the same chart, never a separate release) and the NFD worker GFD relies on, all held to the
tainted GPU nodes. Per-pool configs come from ``plan.nvidia.device_plugin``. The namespace denies
all traffic but the chart's one need, egress to the API server (``api_server_egress_spec``).
"""

from collections.abc import Mapping
from typing import Any, NotRequired, TypedDict

import pulumi
from pydantic import ValidationError

from gpu_facts.nvidia.device_plugin_chart import (
    CHART_NAME,
    CHART_REPO,
    INSTANCE_LABEL,
    KNOWN_VALUE_PATHS,
    RELEASE_NAME,
    unknown_value_paths,
)
from gpu_facts.scheduling import (
    GPU_PRESENT_LABEL,
    GPU_TAINT_EFFECT,
    GPU_TAINT_KEY,
    GPU_TAINT_VALUE,
)
from gpu_platform.plan.chart_values import (
    gpu_node_affinity,
    gpu_tolerations,
    merge_values,
    system_tolerations,
)
from gpu_platform.plan.nvidia.device_plugin import DEFAULT_CONFIG_NAME, config_map
from gpu_platform.plan.nvidia.device_plugin_values import (
    config_problems,
    mps_version_problems,
    our_config_names,
    value_problems,
    version_problems,
)
from gpu_platform.plan.pools import PoolFacts
from gpu_platform.settings import DevicePluginSettings, GpuComponentResourcesSettings

from ..errors import raise_if_any, shape_problems, validation_problems
from ..outputs import known_after
from ..pool_args import DEFAULT_CLOUD, GpuPoolArgs, cloud_arg, validate_gpu_pools_args
from ..recorded_inputs import recorded_inputs
from ..system_charts import (
    release_in_own_namespace,
    system_policies,
)
from ..type_tokens import formerly, type_token

NODE_CRITICAL = "system-node-critical"
"""Priority class of per-node add-ons: the kubelet evicts them last."""


class ContainerResourcesArgs(TypedDict):
    """Requests and memory limit of one kind of container."""

    cpu: str
    """CPU request (a Kubernetes quantity, ``50m``)."""
    memory: str
    """Memory request (``64Mi``)."""
    memory_limit: NotRequired[str]
    """Memory limit, at least the request; unset: the chart's own (none for the plugin and GFD,
    the NFD chart's for its pods)."""


class GpuComponentResourcesArgs(TypedDict):
    """Resources of the GPU components' pods; each unset one keeps the platform's default."""

    plugin: NotRequired[ContainerResourcesArgs]
    """The device plugin and GFD containers (and the MPS control daemon's)."""
    nfd_master: NotRequired[ContainerResourcesArgs]
    """The NFD master."""
    nfd_worker: NotRequired[ContainerResourcesArgs]
    """The NFD workers."""
    nfd_gc: NotRequired[ContainerResourcesArgs]
    """The NFD garbage collector."""


class NvidiaDevicePluginArgs(TypedDict):
    """The device plugin release: chart version, GFD, namespace, extra values, GPU pools."""

    pools: list[GpuPoolArgs]
    """GPU pools of the cluster; those the plugin serves (all but ACK-shared ones) get a named
    config and a config label."""
    cloud: NotRequired[str]
    """Cloud of the pools: ``aks``, ``ack`` or ``existing`` (default): decides what a
    pool's ``sharing.mode`` means."""
    version: NotRequired[str]
    """Chart version, 0.15.0 or newer (default: the version the platform is tested with)."""
    gfd: NotRequired[bool]
    """GPU Feature Discovery from the same chart (needed for MPS and node labels; default
    true, and BP-14 wants it on)."""
    namespace: NotRequired[str]
    """Namespace of the release, created privileged (default ``nvidia-device-plugin``)."""
    resources: NotRequired[GpuComponentResourcesArgs]
    """Requests (and memory limits) of the plugin, GFD and NFD pods (defaults: small requests,
    docs/device-plugin.md)."""
    values: NotRequired[dict[str, Any]]
    """Extra chart values, merged over ours like Helm's; only chart keys we know."""


class DevicePluginValuesError(ValueError):
    """Chart values name keys the chart does not have."""


def nfd_values(
    resources: GpuComponentResourcesSettings,
) -> dict[str, dict[str, Any]]:
    """The NFD subchart's values (the same keys in both charts): master and gc on the system
    nodes, the worker on exactly the GPU nodes the plugin serves, each with its resources and
    the runtime's default seccomp profile."""
    # The container runtime's default seccomp profile: NFD's pods make API calls and read
    # /sys, /proc and host files, nothing the profile blocks; the chart leaves it unset.
    confined = {"seccompProfile": {"type": "RuntimeDefault"}}
    return {
        "worker": {
            "tolerations": nfd_worker_tolerations(),
            "resources": resources.nfd_worker.as_values(),
            "podSecurityContext": confined,
        },
        "master": {
            "tolerations": system_tolerations(),
            "resources": resources.nfd_master.as_values(),
            "podSecurityContext": confined,
        },
        "gc": {
            "tolerations": system_tolerations(),
            "resources": resources.nfd_gc.as_values(),
            "podSecurityContext": confined,
        },
    }


def nfd_worker_tolerations() -> list[dict[str, str]]:
    """The NFD worker toleration, matching our taint's exact value (``present``)."""
    return [
        {
            "key": GPU_TAINT_KEY,
            "operator": "Equal",
            "value": GPU_TAINT_VALUE,
            "effect": GPU_TAINT_EFFECT,
        }
    ]


def chart_values(settings: DevicePluginSettings, pools: list[PoolFacts]) -> dict[str, Any]:
    """The release's values: ours, then the user's ``devicePlugin.values`` merged over them.

    Raises ``DevicePluginValuesError`` when the user's values name a key outside the chart
    keys we know (``KNOWN_VALUE_PATHS``), or would leave the chart without a ``config.map`` and
    a ``config.default`` naming one of its configs. The stack config rules run the same checks.
    """
    unknown = unknown_value_paths(settings.values)
    if unknown:
        raise DevicePluginValuesError(
            f"devicePlugin.values: unknown chart keys {', '.join(unknown)}; "
            f"known: {', '.join(sorted(KNOWN_VALUE_PATHS))}"
        )
    problems = config_problems(settings.values, our_config_names(pools))
    if problems:
        raise DevicePluginValuesError(
            "devicePlugin.values: config must keep a config.map of named configs and a "
            "config.default naming one of them; "
            + "; ".join(f"{path}: {message}" for path, message in problems)
        )
    ours: dict[str, Any] = {
        "config": {"map": config_map(pools), "default": DEFAULT_CONFIG_NAME},
        "gfd": {"enabled": settings.gfd},
        "affinity": gpu_node_affinity(),
        "tolerations": gpu_tolerations(),
        "priorityClassName": NODE_CRITICAL,
        # One value for the plugin, GFD and MPS daemon containers in chart 0.20.
        "resources": settings.resources.plugin.as_values(),
        "nfd": nfd_values(settings.resources),
    }
    # The same nodes as the plugin and GFD, not ACK-shared ones.
    ours["nfd"]["worker"] |= {
        "nodeSelector": {GPU_PRESENT_LABEL: "true"},
        "affinity": gpu_node_affinity(),
    }
    return merge_values(ours, settings.values)


def validate_device_plugin_args(
    name: str, args: NvidiaDevicePluginArgs
) -> tuple[DevicePluginSettings, list[PoolFacts]]:
    """The args as settings and pool facts, or one ``InputPropertiesError`` naming every bad
    property."""
    # A wrong shape (an unknown or missing property) makes the rest meaningless.
    raise_if_any("NvidiaDevicePlugin", name, shape_problems(args, NvidiaDevicePluginArgs))
    pools, pool_problems = validate_gpu_pools_args(
        args.get("cloud", DEFAULT_CLOUD), args["pools"], "pools"
    )
    problems = list(pool_problems)
    settings: DevicePluginSettings | None = None
    try:
        # ``enabled`` is the platform's decision, not an arg: leave it at its default.
        settings = DevicePluginSettings.model_validate(
            {
                k: v
                for k, v in args.items()
                if k in ("version", "gfd", "namespace", "values", "resources")
            }
        )
    except ValidationError as err:
        problems += validation_problems(err)
    if settings is not None:
        problems += version_problems(settings.version)
        problems += mps_version_problems(settings.version, [pf.sharing for pf in pools])
    values = args.get("values", {})
    if isinstance(values, Mapping):  # else the settings said so
        # Without every pool the configs the chart gets are unknown: skip config.default.
        names = None if pool_problems else our_config_names(pools)
        problems += [(f"values.{path}", why) for path, why in value_problems(values, names)]
    raise_if_any("NvidiaDevicePlugin", name, problems)
    assert settings is not None
    return settings, pools


class NvidiaDevicePlugin(pulumi.ComponentResource):
    """The NVIDIA device plugin release (with GFD) and its namespace."""

    namespace: pulumi.Output[str]
    """Namespace of the release."""
    release_name: pulumi.Output[str]
    """Helm release name."""
    configs: pulumi.Output[dict[str, str]]
    """Named device-plugin configs (name -> YAML) in the chart's ``config.map``."""

    def __init__(
        self, name: str, args: NvidiaDevicePluginArgs, opts: pulumi.ResourceOptions | None = None
    ) -> None:
        # Validate before registering anything: bad input changes nothing.
        settings, pools = validate_device_plugin_args(name, args)
        values = chart_values(settings, pools)
        super().__init__(
            type_token("NvidiaDevicePlugin"),
            name,
            recorded_inputs(args),
            formerly("gpu-platform:gpu:NvidiaDevicePlugin", opts),
        )

        # The plugin, GFD and the MPS daemon run privileged: PSA must allow it here only. Deny
        # all, then the one thing every pod of the chart needs: the API server (BP-08 for our
        # own privileged namespace too).
        namespace, release = release_in_own_namespace(
            self,
            name,
            namespace=settings.namespace,
            pod_security="privileged",
            policies=system_policies(cloud_arg(args), {INSTANCE_LABEL: RELEASE_NAME}),
            chart=CHART_NAME,
            repo=CHART_REPO,
            version=settings.version,
            values=values,
        )
        self.namespace = known_after(settings.namespace, namespace)
        self.release_name = release.name.apply(lambda n: n or CHART_NAME)
        self.configs = pulumi.Output.from_input(values["config"]["map"])
        self.register_outputs(
            {
                "namespace": self.namespace,
                "releaseName": self.release_name,
                "configs": self.configs,
            }
        )
