"""Operators that make GPU pods from custom resources that hold no pod: what they put on the pods,
and the versions these facts were read at.

The pack judges such a custom resource's pods as the operator will make them
(``gpu_policy_support.operator_pods``), so the facts are the operators' own code:

- KAITO (``KAITO``): a ``Workspace`` (or each Workspace an ``InferenceSet`` makes) becomes a
  StatefulSet named after it, in its namespace (``pkg/workspace/manifests/manifests.go``
  ``GenerateManifestWithPodTemplate``; ``pkg/utils/inferenceset/inferenceset.go``).
- NVIDIA's NIM operator (``NIM_OPERATOR``): a ``NIMService`` (or each service of a
  ``NIMPipeline``) becomes a Deployment, or a LeaderWorkerSet when multi-node, named after it,
  in its namespace (``api/apps/v1alpha1/nimservice_types.go`` ``GetDeploymentParams``;
  ``manifests/deployment.yaml``); a ``NIMCache`` a Job that downloads the model
  (``internal/controller/nimcache_controller.go`` ``constructJob``).

An operator at another version may make other pods: the pack judges them as the version below
does and says so (policy ``operator-versions-known``).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class OperatorRelease:
    """An operator and the release the pack's facts about it were read at."""

    key: str
    """How the pack config names it (``operatorVersions``)."""
    name: str
    version: str
    source: str
    api_group: str
    kinds: tuple[str, ...]
    chart: str
    """The chart that installs the operator; its releases' version is the operator's."""
    held_versions: str
    """The version prefix these facts hold for (a release's patch versions share them)."""
    pod_labels: str
    """Where the program writes the labels the operator gives the pods it builds."""

    def holds_for(self, version: str) -> bool:
        return version.removeprefix("v").startswith(self.held_versions)


KAITO = OperatorRelease(
    key="kaito",
    name="KAITO",
    version="0.12.0",
    source="kaito-project/kaito @v0.12.0 (0894eb2)",
    api_group="kaito.sh",
    kinds=("Workspace", "InferenceSet"),
    chart="workspace",
    held_versions="0.12.",
    pod_labels="the inference template's metadata.labels",
)
"""KAITO's chart is ``charts/kaito/workspace`` (name ``workspace``, version = app version 0.12.0
at the tag). AKS's AI toolchain operator add-on installs KAITO too, at AKS's version. A
template's labels reach the pods, not KAITO's StatefulSet; a preset's pods carry KAITO's labels
only (``pkg/workspace/manifests/manifests.go`` ``GenerateManifestWithPodTemplate``,
``GenerateStatefulSetManifest``)."""

NIM_OPERATOR = OperatorRelease(
    key="nim-operator",
    name="NVIDIA NIM operator",
    version="3.1.2",
    source="NVIDIA/k8s-nim-operator @v3.1.2 (f9e3047)",
    api_group="apps.nvidia.com",
    kinds=("NIMService", "NIMPipeline", "NIMCache"),
    chart="k8s-nim-operator",
    held_versions="3.",
    pod_labels="spec.labels (a NIMPipeline: each service's spec.labels)",
)
"""``spec.labels`` go on the Deployment (or LeaderWorkerSet) and its pods
(``api/apps/v1alpha1/nimservice_types.go`` ``GetServiceLabels``, ``manifests/deployment.yaml``).
The chart ``deployments/helm/k8s-nim-operator`` keeps its release branch's version on patch
and minor tags (3.0.0, image tag ``release-3.0``, at v3.1.2): a release names only the 3.x line
the facts hold for."""

OPERATORS: tuple[OperatorRelease, ...] = (KAITO, NIM_OPERATOR)

# --- KAITO (``KAITO``) ------------------------------------------------------------------------

KAITO_TOLERATIONS: tuple[dict[str, str], ...] = (
    {"key": "nvidia.com/gpu", "operator": "Exists", "effect": "NoSchedule"},
    {"key": "sku", "operator": "Equal", "value": "gpu", "effect": "NoSchedule"},
)
"""What KAITO puts on every inference pod, preset or template (appended to a template's own):
``defaultTolerations`` in ``pkg/workspace/inference/preset_inferences.go`` (``nodes.
CapacityNvidiaGPU``; ``consts.SKUString`` = ``sku``, ``consts.GPUString`` = ``gpu``). On Azure it
adds ``kubernetes.azure.com/scalesetpriority=spot`` too (``KAITO_AZURE_SPOT_TOLERATION``)."""
KAITO_AZURE_SPOT_TOLERATION = {
    "key": "kubernetes.azure.com/scalesetpriority",
    "operator": "Equal",
    "value": "spot",
    "effect": "NoSchedule",
}
KAITO_MIG_RESOURCE_PREFIX = "nvidia.com/mig-"
"""A ``resource.partition`` of mode ``mig`` with a profile asks for ``nvidia.com/mig-<profile>``
(one slice: ``pkg/utils/common.go`` ``GetMIGGPUConfig``) and, on the preset path only,
tolerates a taint of that key (``pkg/utils/mig/mig.go`` ``MIGResourceName``;
``GenerateInferencePodSpec``: a template gets ``defaultTolerations`` alone,
``pkg/workspace/inference/template_inference.go``); else the pod asks ``nvidia.com/gpu``, requests =
limits = the GPU count of ``resource.instanceType`` (with node auto-provisioning) or of the
matching nodes' labels (bring your own nodes), or ``partition.count`` (mode ``accelerator``)."""
KAITO_WORKSPACE_LABEL = "kaito.sh/workspace"
"""The label on every pod of a Workspace: its name (``api/v1beta1/labels.go``)."""

# --- NVIDIA NIM operator (``NIM_OPERATOR``) ----------------------------------------------------

NIM_CONTAINER_SUFFIX = "-ctr"
"""The NIM container is ``<NIMService name>-ctr`` (``GetContainerName``), its image
``<spec.image.repository>:<spec.image.tag>`` (``GetImage``)."""
NIM_GPU_RESOURCE = "nvidia.com/gpu"
"""What the standalone platform adds when ``spec.resources`` names no ``nvidia.com/gpu`` and
``draResources`` is empty, for a NIMService served from a NIMCache of an optimized NIM with its
profile named (``spec.storage.nimCache.profile``: the reconciler sets the model profile from it
alone, and assigns GPUs only when that profile is set, the NIMCache is an optimized NIM and the
profile is among its cached ones; ``internal/controller/platform/standalone/nimservice.go``
``renderAndSyncResources``, ``addGPUResources``): requests = limits =
``multiNode.parallelism.tensor``, else the cached profile's tensor parallelism, else 1. Whether
the NIMCache is an optimized NIM (an NGC source without ``modelEndpoint``) and has cached the
profile is not on the NIMService: the pack takes a named profile as one.
Its ``tolerations``, ``nodeSelector``, ``affinity``, ``runtimeClassName``, ``schedulerName`` and
``priorityClassName`` are copied as written; no toleration is added."""
NIM_CLAIM_DEFAULT_DEVICE_CLASS = "gpu.nvidia.com"
"""A ``draResources[].claimCreationSpec.devices[]`` entry's ``deviceClassName`` when unset
(``count`` defaults to 1): the operator turns the spec into a ResourceClaimTemplate the pod
claims (``api/apps/v1alpha1/dra_types.go`` ``DRADeviceSpec``, kubebuilder defaults)."""
NIM_CACHE_CONTAINER = "nim-cache-ctr"
"""The NIMCache Job's container (``NIMCacheContainerName``): the source's ``modelPuller`` image
with ``spec.env``, CPU and memory from ``spec.resources`` (no GPU field), ``spec.tolerations``
and ``spec.nodeSelector``."""
