"""``make verify --active``: short-lived probe pods on each GPU pool, then removed.

Read-only is the default. With ``--active`` the run creates one namespace of its own
(``gpu-platform-verify-<random>``, labelled as ours) and, per GPU pool with a node, three pods
pinned to the pool (its node label and its vendor's taint toleration), each with a deadline:

- ``gpu`` asks for one of the pool's GPU resources (a whole GPU, a MIG slice, a shared replica)
  and runs the vendor's tool (``nvidia-smi -L``, ``amd-smi list``) and a device-visibility
  check: its GPU must be there;
- ``no-gpu`` asks for none: it must see no GPU device (AI Conformance's secure accelerator
  access, the official test's negative case);
- ``one-of-two`` has two containers and only the first asks for a GPU: the second must see
  none (the official test's multi-container case).

The official test (kubernetes-sigs/ai-conformance ``TestSecureAcceleratorAccess``) asks for the
GPU with a DRA claim and needs ResourceSlices; on device-plugin pools the same three cases ask
with the vendor's resource limits, and the rows say which variant ran. Each pod prints
``RESULT: ACCELERATOR_FOUND`` or ``RESULT: ACCELERATOR_MISSING`` as the official test does.

The namespace is deleted on every way out (a failed probe, the run's deadline, Ctrl-C or
SIGTERM): deleting it deletes the pods. The cleanup has a deadline of its own
(``CLEANUP_TIMEOUT``), so it is sent even when the run's has passed. A namespace still there
after it is a failing ``probe-cleanup`` row naming the command that removes it, and stderr says
so too (a run that stops with an error prints no rows). Each pod's ``activeDeadlineSeconds``
ends it even then.
"""

from __future__ import annotations

import json
import secrets
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from kubernetes.client.exceptions import ApiException

from gpu_facts.dra import RESOURCE_API_VERSION
from gpu_facts.scheduling import NVIDIA_VISIBLE_DEVICES_ENV, POOL_LABEL
from gpu_facts.vendors import AMD, GpuVendor

from .cluster import ClusterError, ClusterReader, Obj
from .deadline import Deadline
from .objects import entries, mapping, text
from .results import CheckResult, outcome

NAMESPACE_PREFIX = "gpu-platform-verify-"
MANAGED_BY = {"app.kubernetes.io/managed-by": "gpu-platform-verify"}
PROBE_TIMEOUT = 180.0
"""Seconds a probe pod may take to pull its image, run and finish."""
CLEANUP_TIMEOUT = 60.0
"""Seconds the cleanup may take, its deletion sent and the namespace gone: its own deadline,
not what is left of the run's."""
POLL = 2.0
FOUND, MISSING = "RESULT: ACCELERATOR_FOUND", "RESULT: ACCELERATOR_MISSING"
DEVICES = {"nvidia": "/dev/nvidia[0-9]*", "amd": "/dev/dri/renderD*"}
"""The device nodes a container sees when it has a GPU (``/dev/nvidiactl`` is there for any
container on NVIDIA's runtime with the driver's libraries; the numbered nodes are the GPUs)."""
TOOL = {"nvidia": "nvidia-smi -L", "amd": "amd-smi list"}
UNASKED_GPU = (
    f"the probe image, a CUDA image, sets {NVIDIA_VISIBLE_DEVICES_ENV}=all, and the node's NVIDIA "
    "runtime hands every GPU to a container that names them so without asking the device "
    "plugin: any such image can; see docs/verify.md#active-checks---active"
)
"""Why a container that asked for no GPU may see them on an NVIDIA node (NVIDIA container
toolkit: ``accept-nvidia-visible-devices-envvar-when-unprivileged`` defaults to true)."""
DEVICE_PLUGIN_VARIANT = "device-plugin variant: the GPU asked for with resource limits"
CLAIM_VARIANT = "DRA claim variant: the GPU asked for through a claim, as the official test does"
CLAIM_TEMPLATE = "accelerator-claim-template"
"""The official test's ResourceClaimTemplate: one request ``single-accelerator`` of exactly
one device of the class."""
CLAIM = "gpu"


@dataclass(frozen=True, slots=True)
class ProbePool:
    """A GPU pool to probe: its vendor, the GPU resource a pod asks for there, the image."""

    name: str
    vendor: GpuVendor
    resource: str
    image: str
    device_class: str | None = None
    """A DRA pool's DeviceClass (``gpu.nvidia.com``): its probes ask through a claim."""

    @property
    def variant(self) -> str:
        if self.device_class is not None:
            return f"{CLAIM_VARIANT} ({self.device_class})"
        return f"{DEVICE_PLUGIN_VARIANT} ({self.resource})"


def probe_script(vendor: GpuVendor, tool: bool) -> str:
    """What a probe container runs: the device check (and the vendor's tool)."""
    devices = DEVICES["amd" if vendor == AMD else "nvidia"]
    check = f'if ls {devices} >/dev/null 2>&1; then echo "{FOUND}"; else echo "{MISSING}"; fi'
    return f"{check}; {TOOL['amd' if vendor == AMD else 'nvidia']}" if tool else check


def _container(name: str, pool: ProbePool, gpu: bool, tool: bool) -> dict[str, Any]:
    container: dict[str, Any] = {
        "name": name,
        "image": pool.image,
        "command": ["sh", "-c", probe_script(pool.vendor, tool)],
        "securityContext": {
            "allowPrivilegeEscalation": False,
            "capabilities": {"drop": ["ALL"]},
        },
    }
    if gpu and pool.device_class is not None:
        container["resources"] = {"claims": [{"name": CLAIM}]}
    elif gpu:
        container["resources"] = {"limits": {pool.resource: "1"}}
    return container


def claim_template(pool: ProbePool, namespace: str) -> Obj:
    """The official test's ResourceClaimTemplate, on the pool's DeviceClass."""
    return {
        "apiVersion": RESOURCE_API_VERSION,
        "kind": "ResourceClaimTemplate",
        "metadata": {
            "name": f"{pool.name}-{CLAIM_TEMPLATE}",
            "namespace": namespace,
            "labels": MANAGED_BY,
        },
        "spec": {
            "spec": {
                "devices": {
                    "requests": [
                        {
                            "name": "single-accelerator",
                            "exactly": {"deviceClassName": pool.device_class, "count": 1},
                        }
                    ]
                }
            }
        },
    }


def probe_pods(pool: ProbePool, namespace: str) -> list[Obj]:
    """The three probes of a pool."""
    taint = pool.vendor.taint
    spec: dict[str, Any] = {
        "restartPolicy": "Never",
        "nodeSelector": {POOL_LABEL: pool.name},
        "tolerations": [{"key": taint.key, "operator": "Exists", "effect": taint.effect}],
        "activeDeadlineSeconds": int(PROBE_TIMEOUT),
        "automountServiceAccountToken": False,
    }
    shapes = {
        "gpu": [_container("probe", pool, gpu=True, tool=True)],
        "no-gpu": [_container("probe", pool, gpu=False, tool=False)],
        "one-of-two": [
            _container("with-gpu", pool, gpu=True, tool=False),
            _container("without-gpu", pool, gpu=False, tool=False),
        ],
    }
    pods = []
    for shape, containers in shapes.items():
        pod_spec = {**spec, "containers": containers}
        if any("claims" in c.get("resources", {}) for c in containers):
            template = f"{pool.name}-{CLAIM_TEMPLATE}"
            pod_spec["resourceClaims"] = [{"name": CLAIM, "resourceClaimTemplateName": template}]
        metadata = {"name": f"{pool.name}-{shape}", "namespace": namespace, "labels": MANAGED_BY}
        pods.append({"apiVersion": "v1", "kind": "Pod", "metadata": metadata, "spec": pod_spec})
    return pods


class ClusterWriter:
    """The few writes of an active run: create, read one object, its logs, delete."""

    def __init__(self, reader: ClusterReader) -> None:
        self.reader = reader
        self.api = reader.api

    def within(self, seconds: float) -> ClusterWriter:
        """The same writer under a deadline of its own, ``seconds`` from now (the cleanup's)."""
        deadline = Deadline(seconds, self.reader.deadline.request_seconds)
        return ClusterWriter(ClusterReader(self.api, deadline=deadline))

    def _call(self, method: str, path: str, body: Obj | None = None, **query: str) -> bytes:
        def send(**_: Any) -> Any:
            request = self.api.param_serialize(
                method=method,
                resource_path=path,
                query_params=list(query.items()),
                header_params={"Accept": "application/json", "Content-Type": "application/json"},
                body=body,
                auth_settings=["BearerToken"],
            )
            response = self.api.call_api(*request, _request_timeout=_.get("_request_timeout"))
            response.read()
            if not 200 <= response.status <= 299:
                raise ApiException.from_response(http_resp=response, body=None, data=None)
            return response

        return self.reader._get(f"{method.lower()} {path}", send)

    def create(self, path: str, body: Obj) -> None:
        self._call("POST", path, body)

    def get(self, path: str) -> Obj | None:
        try:
            found: Obj = json.loads(self._call("GET", path))
        except ClusterError as err:
            if err.status == 404:
                return None
            raise
        return found

    def logs(self, namespace: str, pod: str, container: str) -> str:
        path = f"/api/v1/namespaces/{namespace}/pods/{pod}/log"
        return self._call("GET", path, container=container).decode("utf-8", errors="replace")

    def delete(self, path: str) -> None:
        try:
            self._call("DELETE", path)
        except ClusterError as err:
            if err.status != 404:
                raise


def _phase(pod: Obj | None) -> str:
    return text(pod, "status", "phase") or "Pending"


def _exit_code(pod: Obj | None, container: str) -> int | None:
    for status in entries(pod, "status", "containerStatuses"):
        code = mapping(status, "state", "terminated").get("exitCode")
        if text(status, "name") == container and isinstance(code, int):
            return code
    return None


def _why_pending(pod: Obj | None) -> str:
    for condition in entries(pod, "status", "conditions"):
        if text(condition, "status") == "False" and text(condition, "message"):
            return f"{text(condition, 'reason')}: {text(condition, 'message')}"
    for status in entries(pod, "status", "containerStatuses"):
        waiting = mapping(status, "state", "waiting")
        if waiting:
            return f"{text(waiting, 'reason')}: {text(waiting, 'message')}".rstrip(": ")
    return "not scheduled or not started"


class ActiveRun:
    """The namespace and probes of one ``--active`` run; use :func:`active_probes`."""

    def __init__(self, writer: ClusterWriter, deadline: Deadline, say: Callable[[str], None]):
        self.writer = writer
        self.deadline = deadline
        self.say = say
        self.namespace = NAMESPACE_PREFIX + secrets.token_hex(3)
        self.waited = PROBE_TIMEOUT

    def probe(self, pools: list[ProbePool]) -> list[CheckResult]:
        """Create every probe, wait for each, judge what it printed."""
        namespace = {
            "apiVersion": "v1",
            "kind": "Namespace",
            "metadata": {"name": self.namespace, "labels": MANAGED_BY},
        }
        pods = [pod for pool in pools for pod in probe_pods(pool, self.namespace)]
        self.say(
            f"verify --active: creating namespace {self.namespace} and pods "
            + ", ".join(text(p, "metadata", "name") for p in pods)
        )
        self.writer.create("/api/v1/namespaces", namespace)
        for pool in pools:
            if pool.device_class is not None:
                path = (
                    f"/apis/{RESOURCE_API_VERSION}/namespaces/{self.namespace}"
                    "/resourceclaimtemplates"
                )
                self.writer.create(path, claim_template(pool, self.namespace))
        for pod in pods:
            self.writer.create(f"/api/v1/namespaces/{self.namespace}/pods", pod)
        finished = self._wait({text(p, "metadata", "name") for p in pods})
        rows = []
        for pool in pools:
            rows += self._judge(pool, finished)
        return rows

    def _wait(self, names: set[str]) -> dict[str, Obj | None]:
        """Each pod once it finished, or as it was at its deadline."""
        last: dict[str, Obj | None] = dict.fromkeys(names)
        pending = set(names)
        # The probes' own limit, or what is left of the run: no read is sent past it.
        self.waited = min(PROBE_TIMEOUT, max(self.deadline.remaining(), 0))
        until = time.monotonic() + self.waited
        while pending:
            for name in sorted(pending):
                if time.monotonic() >= until:
                    break
                pod = self.writer.get(f"/api/v1/namespaces/{self.namespace}/pods/{name}")
                last[name] = pod
                if _phase(pod) in ("Succeeded", "Failed"):
                    pending.discard(name)
            if not pending or time.monotonic() >= until:
                break
            time.sleep(POLL)
        return last

    def _printed(self, pod: str, container: str) -> str:
        return self.writer.logs(self.namespace, pod, container)

    def _judge(self, pool: ProbePool, finished: dict[str, Obj | None]) -> list[CheckResult]:
        rows = []
        cases = (
            ("probe-gpu", f"{pool.name}-gpu", "probe", FOUND),
            ("probe-no-gpu", f"{pool.name}-no-gpu", "probe", MISSING),
            ("probe-one-of-two", f"{pool.name}-one-of-two", "without-gpu", MISSING),
        )
        for check, pod_name, container, wanted in cases:
            subject = f"pool/{pool.name}"
            devices = DEVICES["amd" if pool.vendor == AMD else "nvidia"]
            sees = "sees its" if wanted == FOUND else "sees no"
            expected = f"{sees} GPU ({devices}); {pool.variant}"
            pod = finished.get(pod_name)
            if _phase(pod) not in ("Succeeded", "Failed"):
                found = f"{pod_name} did not finish within {self.waited:.3g} s: {_why_pending(pod)}"
                rows.append(outcome(check, subject, expected, found, False))
                continue
            printed = self._printed(pod_name, container)
            if check == "probe-one-of-two":
                first = self._printed(pod_name, "with-gpu")
                if FOUND not in first:
                    saw = first.strip()[:200]
                    found = f"its first container, which asks for a GPU, saw none: {saw}"
                    rows.append(outcome(check, subject, expected, found, False))
                    continue
            ok = wanted in printed and (FOUND if wanted == MISSING else MISSING) not in printed
            found = printed.strip().replace("\n", "; ")[:400] or "printed nothing"
            if check == "probe-gpu" and _phase(pod) != "Succeeded":
                # The script ends with the vendor's tool: its exit status is the pod's.
                code = _exit_code(pod, container)
                tool = TOOL["amd" if pool.vendor == AMD else "nvidia"]
                ok, found = (
                    False,
                    f"{tool} failed (exit {code if code is not None else '?'}): {found}",
                )
            if wanted == MISSING and not ok and pool.vendor != AMD and FOUND in printed:
                found += f" ({UNASKED_GPU})"
            rows.append(outcome(check, subject, expected, found, ok))
        return rows

    def clean_up(self) -> CheckResult:
        """Delete the namespace (its pods with it) and wait until it is gone."""
        subject = f"namespace/{self.namespace}"
        expected = "deleted, with its probe pods"
        path = f"/api/v1/namespaces/{self.namespace}"
        writer = self.writer.within(CLEANUP_TIMEOUT)
        try:
            writer.delete(path)
            while writer.get(path) is not None:
                if writer.reader.deadline.remaining() <= POLL:
                    raise TimeoutError
                time.sleep(POLL)
        except KeyboardInterrupt:
            self._not_deleted("interrupted while deleting it")
            raise
        except (ClusterError, TimeoutError) as err:
            found = self._not_deleted(str(err) or f"still there after {CLEANUP_TIMEOUT:g} s")
            return outcome("probe-cleanup", subject, expected, found, False)
        self.say(f"verify --active: namespace {self.namespace} deleted")
        return outcome("probe-cleanup", subject, expected, "deleted", True)

    def _not_deleted(self, why: str) -> str:
        found = f"{why}; remove it: kubectl delete namespace {self.namespace}"
        self.say(f"verify --active: namespace {self.namespace} NOT deleted: {found}")
        return found


@contextmanager
def active_run(
    reader: ClusterReader, deadline: Deadline, say: Callable[[str], None]
) -> Iterator[tuple[ActiveRun, list[CheckResult]]]:
    """An active run whose namespace is deleted however the block ends; the cleanup's row is
    appended to the list handed out."""
    run = ActiveRun(ClusterWriter(reader), deadline, say)
    rows: list[CheckResult] = []
    try:
        yield run, rows
    finally:
        rows.append(run.clean_up())
