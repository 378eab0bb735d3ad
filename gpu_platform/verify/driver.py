"""Read the NVIDIA driver version on a node: ``nvidia-smi`` exec'd in a GPU daemon pod.

Exec is a websocket (``kubernetes.stream``), not a plain HTTP call, so it sits behind the
``DriverReader`` interface: the CLI uses ``StreamExecReader``; tests serve the same websocket
from a local fake API server, or hand in recorded transcripts through another reader.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass

import websocket
from kubernetes import client
from kubernetes.client.exceptions import ApiException
from kubernetes.stream import stream
from kubernetes.stream.ws_client import ERROR_CHANNEL, STDERR_CHANNEL, STDOUT_CHANNEL

from .deadline import Deadline, TimedOut, within

NVIDIA_SMI: tuple[str, ...] = ("nvidia-smi",)
"""The guide's check (``kubectl exec <device plugin pod> -- nvidia-smi``); its table header
carries ``Driver Version``."""
EXEC_TIMEOUT = 60.0
"""Seconds one exec may take: a wedged driver can hang nvidia-smi."""


class ExecError(Exception):
    """The command could not be run in the pod, or ended without output."""


@dataclass(frozen=True, slots=True)
class ExecTarget:
    node: str
    namespace: str
    pod: str
    container: str | None
    """None: the pod's only container."""


DriverReader = Callable[[ExecTarget], str]
"""Runs ``nvidia-smi`` in the target and returns what it printed (stdout, then stderr)."""


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


def _own_client(shared: client.ApiClient) -> client.ApiClient:
    """A client of its own for one exec, on the shared client's configuration and headers.

    ``kubernetes.stream.stream`` swaps ``call_api`` on the client it is given for the length
    of the call. On a client shared by worker threads, one exec can then restore the plain
    HTTP ``call_api`` while another is mid-call, which sends that exec as an ordinary GET
    and fails it with 400 (an intermittent "driver" failure on a healthy node).
    """
    own = client.ApiClient(shared.configuration, cookie=shared.cookie)
    own.default_headers.update(shared.default_headers)  # User-Agent included
    return own


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
            with _own_client(self.api) as api:
                return self._exec(client.CoreV1Api(api), target, allowed.seconds)

        try:
            return within(allowed.seconds, run)
        except TimedOut:
            raise ExecError(f"{shown} gave no answer within {allowed.limit}") from None

    def _exec(self, core: client.CoreV1Api, target: ExecTarget, seconds: float) -> str:
        try:
            ws = stream(
                core.connect_get_namespaced_pod_exec,
                target.pod,
                target.namespace,
                command=self.command,
                container=target.container,
                stdin=False,
                stdout=True,
                stderr=True,
                tty=False,
                _preload_content=False,
            )
        except ApiException as err:
            raise ExecError(
                f"exec into {target.namespace}/{target.pod} failed: {err.reason}"
            ) from None
        try:
            ws.run_forever(timeout=seconds)
            if ws.is_open():
                raise ExecError(f"{' '.join(self.command)} gave no answer in {seconds:g}s")
            out = ws.read_channel(STDOUT_CHANNEL) + ws.read_channel(STDERR_CHANNEL)
            failure = _failure(ws.read_channel(ERROR_CHANNEL))
        except (websocket.WebSocketException, OSError) as err:
            raise ExecError(f"exec into {target.namespace}/{target.pod} broke off: {err}") from None
        finally:
            ws.close()
        if failure and not out.strip():
            raise ExecError(f"{' '.join(self.command)} failed in {target.pod}: {failure}")
        # A non-zero exit with output (nvidia-smi's own failure text) goes to the parser,
        # which reports the tool's message.
        return str(out)
