"""Read-only access to the live cluster through the official Kubernetes client.

Only ``list``/``get`` calls are made (``get`` through the pod proxy for the GPU metrics exporter's
``/metrics``; plus ``exec`` in ``driver.py``). Objects come back as
the JSON the API server sent (camelCase keys), so the checks read exactly what
``kubectl get -o json`` shows. Transport and auth failures become one ``ClusterError`` line.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import urllib3
import yaml
from kubernetes import client, config
from kubernetes.client.exceptions import ApiException
from kubernetes.config.config_exception import ConfigException

Obj = dict[str, Any]
"""A Kubernetes object as JSON."""

PAGE_SIZE = 500
"""Items per list request: large clusters are read in pages (``limit``/``continue``)."""
REQUEST_TIMEOUT = (5.0, 30.0)
"""(connect, read) seconds: an unreachable API server fails fast instead of hanging."""


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


def connect(kubeconfig: Path | None, context: str | None) -> client.ApiClient:
    """An API client for a kubeconfig file (default: $KUBECONFIG or ~/.kube/config)."""
    paths = _kubeconfig_paths(kubeconfig)
    if not any(p.is_file() for p in paths):
        shown = os.pathsep.join(str(p) for p in paths)
        raise ClusterError(f"kubeconfig: no file at {shown} (give --kubeconfig or set KUBECONFIG)")
    try:
        api = config.new_client_from_config(
            # Several files (a $KUBECONFIG list) are merged by the client, as kubectl does.
            config_file=os.pathsep.join(str(p) for p in paths),
            context=context,
            persist_config=False,
        )
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
    # One attempt per request: retrying a refused connection only delays the error line.
    api.rest_client.pool_manager.connection_pool_kw["retries"] = urllib3.Retry(
        total=0, connect=0, read=0, redirect=0, status=0, raise_on_status=False
    )
    return api


def _describe(err: ApiException, server: str, what: str) -> str:
    reason = ""
    try:
        reason = json.loads(err.body or "{}").get("message", "")
    except (TypeError, ValueError):
        reason = ""
    if err.status == 401:
        return (
            f"the API server at {server} rejected the credentials (401 Unauthorized): "
            "they are expired or invalid; refresh the kubeconfig and retry"
        )
    if err.status == 403:
        return f"not allowed to {what} at {server} (403 Forbidden): {reason or err.reason}"
    return f"{what} at {server} failed: HTTP {err.status} {reason or err.reason}"


class ClusterReader:
    """List and get calls against one cluster, errors mapped to ``ClusterError``."""

    def __init__(self, api: client.ApiClient, page_size: int = PAGE_SIZE) -> None:
        self.api = api
        self.server = str(api.configuration.host)
        self.page_size = page_size
        self.core = client.CoreV1Api(api)
        self.apps = client.AppsV1Api(api)
        self.networking = client.NetworkingV1Api(api)
        self.admission = client.AdmissionregistrationV1Api(api)

    def _call(self, what: str, method: Callable[..., Any], **kwargs: Any) -> Obj:
        body = self._get(what, method, **kwargs)
        try:
            data: Obj = json.loads(body)
        except ValueError as err:
            raise ClusterError(f"{what} at {self.server}: the answer is not JSON ({err})") from None
        return data

    def _get(self, what: str, method: Callable[..., Any], **kwargs: Any) -> bytes:
        """The body of one GET, as the API server sent it."""
        try:
            response = method(**kwargs, _preload_content=False, _request_timeout=REQUEST_TIMEOUT)
            data: bytes = response.data
            return data
        except ApiException as err:
            if err.status == 0:  # the websocket/transport layer wraps socket errors this way
                raise ClusterError(
                    f"cannot reach the API server at {self.server}: {err.reason}"
                ) from None
            raise ClusterError(_describe(err, self.server, what), err.status) from None
        except urllib3.exceptions.HTTPError as err:
            cause = getattr(err, "reason", None) or err
            raise ClusterError(
                f"cannot reach the API server at {self.server}: {_short(cause)}"
            ) from None

    def _list(self, what: str, method: Callable[..., Any], **kwargs: Any) -> list[Obj]:
        items: list[Obj] = []
        token: str | None = None
        while True:
            page_args = {"limit": self.page_size, **kwargs}
            if token:
                page_args["_continue"] = token
            page = self._call(what, method, **page_args)
            items.extend(page.get("items") or [])
            token = (page.get("metadata") or {}).get("continue")
            if not token:
                return items

    def nodes(self, label_selector: str) -> list[Obj]:
        return self._list("list nodes", self.core.list_node, label_selector=label_selector)

    def daemonsets(self, namespace: str | None = None) -> list[Obj]:
        if namespace is None:
            return self._list("list daemonsets", self.apps.list_daemon_set_for_all_namespaces)
        return self._list(
            f"list daemonsets in {namespace}",
            self.apps.list_namespaced_daemon_set,
            namespace=namespace,
        )

    def pods(self, namespace: str) -> list[Obj]:
        return self._list(
            f"list pods in {namespace}", self.core.list_namespaced_pod, namespace=namespace
        )

    def network_policies(self, namespace: str) -> list[Obj]:
        return self._list(
            f"list networkpolicies in {namespace}",
            self.networking.list_namespaced_network_policy,
            namespace=namespace,
        )

    def resource_quotas(self, namespace: str) -> list[Obj]:
        return self._list(
            f"list resourcequotas in {namespace}",
            self.core.list_namespaced_resource_quota,
            namespace=namespace,
        )

    def admission_bindings(self) -> list[Obj]:
        return self._list(
            "list validatingadmissionpolicybindings",
            self.admission.list_validating_admission_policy_binding,
        )

    def pod_proxy(self, namespace: str, pod: str, port: int, path: str) -> str:
        """GET ``path`` from a pod's ``port`` through the API server's pod proxy (RBAC: get on
        ``pods/proxy``); the answer as text."""
        body = self._get(
            f"get pods/proxy {namespace}/{pod}:{port}/{path}",
            self.core.connect_get_namespaced_pod_proxy_with_path,
            name=f"{pod}:{port}",
            namespace=namespace,
            path=path,
        )
        return body.decode("utf-8", errors="replace")

    def namespace(self, name: str) -> Obj | None:
        """The namespace, or None when it does not exist."""
        try:
            return self._call(f"get namespace {name}", self.core.read_namespace, name=name)
        except ClusterError as err:
            if err.status == 404:
                return None
            raise


def _short(err: object) -> str:
    """The last, most specific part of a urllib3 error chain (``Connection refused``...)."""
    text = str(err)
    return text.rsplit(": ", 1)[-1].strip(" ')\"") or text
