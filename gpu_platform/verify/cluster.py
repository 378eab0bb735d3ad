"""Read-only access to the live cluster through the official Kubernetes client.

Only ``list``/``get`` calls are made (``get`` through the pod proxy for the GPU metrics exporter's
``/metrics``; plus ``exec`` in ``driver.py``). Objects come back as
the JSON the API server sent (camelCase keys), so the checks read exactly what
``kubectl get -o json`` shows. Transport and auth failures become one ``ClusterError`` line
naming the cause (``causes.py``); every request has a deadline (``deadline.py``). A list whose
answer is not a list (``answers.py``) is recorded in ``ClusterReader.bad_answers`` and reads as
empty, an object read by name whose answer is no object as not found: the run reports it as one
failing row instead of stopping (``bad_answers.py``).
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import urllib3
import yaml
from kubernetes import client, config
from kubernetes.client.exceptions import ApiException
from kubernetes.config.config_exception import ConfigException

from gpu_facts.cloud_limits import KUBERNETES_MAX_PODS_PER_CLUSTER

from . import causes, credentials
from .answers import AnswerError, BadAnswer, continue_token, list_items, shape, unnamed
from .deadline import CONNECT_TIMEOUT, GRACE, Deadline, TimedOut, within

Obj = dict[str, Any]
"""A Kubernetes object as JSON."""

LIST_KINDS = {
    "nodes": "NodeList",
    "daemonsets": "DaemonSetList",
    "pods": "PodList",
    "networkpolicies": "NetworkPolicyList",
    "resourcequotas": "ResourceQuotaList",
    "limitranges": "LimitRangeList",
    "aliyunlogconfigs": "AliyunLogConfigList",
    "validatingadmissionpolicybindings": "ValidatingAdmissionPolicyBindingList",
    "csistoragecapacities": "CSIStorageCapacityList",
    "deployments": "DeploymentList",
    "resourceflavors": "ResourceFlavorList",
    "clusterqueues": "ClusterQueueList",
    "localqueues": "LocalQueueList",
    "resourceslices": "ResourceSliceList",
    "deviceclasses": "DeviceClassList",
}
"""What the API server answers a list of each resource with."""
QUERY_NAMES = {
    "limit": "limit",
    "_continue": "continue",
    "label_selector": "labelSelector",
    "field_selector": "fieldSelector",
}
"""The generated client's names of a list's query parameters -> the API server's."""
MAX_ANSWER_BYTES = 64 * 2**20
"""The most one answer of the API server may weigh (decompressed): a page of ``PAGE_SIZE``
objects is a few MB. A server that never stops sending is refused at this size, not read until
its deadline into all the memory there is."""
_CHUNK = 64 * 1024
PAGE_SIZE = 500
"""Items per list request: large clusters are read in pages (``limit``/``continue``)."""
MAX_LIST_ITEMS = 2 * KUBERNETES_MAX_PODS_PER_CLUSTER.value
"""The most items one list may gather: twice the pods of the largest cluster Kubernetes
supports (``gpu_facts.cloud_limits.KUBERNETES_MAX_PODS_PER_CLUSTER``, with its source). A
server that sends page after page, each with a new continue token, is refused here, not read
until the run's deadline into all the memory there is."""


class ClusterError(Exception):
    """The cluster could not be read at all (unreachable, bad credentials, forbidden)."""

    def __init__(self, message: str, status: int | None = None) -> None:
        super().__init__(message)
        self.status = status
        """HTTP status of the answer, None when there was no answer."""


def _kubeconfig_paths(kubeconfig: Path | None) -> list[Path]:
    """The files the client would read: the given one, else $KUBECONFIG's list, else the default."""
    if kubeconfig is not None:
        return [kubeconfig]
    env = os.environ.get("KUBECONFIG", "")
    if env:
        return [Path(p).expanduser() for p in env.split(os.pathsep) if p]
    return [Path("~/.kube/config").expanduser()]


def connect(
    kubeconfig: Path | None, context: str | None, deadline: Deadline | None = None
) -> client.ApiClient:
    """An API client for a kubeconfig file (default: $KUBECONFIG or ~/.kube/config). An exec
    credential plugin runs here, within what is left of the run's deadline."""
    paths = _kubeconfig_paths(kubeconfig)
    if not any(p.is_file() for p in paths):
        shown = os.pathsep.join(str(p) for p in paths)
        raise ClusterError(f"kubeconfig: no file at {shown} (give --kubeconfig or set KUBECONFIG)")
    files = [p for p in paths if p.is_file()]
    plugin = credentials.exec_plugin(files, context)
    if plugin is not None and (why := credentials.missing(plugin)):
        raise ClusterError(why)

    def load() -> client.ApiClient:
        return config.new_client_from_config(
            # Several files (a $KUBECONFIG list) are merged by the client, as kubectl does.
            config_file=os.pathsep.join(str(p) for p in paths),
            context=context,
            persist_config=False,
        )

    try:
        with credentials.logged_errors() as logged:
            left = (deadline or Deadline()).remaining()
            api = within(left, load) if left > 0 else load()
    except TimedOut:
        raise ClusterError(
            f"kubeconfig: the exec credential plugin {plugin.command!r} gave no credentials "
            "before the run's deadline (--timeout)"
            if plugin is not None
            else "kubeconfig: reading it did not finish before the run's deadline (--timeout)"
        ) from None
    except ConfigException as err:
        raise ClusterError(f"kubeconfig: {err}") from None
    except yaml.YAMLError as err:
        where = getattr(err, "problem_mark", None)
        at = f" (line {where.line + 1})" if where is not None else ""
        raise ClusterError(f"kubeconfig: not valid YAML{at}") from None
    except OSError as err:
        raise ClusterError(f"kubeconfig: cannot read it: {err}") from None
    except (ValueError, TypeError, AttributeError, KeyError):
        raise ClusterError(
            "kubeconfig: not a kubeconfig (a mapping with clusters, users and contexts)"
        ) from None
    if plugin is not None and logged:
        api.close()
        raise ClusterError(
            f"kubeconfig: the exec credential plugin {plugin.command!r} of user {plugin.user!r} "
            f"failed: {logged[-1]}"
        )
    # One attempt per request: retrying a refused connection only delays the error line.
    api.rest_client.pool_manager.connection_pool_kw["retries"] = urllib3.Retry(
        total=0, connect=0, read=0, redirect=0, status=0, raise_on_status=False
    )
    return api


def _bounded_body(raw: urllib3.BaseHTTPResponse) -> bytes:
    """The whole body of ``raw``, or ``AnswerError`` once it passes ``MAX_ANSWER_BYTES``."""
    refused = AnswerError(
        f"the answer is larger than {MAX_ANSWER_BYTES // 2**20} MiB: not read to its end"
    )
    declared = raw.headers.get("Content-Length", "")
    if declared.isdigit() and int(declared) > MAX_ANSWER_BYTES:
        raw.release_conn()
        raise refused
    body = bytearray()
    for chunk in raw.stream(_CHUNK, decode_content=True):
        body += chunk
        if len(body) > MAX_ANSWER_BYTES:
            raw.release_conn()
            raise refused
    return bytes(body)


class ClusterReader:
    """List and get calls against one cluster, errors mapped to ``ClusterError``; each
    request within ``deadline``. A list answered with something that is not a list is
    recorded in ``bad_answers`` and reads as empty (see the module docstring)."""

    def __init__(
        self,
        api: client.ApiClient,
        page_size: int = PAGE_SIZE,
        deadline: Deadline | None = None,
        max_items: int = MAX_LIST_ITEMS,
    ) -> None:
        self.api = api
        self.server = str(api.configuration.host)
        self.page_size = page_size
        self.max_items = max_items
        self.deadline = deadline or Deadline()
        self.bad_answers: list[BadAnswer] = []

    def _endpoint(self, path: str, accept: str = "application/json") -> Callable[..., Any]:
        """GET ``path`` (its ``{name}`` parts from keyword arguments, paging and selectors as
        the generated client names them): the request the generated client's method sends, and
        its answer or ``ApiException`` as that method gives them with ``_preload_content=False``,
        without the pydantic validation its methods run on every call (a fifth of a request's
        client CPU, and each method's validator built on first use)."""
        names = set(re.findall(r"\{(\w+)\}", path))

        def get(
            *, _preload_content: bool = False, _request_timeout: Any = None, **kwargs: Any
        ) -> Any:
            query = [(QUERY_NAMES[k], v) for k, v in kwargs.items() if k not in names]
            request = self.api.param_serialize(
                method="GET",
                resource_path=path,
                path_params={k: v for k, v in kwargs.items() if k in names},
                query_params=query,
                header_params={"Accept": accept},
                auth_settings=["BearerToken"],
            )
            response = self.api.call_api(*request, _request_timeout=_request_timeout)
            response.data = _bounded_body(response.response)
            if not 200 <= response.status <= 299:
                raise ApiException.from_response(http_resp=response, body=None, data=None)
            return response

        return get

    def _call(self, what: str, method: Callable[..., Any], **kwargs: Any) -> object:
        body = self._get(what, method, **kwargs)
        try:
            data: object = json.loads(body)
        except ValueError as err:
            raise AnswerError(f"the answer is not JSON ({err})") from None
        return data

    def _get(self, what: str, method: Callable[..., Any], **kwargs: Any) -> bytes:
        """The body of one GET, as the API server sent it, within the request's deadline."""
        try:
            allowed = self.deadline.allowance()
        except TimedOut as err:
            raise ClusterError(f"{what} at {self.server}: not sent, {err}") from None
        seconds = allowed.seconds

        def fetch() -> bytes:
            response = method(
                **kwargs,
                _preload_content=False,
                _request_timeout=(min(CONNECT_TIMEOUT, seconds), seconds),
            )
            data: bytes = response.data
            return data

        try:
            return within(seconds + GRACE, fetch)
        except TimedOut:
            raise ClusterError(
                f"{what} at {self.server}: no complete answer within {allowed.limit} "
                "(the API server, or a proxy in front of it, is answering too slowly)"
            ) from None
        except ApiException as err:
            if err.status == 0:  # the websocket/transport layer wraps socket errors this way
                raise ClusterError(
                    f"cannot reach the API server at {self.server}: {err.reason}"
                ) from None
            raise ClusterError(causes.http_status(err, self.server, what), err.status) from None
        except urllib3.exceptions.HTTPError as err:
            raise ClusterError(causes.transport(err, self.server, seconds)) from None

    def _list(
        self,
        what: str,
        resource: str,
        method: Callable[..., Any],
        *,
        namespace: str | None = None,
        label_selector: str = "",
        field_selector: str = "",
    ) -> list[Obj]:
        """Every page of a list; an answer that is not one is recorded, and reads as empty."""
        scope: dict[str, Any] = {"namespace": namespace} if namespace is not None else {}
        if label_selector:
            scope["label_selector"] = label_selector
        if field_selector:
            scope["field_selector"] = field_selector
        items: list[Obj] = []
        seen: set[str] = set()
        token: str | None = None
        expected = f"a {LIST_KINDS[resource]}: a JSON object whose items are named objects"

        def bad(cause: str, partial: bool = False) -> None:
            self.bad_answers.append(
                BadAnswer(
                    what,
                    resource,
                    namespace,
                    label_selector,
                    expected,
                    cause,
                    partial,
                    field_selector=field_selector,
                )
            )

        try:
            while True:
                page_args: dict[str, Any] = {"limit": self.page_size, **scope}
                if token:
                    page_args["_continue"] = token
                page = self._call(what, method, **page_args)
                items.extend(list_items(page))
                token = continue_token(page, seen) if isinstance(page, dict) else None
                if token and len(items) >= self.max_items:
                    raise AnswerError(
                        f"more than {self.max_items:,} items in {len(seen)} pages and the "
                        "server sends more: paging stopped"
                    )
                if not token:
                    break
        except AnswerError as err:
            bad(str(err))
            return []
        if nameless := unnamed(items):
            shown = ", ".join(str(i) for i in nameless[:5]) + (", ..." if len(nameless) > 5 else "")
            which = f"item {shown} has" if len(nameless) == 1 else f"items {shown} have"
            bad(f"{which} no metadata.name: left out, the others checked", partial=True)
            left_out = set(nameless)
            return [item for i, item in enumerate(items) if i not in left_out]
        return items

    def nodes(self, label_selector: str) -> list[Obj]:
        return self._list(
            f"list nodes labelled {label_selector}" if label_selector else "list nodes",
            "nodes",
            self._endpoint("/api/v1/nodes"),
            label_selector=label_selector,
        )

    def daemonsets(self, namespace: str | None = None) -> list[Obj]:
        if namespace is None:
            return self._list(
                "list daemonsets in all namespaces",
                "daemonsets",
                self._endpoint("/apis/apps/v1/daemonsets"),
            )
        return self._list(
            f"list daemonsets in {namespace}",
            "daemonsets",
            self._endpoint("/apis/apps/v1/namespaces/{namespace}/daemonsets"),
            namespace=namespace,
        )

    def pods(self, namespace: str) -> list[Obj]:
        return self._list(
            f"list pods in {namespace}",
            "pods",
            self._endpoint("/api/v1/namespaces/{namespace}/pods"),
            namespace=namespace,
        )

    def network_policies(self, namespace: str) -> list[Obj]:
        return self._list(
            f"list networkpolicies in {namespace}",
            "networkpolicies",
            self._endpoint("/apis/networking.k8s.io/v1/namespaces/{namespace}/networkpolicies"),
            namespace=namespace,
        )

    def resource_quotas(self, namespace: str) -> list[Obj]:
        return self._list(
            f"list resourcequotas in {namespace}",
            "resourcequotas",
            self._endpoint("/api/v1/namespaces/{namespace}/resourcequotas"),
            namespace=namespace,
        )

    def limit_ranges(self, namespace: str) -> list[Obj]:
        return self._list(
            f"list limitranges in {namespace}",
            "limitranges",
            self._endpoint("/api/v1/namespaces/{namespace}/limitranges"),
            namespace=namespace,
        )

    def aliyun_log_configs(self, namespace: str) -> list[Obj]:
        """ACK's ``AliyunLogConfig`` objects (``log.alibabacloud.com/v1alpha1``)."""
        return self._list(
            f"list aliyunlogconfigs in {namespace}",
            "aliyunlogconfigs",
            self._endpoint(
                "/apis/log.alibabacloud.com/v1alpha1/namespaces/{namespace}/aliyunlogconfigs"
            ),
            namespace=namespace,
        )

    def deployments(self, namespace: str) -> list[Obj]:
        return self._list(
            f"list deployments in {namespace}",
            "deployments",
            self._endpoint("/apis/apps/v1/namespaces/{namespace}/deployments"),
            namespace=namespace,
        )

    def custom_objects(
        self, group: str, version: str, plural: str, namespace: str | None = None
    ) -> list[Obj]:
        """Objects of a custom resource (Kueue's queues), in one namespace or cluster-wide."""
        if namespace is None:
            return self._list(
                f"list {plural}.{group}",
                plural,
                self._endpoint(f"/apis/{group}/{version}/{plural}"),
            )
        return self._list(
            f"list {plural}.{group} in {namespace}",
            plural,
            self._endpoint(f"/apis/{group}/{version}/namespaces/{{namespace}}/{plural}"),
            namespace=namespace,
        )

    def admission_bindings(self) -> list[Obj]:
        return self._list(
            "list validatingadmissionpolicybindings",
            "validatingadmissionpolicybindings",
            self._endpoint(
                "/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicybindings"
            ),
        )

    def pod_proxy(self, namespace: str, pod: str, port: int, path: str) -> str:
        """GET ``path`` from a pod's ``port`` through the API server's pod proxy (RBAC: get on
        ``pods/proxy``); the answer as text."""
        what = f"get pods/proxy {namespace}/{pod}:{port}/{path}"
        try:
            body = self._get(
                what,
                self._endpoint("/api/v1/namespaces/{namespace}/pods/{name}/proxy/{path}", "*/*"),
                name=f"{pod}:{port}",
                namespace=namespace,
                path=path,
            )
        except AnswerError as err:  # one node's read: its row fails, as for any ClusterError
            raise ClusterError(f"{what} at {self.server}: {err}") from None
        return body.decode("utf-8", errors="replace")

    def namespace(self, name: str) -> Obj | None:
        """The namespace, or None when it does not exist (or its answer is no object: then
        recorded in ``bad_answers``)."""
        return self._found_or_none(
            f"get namespace {name}",
            "namespaces",
            self._endpoint("/api/v1/namespaces/{name}"),
            expected="a Namespace",
            name=name,
        )

    # --- reads of the seed checks (seed_checks.py) ---------------------------------------------

    def node_pods(self, node: str) -> list[Obj]:
        """Every pod on one node, in all namespaces (a ``spec.nodeName`` field selector)."""
        return self._list(
            f"list pods on node {node} in all namespaces",
            "pods",
            self._endpoint("/api/v1/pods"),
            field_selector=f"spec.nodeName={node}",
        )

    def _found_or_none(
        self,
        what: str,
        resource: str,
        method: Callable[..., Any],
        *,
        name: str,
        expected: str = "an object",
    ) -> Obj | None:
        """One cluster-scoped object, or None when it does not exist (or its answer is no
        object: then recorded in ``bad_answers``)."""
        try:
            found = self._call(what, method, name=name)
            if not isinstance(found, dict):
                raise AnswerError(f"the answer is {shape(found)}, not an object")
        except ClusterError as err:
            if err.status == 404:
                return None
            raise
        except AnswerError as err:
            self.bad_answers.append(
                BadAnswer(
                    what, resource, None, "", f"{expected}: a JSON object", str(err), name=name
                )
            )
            return None
        return found

    def storage_class(self, name: str) -> Obj | None:
        """The StorageClass, or None when it does not exist."""
        return self._found_or_none(
            f"get storageclass {name}",
            "storageclasses",
            self._endpoint("/apis/storage.k8s.io/v1/storageclasses/{name}"),
            name=name,
        )

    def csi_driver(self, name: str) -> Obj | None:
        """The CSIDriver object of a CSI driver, or None when it is not registered."""
        return self._found_or_none(
            f"get csidriver {name}",
            "csidrivers",
            self._endpoint("/apis/storage.k8s.io/v1/csidrivers/{name}"),
            name=name,
        )

    def storage_capacities(self, namespace: str) -> list[Obj]:
        """The CSIStorageCapacity objects CSI drivers publish in a namespace."""
        return self._list(
            f"list csistoragecapacities in {namespace}",
            "csistoragecapacities",
            self._endpoint("/apis/storage.k8s.io/v1/namespaces/{namespace}/csistoragecapacities"),
            namespace=namespace,
        )

    # --- reads of the DRA checks (dra_verify.py) -----------------------------------------------

    def resource_slices(self, driver: str) -> list[Obj]:
        """Every ResourceSlice of one DRA driver (``resource.k8s.io/v1``, a ``spec.driver``
        field selector)."""
        return self._list(
            f"list resourceslices of driver {driver}",
            "resourceslices",
            client.ResourceV1Api(self.api).list_resource_slice,
            field_selector=f"spec.driver={driver}",
        )

    def device_classes(self) -> list[Obj]:
        """Every DeviceClass (``resource.k8s.io/v1``)."""
        return self._list(
            "list deviceclasses", "deviceclasses", client.ResourceV1Api(self.api).list_device_class
        )
