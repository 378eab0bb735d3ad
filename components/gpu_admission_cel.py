"""The CEL of the in-cluster GPU admission policy: variables, validations and their messages.

Plain data, so tests evaluate every expression with a CEL implementation and the component
hands the same strings to the ``ValidatingAdmissionPolicy``. Only the CEL core (macros,
``has``, ``matches``, ``startsWith``, ``endsWith``, ``string``) is used: no Kubernetes CEL
library function, so what the tests evaluate is what the API server evaluates.
"""

from __future__ import annotations

from dataclasses import dataclass

from gpu_facts.dra import (
    IMPLICIT_EXTENDED_RESOURCE_PREFIX,
    QUOTA_DEVICE_CLASS_LABEL_PREFIX,
)
from gpu_facts.kueue import (
    DEFAULT_LOCAL_QUEUE,
    QUEUE_NAME_LABEL,
    QUEUE_NAMESPACE_LABEL,
    QUEUED_KINDS,
)
from gpu_facts.scheduling import (
    ALIYUN_GPU_MEM,
    AMD_GPU_PREFIX,
    AMD_PARTITION_PATTERN,
    AMD_TAINT_KEY,
    CUDA_IMAGE_REPOSITORY,
    GPU_TAINT_EFFECT,
    GPU_TAINT_KEY,
    GPU_TAINT_VALUE,
    MPS_HOST_IPC_LABEL,
    MPS_HOST_IPC_REQUIRED,
    NO_GPU_VISIBLE_DEVICES_PATTERN,
    NVIDIA_GPU,
    NVIDIA_MIG_PREFIX,
    NVIDIA_VISIBLE_DEVICES_ENV,
    SHARED_SUFFIX,
)

# Pod Security "baseline" capabilities: what MPS namespaces (enforced at "privileged", since
# Pod Security cannot exempt hostIPC alone) may still add.
BASELINE_CAPABILITIES: tuple[str, ...] = (
    "AUDIT_WRITE",
    "CHOWN",
    "DAC_OVERRIDE",
    "FOWNER",
    "FSETID",
    "KILL",
    "MKNOD",
    "NET_BIND_SERVICE",
    "SETFCAP",
    "SETGID",
    "SETPCAP",
    "SETUID",
    "SYS_CHROOT",
)

# An image whose repository's last path segment is ``cuda`` (nvidia/cuda, nvcr.io/nvidia/cuda).
CUDA_IMAGE = rf"^([^/]+/)*{CUDA_IMAGE_REPOSITORY}([:@].*)?$"
CUDA_DIGEST = r"@sha256:[0-9a-f]{64}$"
CUDA_TAG = rf"^([^/]+/)*{CUDA_IMAGE_REPOSITORY}:[A-Za-z0-9_][A-Za-z0-9_.-]{{0,127}}$"


def _quoted(value: str) -> str:
    return "'" + value.replace("\\", "\\\\").replace("'", "\\'") + "'"


def is_nvidia_gpu_resource_cel(var: str) -> str:
    """CEL: the resource name in ``var`` hands out NVIDIA GPU capacity (ACK's gpu-mem too)."""
    return (
        f"({var} == {_quoted(NVIDIA_GPU)} || {var} == {_quoted(NVIDIA_GPU + SHARED_SUFFIX)}"
        f" || {var}.startsWith({_quoted(NVIDIA_MIG_PREFIX)}) || {var} == {_quoted(ALIYUN_GPU_MEM)})"
    )


def is_amd_gpu_resource_cel(var: str) -> str:
    """CEL: the resource name in ``var`` hands out AMD GPU capacity (whole GPUs, partitions)."""
    return (
        f"({var}.startsWith({_quoted(AMD_GPU_PREFIX)})"
        f" || {var}.matches({_quoted(AMD_PARTITION_PATTERN)}))"
    )


def is_gpu_resource_cel(var: str) -> str:
    """CEL that is true when the resource name in ``var`` hands out GPU capacity."""
    return f"({is_nvidia_gpu_resource_cel(var)} || {is_amd_gpu_resource_cel(var)})"


def asks_cel(container: str, resource_test: str) -> str:
    """CEL: the container names a resource matching ``resource_test`` (on ``r``)."""
    res = f"{container}.resources"
    return (
        f"has({res}) && ((has({res}.limits) && {res}.limits.exists(r, {resource_test}))"
        f" || (has({res}.requests) && {res}.requests.exists(r, {resource_test})))"
    )


def label_cel(metadata: str, key: str) -> str:
    """CEL: the value of label ``key`` in the object metadata ``metadata``, '' when unset."""
    labels, quoted = f"{metadata}.labels", _quoted(key)
    return f"(has({labels}) && {quoted} in {labels} ? {labels}[{quoted}] : '')"


def queue_name_cel() -> str:
    """CEL: the LocalQueue the admitted object names (Kueue's queue label), '' when none: on the
    object itself; a CronJob's on its Jobs' template, a ReplicaSet's on its pods' (a Deployment's
    ReplicaSet carries the label Kueue's webhook copied into the template); a Deployment's or
    StatefulSet's on itself, else on its pods', which Kueue then queues one by one
    (``QueuedKind.pods_by_template``); a CronJob's Jobs get the namespace's LocalQueue when it is
    named ``default`` (every other kind has the label by then: Kueue's webhook adds it before
    validation). A DaemonSet never has one: Kueue does not queue DaemonSets
    (``gpu_facts.kueue.QUEUED_KINDS``)."""
    job = "object.spec.jobTemplate"
    template = "object.spec.template"
    jobs = f"(has({job}.metadata) ? {label_cel(f'{job}.metadata', QUEUE_NAME_LABEL)} : '')"
    # Kueue names the namespace's LocalQueue 'default' for a Job that names none; a CronJob,
    # which it does not mutate, gets it on its Jobs (gpu_facts.kueue.DEFAULT_LOCAL_QUEUE).
    defaulted = (
        f"({label_cel('namespaceObject.metadata', QUEUE_NAMESPACE_LABEL)}"
        f" == {_quoted(DEFAULT_LOCAL_QUEUE)} ? {_quoted(DEFAULT_LOCAL_QUEUE)} : '')"
    )
    own = label_cel("object.metadata", QUEUE_NAME_LABEL)
    pods = (
        f"(has({template}.metadata) ? {label_cel(f'{template}.metadata', QUEUE_NAME_LABEL)} : '')"
    )
    by_pods = " || ".join(f"object.kind == '{k.kind}'" for k in QUEUED_KINDS if k.pods_by_template)
    return (
        "(object.kind == 'DaemonSet' ? ''"
        f" : (object.kind == 'CronJob' ? ({jobs} != '' ? {jobs} : {defaulted})"
        f" : (object.kind == 'ReplicaSet' ? {pods}"
        f" : (({by_pods}) && {own} == '' ? {pods} : {own}))))"
    )


def _tolerates_gpu_taint(t: str, taint_key: str = GPU_TAINT_KEY) -> str:
    """CEL: toleration ``t`` tolerates a vendor's GPU taint (Kubernetes toleration matching)."""
    key, value, effect = _quoted(taint_key), _quoted(GPU_TAINT_VALUE), _quoted(GPU_TAINT_EFFECT)
    return (
        f"((!has({t}.effect) || {t}.effect == '' || {t}.effect == {effect})"
        f" && ((has({t}.operator) && {t}.operator == 'Exists'"
        f" && (!has({t}.key) || {t}.key == '' || {t}.key == {key}))"
        f" || ((!has({t}.operator) || {t}.operator == 'Equal')"
        f" && has({t}.key) && {t}.key == {key} && has({t}.value) && {t}.value == {value})))"
    )


def _flag(obj: str, field: str) -> str:
    """CEL: the optional boolean ``obj.field`` is set and true."""
    return f"(has({obj}.{field}) && {obj}.{field})"


@dataclass(frozen=True, slots=True)
class CelVariable:
    name: str
    expression: str


@dataclass(frozen=True, slots=True)
class CelValidation:
    key: str
    """Our name for the check (tests and docs refer to it)."""
    practice: str
    """The BP-ID the check enforces."""
    expression: str
    message: str


VARIABLES: tuple[CelVariable, ...] = (
    # The pod spec wherever the kind keeps it.
    CelVariable(
        "spec",
        "object.kind == 'Pod' ? object.spec"
        " : (object.kind == 'CronJob' ? object.spec.jobTemplate.spec.template.spec"
        " : object.spec.template.spec)",
    ),
    # Ephemeral containers (``kubectl debug``) count too: they cannot ask for a GPU, but on a
    # GPU node they could otherwise reach every GPU through the env or privilege.
    CelVariable(
        "containers",
        "variables.spec.containers"
        " + (has(variables.spec.initContainers) ? variables.spec.initContainers : [])"
        " + (has(variables.spec.ephemeralContainers) ? variables.spec.ephemeralContainers : [])",
    ),
    CelVariable(
        "gpuContainers",
        f"variables.containers.filter(c, {asks_cel('c', is_gpu_resource_cel('r'))})",
    ),
    CelVariable("asksGpu", "size(variables.gpuContainers) > 0"),
    # Claims (DRA): in a GPU namespace every claim is on a GPU DeviceClass its quota caps (the
    # claims policy below refuses any other), so a pod with claims is a GPU pod.
    CelVariable(
        "claimsDevices",
        "has(variables.spec.resourceClaims) && size(variables.spec.resourceClaims) > 0",
    ),
    CelVariable(
        "claimContainers",
        "variables.containers.filter(c, has(c.resources) && has(c.resources.claims)"
        " && size(c.resources.claims) > 0)",
    ),
    CelVariable(
        "asksNvidiaGpu",
        f"variables.gpuContainers.exists(c, {asks_cel('c', is_nvidia_gpu_resource_cel('r'))})",
    ),
    CelVariable(
        "asksAmdGpu",
        f"variables.gpuContainers.exists(c, {asks_cel('c', is_amd_gpu_resource_cel('r'))})",
    ),
    CelVariable(
        "asksGpuMem",
        f"variables.containers.exists(c, {asks_cel('c', f'r == {_quoted(ALIYUN_GPU_MEM)}')})",
    ),
    # Queued by Kueue (a namespace with a LocalQueue, an object naming a queue): Kueue adds its
    # flavour's GPU toleration when it admits the workload (components/gpu_queues.py).
    CelVariable(
        "queued",
        f"{label_cel('namespaceObject.metadata', QUEUE_NAMESPACE_LABEL)} != ''"
        f" && {queue_name_cel()} != ''",
    ),
    CelVariable(
        "mpsHostIpc",
        f"has(namespaceObject.metadata.labels)"
        f" && {_quoted(MPS_HOST_IPC_LABEL)} in namespaceObject.metadata.labels"
        f" ? namespaceObject.metadata.labels[{_quoted(MPS_HOST_IPC_LABEL)}] : ''",
    ),
)

_GPU = is_gpu_resource_cel("r")
_RES = "c.resources"

VALIDATIONS: tuple[CelValidation, ...] = (
    CelValidation(
        "gpu-toleration",
        "BP-02",
        "!(variables.asksNvidiaGpu || variables.claimsDevices) || variables.queued"
        " || (has(variables.spec.tolerations)"
        f" && variables.spec.tolerations.exists(t, {_tolerates_gpu_taint('t')}))",
        f"a pod that asks for a GPU (a GPU resource, or a ResourceClaim on a GPU DeviceClass)"
        f" must tolerate the GPU taint {GPU_TAINT_KEY}={GPU_TAINT_VALUE}:{GPU_TAINT_EFFECT}"
        f" (e.g. key {GPU_TAINT_KEY}, operator Exists, effect {GPU_TAINT_EFFECT}), unless its"
        f" namespace queues it ({QUEUE_NAME_LABEL}) and Kueue adds it (BP-02)",
    ),
    CelValidation(
        "amd-gpu-toleration",
        "BP-02",
        "!variables.asksAmdGpu || variables.queued || (has(variables.spec.tolerations)"
        f" && variables.spec.tolerations.exists(t, {_tolerates_gpu_taint('t', AMD_TAINT_KEY)}))",
        f"a pod that asks for an AMD GPU must tolerate the AMD GPU taint {AMD_TAINT_KEY}"
        f"={GPU_TAINT_VALUE}:{GPU_TAINT_EFFECT} (e.g. key {AMD_TAINT_KEY}, operator Exists,"
        f" effect {GPU_TAINT_EFFECT}), unless its namespace queues it ({QUEUE_NAME_LABEL}) and"
        " Kueue adds it (BP-02)",
    ),
    CelValidation(
        "gpu-limit",
        "BP-03",
        "variables.gpuContainers.all(c,"
        f" (has({_RES}.limits) && {_RES}.limits.exists(r, {_GPU}))"
        f" && (!has({_RES}.requests) || {_RES}.requests.all(r, !{_GPU}"
        f" || (has({_RES}.limits) && r in {_RES}.limits"
        f" && string({_RES}.limits[r]) == string({_RES}.requests[r])))))",
        "GPU resources must be given as limits; a GPU request, if set, must equal its limit"
        " (BP-03)",
    ),
    CelValidation(
        "gpu-whole-number",
        "BP-03",
        "variables.gpuContainers.all(c,"
        f" (!has({_RES}.limits) || {_RES}.limits.all(r, !{_GPU}"
        f" || string({_RES}.limits[r]).matches('^[0-9]+$')))"
        f" && (!has({_RES}.requests) || {_RES}.requests.all(r, !{_GPU}"
        f" || string({_RES}.requests[r]).matches('^[0-9]+$'))))",
        "GPU resources must be whole numbers (BP-03)",
    ),
    CelValidation(
        "no-visible-devices-env",
        "BP-17",
        "variables.containers.all(c, !has(c.env)"
        f" || c.env.all(e, e.name != {_quoted(NVIDIA_VISIBLE_DEVICES_ENV)}"
        " || (!has(e.valueFrom)"
        f" && (has(e.value) ? e.value : '').matches({_quoted(NO_GPU_VISIBLE_DEVICES_PATTERN)}))))",
        f"containers must not set {NVIDIA_VISIBLE_DEVICES_ENV} to GPUs (only void, none or"
        " empty, which expose none): it hands out GPUs behind the scheduler's back (BP-17)",
    ),
    CelValidation(
        "no-privileged-gpu",
        "BP-17",
        f"(variables.gpuContainers + variables.claimContainers).all(c, !has(c.securityContext)"
        f" || !{_flag('c.securityContext', 'privileged')})",
        "containers that ask for a GPU (a GPU resource or a claim) must not be privileged: a"
        " privileged container sees every GPU of the node (BP-17)",
    ),
    CelValidation(
        "no-implicit-device-class-resource",
        "BP-09",
        "variables.containers.all(c, !has(c.resources)"
        " || ((!has(c.resources.limits) || c.resources.limits.all(r,"
        f" !r.startsWith({_quoted(IMPLICIT_EXTENDED_RESOURCE_PREFIX)})))"
        " && (!has(c.resources.requests) || c.resources.requests.all(r,"
        f" !r.startsWith({_quoted(IMPLICIT_EXTENDED_RESOURCE_PREFIX)})))))",
        f"ask for DRA devices through a ResourceClaim (the namespace's templates), not as"
        f" {IMPLICIT_EXTENDED_RESOURCE_PREFIX}<class> resources, which its claim quota does not"
        " cap (BP-09)",
    ),
    CelValidation(
        "cuda-image-pinned",
        "BP-19",
        f"variables.containers.all(c, !c.image.matches({_quoted(CUDA_IMAGE)})"
        f" || c.image.matches({_quoted(CUDA_DIGEST)})"
        f" || (c.image.matches({_quoted(CUDA_TAG)}) && !c.image.endsWith(':latest')))",
        "CUDA images must be pinned to a version tag or digest, not latest or untagged (BP-19)",
    ),
    CelValidation(
        "host-ipc-mps-only",
        "BP-16",
        f"!{_flag('variables.spec', 'hostIPC')}"
        " || (variables.asksGpuMem && variables.mpsHostIpc != '')",
        f"hostIPC is allowed only for pods that ask for {ALIYUN_GPU_MEM} in a namespace on an"
        f" ACK MPS pool (label {MPS_HOST_IPC_LABEL}) (BP-16)",
    ),
    CelValidation(
        "host-ipc-mps-required",
        "BP-16",
        f"!(variables.asksGpuMem && variables.mpsHostIpc == {_quoted(MPS_HOST_IPC_REQUIRED)})"
        f" || {_flag('variables.spec', 'hostIPC')}",
        f"pods that ask for {ALIYUN_GPU_MEM} on an ACK MPS pool must set hostIPC: true, or"
        " they cannot reach the MPS daemon (BP-16)",
    ),
    # MPS namespaces run at Pod Security "privileged" (it cannot exempt hostIPC alone):
    # the rest of "baseline" is enforced here instead.
    CelValidation(
        "mps-namespace-host-namespaces",
        "BP-16",
        "variables.mpsHostIpc == ''"
        f" || !({_flag('variables.spec', 'hostNetwork')} || {_flag('variables.spec', 'hostPID')})",
        "namespaces with the MPS hostIPC exception allow no hostNetwork or hostPID (BP-16)",
    ),
    CelValidation(
        "mps-namespace-containers",
        "BP-16",
        "variables.mpsHostIpc == '' || variables.containers.all(c, !has(c.securityContext)"
        f" || (!{_flag('c.securityContext', 'privileged')}"
        " && (!has(c.securityContext.capabilities) || !has(c.securityContext.capabilities.add)"
        " || c.securityContext.capabilities.add.all(cap, cap in ["
        + ", ".join(_quoted(cap) for cap in BASELINE_CAPABILITIES)
        + "]))))",
        "namespaces with the MPS hostIPC exception allow no privileged containers and no"
        " capabilities beyond Pod Security baseline (BP-16)",
    ),
    CelValidation(
        "mps-namespace-host-access",
        "BP-16",
        "variables.mpsHostIpc == ''"
        " || ((!has(variables.spec.volumes) || variables.spec.volumes.all(v, !has(v.hostPath)))"
        " && variables.containers.all(c, !has(c.ports)"
        " || c.ports.all(p, !has(p.hostPort) || p.hostPort == 0)))",
        "namespaces with the MPS hostIPC exception allow no hostPath volumes or hostPorts (BP-16)",
    ),
)


# --- Claims: ResourceClaims and ResourceClaimTemplates in GPU namespaces (DRA) ------------

CLAIM_VARIABLES: tuple[CelVariable, ...] = (
    # A template holds the claim's spec one level down (spec.spec.devices).
    CelVariable(
        "requests",
        "object.kind == 'ResourceClaimTemplate'"
        " ? (has(object.spec.spec.devices) && has(object.spec.spec.devices.requests)"
        " ? object.spec.spec.devices.requests : [])"
        " : (has(object.spec.devices) && has(object.spec.devices.requests)"
        " ? object.spec.devices.requests : [])",
    ),
    # The namespace's labels: one per class its quota caps (GpuWorkloadNamespace).
    CelVariable(
        "namespaceLabels",
        "has(namespaceObject.metadata.labels) ? namespaceObject.metadata.labels : {}",
    ),
)


def _capped(device_class: str) -> str:
    label = f"{_quoted(QUOTA_DEVICE_CLASS_LABEL_PREFIX)} + {device_class}"
    return f"({label}) in variables.namespaceLabels"


CLAIM_VALIDATIONS: tuple[CelValidation, ...] = (
    CelValidation(
        "claim-quota-classes",
        "BP-09",
        # resource.k8s.io/v1 and v1beta2 (``exactly``, ``firstAvailable``) and v1beta1 (the
        # class on the request itself).
        "variables.requests.all(r,"
        f" (!has(r.exactly) || {_capped('r.exactly.deviceClassName')})"
        f" && (!has(r.firstAvailable) || r.firstAvailable.all(s, {_capped('s.deviceClassName')}))"
        f" && (!has(r.deviceClassName) || {_capped('r.deviceClassName')}))",
        "a claim in a GPU namespace may name only the DeviceClasses its ResourceQuota caps"
        f" (labels {QUOTA_DEVICE_CLASS_LABEL_PREFIX}<class>): a class without a quota key is"
        " uncapped (BP-09)",
    ),
)
