"""readiness.causes: each way a request can fail gets its own line (the end-to-end cases run
against the fake API server in tests/stacks/test_verify.py; these are the ones a local server
cannot stage, and the exact wording of each)."""

from __future__ import annotations

import json
import socket
import ssl

import pytest
from kubernetes.client.exceptions import ApiException
from urllib3.connection import HTTPSConnection
from urllib3.connectionpool import HTTPSConnectionPool
from urllib3.exceptions import (
    ConnectTimeoutError,
    HTTPError,
    MaxRetryError,
    NameResolutionError,
    NewConnectionError,
    ProtocolError,
    ReadTimeoutError,
    SSLError,
)

from gpu_platform.verify.causes import http_status, transport

SERVER = "https://gpu-aks-dev.hcp.westeurope.azmk8s.io:443"
HOST = "gpu-aks-dev.hcp.westeurope.azmk8s.io"
CONN = HTTPSConnection(HOST, 443)
POOL = HTTPSConnectionPool(HOST, 443)


def _caused(err: HTTPError, cause: BaseException) -> MaxRetryError:
    """``err`` raised from ``cause``, wrapped as one failed attempt (as urllib3 raises it)."""
    err.__cause__ = cause
    return MaxRetryError(POOL, "/api/v1/nodes", err)


def test_dns() -> None:
    gai = socket.gaierror(socket.EAI_NONAME, "Name or service not known")
    err = _caused(NameResolutionError(HOST, CONN, gai), gai)
    assert transport(err, SERVER, 30) == (
        f"cannot resolve the API server's host name {HOST!r} (DNS): Name or service not known; "
        "check the server URL in the kubeconfig and the DNS or VPN this machine uses"
    )


def test_connection_refused() -> None:
    refused = ConnectionRefusedError(111, "Connection refused")
    err = _caused(NewConnectionError(CONN, "Failed to establish a new connection"), refused)
    assert transport(err, SERVER, 30) == (
        f"cannot reach the API server at {SERVER}: connection refused (nothing listens at that "
        "address and port)"
    )


def test_no_route() -> None:
    unreachable = OSError(113, "No route to host")
    err = _caused(NewConnectionError(CONN, "Failed to establish a new connection"), unreachable)
    expected = f"cannot reach the API server at {SERVER}: No route to host"
    assert transport(err, SERVER, 30) == expected


def test_connect_timeout() -> None:
    err = MaxRetryError(POOL, "/api/v1/nodes", ConnectTimeoutError(CONN, "timed out"))
    assert transport(err, SERVER, 30) == (
        f"cannot reach the API server at {SERVER}: no connection within the connect timeout "
        "(a firewall or an authorized-IP list that drops this machine's address?)"
    )


@pytest.mark.parametrize(
    ("reason", "hint"),
    [
        (
            "[SSL: CERTIFICATE_VERIFY_FAILED] certificate verify failed: self-signed certificate",
            "the server's certificate is not signed by the kubeconfig's certificate-authority"
            "-data (or the server name does not match it)",
        ),
        (
            "[SSL: WRONG_VERSION_NUMBER] wrong version number",
            "does the server speak TLS at this address (an http:// server given as https://, "
            "or a proxy in the way)?",
        ),
    ],
)
def test_tls(reason: str, hint: str) -> None:
    err = MaxRetryError(POOL, "/api/v1/nodes", SSLError(ssl.SSLError(1, reason)))
    assert transport(err, SERVER, 30) == (
        f"TLS with the API server at {SERVER} failed: {ssl.SSLError(1, reason)}; {hint}"
    )


def test_read_timeout() -> None:
    err = MaxRetryError(POOL, "/api/v1/nodes", ReadTimeoutError(POOL, "/", "Read timed out."))
    assert transport(err, SERVER, 12.5) == (
        f"the API server at {SERVER} stopped answering: nothing for 12.5 s (read timeout)"
    )


def test_dropped_connection() -> None:
    reset = ConnectionResetError(104, "Connection reset by peer")
    err = ProtocolError("Connection aborted.", reset)
    assert transport(err, SERVER, 30) == (
        f"the connection to the API server at {SERVER} broke off: [Errno 104] Connection reset "
        "by peer"
    )


def _api_error(status: int, reason: str, message: str) -> ApiException:
    err = ApiException(status=status, reason=reason)
    err.body = json.dumps({"kind": "Status", "message": message, "code": status})
    return err


def test_http_statuses() -> None:
    what = "list nodes labelled gpu-platform.io/pool=t4"
    assert http_status(_api_error(401, "Unauthorized", "Unauthorized"), SERVER, what) == (
        f"the API server at {SERVER} rejected the credentials (401 Unauthorized): they are "
        "expired or invalid; refresh the kubeconfig and retry"
    )
    forbidden = 'nodes is forbidden: User "dev" cannot list resource "nodes"'
    assert http_status(_api_error(403, "Forbidden", forbidden), SERVER, what) == (
        f"not allowed to {what} at {SERVER} (403 Forbidden): {forbidden}"
    )
    broken = _api_error(503, "Service Unavailable", "etcdserver: request timed out")
    assert http_status(broken, SERVER, what) == (
        f"{what} at {SERVER} failed: HTTP 503 etcdserver: request timed out"
    )
    not_json = ApiException(status=502, reason="Bad Gateway")
    not_json.body = "<html>bad gateway</html>"
    assert http_status(not_json, SERVER, what) == f"{what} at {SERVER} failed: HTTP 502 Bad Gateway"
