"""``make verify`` end to end: the real Kubernetes client over real HTTP (and the exec
websocket) against a fake API server on 127.0.0.1 that answers from recorded list responses.

Scenarios are the healthy recording with one thing broken; nothing of ours is patched.
"""

from __future__ import annotations

import base64
import contextlib
import copy
import hashlib
import io
import json
import os
import re
import socket
import struct
import subprocess
import sys
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, unquote, urlparse

import pytest
from kubernetes.client import ApiClient

from gpu_facts.nvidia.device_plugin_chart import CHART_NAME, GFD_CHART_NAME, NFD_NAME
from gpu_platform.verify.cli import main
from gpu_platform.verify.cluster import MAX_LIST_ITEMS, ClusterReader, connect
from gpu_platform.verify.driver import ExecTarget, StreamExecReader
from gpu_platform.verify.pod_commands import MARK, commands_in

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data" / "verify"
SMI = ROOT / "tests" / "data" / "nvidia_smi"
STACK = DATA / "Pulumi.verify.yaml"
KINDS = (
    "nodes",
    "namespaces",
    "daemonsets",
    "pods",
    "networkpolicies",
    "resourcequotas",
    "limitranges",
    "validatingadmissionpolicybindings",
    "aliyunlogconfigs",
)
STORAGE_KINDS = ("storageclasses", "csidrivers", "csistoragecapacities")
"""storage.k8s.io objects the seed checks read; the recording has none (scenarios add them)."""
QUEUE_KINDS = ("deployments", "resourceflavors", "clusterqueues", "localqueues")
"""Kueue's controller Deployment and queue objects the queue checks read; the recording has none
(``test_verify_queues`` adds them)."""
DRA_KINDS = ("resourceslices", "deviceclasses")
"""resource.k8s.io objects the DRA checks read; the recording has none (test_verify_dra adds
them)."""
LIST_GPUS = "nvidia-smi -L"
"""The command ``mig-devices`` runs; exec answers for it are keyed ``(pod, LIST_GPUS)``."""
TOKEN = "recorded-cluster-token"
NO_RBAC_TOKEN = "token-of-a-user-without-rbac"
SERVER_LIFETIME = 300.0
"""Seconds after which the fake server stops on its own, whatever the test does: a backstop
for a hung test, far above any test's run time on a loaded machine."""
WS_GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"  # RFC 6455 handshake constant

A100_0, A100_1 = "aks-a100-31415926-vmss000000", "aks-a100-31415926-vmss000001"
T4_0 = "aks-t4-27182818-vmss000000"
NFD_WORKER = f"{CHART_NAME}-{NFD_NAME}-worker"
"""The chart's NFD subchart worker: a DaemonSet next to the plugin, with a pod on every node."""
EXPORTER = "dcgm-exporter"
"""Our GPU metrics exporter's DaemonSet, in ``gpu-metrics``, with a pod on every GPU node."""
TRAINER, SERVER = "trainer-0", "server-6f9c8d7b5-x2k4p"
"""The running GPU pods: a MIG 1g.5gb trainer on A100_0, a time-sliced T4 server on T4_0."""


@dataclass
class ExecAnswer:
    stdout: str
    exit_code: int = 0
    hang_up: bool = False
    """Drop the connection after the handshake, as a dying API server or proxy does."""
    failure: str = ""
    """The runtime's failure instead (no output): a program the image does not have."""


@dataclass
class RawAnswer:
    """What the server sends instead of the recorded answer, for requests whose path (with its
    query, unquoted) ``match`` (a regular expression) is found in."""

    match: str
    body: Any
    """JSON-able, or ``bytes`` sent as they are."""
    drip: float = 0.0
    """Seconds between bytes: the whole response, status line and headers included, one byte
    at a time (a server or proxy that never quite stops answering)."""

    def data(self) -> bytes:
        return self.body if isinstance(self.body, bytes) else json.dumps(self.body).encode()


@dataclass
class FakeCluster:
    """The recorded objects (``kind -> List``) and what ``exec`` prints in each pod: keyed by
    the pod for ``nvidia-smi``, by ``(pod, command)`` for any other command."""

    lists: dict[str, dict[str, Any]]
    exec_answers: dict[str | tuple[str, str], ExecAnswer]
    requests: list[tuple[str, str]] = field(default_factory=list)
    metrics: dict[str, str] = field(default_factory=dict)
    """Exporter pod -> its ``/metrics`` page, served through the pod proxy."""
    metrics_ports: dict[str, str] = field(default_factory=dict)
    """Exporter pod -> the port its page is on, where not dcgm-exporter's 9400."""
    proxy_errors: dict[str, tuple[int, str, str]] = field(default_factory=dict)
    """Exporter pod -> (code, reason, message) the pod proxy answers instead."""
    refusals: dict[str, str] = field(default_factory=dict)
    """Path regex -> the message of a 403 the server answers there (RBAC the user lacks)."""
    raw: list[RawAnswer] = field(default_factory=list)
    """Answers that replace the recorded ones (the first that matches)."""
    absent: list[str] = field(default_factory=list)
    """Path regexes the server answers 404 (an API it does not serve: CRDs not installed)."""
    stopped: threading.Event = field(default_factory=threading.Event, compare=False)
    """Set when the test ends: a dripping answer stops."""

    def __deepcopy__(self, memo: dict[int, Any]) -> FakeCluster:
        """A copy of the recording with an event of its own (an event cannot be copied)."""
        fields = {
            name: copy.deepcopy(value, memo)
            for name, value in vars(self).items()
            if name != "stopped"
        }
        return FakeCluster(**fields)

    def items(self, kind: str) -> list[dict[str, Any]]:
        items: list[dict[str, Any]] = self.lists[kind]["items"]
        return items

    def find(self, kind: str, name: str) -> dict[str, Any]:
        return next(o for o in self.items(kind) if o["metadata"]["name"] == name)

    def pod_on(self, node: str, daemonset: str = "nvidia-device-plugin") -> dict[str, Any]:
        return next(
            p
            for p in self.items("pods")
            if p["spec"]["nodeName"] == node
            and p["metadata"]["ownerReferences"][0]["name"] == daemonset
        )


def _selected(obj: dict[str, Any], selector: str, fields: str = "") -> bool:
    labels = obj["metadata"].get("labels") or {}
    for term in filter(None, selector.split(",")):
        key, _, value = term.partition("=")
        if labels.get(key) != value:
            return False
    for term in filter(None, fields.split(",")):
        key, _, value = term.partition("=")
        field_name = key.removeprefix("spec.")
        if key == field_name or (obj.get("spec") or {}).get(field_name) != value:
            return False
    return True


def _ws_frame(payload: bytes, opcode: int = 0x2) -> bytes:
    """One unmasked server frame (RFC 6455 section 5.2)."""
    head = bytes([0x80 | opcode])
    n = len(payload)
    if n < 126:
        head += bytes([n])
    elif n < 1 << 16:
        head += bytes([126]) + struct.pack("!H", n)
    else:
        head += bytes([127]) + struct.pack("!Q", n)
    return head + payload


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True
    server: _FakeServer

    def log_message(self, format: str, *args: Any) -> None:  # keep pytest output clean
        return

    def _send_json(self, code: int, body: dict[str, Any]) -> None:
        data = json.dumps(body).encode()
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _status(self, code: int, reason: str, message: str) -> None:
        self._send_json(
            code,
            {
                "kind": "Status",
                "apiVersion": "v1",
                "metadata": {},
                "status": "Failure",
                "message": message,
                "reason": reason,
                "code": code,
            },
        )

    def _refuse_writes(self) -> None:
        self.server.cluster.requests.append((self.command, self.path))
        self._status(405, "MethodNotAllowed", "the recorded cluster is read-only")

    def do_POST(self) -> None:
        self._refuse_writes()

    def do_PUT(self) -> None:
        self._refuse_writes()

    def do_PATCH(self) -> None:
        self._refuse_writes()

    def do_DELETE(self) -> None:
        self._refuse_writes()

    def do_GET(self) -> None:
        cluster = self.server.cluster
        cluster.requests.append(("GET", self.path))
        auth = self.headers.get("Authorization")
        if auth == f"Bearer {NO_RBAC_TOKEN}":
            message = 'nodes is forbidden: User "dev" cannot list resource "nodes" in API group ""'
            self._status(403, "Forbidden", message + " at the cluster scope")
            return
        if auth != f"Bearer {TOKEN}":
            self._status(401, "Unauthorized", "Unauthorized")
            return
        url = urlparse(self.path)
        query = {k: v[0] for k, v in parse_qs(url.query).items()}
        path = url.path
        for pattern, message in cluster.refusals.items():
            if re.fullmatch(pattern, path):
                self._status(403, "Forbidden", message)
                return
        if any(re.search(pattern, path) for pattern in cluster.absent):
            self._status(404, "NotFound", "the server could not find the requested resource")
            return
        raw = next((r for r in cluster.raw if re.search(r.match, unquote(self.path))), None)
        if raw is not None:
            self._raw(raw)
            return
        if m := re.fullmatch(r"/api/v1/namespaces/([^/]+)/pods/([^/]+)/exec", path):
            self._exec(m.group(2), " ".join(parse_qs(url.query).get("command", [])))
            return
        if m := re.fullmatch(r"/apis/storage.k8s.io/v1/(storageclasses|csidrivers)/([^/]+)", path):
            try:
                self._send_json(200, cluster.find(m.group(1), m.group(2)))
            except StopIteration:
                self._status(404, "NotFound", f'{m.group(1)} "{m.group(2)}" not found')
            return
        if m := re.fullmatch(r"/api/v1/namespaces/([^/]+)/pods/([^/]+)/proxy/metrics", path):
            self._proxy(unquote(m.group(2)))
            return
        if m := re.fullmatch(r"/api/v1/namespaces/([^/]+)", path):
            try:
                self._send_json(200, cluster.find("namespaces", m.group(1)))
            except StopIteration:
                self._status(404, "NotFound", f'namespaces "{m.group(1)}" not found')
            return
        routes = {
            r"/api/v1/nodes": "nodes",
            r"/api/v1/pods": "pods",
            r"/api/v1/namespaces/(?P<ns>[^/]+)/pods": "pods",
            r"/apis/storage.k8s.io/v1/namespaces/(?P<ns>[^/]+)/csistoragecapacities": (
                "csistoragecapacities"
            ),
            r"/api/v1/namespaces/(?P<ns>[^/]+)/resourcequotas": "resourcequotas",
            r"/api/v1/namespaces/(?P<ns>[^/]+)/limitranges": "limitranges",
            r"/apis/log.alibabacloud.com/v1alpha1/namespaces/(?P<ns>[^/]+)/aliyunlogconfigs": (
                "aliyunlogconfigs"
            ),
            r"/apis/apps/v1/daemonsets": "daemonsets",
            r"/apis/apps/v1/namespaces/(?P<ns>[^/]+)/daemonsets": "daemonsets",
            r"/apis/networking.k8s.io/v1/namespaces/(?P<ns>[^/]+)/networkpolicies": (
                "networkpolicies"
            ),
            r"/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicybindings": (
                "validatingadmissionpolicybindings"
            ),
            r"/apis/apps/v1/namespaces/(?P<ns>[^/]+)/deployments": "deployments",
            r"/apis/kueue.x-k8s.io/v1beta2/resourceflavors": "resourceflavors",
            r"/apis/kueue.x-k8s.io/v1beta2/clusterqueues": "clusterqueues",
            r"/apis/kueue.x-k8s.io/v1beta2/namespaces/(?P<ns>[^/]+)/localqueues": "localqueues",
            r"/apis/resource.k8s.io/v1/resourceslices": "resourceslices",
            r"/apis/resource.k8s.io/v1/deviceclasses": "deviceclasses",
        }
        for pattern, kind in routes.items():
            if m := re.fullmatch(pattern, path):
                self._list(kind, m.groupdict().get("ns"), query)
                return
        self._status(404, "NotFound", f"the recorded cluster has no {path}")

    def _list(self, kind: str, namespace: str | None, query: dict[str, str]) -> None:
        recorded = self.server.cluster.lists[kind]
        items = [
            o
            for o in recorded["items"]
            if (namespace is None or o["metadata"].get("namespace") == namespace)
            and _selected(o, query.get("labelSelector", ""), query.get("fieldSelector", ""))
        ]
        start = int(query.get("continue", "0"))
        limit = int(query.get("limit", "0")) or len(items)
        page = items[start : start + limit]
        meta: dict[str, str] = {"resourceVersion": recorded["metadata"]["resourceVersion"]}
        if start + limit < len(items):
            meta["continue"] = str(start + limit)
        body = {k: v for k, v in recorded.items() if k != "items"}
        self._send_json(200, {**body, "metadata": meta, "items": page})

    def _raw(self, raw: RawAnswer) -> None:
        data = raw.data()
        head = (
            "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(data)}\r\n\r\n"
        ).encode()
        if not raw.drip:
            self.wfile.write(head + data)
            return
        for byte in head + data:
            if self.server.cluster.stopped.wait(raw.drip):
                break
            try:
                self.wfile.write(bytes([byte]))
                self.wfile.flush()
            except OSError:  # the client gave up
                break
        self.close_connection = True

    def _proxy(self, target: str) -> None:
        """The pod proxy: ``<pod>:<port>`` must name the exporter's port, as the API server
        forwards to exactly that port of the pod."""
        cluster = self.server.cluster
        pod, _, port = target.partition(":")
        if pod in cluster.proxy_errors:
            self._status(*cluster.proxy_errors[pod])
            return
        if pod not in cluster.metrics or port != cluster.metrics_ports.get(pod, "9400"):
            message = f"error trying to reach service: dial tcp {pod}:{port}: connection refused"
            self._status(503, "ServiceUnavailable", message)
            return
        data = cluster.metrics[pod].encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _exec(self, pod: str, command: str) -> None:
        """The exec subresource as a websocket speaking v4.channel.k8s.io."""
        key = self.headers.get("Sec-WebSocket-Key", "")
        offered = self.headers.get("Sec-WebSocket-Protocol", "")
        if (
            self.headers.get("Upgrade", "").lower() != "websocket"
            or "v4.channel.k8s.io" not in offered
        ):
            self._status(400, "BadRequest", "exec needs a v4.channel.k8s.io websocket")
            return
        accept = base64.b64encode(hashlib.sha1((key + WS_GUID).encode()).digest()).decode()
        self.send_response(101, "Switching Protocols")
        self.send_header("Upgrade", "websocket")
        self.send_header("Connection", "Upgrade")
        self.send_header("Sec-WebSocket-Accept", accept)
        self.send_header("Sec-WebSocket-Protocol", "v4.channel.k8s.io")
        self.end_headers()
        answers = self.server.cluster.exec_answers
        answer = answers.get(pod if command == "nvidia-smi" else (pod, command))
        if command.startswith("sh -c "):  # several commands in one exec (verify.pod_commands)
            answer = _script_answer(pod, command.removeprefix("sh -c "), answers)
        if answer is not None and answer.hang_up:
            self.wfile.flush()
            self.connection.shutdown(socket.SHUT_RDWR)
            self.close_connection = True
            return
        if answer is None:
            status: dict[str, Any] = {
                "metadata": {},
                "status": "Failure",
                "message": f'container not found in pod "{pod}"',
                "reason": "InternalError",
            }
            stdout = ""
        else:
            stdout = answer.stdout
            status = {"metadata": {}, "status": "Success"}
            if answer.exit_code:
                status = {
                    "metadata": {},
                    "status": "Failure",
                    "message": f"command terminated with non-zero exit code: {answer.exit_code}",
                    "reason": "NonZeroExitCode",
                    "details": {
                        "causes": [{"reason": "ExitCode", "message": str(answer.exit_code)}]
                    },
                }
            if answer.failure:
                status = {"metadata": {}, "status": "Failure", "message": answer.failure}
        if stdout:
            self.wfile.write(_ws_frame(b"\x01" + stdout.encode()))
        self.wfile.write(_ws_frame(b"\x03" + json.dumps(status).encode()))
        self.wfile.write(_ws_frame(struct.pack("!H", 1000), opcode=0x8))
        self.wfile.flush()
        self.close_connection = True


def _script_answer(
    pod: str, body: str, answers: dict[str | tuple[str, str], ExecAnswer]
) -> ExecAnswer | None:
    """What the shell prints for verify's script: each command's answer and its exit status
    mark; None (the exec fails) when a command has no answer in the pod."""
    commands = commands_in(body)
    parts = [
        answers.get(pod if c == ("nvidia-smi",) else (pod, " ".join(c))) for c in commands or ()
    ]
    if not commands or None in parts:
        return None
    if any(p.hang_up for p in parts if p is not None):
        return ExecAnswer("", hang_up=True)
    printed = "".join(f"{p.stdout}{MARK}{p.exit_code}\n" for p in parts if p is not None)
    return ExecAnswer(printed)


class _FakeServer(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 64  # concurrent execs connect at once

    def __init__(self, cluster: FakeCluster, handler: type[_Handler] = _Handler) -> None:
        super().__init__(("127.0.0.1", 0), handler)
        self.cluster = cluster


def _recorded() -> FakeCluster:
    lists = {kind: json.loads((DATA / f"{kind}.json").read_text()) for kind in KINDS}
    for kind in (*STORAGE_KINDS, *QUEUE_KINDS, *DRA_KINDS):
        lists[kind] = {"kind": "List", "metadata": {"resourceVersion": "1"}, "items": []}
    a100 = (DATA / "exec" / "a100_mig_table.txt").read_text()
    t4 = (DATA / "exec" / "t4_table.txt").read_text()
    mig_list = (DATA / "exec" / "a100_mig_list.txt").read_text()
    cluster = FakeCluster(lists, {})
    for node, text in ((A100_0, a100), (A100_1, a100), (T4_0, t4)):
        plugin = cluster.pod_on(node)["metadata"]["name"]
        cluster.exec_answers[plugin] = ExecAnswer(text)
        if node != T4_0:
            cluster.exec_answers[(plugin, LIST_GPUS)] = ExecAnswer(mig_list)
        exporter = cluster.pod_on(node, EXPORTER)["metadata"]["name"]
        cluster.metrics[exporter] = (DATA / "metrics" / f"{node}.txt").read_text()
    return cluster


@pytest.fixture
def cluster() -> FakeCluster:
    """A fresh copy of the healthy recording; tests break one thing in it."""
    return copy.deepcopy(_recorded())


@pytest.fixture(autouse=True)
def _loopback_without_proxy(monkeypatch: pytest.MonkeyPatch) -> None:
    """The kubernetes and websocket clients honour HTTP(S)_PROXY: on a runner behind a proxy,
    loopback must still be reached directly (subprocesses inherit this too)."""
    for var in ("NO_PROXY", "no_proxy"):
        monkeypatch.setenv(var, "127.0.0.1,localhost")


@pytest.fixture
def api_server(cluster: FakeCluster) -> Iterator[str]:
    """The fake API server's URL; stopped after the test, or after SERVER_LIFETIME at most."""
    with serving(cluster) as url:
        yield url


@contextlib.contextmanager
def serving(cluster: FakeCluster, handler: type[_Handler] = _Handler) -> Iterator[str]:
    """``cluster`` served over HTTP for the block (SERVER_LIFETIME at most): its URL."""
    server = _FakeServer(cluster, handler)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05})
    thread.daemon = True
    thread.start()
    deadline = threading.Timer(SERVER_LIFETIME, server.shutdown)
    deadline.daemon = True
    deadline.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        cluster.stopped.set()
        deadline.cancel()
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


def write_kubeconfig(path: Path, server: str) -> Path:
    users = [
        ("recorded", TOKEN),
        ("expired", "token-that-expired-yesterday"),
        ("no-rbac", NO_RBAC_TOKEN),
    ]
    doc = {
        "apiVersion": "v1",
        "kind": "Config",
        "clusters": [{"name": "lab", "cluster": {"server": server}}],
        "users": [{"name": name, "user": {"token": token}} for name, token in users],
        "contexts": [
            {"name": "lab", "context": {"cluster": "lab", "user": "recorded"}},
            {"name": "lab-expired", "context": {"cluster": "lab", "user": "expired"}},
            {"name": "lab-no-rbac", "context": {"cluster": "lab", "user": "no-rbac"}},
        ],
        "current-context": "lab",
    }
    path.write_text(json.dumps(doc))
    return path


@pytest.fixture
def kubeconfig(tmp_path: Path, api_server: str) -> Path:
    return write_kubeconfig(tmp_path / "kubeconfig", api_server)


@dataclass
class Run:
    code: int
    out: str
    err: str

    def rows(self) -> list[dict[str, str]]:
        results: list[dict[str, str]] = json.loads(self.out)["results"]
        return results

    def row(self, check: str, subject: str) -> dict[str, str]:
        matching = [r for r in self.rows() if r["check"] == check and r["subject"] == subject]
        assert len(matching) == 1, f"{check} {subject}: {matching}"
        return matching[0]

    def failures(self) -> list[tuple[str, str]]:
        return [(r["check"], r["subject"]) for r in self.rows() if r["status"] == "fail"]


def rows_changed(healthy: Run, broken: Run, added: int = 1) -> dict[tuple[str, str], list[str]]:
    """(check, subject) -> [found, status] of every row ``broken`` gives otherwise than
    ``healthy``; its last ``added`` rows (its ``api-answer`` rows) are new, every other row is in
    the same place."""
    before, after = healthy.rows(), broken.rows()
    kept = after[: len(after) - added]
    assert [(r["check"], r["subject"]) for r in kept] == [
        (r["check"], r["subject"]) for r in before
    ]
    return {
        (row["check"], row["subject"]): [row["found"], row["status"]]
        for old, row in zip(before, kept, strict=True)
        if row != old
    }


def verify(
    kubeconfig: Path, *extra: str, fmt: str = "json", context: str = "lab", config: Path = STACK
) -> Run:
    out, err = io.StringIO(), io.StringIO()
    argv = ["--config", str(config), "--kubeconfig", str(kubeconfig), "--context", context]
    code = main([*argv, "--format", fmt, *extra], stdout=out, stderr=err)
    return Run(code, out.getvalue(), err.getvalue())


# --- a healthy cluster ---------------------------------------------------------------------


def test_healthy_cluster_passes_every_check(kubeconfig: Path, cluster: FakeCluster) -> None:
    run = verify(kubeconfig)
    assert run.code == 0, run.out
    assert run.failures() == []
    doc = json.loads(run.out)
    assert doc["ok"] is True
    # The seed checks that do not apply to this stack (no ACK sharing, no MPS, not AKS) say so.
    skipped = [(r["check"], r["found"]) for r in run.rows() if r["status"] == "skip"]
    assert skipped == [
        ("gpu-memory", "no ACK GPU-sharing pool (aliyun.com/gpu-mem) in the stack"),
        ("mps-server", "no MPS pool in the stack"),
        ("nvme-cache", "not an AKS stack (cloud: existing): no NVMe cache"),
        ("node-image", "not an AKS stack (cloud: existing): node images are AKS's"),
    ]
    assert doc["summary"] == {"pass": len(run.rows()) - 4, "fail": 0, "skip": 4, "warn": 0}
    nodes = {A100_0, A100_1, T4_0}
    for check in (
        "node-ready",
        "labels",
        "taint",
        "gfd-labels",
        "allocatable",
        "gpu-daemon",
        "driver",
        "exporter",
        "gpu-series",
    ):
        assert {r["subject"] for r in run.rows() if r["check"] == check} == {
            f"node/{n}" for n in nodes
        }
    assert run.row("allocatable", f"node/{A100_0}")["found"] == "nvidia.com/mig-1g.5gb: 56"
    # nvidia-smi -L in the plugin pod: the MIG layout of every GPU (seed 001).
    assert run.row("mig-devices", f"node/{A100_1}") == {
        "check": "mig-devices",
        "subject": f"node/{A100_1}",
        "expected": "8 GPUs × 7 MIG 1g.5gb on each",
        "found": "8 GPUs, 56 MIG 1g.5gb devices",
        "status": "pass",
    }
    assert run.row("allocatable", f"node/{T4_0}")["found"] == "nvidia.com/gpu.shared: 4"
    assert run.row("driver", f"node/{T4_0}")["found"].startswith("550.127.08")
    assert run.row("node-count", "pool/t4") == {
        "check": "node-count",
        "subject": "pool/t4",
        "expected": "1–3 nodes",
        "found": "1 node",
        "status": "pass",
    }
    assert run.row("network-policy", "namespace/gpu-training")["found"] == "default-deny-all"
    assert (
        run.row("gpu-quota", "namespace/gpu-inference")["found"]
        == "requests.nvidia.com/gpu.shared: 8"
    )
    assert (
        run.row("admission-binding", "namespace/gpu-training")["found"]
        == "gpu-workload-rules-binding"
    )
    assert (
        run.row("daemonset", "daemonset/nvidia-device-plugin/nvidia-device-plugin")["found"]
        == "3/3 ready"
    )
    # The chart's other DaemonSets (GFD, MPS daemon, NFD worker) are not taken for the plugin.
    assert [r["subject"] for r in run.rows() if r["check"] == "daemonset"] == [
        "daemonset/nvidia-device-plugin/nvidia-device-plugin",
        "daemonset/gpu-metrics/dcgm-exporter",
    ]
    # The GPU metrics exporter: Ready on every GPU node, one series per GPU or MIG instance
    # the capacity model promises, and each running GPU pod on a series of its own.
    assert run.row("exporter", f"node/{A100_0}")["found"] == "dcgm-exporter-h7x2q Ready"
    assert run.row("gpu-series", f"node/{A100_0}") == {
        "check": "gpu-series",
        "subject": f"node/{A100_0}",
        "expected": "56 MIG 1g.5gb instances in DCGM_FI_PROF_GR_ENGINE_ACTIVE",
        "found": "56 MIG 1g.5gb instances",
        "status": "pass",
    }
    # Time-slicing: 4 replicas of the one T4, which the exporter shows once.
    t4 = run.row("gpu-series", f"node/{T4_0}")
    assert (t4["expected"], t4["found"]) == (
        "1 GPU in DCGM_FI_DEV_GPU_UTIL and DCGM_FI_DEV_FB_USED",
        "1 GPU",
    )
    assert run.row("gpu-attribution", "namespace/gpu-training")["found"] == (
        f"1 attributed: {TRAINER}"  # the finished prep-data Job pod is not asked for
    )
    assert run.row("gpu-attribution", "namespace/gpu-inference")["found"] == (
        f"1 attributed: {SERVER}"
    )
    assert (
        run.row("daemonset", "daemonset/gpu-metrics/dcgm-exporter")["expected"]
        == "dcgm-exporter ready on every node"
    )


def test_verify_only_reads(kubeconfig: Path, cluster: FakeCluster) -> None:
    assert verify(kubeconfig).code == 0
    assert {method for method, _ in cluster.requests} == {"GET"}
    execs = [unquote(path) for _, path in cluster.requests if "/exec?" in path]
    # One exec per GPU node: nvidia-smi (the driver), and on the two MIG nodes nvidia-smi -L
    # in the same exec (verify.pod_commands).
    assert len(execs) == 3
    assert len([p for p in execs if "command=sh&command=-c&command=nvidia-smi 2>&1" in p]) == 2
    assert len([p for p in execs if "nvidia-smi -L 2>&1" in p]) == 2
    # nvidia-smi runs in the plugin container, not the config-manager sidecar.
    assert all("nvidia-smi" in p and "container=nvidia-device-plugin-ctr" in p for p in execs)
    # /metrics of each exporter pod, through the API server's pod proxy, on the chart's port.
    proxied = sorted(unquote(p) for _, p in cluster.requests if "/proxy/" in p)
    assert proxied == [
        f"/api/v1/namespaces/gpu-metrics/pods/{cluster.pod_on(node, EXPORTER)['metadata']['name']}"
        ":9400/proxy/metrics"
        for node in sorted(
            (A100_0, A100_1, T4_0), key=lambda n: cluster.pod_on(n, EXPORTER)["metadata"]["name"]
        )
    ]


def test_table_has_one_row_per_check_and_node(kubeconfig: Path) -> None:
    run = verify(kubeconfig, fmt="table")
    assert run.code == 0
    lines = run.out.splitlines()
    assert lines[0].startswith(f"verify {STACK} on http://127.0.0.1:")
    assert lines[0].endswith(" (lab)")
    assert lines[2].split() == ["CHECK", "SUBJECT", "EXPECTED", "FOUND", "STATUS"]
    taint_rows = [line for line in lines if line.startswith("taint ")]
    assert len(taint_rows) == 3
    assert all(
        "nvidia.com/gpu=present:NoSchedule" in line and line.endswith("ok") for line in taint_rows
    )
    assert lines[-1].startswith("READY: ")
    assert run.err == ""  # no progress without a terminal or --progress


# --- one thing broken at a time --------------------------------------------------------------


def test_node_short_of_mig_devices_fails(kubeconfig: Path, cluster: FakeCluster) -> None:
    node = cluster.find("nodes", A100_1)
    node["status"]["allocatable"]["nvidia.com/mig-1g.5gb"] = "49"
    run = verify(kubeconfig)
    assert run.code == 1
    assert run.failures() == [("allocatable", f"node/{A100_1}")]
    row = run.row("allocatable", f"node/{A100_1}")
    assert row["expected"] == "nvidia.com/mig-1g.5gb: 56"
    assert row["found"] == "nvidia.com/mig-1g.5gb: 49 (nvidia.com/mig-1g.5gb 49 of 56)"


def test_mig_strategy_mismatch_shows_unexpected_resource(
    kubeconfig: Path, cluster: FakeCluster
) -> None:
    alloc = cluster.find("nodes", A100_0)["status"]["allocatable"]
    alloc["nvidia.com/gpu"] = alloc.pop("nvidia.com/mig-1g.5gb")  # the plugin runs `single`
    run = verify(kubeconfig)
    assert run.failures() == [("allocatable", f"node/{A100_0}")]
    assert run.row("allocatable", f"node/{A100_0}")["found"] == (
        "nvidia.com/gpu: 56 (nvidia.com/mig-1g.5gb 0 of 56; unexpected nvidia.com/gpu)"
    )


def test_missing_taint_fails(kubeconfig: Path, cluster: FakeCluster) -> None:
    cluster.find("nodes", T4_0)["spec"]["taints"] = []
    run = verify(kubeconfig)
    assert run.code == 1
    assert run.failures() == [("taint", f"node/{T4_0}")]
    row = run.row("taint", f"node/{T4_0}")
    assert (row["expected"], row["found"]) == ("nvidia.com/gpu=present:NoSchedule", "no taints")


def test_taint_with_the_wrong_value_fails(kubeconfig: Path, cluster: FakeCluster) -> None:
    # nvidia.com/gpu=true starves GFD: the chart's NFD worker tolerates only "present".
    cluster.find("nodes", A100_0)["spec"]["taints"][0]["value"] = "true"
    run = verify(kubeconfig)
    assert run.failures() == [("taint", f"node/{A100_0}")]
    assert run.row("taint", f"node/{A100_0}")["found"] == "nvidia.com/gpu=true:NoSchedule"


def test_missing_labels_fail(kubeconfig: Path, cluster: FakeCluster) -> None:
    labels = cluster.find("nodes", T4_0)["metadata"]["labels"]
    del labels["nvidia.com/device-plugin.config"]
    labels["team"] = "research"
    del labels["nvidia.com/gpu.product"]
    run = verify(kubeconfig)
    assert run.failures() == [("labels", f"node/{T4_0}"), ("gfd-labels", f"node/{T4_0}")]
    assert run.row("labels", f"node/{T4_0}")["found"] == (
        "nvidia.com/device-plugin.config missing; team=research"
    )
    assert run.row("gfd-labels", f"node/{T4_0}")["found"] == (
        "missing nvidia.com/gpu.product: GPU Feature Discovery has not labelled this node"
    )


def test_plugin_pod_not_ready_fails(kubeconfig: Path, cluster: FakeCluster) -> None:
    pod = cluster.pod_on(A100_0)
    for condition in pod["status"]["conditions"]:
        if condition["type"] in ("Ready", "ContainersReady"):
            condition["status"] = "False"
    status = pod["status"]["containerStatuses"][0]
    status.update(ready=False, state={"waiting": {"reason": "CrashLoopBackOff"}}, restartCount=7)
    ds = cluster.find("daemonsets", "nvidia-device-plugin")
    ds["status"]["numberReady"] = 2
    run = verify(kubeconfig)
    assert run.code == 1
    assert run.failures() == [
        ("gpu-daemon", f"node/{A100_0}"),
        ("driver", f"node/{A100_0}"),
        ("daemonset", "daemonset/nvidia-device-plugin/nvidia-device-plugin"),
    ]
    assert run.row("gpu-daemon", f"node/{A100_0}")["found"] == (
        f"{pod['metadata']['name']}: container nvidia-device-plugin-ctr waiting: CrashLoopBackOff"
    )
    assert run.row("driver", f"node/{A100_0}")["found"] == (
        "unknown: no ready GPU daemon pod on the node to run nvidia-smi in"
    )
    assert (
        run.row("daemonset", "daemonset/nvidia-device-plugin/nvidia-device-plugin")["found"]
        == "2/3 ready"
    )


def test_plugin_pod_missing_on_a_node_fails(kubeconfig: Path, cluster: FakeCluster) -> None:
    """The chart's NFD worker and GFD pods are still Ready on the node: neither stands in for
    the plugin (their DaemonSet names contain the chart name too)."""
    cluster.items("pods").remove(cluster.pod_on(T4_0))
    nfd_pod = cluster.pod_on(T4_0, NFD_WORKER)
    assert cluster.pod_on(T4_0, f"{CHART_NAME}-{GFD_CHART_NAME}")
    cluster.exec_answers[nfd_pod["metadata"]["name"]] = ExecAnswer(
        (DATA / "exec" / "t4_table.txt").read_text()  # were it asked, it would look healthy
    )
    run = verify(kubeconfig)
    assert run.code == 1
    assert run.failures() == [("gpu-daemon", f"node/{T4_0}"), ("driver", f"node/{T4_0}")]
    assert run.row("gpu-daemon", f"node/{T4_0}")["found"] == (
        "no pod of nvidia-device-plugin on this node"
    )
    assert run.row("driver", f"node/{T4_0}")["found"] == (
        "unknown: no ready GPU daemon pod on the node to run nvidia-smi in"
    )
    execs = [unquote(path) for _, path in cluster.requests if "/exec?" in path]
    # One exec on each A100 node: its driver and nvidia-smi -L together; none on the T4.
    assert len(execs) == 2 and all("nvidia-smi -L 2>&1" in p for p in execs)
    assert not [path for path in execs if nfd_pod["metadata"]["name"] in path]


def test_odd_api_data_fails_rows_instead_of_crashing(
    kubeconfig: Path, cluster: FakeCluster
) -> None:
    """A node whose kubelet never reported (status null), a plugin pod not scheduled yet (no
    nodeName) and a DaemonSet the controller has not seen (no status): one row each."""
    cluster.find("nodes", T4_0)["status"] = None
    pending = copy.deepcopy(cluster.pod_on(A100_0))
    pending["metadata"]["name"] = "nvidia-device-plugin-zz9zz"
    del pending["spec"]["nodeName"]
    pending["status"] = {"phase": "Pending"}
    cluster.items("pods").append(pending)
    del cluster.find("daemonsets", "nvidia-device-plugin")["status"]
    run = verify(kubeconfig)
    assert (run.code, run.err) == (1, "")
    assert set(run.failures()) == {
        ("node-ready", f"node/{T4_0}"),
        ("allocatable", f"node/{T4_0}"),
        ("daemonset", "daemonset/nvidia-device-plugin/nvidia-device-plugin"),
    }
    assert run.row("node-ready", f"node/{T4_0}")["found"] == "not Ready (no Ready condition)"
    assert run.row("daemonset", "daemonset/nvidia-device-plugin/nvidia-device-plugin")["found"] == (
        "no status from the DaemonSet controller"
    )
    assert run.row("gpu-daemon", f"node/{A100_0}")["status"] == "pass"  # the scheduled pod


def test_old_driver_fails(kubeconfig: Path, cluster: FakeCluster) -> None:
    pod = cluster.pod_on(T4_0)["metadata"]["name"]
    cluster.exec_answers[pod] = ExecAnswer((SMI / "t4_old_driver_table.txt").read_text())
    run = verify(kubeconfig)
    assert run.code == 1
    assert run.failures() == [("driver", f"node/{T4_0}")]
    row = run.row("driver", f"node/{T4_0}")
    assert row["expected"] == "driver major ≥ 535"
    assert row["found"] == "470.82.01 is older than 535: upgrade the node image or driver"


def test_nvidia_smi_failure_reports_the_tools_message(
    kubeconfig: Path, cluster: FakeCluster
) -> None:
    pod = cluster.pod_on(A100_1)["metadata"]["name"]
    cluster.exec_answers[pod] = ExecAnswer((SMI / "failure_no_driver.txt").read_text(), exit_code=9)
    run = verify(kubeconfig)
    assert run.failures() == [("driver", f"node/{A100_1}")]
    assert run.row("driver", f"node/{A100_1}")["found"].startswith(
        "nvidia-smi failed: NVIDIA-SMI has failed because it couldn't communicate with the "
        "NVIDIA driver"
    )


def test_exec_refused_by_the_pod_fails_that_node(kubeconfig: Path, cluster: FakeCluster) -> None:
    del cluster.exec_answers[cluster.pod_on(T4_0)["metadata"]["name"]]
    run = verify(kubeconfig)
    assert run.failures() == [("driver", f"node/{T4_0}")]
    assert "container not found in pod" in run.row("driver", f"node/{T4_0}")["found"]


def test_exec_connection_dropped_fails_that_node(kubeconfig: Path, cluster: FakeCluster) -> None:
    cluster.exec_answers[cluster.pod_on(A100_0)["metadata"]["name"]] = ExecAnswer("", hang_up=True)
    run = verify(kubeconfig)
    assert run.code == 1
    assert run.failures() == [("driver", f"node/{A100_0}")]
    assert run.row("driver", f"node/{A100_0}")["found"] == (
        f"exec into nvidia-device-plugin/{cluster.pod_on(A100_0)['metadata']['name']} broke off:"
        " Connection to remote host was lost."
    )
    assert run.err == ""


def test_skip_driver_never_execs(kubeconfig: Path, cluster: FakeCluster) -> None:
    run = verify(kubeconfig, "--skip-driver")
    assert run.code == 0
    assert not [p for _, p in cluster.requests if "/exec" in p]
    assert {r["status"] for r in run.rows() if r["check"] == "driver"} == {"skip"}


class _WatchedClient(ApiClient):
    """An API client that records every attribute set on it once built."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.set_after_init: list[str] = []

    def __setattr__(self, name: str, value: Any) -> None:
        if "set_after_init" in self.__dict__:
            self.set_after_init.append(name)
        super().__setattr__(name, value)


def test_concurrent_execs_leave_the_shared_client_alone(
    kubeconfig: Path, cluster: FakeCluster
) -> None:
    # kubernetes.stream swaps call_api on the client it is handed; done on the client shared
    # by the worker threads, one exec could restore plain HTTP mid-call of another and fail
    # a healthy node's driver check (seen in CI). Each exec must use a client of its own.
    shared = _WatchedClient(connect(kubeconfig, "lab").configuration)
    reader = StreamExecReader(shared)
    targets = [
        ExecTarget(node, "nvidia-device-plugin", cluster.pod_on(node)["metadata"]["name"], None)
        for node in (A100_0, A100_1, T4_0)
    ] * 8
    with ThreadPoolExecutor(max_workers=len(targets)) as pool:
        printed = list(pool.map(reader, targets))
    assert all("Driver Version" in text for text in printed)
    assert shared.set_after_init == []
    shared.close()


def test_missing_network_policy_fails(kubeconfig: Path, cluster: FakeCluster) -> None:
    cluster.items("networkpolicies").remove(
        next(
            p
            for p in cluster.items("networkpolicies")
            if p["metadata"]["namespace"] == "gpu-training"
            and p["metadata"]["name"] == "default-deny-all"
        )
    )
    run = verify(kubeconfig)
    assert run.code == 1
    assert run.failures() == [("network-policy", "namespace/gpu-training")]
    assert run.row("network-policy", "namespace/gpu-training")["found"] == (
        "none denies all traffic (found allow-dns)"
    )


def test_deny_all_with_an_allow_rule_is_not_deny_all(
    kubeconfig: Path, cluster: FakeCluster
) -> None:
    policy = next(
        p for p in cluster.items("networkpolicies") if p["metadata"]["namespace"] == "gpu-inference"
    )
    policy["spec"]["ingress"] = [{}]  # one empty rule allows everything in
    run = verify(kubeconfig)
    assert run.failures() == [("network-policy", "namespace/gpu-inference")]


def test_wrong_gpu_quota_and_missing_binding_fail(kubeconfig: Path, cluster: FakeCluster) -> None:
    quota = next(
        q for q in cluster.items("resourcequotas") if q["metadata"]["namespace"] == "gpu-inference"
    )
    quota["spec"]["hard"]["requests.nvidia.com/gpu.shared"] = "12"
    cluster.find("namespaces", "gpu-training")["metadata"]["labels"].pop(
        "gpu-platform.io/gpu-workloads"
    )
    run = verify(kubeconfig)
    assert run.failures() == [
        ("admission-binding", "namespace/gpu-training"),
        ("gpu-quota", "namespace/gpu-inference"),
    ]
    assert (
        run.row("gpu-quota", "namespace/gpu-inference")["found"]
        == "requests.nvidia.com/gpu.shared: 12"
    )
    assert run.row("admission-binding", "namespace/gpu-training")["found"] == (
        "no binding selects this namespace: GPU pods are not checked at admission"
    )


def test_binding_that_only_warns_fails(kubeconfig: Path, cluster: FakeCluster) -> None:
    cluster.items("validatingadmissionpolicybindings")[0]["spec"]["validationActions"] = ["Warn"]
    run = verify(kubeconfig)
    assert set(run.failures()) == {
        ("admission-binding", "namespace/gpu-training"),
        ("admission-binding", "namespace/gpu-inference"),
    }
    assert run.row("admission-binding", "namespace/gpu-training")["found"] == (
        "selected with other actions: gpu-workload-rules-binding ['Warn']"
    )


def test_missing_namespace_fails(kubeconfig: Path, cluster: FakeCluster) -> None:
    cluster.items("namespaces").remove(cluster.find("namespaces", "gpu-inference"))
    run = verify(kubeconfig)
    assert run.failures() == [("namespace", "namespace/gpu-inference")]


def test_pool_without_nodes_fails_its_node_count(kubeconfig: Path, cluster: FakeCluster) -> None:
    cluster.items("nodes").remove(cluster.find("nodes", T4_0))
    run = verify(kubeconfig)
    assert ("node-count", "pool/t4") in run.failures()
    assert run.row("node-count", "pool/t4")["found"] == "no node carries the pool label"


# --- the GPU metrics exporter (BP-05, BP-09) ----------------------------------------------------


def _page(cluster: FakeCluster, node: str) -> str:
    return cluster.metrics[cluster.pod_on(node, EXPORTER)["metadata"]["name"]]


def _set_page(cluster: FakeCluster, node: str, page: str) -> None:
    cluster.metrics[cluster.pod_on(node, EXPORTER)["metadata"]["name"]] = page


def test_exporter_pod_not_ready_fails_its_node(kubeconfig: Path, cluster: FakeCluster) -> None:
    pod = cluster.pod_on(A100_1, EXPORTER)
    for condition in pod["status"]["conditions"]:
        if condition["type"] in ("Ready", "ContainersReady"):
            condition["status"] = "False"
    pod["status"]["containerStatuses"][0].update(
        ready=False, state={"waiting": {"reason": "CrashLoopBackOff"}}
    )
    cluster.find("daemonsets", EXPORTER)["status"]["numberReady"] = 2
    run = verify(kubeconfig)
    assert run.code == 1
    assert run.failures() == [
        ("exporter", f"node/{A100_1}"),
        ("gpu-series", f"node/{A100_1}"),
        ("daemonset", "daemonset/gpu-metrics/dcgm-exporter"),
    ]
    assert run.row("exporter", f"node/{A100_1}")["found"] == (
        f"{pod['metadata']['name']}: container exporter waiting: CrashLoopBackOff"
    )
    assert run.row("gpu-series", f"node/{A100_1}")["found"] == (
        "unknown: no ready exporter pod on the node"
    )
    # Its page is not asked for.
    assert not [p for _, p in cluster.requests if pod["metadata"]["name"] in p]


def test_exporter_missing_on_a_node_fails(kubeconfig: Path, cluster: FakeCluster) -> None:
    cluster.items("pods").remove(cluster.pod_on(T4_0, EXPORTER))
    run = verify(kubeconfig)
    assert run.failures() == [("exporter", f"node/{T4_0}"), ("gpu-series", f"node/{T4_0}")]
    assert run.row("exporter", f"node/{T4_0}")["found"] == "no pod of dcgm-exporter on this node"
    # The inference pod's node has no exporter: not judged, and said so.
    assert run.row("gpu-attribution", "namespace/gpu-inference") == {
        "check": "gpu-attribution",
        "subject": "namespace/gpu-inference",
        "expected": "each running GPU pod on a series with its pod and namespace",
        "found": f"not checked: no metrics from the nodes of {SERVER}",
        "status": "skip",
    }


def test_exporter_daemonset_missing_fails_every_node(
    kubeconfig: Path, cluster: FakeCluster
) -> None:
    cluster.items("daemonsets").remove(cluster.find("daemonsets", EXPORTER))
    run = verify(kubeconfig)
    assert {r["found"] for r in run.rows() if r["check"] == "exporter"} == {
        "no dcgm-exporter DaemonSet found"
    }
    assert len([f for f in run.failures() if f[0] == "exporter"]) == 3


def test_mig_instances_missing_from_the_series_fail(kubeconfig: Path, cluster: FakeCluster) -> None:
    """GPU 7 of the node shows no MIG instance: 49 of the 56 the capacity model promises."""
    page = _page(cluster, A100_1)
    _set_page(
        cluster, A100_1, "\n".join(line for line in page.split("\n") if 'gpu="7"' not in line)
    )
    run = verify(kubeconfig)
    assert run.failures() == [("gpu-series", f"node/{A100_1}")]
    assert run.row("gpu-series", f"node/{A100_1}")["found"] == (
        "49 MIG 1g.5gb instances (7 of 56 instances missing: a GPU lost from the node (see its "
        "XID errors and nvidia-smi), a MIG layout not applied, or an exporter device filter)"
    )


def test_another_mig_layout_fails(kubeconfig: Path, cluster: FakeCluster) -> None:
    """GPU 0 was partitioned 2g.10gb: three of those instead of seven 1g.5gb."""
    lines = []
    for line in _page(cluster, A100_0).split("\n"):
        if 'gpu="0"' in line and 'GPU_I_ID="' in line:
            if any(f'GPU_I_ID="{i}"' in line for i in (10, 11, 12, 13)):
                continue
            line = line.replace('GPU_I_PROFILE="1g.5gb"', 'GPU_I_PROFILE="2g.10gb"')
        lines.append(line)
    _set_page(cluster, A100_0, "\n".join(lines))
    run = verify(kubeconfig)
    assert ("gpu-series", f"node/{A100_0}") in run.failures()
    assert run.row("gpu-series", f"node/{A100_0}")["found"] == (
        "49 MIG 1g.5gb instances (7 of 56 instances missing: a GPU lost from the node (see its "
        "XID errors and nvidia-smi), a MIG layout not applied, or an exporter device filter); "
        "also 3 2g.10gb: the GPUs' MIG layout is not the pool's"
    )


def test_profiling_metrics_off_are_named(kubeconfig: Path, cluster: FakeCluster) -> None:
    page = _page(cluster, A100_0)
    _set_page(cluster, A100_0, page.replace("DCGM_FI_PROF_GR_ENGINE_ACTIVE", "DCGM_FI_DEV_X"))
    run = verify(kubeconfig)
    assert ("gpu-series", f"node/{A100_0}") in run.failures()
    assert run.row("gpu-series", f"node/{A100_0}")["found"] == (
        "no DCGM_FI_PROF_GR_ENGINE_ACTIVE series: profiling metrics are off in the exporter's "
        "counters file, or its pod lacks SYS_ADMIN (the chart's securityContext)"
    )


def test_a_page_that_is_not_prometheus_text_fails(kubeconfig: Path, cluster: FakeCluster) -> None:
    _set_page(cluster, T4_0, "<html><body>502 Bad Gateway</body></html>\n")
    run = verify(kubeconfig)
    assert ("gpu-series", f"node/{T4_0}") in run.failures()
    assert run.row("gpu-series", f"node/{T4_0}")["found"] == (
        "/metrics is not in the Prometheus text format (line 1: expected a metric name)"
    )


def test_unreachable_exporter_fails_its_node(kubeconfig: Path, cluster: FakeCluster) -> None:
    pod = cluster.pod_on(T4_0, EXPORTER)["metadata"]["name"]
    del cluster.metrics[pod]
    run = verify(kubeconfig)
    assert run.code == 1
    assert ("gpu-series", f"node/{T4_0}") in run.failures()
    assert run.row("gpu-series", f"node/{T4_0}")["found"].startswith(
        f"{pod}: reading /metrics failed: get pods/proxy gpu-metrics/{pod}:9400/metrics at "
        "http://127.0.0.1:"
    )
    assert run.row("gpu-series", f"node/{T4_0}")["found"].endswith(
        f"failed: HTTP 503 error trying to reach service: dial tcp {pod}:9400: connection refused"
    )


def test_no_proxy_permission_says_what_to_grant(kubeconfig: Path, cluster: FakeCluster) -> None:
    pod = cluster.pod_on(A100_0, EXPORTER)["metadata"]["name"]
    message = (
        f'pods "{pod}" is forbidden: User "dev" cannot get resource "pods/proxy" in API group '
        '"" in the namespace "gpu-metrics"'
    )
    cluster.proxy_errors[pod] = (403, "Forbidden", message)
    run = verify(kubeconfig)
    found = run.row("gpu-series", f"node/{A100_0}")["found"]
    assert f"(403 Forbidden): {message}" in found
    assert found.endswith(
        "; the verifying identity needs get on pods/proxy in gpu-metrics (or run with "
        "--skip-metrics)"
    )


def test_gpu_pod_without_a_series_fails_its_namespace(
    kubeconfig: Path, cluster: FakeCluster
) -> None:
    """An exporter not told nvidia.com/gpu.shared: the time-sliced pod's series lose it."""
    page = _page(cluster, T4_0)
    _set_page(
        cluster,
        T4_0,
        page.replace(',container="server",namespace="gpu-inference",pod="' + SERVER + '"', ""),
    )
    env = cluster.pod_on(T4_0, EXPORTER)["spec"]["containers"][0]["env"]
    env[:] = [e for e in env if e["name"] != "NVIDIA_RESOURCE_NAMES"]
    run = verify(kubeconfig)
    assert run.code == 1
    assert run.failures() == [("gpu-attribution", "namespace/gpu-inference")]
    assert run.row("gpu-attribution", "namespace/gpu-inference")["found"] == (
        f"{SERVER} on {T4_0} (nvidia.com/gpu.shared) is on no series: the exporter is not told "
        "nvidia.com/gpu.shared (it attributes nvidia.com/gpu, nvidia.com/mig-* and "
        "NVIDIA_RESOURCE_NAMES: none); set NVIDIA_RESOURCE_NAMES=nvidia.com/gpu.shared (our "
        "DcgmExporter sets it from the pools of the stack config)"
    )
    # The GPU is still counted: only the pod's labels are gone.
    assert run.row("gpu-series", f"node/{T4_0}")["status"] == "pass"


def test_a_known_resource_without_a_series_says_to_rerun(
    kubeconfig: Path, cluster: FakeCluster
) -> None:
    page = _page(cluster, A100_0)
    _set_page(cluster, A100_0, page.replace(f'pod="{TRAINER}"', 'pod=""'))
    run = verify(kubeconfig)
    assert run.failures() == [("gpu-attribution", "namespace/gpu-training")]
    assert run.row("gpu-attribution", "namespace/gpu-training")["found"] == (
        f"{TRAINER} on {A100_0} (nvidia.com/mig-1g.5gb) is on no series: the exporter knows its "
        "resources: the pod may have started less than one collection (30 s) ago, or the "
        "exporter cannot read the kubelet's pod-resources socket; rerun, then see the "
        "exporter's log"
    )


def test_no_running_gpu_pod_skips_attribution(kubeconfig: Path, cluster: FakeCluster) -> None:
    for name in (TRAINER, SERVER):
        cluster.find("pods", name)["status"]["phase"] = "Succeeded"
    run = verify(kubeconfig)
    assert run.code == 0
    for namespace in ("gpu-training", "gpu-inference"):
        row = run.row("gpu-attribution", f"namespace/{namespace}")
        assert (row["status"], row["found"]) == (
            "skip",
            "no running GPU pod on the exporter's nodes: attribution not checked",
        )


def test_skip_metrics_reads_no_page(kubeconfig: Path, cluster: FakeCluster) -> None:
    run = verify(kubeconfig, "--skip-metrics")
    assert run.code == 0
    assert not [p for _, p in cluster.requests if "/proxy/" in p]
    assert run.row("exporter", f"node/{T4_0}")["status"] == "pass"  # pods are still read
    assert {r["found"] for r in run.rows() if r["check"] in ("gpu-series", "gpu-attribution")} == {
        "not checked (--skip-metrics)"
    }


def test_metrics_off_in_the_stack_config_skip_the_exporter(
    kubeconfig: Path, cluster: FakeCluster, tmp_path: Path
) -> None:
    off = tmp_path / "Pulumi.off.yaml"
    off.write_text(
        STACK.read_text() + "  gpu-platform:observability:\n    metrics:\n      enabled: false\n"
    )
    run = verify(kubeconfig, config=off)
    assert run.code == 0
    metrics_checks = ("exporter", "gpu-series", "gpu-attribution")
    assert [r for r in run.rows() if r["check"] in metrics_checks] == [
        {
            "check": "exporter",
            "subject": "stack",
            "expected": "-",
            "found": "observability.metrics.enabled is false: GPU metrics are not checked",
            "status": "skip",
        }
    ]
    assert not [p for _, p in cluster.requests if "/proxy/" in p or "gpu-metrics" in p]


def _as_gpu_operator_cluster(cluster: FakeCluster) -> None:
    """The recording as the GPU Operator deploys it: its device plugin and its own exporter,
    ``nvidia-dcgm-exporter``, in its namespace."""
    renames = {
        "nvidia-device-plugin": "nvidia-device-plugin-daemonset",
        EXPORTER: "nvidia-dcgm-exporter",
    }
    for ds in cluster.items("daemonsets"):
        name = ds["metadata"]["name"]
        if name in renames:
            ds["metadata"].update(name=renames[name], namespace="gpu-operator")
    for pod in cluster.items("pods"):
        owner = pod["metadata"]["ownerReferences"][0]
        if owner["name"] in renames:
            owner["name"] = renames[owner["name"]]
            pod["metadata"]["namespace"] = "gpu-operator"
    # The operator's exporter names its port otherwise; /metrics is on 9400 all the same.
    for pod in cluster.items("pods"):
        if pod["metadata"]["ownerReferences"][0]["name"] == "nvidia-dcgm-exporter":
            pod["spec"]["containers"][0]["ports"] = [{"name": "gpu-metrics", "containerPort": 9400}]


def test_gpu_operator_exporter_is_checked_instead(
    kubeconfig: Path, cluster: FakeCluster, tmp_path: Path
) -> None:
    _as_gpu_operator_cluster(cluster)
    operator = tmp_path / "Pulumi.operator.yaml"
    operator.write_text(
        STACK.read_text()
        + "  gpu-platform:devicePlugin:\n    enabled: false\n"
        + "  gpu-platform:gpuOperator:\n    enabled: true\n"
    )
    run = verify(kubeconfig, config=operator)
    assert run.code == 0, run.failures()
    row = run.row("exporter", f"node/{A100_0}")
    assert row["expected"] == "GPU Operator's dcgm-exporter pod Ready"
    assert row["found"].endswith(" Ready")
    assert run.row("gpu-series", f"node/{T4_0}")["found"] == "1 GPU"
    assert run.row("daemonset", "daemonset/gpu-operator/nvidia-dcgm-exporter")["found"] == (
        "3/3 ready"
    )
    proxied = [unquote(p) for _, p in cluster.requests if "/proxy/" in p]
    assert len(proxied) == 3
    assert all(p.startswith("/api/v1/namespaces/gpu-operator/pods/") for p in proxied)


# --- errors that stop the run -------------------------------------------------------------------


def test_entry_point_prints_no_traceback(kubeconfig: Path) -> None:
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "gpu_platform.verify",
            "--config",
            str(STACK),
            "--kubeconfig",
            str(kubeconfig),
            "--context",
            "lab-expired",
        ],
        cwd=ROOT,
        # Without the caller's warning settings (PYTHONWARNINGS, -X dev), which would add
        # the cloud SDKs' deprecation warnings to stderr.
        env={k: v for k, v in os.environ.items() if k not in ("PYTHONWARNINGS", "PYTHONDEVMODE")},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.strip().count("\n") == 0, proc.stderr
    assert "401 Unauthorized" in proc.stderr


def test_unknown_context_is_a_clear_error(kubeconfig: Path) -> None:
    run = verify(kubeconfig, context="nope")
    assert run.code == 2
    assert run.err.startswith("verify: error: kubeconfig: ")
    assert "nope" in run.err


def test_invalid_stack_config_changes_nothing(
    kubeconfig: Path, cluster: FakeCluster, tmp_path: Path
) -> None:
    bad = tmp_path / "Pulumi.bad.yaml"
    bad.write_text(STACK.read_text().replace("minDriverMajor: 535", "minDriverMajor: 3"))
    out, err = io.StringIO(), io.StringIO()
    code = main(["--config", str(bad), "--kubeconfig", str(kubeconfig)], stdout=out, stderr=err)
    assert code == 2
    assert "driverCheck.minDriverMajor" in err.getvalue()
    assert cluster.requests == []


def test_missing_stack_file_is_a_clear_error(tmp_path: Path) -> None:
    err = io.StringIO()
    code = main(["--stack", "nope", "--program", str(tmp_path)], stdout=io.StringIO(), stderr=err)
    assert code == 2
    missing = tmp_path / "Pulumi.nope.yaml"
    assert err.getvalue() == (
        f"verify: error: no stack config at {missing} (give --stack or --config)\n"
    )


# --- large clusters ---------------------------------------------------------------------------


def test_lists_are_read_in_pages(kubeconfig: Path, cluster: FakeCluster) -> None:
    api = connect(kubeconfig, "lab")
    try:
        nodes = ClusterReader(api, page_size=1).nodes("gpu-platform.io/pool=a100")
    finally:
        api.close()
    assert sorted(n["metadata"]["name"] for n in nodes) == [A100_0, A100_1]
    pages = [p for _, p in cluster.requests if p.startswith("/api/v1/nodes")]
    assert len(pages) == 2
    assert "continue=1" in pages[1]


def test_a_list_past_its_item_cap_stops_paging(kubeconfig: Path, cluster: FakeCluster) -> None:
    """A server that keeps sending pages (each with a new continue token) is refused at the
    cap, as a bad answer; a list that ends at the cap is read whole."""
    api = connect(kubeconfig, "lab")
    try:
        capped = ClusterReader(api, page_size=1, max_items=1)
        assert capped.nodes("gpu-platform.io/pool=a100") == []
        whole = ClusterReader(api, page_size=1, max_items=2)
        nodes = whole.nodes("gpu-platform.io/pool=a100")
    finally:
        api.close()
    (bad,) = capped.bad_answers
    assert bad.what == "list nodes labelled gpu-platform.io/pool=a100"
    assert bad.cause == "more than 1 items in 1 pages and the server sends more: paging stopped"
    assert sorted(n["metadata"]["name"] for n in nodes) == [A100_0, A100_1]
    assert whole.bad_answers == []
    assert MAX_LIST_ITEMS == 2 * 150_000


def test_progress_goes_to_stderr_when_asked(kubeconfig: Path) -> None:
    run = verify(kubeconfig, "--progress")
    assert run.code == 0
    lines = run.err.splitlines()
    assert "verify: read 1 nodes of pool a100" in lines
    assert any(line.startswith("verify: driver 3/3 ") for line in lines)
    assert lines[-1].startswith("verify: metrics 3/3 ")
    json.loads(run.out)  # stdout stays clean JSON


# --- ACK: MPS pools are served by ACK's MPS control daemon (BP-16) -----------------------------

ACK_STACK = DATA / "Pulumi.verify-ack.yaml"
ACK_NODE = "cn-hangzhou.10.1.0.12"
MPS_DAEMON = "mps-control-daemon"


def _as_ack_mps_cluster(cluster: FakeCluster) -> None:
    """The recorded cluster turned into one ACK MPS node with ACK's MPS control daemon."""
    node = copy.deepcopy(cluster.find("nodes", T4_0))
    node["metadata"]["name"] = ACK_NODE
    node["metadata"]["labels"] = {
        "kubernetes.io/hostname": ACK_NODE,
        "gpu-platform.io/pool": "a10mps",
        "ack.node.gpu.schedule": "mps",
        "aliyun.accelerator/nvidia_name": "NVIDIA-A10",
    }
    node["status"]["allocatable"] = {
        "cpu": "8",
        "aliyun.com/gpu-mem": "24",
        "aliyun.com/gpu-count": "1",
        "pods": "64",
    }
    cluster.lists["nodes"]["items"] = [node]
    daemon = copy.deepcopy(cluster.find("daemonsets", "kube-proxy"))
    daemon["metadata"].update(name=MPS_DAEMON, uid="5e0b6f0e-7a1d-4c43-9f55-2f1c2d0a0b01")
    daemon["spec"]["template"]["spec"].update(
        nodeSelector={"ack.node.gpu.schedule": "mps"},
        containers=[{"name": "mps", "image": "registry.cn-hangzhou.aliyuncs.com/acs/mps:0.2.0"}],
    )
    daemon["status"].update(desiredNumberScheduled=1, numberReady=1, currentNumberScheduled=1)
    cluster.items("daemonsets").append(daemon)
    pod = copy.deepcopy(cluster.pod_on(T4_0))
    pod["metadata"].update(name=f"{MPS_DAEMON}-q8w2e", namespace="kube-system")
    pod["metadata"]["ownerReferences"][0].update(name=MPS_DAEMON, uid=daemon["metadata"]["uid"])
    pod["spec"].update(nodeName=ACK_NODE, containers=[{"name": "mps", "image": "mps:0.2.0"}])
    cluster.items("pods").append(pod)
    # The A10 serving one MPS client: nvidia-cuda-mps-server and the client's python (seed 003).
    cluster.exec_answers[f"{MPS_DAEMON}-q8w2e"] = ExecAnswer(
        (SMI / "a10_mps_table.txt").read_text()
    )
    quota = next(
        q for q in cluster.items("resourcequotas") if q["metadata"]["namespace"] == "gpu-training"
    )
    quota["spec"]["hard"] = {"requests.aliyun.com/gpu-mem": "24"}
    # Our exporter runs on the MPS node too; it shows the A10 once, held by no pod it can name.
    exporter = cluster.pod_on(T4_0, EXPORTER)
    exporter["spec"]["nodeName"] = ACK_NODE
    cluster.metrics[exporter["metadata"]["name"]] = ACK_A10_PAGE
    trainer = copy.deepcopy(cluster.find("pods", "trainer-0"))
    trainer["metadata"]["name"] = "mps-trainer-0"
    trainer["spec"]["nodeName"] = ACK_NODE
    trainer["spec"]["containers"][0]["resources"] = {"limits": {"aliyun.com/gpu-mem": "8"}}
    # The GPU the scheduler extender booked it on (gpushare's annotation).
    trainer["metadata"]["annotations"] = {"ALIYUN_COM_GPU_MEM_IDX": "0"}
    cluster.items("pods").append(trainer)


ACK_A10_PAGE = (
    "# TYPE DCGM_FI_DEV_GPU_UTIL gauge\n"
    'DCGM_FI_DEV_GPU_UTIL{gpu="0",UUID="GPU-5c1e0a77-2b1f-4c2e-9d7a-0a10a10a10a1",'
    f'device="nvidia0",modelName="NVIDIA A10",hostname="{ACK_NODE}"}} 37\n'
    "# TYPE DCGM_FI_DEV_FB_USED gauge\n"
    'DCGM_FI_DEV_FB_USED{gpu="0",UUID="GPU-5c1e0a77-2b1f-4c2e-9d7a-0a10a10a10a1",'
    f'device="nvidia0",modelName="NVIDIA A10",hostname="{ACK_NODE}"}} 8192\n'
)


def verify_ack(kubeconfig: Path) -> Run:
    out, err = io.StringIO(), io.StringIO()
    argv = ["--config", str(ACK_STACK), "--kubeconfig", str(kubeconfig), "--format", "json"]
    code = main(argv, stdout=out, stderr=err)
    return Run(code, out.getvalue(), err.getvalue())


def test_ack_mps_pool_is_checked_against_the_mps_daemon(
    kubeconfig: Path, cluster: FakeCluster
) -> None:
    _as_ack_mps_cluster(cluster)
    run = verify_ack(kubeconfig)
    assert run.code == 0, run.out
    assert run.row("allocatable", f"node/{ACK_NODE}")["found"] == "aliyun.com/gpu-mem: 24"
    # ACK's own plugin serves the pool: no nvidia.com/gpu.present, which the NVIDIA one selects.
    assert run.row("labels", f"node/{ACK_NODE}")["expected"] == "ack.node.gpu.schedule=mps"
    assert run.row("gpu-daemon", f"node/{ACK_NODE}")["found"] == f"{MPS_DAEMON}-q8w2e Ready"
    assert run.row("driver", f"node/{ACK_NODE}")["found"].startswith("550.54.15")
    assert run.row("daemonset", f"daemonset/kube-system/{MPS_DAEMON}")["status"] == "pass"
    assert not [r for r in run.rows() if r["check"] == "gfd-labels"]  # ACK's nodes, not GFD's
    assert any(p.startswith("/apis/apps/v1/daemonsets?") for _, p in cluster.requests)
    # Our exporter watches the MPS pool's GPU: one series for the one A10, whoever shares it.
    assert run.row("exporter", f"node/{ACK_NODE}")["found"] == "dcgm-exporter-w8p4n Ready"
    assert run.row("gpu-series", f"node/{ACK_NODE}")["found"] == "1 GPU"
    # It cannot name aliyun.com/gpu-mem pods: noted, not failed.
    assert run.row("gpu-attribution", "namespace/gpu-training") == {
        "check": "gpu-attribution",
        "subject": "namespace/gpu-training",
        "expected": "each running GPU pod on a series with its pod and namespace",
        "found": (
            "not checked: mps-trainer-0 (aliyun.com/gpu-mem): the exporter watches their GPUs "
            "but cannot name the pods of ACK's GPU sharing, whose device IDs are not the GPUs' "
            "(docs/observability.md)"
        ),
        "status": "skip",
    }


def test_ack_mps_node_without_the_daemon_fails(kubeconfig: Path, cluster: FakeCluster) -> None:
    _as_ack_mps_cluster(cluster)
    cluster.items("pods").remove(cluster.find("pods", f"{MPS_DAEMON}-q8w2e"))
    run = verify_ack(kubeconfig)
    assert run.code == 1
    assert run.row("gpu-daemon", f"node/{ACK_NODE}")["found"] == (
        f"no pod of {MPS_DAEMON} on this node"
    )


# --- kubeconfig problems ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "kubeconfig: no file at {path} (give --kubeconfig or set KUBECONFIG)"),
        ("clusters: [\n", "kubeconfig: not valid YAML (line 2)"),
        (
            "- a list\n",
            "kubeconfig: not a kubeconfig (a mapping with clusters, users and contexts)",
        ),
    ],
)
def test_bad_kubeconfig_is_one_clear_line(
    tmp_path: Path, content: str | None, message: str
) -> None:
    path = tmp_path / "kubeconfig"
    if content is not None:
        path.write_text(content)
    run = verify(path)
    assert run.code == 2
    assert run.err == f"verify: error: {message.format(path=path)}\n"


def test_kubeconfig_list_from_the_environment(
    kubeconfig: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """$KUBECONFIG may list several files, merged as kubectl merges them."""
    empty = tmp_path / "other"
    empty.write_text("apiVersion: v1\nkind: Config\n")
    monkeypatch.setenv("KUBECONFIG", f"{empty}:{kubeconfig}")
    out, err = io.StringIO(), io.StringIO()
    code = main(["--config", str(STACK), "--context", "lab", "--format", "json"], out, err)
    assert (code, err.getvalue()) == (0, "")


# --- answers that are not what Kubernetes sends -------------------------------------------------

T4_NODES = "list nodes labelled gpu-platform.io/pool=t4"


@pytest.mark.parametrize(
    ("body", "cause"),
    [
        ([], "the answer is a JSON array ([]), not a list object"),
        (None, "the answer is null, not a list object"),
        ("a string", "the answer is a string ('a string'), not a list object"),
        (42, "the answer is a number (42), not a list object"),
        ({"kind": "NodeList", "items": "x"}, "its items are a string ('x'), not an array"),
        ({"kind": "NodeList", "items": {"a": 1}}, "its items are a JSON object, not an array"),
        ({"kind": "NodeList", "items": [1]}, "item 0 is a number (1), not an object"),
        (
            b"<html>bad gateway</html>",
            "the answer is not JSON (Expecting value: line 1 column 1 (char 0))",
        ),
        (
            {"kind": "NodeList", "metadata": {"continue": 5}, "items": []},
            "its continue token is a number (5), not a string",
        ),
    ],
    ids=[
        "array",
        "null",
        "string",
        "number",
        "items-string",
        "items-object",
        "item",
        "html",
        "token",
    ],
)
def test_a_list_answer_that_is_no_list_fails_one_row(
    kubeconfig: Path, cluster: FakeCluster, body: object, cause: str
) -> None:
    cluster.raw.append(RawAnswer("labelSelector=gpu-platform.io/pool=t4", body))
    run = verify(kubeconfig)
    assert (run.code, run.err) == (1, "")
    assert run.failures() == [("api-answer", T4_NODES)]
    assert run.row("api-answer", T4_NODES) == {
        "check": "api-answer",
        "subject": T4_NODES,
        "expected": "a NodeList: a JSON object whose items are named objects",
        "found": cause,
        "status": "fail",
    }
    # Not "no node carries the pool label": the pool's count is not judged on a list not read.
    assert run.row("node-count", "pool/t4")["status"] == "skip"
    assert run.row("node-count", "pool/t4")["found"] == f"not checked: {T4_NODES} gave no list"
    assert run.row("node-count", "pool/a100")["status"] == "pass"


def test_a_bad_pod_list_leaves_the_daemon_rows_unjudged(
    kubeconfig: Path, cluster: FakeCluster
) -> None:
    cluster.raw.append(RawAnswer(r"/namespaces/nvidia-device-plugin/pods\?", {"items": "x"}))
    run = verify(kubeconfig)
    assert (run.code, run.err) == (1, "")
    what = "list pods in nvidia-device-plugin"
    assert run.failures() == [("api-answer", what)]
    for node in (A100_0, A100_1, T4_0):
        for check in ("gpu-daemon", "driver"):
            row = run.row(check, f"node/{node}")
            assert (row["found"], row["status"]) == (f"not checked: {what} gave no list", "skip")
        assert run.row("taint", f"node/{node}")["status"] == "pass"
        assert run.row("gpu-series", f"node/{node}")["status"] == "pass"  # another namespace
    # The DaemonSet's own status was read: still judged.
    ds = run.row("daemonset", "daemonset/nvidia-device-plugin/nvidia-device-plugin")
    assert ds["status"] == "pass"
    assert not [p for _, p in cluster.requests if "/exec?" in p]  # no pod to exec into


def test_a_namespace_answered_with_no_object_fails_one_row(
    kubeconfig: Path, cluster: FakeCluster
) -> None:
    cluster.raw.append(RawAnswer("/api/v1/namespaces/gpu-training$", []))
    run = verify(kubeconfig)
    assert (run.code, run.err) == (1, "")
    assert run.failures() == [("api-answer", "get namespace gpu-training")]
    assert run.row("api-answer", "get namespace gpu-training")["found"] == (
        "the answer is a JSON array ([]), not an object"
    )
    unjudged = [r for r in run.rows() if r["subject"] == "namespace/gpu-training"]
    assert unjudged
    assert {r["status"] for r in unjudged} == {"skip"}


def test_items_without_a_name_are_left_out_and_said_so(
    kubeconfig: Path, cluster: FakeCluster
) -> None:
    """Nodes and pods without metadata (or with fields of the wrong type) fail no run: the
    nameless ones are one row, the rest are checked as usual."""
    nodes = [
        cluster.find("nodes", T4_0),
        {"kind": "Node"},
        {"metadata": None, "spec": "x", "status": 5},
        {"metadata": {"name": 7, "labels": []}, "status": {"conditions": [None, 3]}},
    ]
    cluster.raw.append(RawAnswer("pool=t4", {"kind": "NodeList", "items": nodes}))
    pods = [p for p in cluster.items("pods") if p["metadata"]["namespace"] == CHART_NAME]
    pods += [
        {},
        {"metadata": {"name": "p", "ownerReferences": [None, 3]}, "spec": None, "status": "x"},
        {
            "metadata": {"name": "q", "ownerReferences": "x"},
            "spec": {"nodeName": 5, "containers": "x"},
            "status": {"conditions": 3, "containerStatuses": [1]},
        },
    ]
    cluster.raw.append(RawAnswer(rf"/namespaces/{CHART_NAME}/pods\?", {"items": pods}))
    run = verify(kubeconfig)
    assert (run.code, run.err) == (1, "")
    assert run.failures() == [
        ("api-answer", T4_NODES),
        ("api-answer", f"list pods in {CHART_NAME}"),
    ]
    assert run.row("api-answer", T4_NODES)["found"] == (
        "items 1, 2, 3 have no metadata.name: left out, the others checked"
    )
    assert run.row("api-answer", f"list pods in {CHART_NAME}")["found"] == (
        f"item {len(pods) - 3} has no metadata.name: left out, the others checked"
    )
    assert run.row("gpu-daemon", f"node/{T4_0}")["status"] == "pass"
    assert run.row("driver", f"node/{T4_0}")["status"] == "pass"


def test_a_repeated_continue_token_stops_paging(kubeconfig: Path, cluster: FakeCluster) -> None:
    page = {"kind": "NodeList", "metadata": {"continue": "again"}, "items": []}
    cluster.raw.append(RawAnswer("pool=t4", page))
    run = verify(kubeconfig)
    assert (run.code, run.err) == (1, "")
    assert run.failures() == [("api-answer", T4_NODES)]
    assert run.row("api-answer", T4_NODES)["found"] == (
        "the server sent the continue token 'again' again after 2 pages: paging stopped "
        "(it would never end)"
    )
    pages = [unquote(p) for _, p in cluster.requests if "pool=t4" in unquote(p)]
    assert len(pages) == 2
    assert "continue=again" in pages[1]


# --- deadlines ----------------------------------------------------------------------------------


@pytest.mark.slow
def test_a_drip_fed_answer_stops_at_the_request_deadline(
    kubeconfig: Path, cluster: FakeCluster, api_server: str
) -> None:
    """A byte at a time, each sooner than the socket's read timeout, never trips that
    timeout; the request's deadline stops it."""
    cluster.raw.append(RawAnswer("pool=a100", {"kind": "NodeList", "items": []}, drip=0.2))
    run = verify(kubeconfig, "--request-timeout", "1")
    assert run.code == 2
    assert run.out == ""
    assert run.err == (
        "verify: error: list nodes labelled gpu-platform.io/pool=a100 at "
        f"{api_server}: no complete answer within --request-timeout 1 s (the API server, "
        "or a proxy in front of it, is answering too slowly)\n"
    )


@pytest.mark.slow
def test_the_run_deadline_bounds_every_request(
    kubeconfig: Path, cluster: FakeCluster, api_server: str
) -> None:
    cluster.raw.append(RawAnswer("pool=a100", {"kind": "NodeList", "items": []}, drip=0.2))
    run = verify(kubeconfig, "--timeout", "1")
    assert run.code == 2
    what = f"verify: error: list nodes labelled gpu-platform.io/pool=a100 at {api_server}: "
    # Cut off mid-answer; or, on a machine so loaded that setting up took the whole second,
    # not sent at all.
    assert run.err in (
        f"{what}no complete answer within what was left of the run's --timeout 1 s (the API "
        "server, or a proxy in front of it, is answering too slowly)\n",
        f"{what}not sent, the run's deadline (--timeout 1 s) has passed\n",
    )


@pytest.mark.slow
def test_a_drip_fed_metrics_page_fails_its_node_only(
    kubeconfig: Path, cluster: FakeCluster, api_server: str
) -> None:
    pod = cluster.pod_on(T4_0, EXPORTER)["metadata"]["name"]
    cluster.raw.append(RawAnswer(f"/pods/{pod}:9400/proxy/", b"DCGM_FI_DEV_GPU_UTIL 1\n", 0.2))
    run = verify(kubeconfig, "--request-timeout", "1")
    assert (run.code, run.err) == (1, "")
    assert run.failures() == [("gpu-series", f"node/{T4_0}")]
    assert run.row("gpu-series", f"node/{T4_0}")["found"] == (
        f"{pod}: reading /metrics failed: get pods/proxy gpu-metrics/{pod}:9400/metrics at "
        f"{api_server}: no complete answer within --request-timeout 1 s (the API server, or "
        "a proxy in front of it, is answering too slowly)"
    )


@pytest.mark.slow
def test_a_silent_api_server_is_a_read_timeout(tmp_path: Path) -> None:
    with socket.socket() as silent:  # accepts connections, never answers
        silent.bind(("127.0.0.1", 0))
        silent.listen(8)
        server = f"http://127.0.0.1:{silent.getsockname()[1]}"
        run = verify(write_kubeconfig(tmp_path / "kubeconfig", server), "--request-timeout", "1")
    assert run.code == 2
    assert run.err == (
        f"verify: error: the API server at {server} stopped answering: nothing for 1 s "
        "(read timeout)\n"
    )


@pytest.mark.parametrize("option", ["--timeout", "--request-timeout"])
@pytest.mark.parametrize("value", ["0", "-1", "soon", "inf", "nan"])
def test_deadlines_must_be_seconds_above_zero(
    option: str, value: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["--config", str(STACK), option, value])
    assert exit_.value.code == 2
    assert (
        f"{option}: must be a number of seconds above 0, not {value!r}" in capsys.readouterr().err
    )


# --- each cause named ---------------------------------------------------------------------------


def _exec_kubeconfig(path: Path, server: str, plugin: dict[str, Any]) -> Path:
    doc = {
        "apiVersion": "v1",
        "kind": "Config",
        "clusters": [{"name": "lab", "cluster": {"server": server}}],
        "users": [{"name": "aad", "user": {"exec": plugin}}],
        "contexts": [{"name": "lab", "context": {"cluster": "lab", "user": "aad"}}],
        "current-context": "lab",
    }
    path.write_text(json.dumps(doc))
    return path


EXEC_API = "client.authentication.k8s.io/v1beta1"


def test_a_missing_exec_plugin_is_named_not_blamed_on_credentials(
    tmp_path: Path, api_server: str, cluster: FakeCluster, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))  # kubelogin is nowhere on it
    plugin = {"apiVersion": EXEC_API, "command": "kubelogin", "args": ["get-token"]}
    config = _exec_kubeconfig(tmp_path / "kubeconfig", api_server, plugin)
    run = verify(config)
    assert run.code == 2
    assert run.err == (
        "verify: error: kubeconfig: user 'aad' gets its credentials from the exec plugin "
        "'kubelogin', which is not on the PATH: install it (kubectl needs it too), or use a "
        "kubeconfig with a token\n"
    )
    assert cluster.requests == []  # nothing sent without credentials
    # The kubeconfig's own install hint, when it has one.
    plugin["installHint"] = "kubelogin is the Azure CLI's: az aks install-cli"
    run = verify(_exec_kubeconfig(tmp_path / "kubeconfig", api_server, plugin))
    assert run.err.endswith(
        "'kubelogin', which is not on the PATH: kubelogin is the Azure CLI's: az aks install-cli\n"
    )


def _plugin(tmp_path: Path, script: str) -> str:
    path = tmp_path / "get-token"
    path.write_text(f"#!{sys.executable}\n{script}")
    path.chmod(0o755)
    return str(path)


def test_a_failing_exec_plugin_says_what_it_said(tmp_path: Path, api_server: str) -> None:
    command = _plugin(
        tmp_path,
        "import sys\nsys.stderr.write('AADSTS700082: the refresh token has expired')\n"
        "sys.exit(1)\n",
    )
    config = _exec_kubeconfig(
        tmp_path / "kubeconfig", api_server, {"apiVersion": EXEC_API, "command": command}
    )
    run = verify(config)
    assert run.code == 2
    assert run.err == (
        f"verify: error: kubeconfig: the exec credential plugin {command!r} of user 'aad' "
        "failed: exec: process returned 1. AADSTS700082: the refresh token has expired\n"
    )


def test_a_working_exec_plugin_gives_the_token(tmp_path: Path, api_server: str) -> None:
    credential = {"apiVersion": EXEC_API, "kind": "ExecCredential", "status": {"token": TOKEN}}
    command = _plugin(tmp_path, f"print({json.dumps(json.dumps(credential))})\n")
    config = _exec_kubeconfig(
        tmp_path / "kubeconfig", api_server, {"apiVersion": EXEC_API, "command": command}
    )
    run = verify(config, "--skip-driver", "--skip-metrics")
    assert (run.code, run.err) == (0, "")


def test_rejected_credentials_are_401(kubeconfig: Path, api_server: str) -> None:
    run = verify(kubeconfig, context="lab-expired")
    assert run.code == 2
    assert run.err == (
        f"verify: error: the API server at {api_server} rejected the credentials (401 "
        "Unauthorized): they are expired or invalid; refresh the kubeconfig and retry\n"
    )


def test_a_missing_permission_names_the_verb_and_resource(
    kubeconfig: Path, api_server: str
) -> None:
    run = verify(kubeconfig, context="lab-no-rbac")
    assert run.code == 2
    assert run.err == (
        "verify: error: not allowed to list nodes labelled gpu-platform.io/pool=a100 at "
        f'{api_server} (403 Forbidden): nodes is forbidden: User "dev" cannot list resource '
        '"nodes" in API group "" at the cluster scope\n'
    )


def test_a_refused_connection_is_named(tmp_path: Path) -> None:
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        server = f"http://127.0.0.1:{s.getsockname()[1]}"
    run = verify(write_kubeconfig(tmp_path / "kubeconfig", server))
    assert run.code == 2
    assert run.err == (
        f"verify: error: cannot reach the API server at {server}: connection refused (nothing "
        "listens at that address and port)\n"
    )


def test_a_tls_failure_is_named(tmp_path: Path, api_server: str) -> None:
    """An https:// URL for a server that speaks plain HTTP: the TLS handshake fails."""
    server = api_server.replace("http://", "https://")
    run = verify(write_kubeconfig(tmp_path / "kubeconfig", server))
    assert run.code == 2
    assert run.err.startswith(f"verify: error: TLS with the API server at {server} failed: ")
    assert run.err.endswith(
        "; does the server speak TLS at this address (an http:// server given as https://, or "
        "a proxy in the way)?\n"
    )


def test_a_dns_failure_is_named(tmp_path: Path) -> None:
    # .invalid never resolves (RFC 6761).
    run = verify(write_kubeconfig(tmp_path / "kubeconfig", "https://gpu-aks-dev.invalid:443"))
    assert run.code == 2
    assert run.err.startswith(
        "verify: error: cannot resolve the API server's host name 'gpu-aks-dev.invalid' (DNS): "
    )
    assert run.err.endswith(
        "; check the server URL in the kubeconfig and the DNS or VPN this machine uses\n"
    )
    assert run.err.count("\n") == 1
