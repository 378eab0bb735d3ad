"""Read the NVIDIA driver version on a node: ``nvidia-smi`` exec'd in a GPU daemon pod.

Exec is a websocket (``kubernetes.stream``), not a plain HTTP call, so it sits behind the
``DriverReader`` interface: the CLI uses ``StreamExecReader``; tests serve the same websocket
from a local fake API server, or hand in recorded transcripts through another reader.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import quote

import websocket
from kubernetes import client
from kubernetes.stream.ws_client import (
    ERROR_CHANNEL,
    STDERR_CHANNEL,
    STDOUT_CHANNEL,
    V4_CHANNEL_PROTOCOL,
    create_websocket,
    get_websocket_url,
)
from websocket import ABNF

from .deadline import Deadline, TimedOut, within

NVIDIA_SMI: tuple[str, ...] = ("nvidia-smi",)
"""The guide's check (``kubectl exec <device plugin pod> -- nvidia-smi``); its table header
carries ``Driver Version``."""
EXEC_TIMEOUT = 60.0
"""Seconds one exec may take: a wedged driver can hang nvidia-smi."""
MAX_EXEC_BYTES = 16 * 2**20
"""The most one exec's output (all channels) may weigh: ``nvidia-smi -q`` of eight GPUs is
tens of KB. Past it the exec is refused, not read on into all the memory there is."""


class ExecError(Exception):
    """The command could not be run in the pod, or ended without output."""


class ExecTimeout(ExecError):
    """The command gave no answer within its limit (a wedged driver can hang nvidia-smi)."""

    def __init__(self, shown: str, limit: str) -> None:
        super().__init__(f"{shown} gave no answer within {limit}")
        self.limit = limit


@dataclass(frozen=True, slots=True)
class ExecTarget:
    node: str
    namespace: str
    pod: str
    container: str | None
    """None: the pod's only container."""


DriverReader = Callable[[ExecTarget], str]
"""Runs ``nvidia-smi`` in the target and returns what it printed (stdout, then stderr)."""
ExecFactory = Callable[[tuple[str, ...]], DriverReader]
"""Given a command, a reader that runs it in a pod (``partial(StreamExecReader, api)``)."""


def unexpected_answer(err: Exception) -> str:
    """A failed row's text for an answer no check expected (its error, shortened)."""
    return f"an answer of an unexpected shape: {type(err).__name__}: {str(err)[:200]}"


def _failure(status_json: str) -> str | None:
    """The error-channel ``Status``: None on success, else its message."""
    if not status_json:
        return None
    try:
        status = json.loads(status_json)
    except ValueError:
        return status_json.strip()
    if not isinstance(status, dict):  # a bare string, a list, a number: say what it was
        shown = status if isinstance(status, str) else json.dumps(status)
        return shown.strip()[:300] or "an empty status"
    if status.get("status") == "Success":
        return None
    return str(status.get("message") or status.get("reason") or status_json.strip())


class StreamExecReader:
    """``nvidia-smi`` over the API server's exec websocket, one connection per node.

    Safe to call from several threads at once: each call uses a client of its own. Each exec
    takes at most ``timeout`` seconds, and none runs past the run's ``deadline``.
    """

    def __init__(
        self,
        api: client.ApiClient,
        command: tuple[str, ...] = NVIDIA_SMI,
        timeout: float = EXEC_TIMEOUT,
        deadline: Deadline | None = None,
    ) -> None:
        self.api = api
        self.command = list(command)
        self.timeout = timeout
        self.deadline = deadline or Deadline()
        # The client opens exec sockets without a timeout; an API server that accepts the
        # connection and never answers would otherwise hold a worker forever.
        websocket.setdefaulttimeout(timeout)

    def __call__(self, target: ExecTarget) -> str:
        shown = " ".join(self.command)
        try:
            allowed = self.deadline.allowance(self.timeout)
        except TimedOut as err:
            raise ExecError(f"{shown} not run: {err}") from None

        def run() -> str:
            return self._exec(target, allowed.seconds)

        try:
            return within(allowed.seconds, run)
        except TimedOut:
            raise ExecTimeout(shown, allowed.limit) from None

    def _connect(self, target: ExecTarget) -> websocket.WebSocket:
        """The exec websocket, opened as ``kubernetes.stream`` opens it (the client's TLS,
        proxy and credentials), without the generated client's call machinery: nothing of the
        shared ``ApiClient`` is changed, so worker threads may exec at once."""
        path = f"/api/v1/namespaces/{quote(target.namespace)}/pods/{quote(target.pod)}/exec"
        query = [("command", word) for word in self.command]
        if target.container:
            query.append(("container", target.container))
        query += [("stderr", "true"), ("stdin", "false"), ("stdout", "true"), ("tty", "false")]
        headers: dict[str, str] = {}
        self.api.update_params_for_auth(headers, [], ["BearerToken"], path, "GET", None)
        headers["sec-websocket-protocol"] = V4_CHANNEL_PROTOCOL
        # Quoted as the generated client quotes a query (a space is %20, not +).
        encoded = "&".join(f"{key}={quote(value)}" for key, value in query)
        url = get_websocket_url(f"{self.api.configuration.host}{path}?{encoded}")
        return create_websocket(self.api.configuration, url, headers)

    def _exec(self, target: ExecTarget, seconds: float) -> str:
        try:
            ws = self._connect(target)
        except Exception as err:  # what kubernetes.stream reports as the exec's failure
            raise ExecError(f"exec into {target.namespace}/{target.pod} failed: {err}") from None
        channels: dict[int, list[bytes]] = {STDOUT_CHANNEL: [], STDERR_CHANNEL: []}
        error = b""
        received = 0
        # The caller stops waiting at ``seconds`` (``within``); this thread stops reading then
        # too, and at the size cap, rather than read a server that never stops into memory.
        end = time.monotonic() + seconds
        try:
            ws.settimeout(seconds)
            while True:
                opcode, data = ws.recv_data()
                if opcode == ABNF.OPCODE_CLOSE:
                    break
                received += len(data)
                if received > MAX_EXEC_BYTES:
                    raise ExecError(
                        f"{' '.join(self.command)} in {target.pod}: its output is larger than "
                        f"{MAX_EXEC_BYTES // 2**20} MiB: not read to its end"
                    )
                if time.monotonic() > end:
                    raise websocket.WebSocketTimeoutException
                if data and data[0] == ERROR_CHANNEL:
                    error += data[1:]
                elif data and data[0] in channels:
                    channels[data[0]].append(data[1:])
        except websocket.WebSocketTimeoutException:
            raise ExecTimeout(" ".join(self.command), f"{seconds:g} s") from None
        except (websocket.WebSocketException, OSError) as err:
            raise ExecError(f"exec into {target.namespace}/{target.pod} broke off: {err}") from None
        finally:
            ws.close()
        out = b"".join(channels[STDOUT_CHANNEL] + channels[STDERR_CHANNEL])
        text = out.decode("utf-8", errors="replace")
        failure = _failure(error.decode("utf-8", errors="replace"))
        if failure and not text.strip():
            raise ExecError(f"{' '.join(self.command)} failed in {target.pod}: {failure}")
        # A non-zero exit with output (nvidia-smi's own failure text) goes to the parser,
        # which reports the tool's message.
        return text
