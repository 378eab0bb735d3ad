"""An HTTP server on 127.0.0.1 that answers the way hostile or broken servers do: never, a
byte at a time, without end, with a size it never sends. Every answer is bounded (it stops when
the server does, or after ``MAX_SECONDS``), so a test that fails cannot hang the suite."""

from __future__ import annotations

import contextlib
import http.server
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

MAX_SECONDS = 30.0
"""Longest any answer lasts, whatever the client does."""
POD = b"apiVersion: v1\nkind: Pod\nmetadata:\n  name: fetched\n"


@dataclass
class Served:
    url: str
    """``http://127.0.0.1:<port>``."""
    stop: threading.Event
    authorizations: list[str] = field(default_factory=list)
    """The Authorization headers received, in order."""


def _handler(served: Served) -> type[http.server.BaseHTTPRequestHandler]:
    class Handler(http.server.BaseHTTPRequestHandler):
        def log_message(self, *args: object) -> None:
            pass

        def _until_stopped(self, pause: float) -> Iterator[None]:
            end = time.monotonic() + MAX_SECONDS
            while not served.stop.is_set() and time.monotonic() < end:
                yield
                served.stop.wait(pause)

        def do_GET(self) -> None:
            served.authorizations.append(self.headers.get("Authorization", ""))
            with contextlib.suppress(OSError):  # the client gave up: what the test wants
                self._answer(self.path.split("?", 1)[0])

        def _answer(self, path: str) -> None:
            if "silent" in path:
                for _ in self._until_stopped(0.05):
                    pass
                return
            if path == "/redirect-to-ftp":
                self.send_response(302)
                self.send_header("Location", "ftp://127.0.0.1/pod.yaml")
                self.end_headers()
                return
            if path.startswith("/redirect/"):  # /redirect/<host:port>/<path>: a 302 there
                self.send_response(302)
                self.send_header("Location", "http://" + path.removeprefix("/redirect/"))
                self.end_headers()
                return
            if path.endswith("/missing"):
                self.send_error(404)
                return
            if path.endswith("/declared-huge"):
                self.send_response(200)
                self.send_header("Content-Length", str(10**12))
                self.end_headers()
                return
            self.send_response(200)
            self.end_headers()
            if path.endswith("/drip"):
                for _ in self._until_stopped(0.05):
                    self.wfile.write(b"#")
                    self.wfile.flush()
            elif "endless" in path:
                chunk = b"#" * 65536 + b"\n"
                for _ in self._until_stopped(0):
                    self.wfile.write(chunk)
            else:
                self.wfile.write(POD)

    return Handler


@contextmanager
def hostile_server() -> Iterator[Served]:
    """The server, stopped (and every answer ended) on the way out."""
    stop = threading.Event()
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), None)  # type: ignore[arg-type]
    served = Served(f"http://127.0.0.1:{server.server_address[1]}", stop)
    server.RequestHandlerClass = _handler(served)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        yield served
    finally:
        stop.set()
        server.shutdown()
        server.server_close()
