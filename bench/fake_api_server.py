"""A fast, read-only fake Kubernetes API server for ``make verify`` at fleet size.

It answers what ``gpu-platform-verify`` sends, the way the API server does, from objects held
as serialized JSON: lists (paged by ``limit``/``continue``, label and ``spec.nodeName`` field
selectors), namespaces by name, the pod proxy (an exporter's ``/metrics``) and exec (a
``v4.channel.k8s.io`` websocket). Each list answer is built from bytes joined once per
selector, so the server's own cost stays small beside the client's: the bench measures
``make verify``, not its fake cluster. Writes are refused (405).
"""

from __future__ import annotations

import base64
import hashlib
import json
import struct
import threading
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, cast
from urllib.parse import parse_qs, unquote, urlparse

WS_GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
"""RFC 6455's handshake constant."""
LIST_KINDS = {
    "nodes": ("NodeList", "v1"),
    "pods": ("PodList", "v1"),
    "daemonsets": ("DaemonSetList", "apps/v1"),
    "networkpolicies": ("NetworkPolicyList", "networking.k8s.io/v1"),
    "resourcequotas": ("ResourceQuotaList", "v1"),
    "limitranges": ("LimitRangeList", "v1"),
    "validatingadmissionpolicybindings": (
        "ValidatingAdmissionPolicyBindingList",
        "admissionregistration.k8s.io/v1",
    ),
}


def ws_frame(payload: bytes, opcode: int = 0x2) -> bytes:
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


def ws_accept(key: str) -> str:
    """The ``Sec-WebSocket-Accept`` answer to a client's key."""
    return base64.b64encode(hashlib.sha1((key + WS_GUID).encode()).digest()).decode()


@dataclass(frozen=True, slots=True)
class Item:
    """One object: what list requests filter on, and its JSON."""

    namespace: str | None
    labels: dict[str, str]
    node: str
    """``spec.nodeName`` (pods), ``""`` otherwise."""
    data: bytes


def item(obj: dict[str, Any]) -> Item:
    meta = obj.get("metadata") or {}
    return Item(
        meta.get("namespace"),
        dict(meta.get("labels") or {}),
        str((obj.get("spec") or {}).get("nodeName") or ""),
        json.dumps(obj, separators=(",", ":")).encode(),
    )


@dataclass
class FleetData:
    """What the fake cluster holds: objects by kind, namespaces by name, each exporter pod's
    page (made on request, so thousands of pages need no memory) and each exec's output."""

    items: dict[str, list[Item]] = field(default_factory=dict)
    namespaces: dict[str, bytes] = field(default_factory=dict)
    metrics: Callable[[str], str | None] = lambda pod: None
    """Exporter pod -> its ``/metrics`` page, None for no such pod."""
    execs: Callable[[str, str], str | None] = lambda pod, command: None
    """(pod, command joined by spaces) -> what it prints, None: the container has no such
    command."""


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True

    @property
    def fleet(self) -> FleetServer:
        return cast(FleetServer, self.server)

    def log_message(self, format: str, *args: Any) -> None:
        return

    def _send(self, code: int, data: bytes, content_type: str = "application/json") -> None:
        self.send_response(code)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _status(self, code: int, reason: str, message: str) -> None:
        body = {"kind": "Status", "apiVersion": "v1", "status": "Failure", "message": message}
        self._send(code, json.dumps({**body, "reason": reason, "code": code}).encode())

    def _refuse(self) -> None:
        self.fleet.count("write")
        self._status(405, "MethodNotAllowed", "the fleet cluster is read-only")

    def do_POST(self) -> None:
        self._refuse()

    def do_PUT(self) -> None:
        self._refuse()

    def do_PATCH(self) -> None:
        self._refuse()

    def do_DELETE(self) -> None:
        self._refuse()

    def do_GET(self) -> None:
        url = urlparse(self.path)
        query = parse_qs(url.query)
        parts = url.path.strip("/").split("/")
        # /api/v1/namespaces/<ns>/pods/<pod>/exec, .../pods/<pod:port>/proxy/metrics
        if len(parts) >= 7 and parts[2] == "namespaces" and parts[4] == "pods":
            if parts[6] == "exec":
                self.fleet.count("exec")
                self._exec(unquote(parts[5]), " ".join(query.get("command", [])))
                return
            if parts[6] == "proxy":
                self.fleet.count("proxy")
                self._proxy(unquote(parts[5]).partition(":")[0])
                return
        kind, namespace = _list_route(parts)
        if kind is not None:
            self.fleet.count(f"list {kind}")
            self._list(kind, namespace, {k: v[0] for k, v in query.items()})
            return
        if len(parts) == 4 and parts[:3] == ["api", "v1", "namespaces"]:
            self.fleet.count("get namespace")
            found = self.fleet.data.namespaces.get(parts[3])
            if found is None:
                self._status(404, "NotFound", f'namespaces "{parts[3]}" not found')
            else:
                self._send(200, found)
            return
        self.fleet.count("not found")
        self._status(404, "NotFound", f"the fleet cluster has no {url.path}")

    def _list(self, kind: str, namespace: str | None, query: dict[str, str]) -> None:
        selected = self.fleet.selected(
            kind, namespace, query.get("labelSelector", ""), query.get("fieldSelector", "")
        )
        start = int(query.get("continue", "0"))
        limit = int(query.get("limit", "0")) or len(selected)
        page = selected[start : start + limit]
        meta = {"resourceVersion": "1"}
        if start + limit < len(selected):
            meta["continue"] = str(start + limit)
        list_kind, version = LIST_KINDS[kind]
        head = json.dumps({"kind": list_kind, "apiVersion": version, "metadata": meta})
        self._send(200, head[:-1].encode() + b',"items":[' + b",".join(page) + b"]}")

    def _proxy(self, pod: str) -> None:
        page = self.fleet.data.metrics(pod)
        if page is None:
            self._status(503, "ServiceUnavailable", f"no exporter answers in pod {pod}")
            return
        self._send(200, page.encode(), "text/plain; version=0.0.4; charset=utf-8")

    def _exec(self, pod: str, command: str) -> None:
        self.send_response(101, "Switching Protocols")
        self.send_header("Upgrade", "websocket")
        self.send_header("Connection", "Upgrade")
        self.send_header(
            "Sec-WebSocket-Accept", ws_accept(self.headers.get("Sec-WebSocket-Key", ""))
        )
        self.send_header("Sec-WebSocket-Protocol", "v4.channel.k8s.io")
        self.end_headers()
        printed = self.fleet.data.execs(pod, command)
        if printed is None:
            status = {
                "status": "Failure",
                "reason": "InternalError",
                "message": f'exec: "{command.split(maxsplit=1)[0]}": executable file not found '
                "in $PATH",
            }
        else:
            status = {"status": "Success"}
            self.wfile.write(ws_frame(b"\x01" + printed.encode()))
        self.wfile.write(ws_frame(b"\x03" + json.dumps({"metadata": {}, **status}).encode()))
        self.wfile.write(ws_frame(struct.pack("!H", 1000), opcode=0x8))
        self.wfile.flush()
        self.close_connection = True


def _list_route(parts: list[str]) -> tuple[str | None, str | None]:
    """The kind (and namespace) a list path names: ``api/v1/nodes``,
    ``api/v1/namespaces/<ns>/pods``, ``apis/<group>/<version>/namespaces/<ns>/<kind>``..."""
    core = parts[:2] == ["api", "v1"]
    rest = parts[2:] if core else parts[3:]
    if not core and (len(parts) < 3 or parts[0] != "apis"):
        return None, None
    if len(rest) == 1 and rest[0] in LIST_KINDS:
        return rest[0], None
    if len(rest) == 3 and rest[0] == "namespaces" and rest[2] in LIST_KINDS:
        return rest[2], rest[1]
    return None, None


def _matches(found: Item, labels: str, fields: str) -> bool:
    for term in filter(None, labels.split(",")):
        key, _, value = term.partition("=")
        if found.labels.get(key) != value:
            return False
    for term in filter(None, fields.split(",")):
        key, _, value = term.partition("=")
        if key != "spec.nodeName" or found.node != value:
            return False
    return True


class FleetServer(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 256

    def __init__(self, data: FleetData) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.data = data
        self.requests: Counter[str] = Counter()
        self._lock = threading.Lock()
        self._selections: dict[tuple[str, str | None, str, str], list[bytes]] = {}
        self._by_node: dict[str, list[Item]] | None = None

    def count(self, what: str) -> None:
        with self._lock:
            self.requests[what] += 1

    def selected(self, kind: str, namespace: str | None, labels: str, fields: str) -> list[bytes]:
        """The JSON of the objects a list asks for, worked out once per distinct request."""
        key = (kind, namespace, labels, fields)
        with self._lock:
            cached = self._selections.get(key)
            if cached is not None:
                return cached
            candidates = self.data.items.get(kind, [])
            node = fields.removeprefix("spec.nodeName=") if fields.startswith("spec.") else ""
            if node and "," not in fields and kind == "pods":
                if self._by_node is None:
                    self._by_node = {}
                    for pod in candidates:
                        self._by_node.setdefault(pod.node, []).append(pod)
                candidates, fields = self._by_node.get(node, []), ""
            found = [
                i.data
                for i in candidates
                if (namespace is None or i.namespace == namespace) and _matches(i, labels, fields)
            ]
            if not (labels or fields) or kind != "pods":
                self._selections[key] = found  # per-node pod lists are read once each
            return found


@contextmanager
def serving(data: FleetData) -> Iterator[FleetServer]:
    """The fake API server on 127.0.0.1 for the block."""
    server = FleetServer(data)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05})
    thread.daemon = True
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


def url_of(server: FleetServer) -> str:
    return f"http://127.0.0.1:{server.server_address[1]}"
