"""Why a request to the API server failed, named for the person who has to fix it.

Each cause has its own wording, so an operator can tell them apart at a glance: the host name
does not resolve (DNS), nothing listens (connection refused), the connection cannot be opened
in time, TLS fails (a certificate the kubeconfig's CA does not vouch for, or a server that does
not speak TLS), the server stops answering (read timeout), the connection drops, the
credentials are rejected (401), or the identity lacks a permission (403, with the verb and
resource).
"""

from __future__ import annotations

import json
import socket

import urllib3
from kubernetes.client.exceptions import ApiException
from urllib3.exceptions import (
    ConnectTimeoutError,
    MaxRetryError,
    NameResolutionError,
    NewConnectionError,
    ProtocolError,
    ReadTimeoutError,
    SSLError,
)


def _root(err: BaseException) -> BaseException:
    """The urllib3 error under ``MaxRetryError`` (one attempt is made, so one reason)."""
    while isinstance(err, MaxRetryError) and err.reason is not None:
        err = err.reason
    return err


def _errno_text(err: BaseException | None) -> str:
    if isinstance(err, OSError) and err.strerror:
        return err.strerror
    return str(err) if err is not None else ""


def transport(err: urllib3.exceptions.HTTPError, server: str, read_timeout: float) -> str:
    """The cause of a request that got no HTTP answer, as one line."""
    cause = _root(err)
    if isinstance(cause, NameResolutionError):
        return (
            f"cannot resolve the API server's host name {cause.conn.host!r} (DNS): "
            f"{_errno_text(cause.__cause__) or _errno_text(cause)}; check the server URL in the "
            "kubeconfig and the DNS or VPN this machine uses"
        )
    if isinstance(cause, NewConnectionError):
        underlying = cause.__cause__ or cause.__context__
        if isinstance(underlying, ConnectionRefusedError):
            return (
                f"cannot reach the API server at {server}: connection refused (nothing "
                "listens at that address and port)"
            )
        if isinstance(underlying, socket.gaierror):
            return f"cannot resolve the API server's host name (DNS): {_errno_text(underlying)}"
        return f"cannot reach the API server at {server}: {_errno_text(underlying) or cause}"
    if isinstance(cause, ConnectTimeoutError):  # after NewConnectionError, its subclass
        return (
            f"cannot reach the API server at {server}: no connection within the connect "
            "timeout (a firewall or an authorized-IP list that drops this machine's address?)"
        )
    if isinstance(cause, SSLError):
        reason = str(cause.args[0] if cause.args else cause)
        hint = (
            "the server's certificate is not signed by the kubeconfig's certificate-authority"
            "-data (or the server name does not match it)"
            if "CERTIFICATE_VERIFY_FAILED" in reason or "certificate verify failed" in reason
            else "does the server speak TLS at this address (an http:// server given as "
            "https://, or a proxy in the way)?"
        )
        return f"TLS with the API server at {server} failed: {reason}; {hint}"
    if isinstance(cause, ReadTimeoutError):
        return (
            f"the API server at {server} stopped answering: nothing for {read_timeout:g} s "
            "(read timeout)"
        )
    if isinstance(cause, ProtocolError):
        underlying = cause.args[1] if len(cause.args) > 1 else cause
        return f"the connection to the API server at {server} broke off: {underlying}"
    return f"cannot reach the API server at {server}: {_short(cause)}"


def http_status(err: ApiException, server: str, what: str) -> str:
    """The cause of an HTTP error answer, as one line."""
    reason = ""
    try:
        body = json.loads(err.body or "{}")
        reason = str(body.get("message", "")) if isinstance(body, dict) else ""
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


def _short(err: object) -> str:
    """The last, most specific part of a urllib3 error chain (``Connection refused``...)."""
    text = str(err)
    return text.rsplit(": ", 1)[-1].strip(" ')\"") or text
