"""What a program names by URL (a manifest, a values file, a chart archive), fetched within
bounds: a size cap per kind of content and a deadline per fetch, within the run's.

A socket timeout bounds one wait for data, not a download: a server that drips a byte a
second never trips it. So the download runs in a helper thread that reads what has arrived
(``read1``) and stops at the fetch's deadline or its size cap, and the caller stops waiting at
the deadline even when the helper is stuck (in name resolution, say): the abandoned thread
ends with its socket and the process never waits for it. Only ``http`` and ``https`` are
fetched, as the Kubernetes provider fetches (Go's ``http.Get``); a user and password in the URL
are sent as basic authentication, and never shown (``redact``). A redirect is followed as Go
follows it: only to ``http`` or ``https``, and the credentials only to the same host (urllib
would send them on to any host the server names).
"""

from __future__ import annotations

import base64
import threading
import time
import urllib.parse
from dataclasses import dataclass
from typing import IO, TYPE_CHECKING
from urllib.parse import urljoin, urlsplit

if TYPE_CHECKING:
    from http.client import HTTPMessage
    from urllib.request import HTTPRedirectHandler, Request

from .deadline import NO_DEADLINE, RunDeadline
from .redact import redact_url

FETCH_SECONDS = 60.0
"""Most seconds one fetch may take, connect to last byte (the run's deadline may cut it)."""
_CHUNK = 64 * 1024
_GRACE = 1.0
"""Seconds the caller waits past a fetch's deadline for its thread to report."""


class FetchError(Exception):
    """The URL could not be had: unreachable, refused, an error status, too slow."""


class FetchTooLarge(FetchError):
    """The answer is larger than its cap: refused, never read to the end."""


class _TooSlow(FetchError):
    """No complete answer by the fetch's deadline."""


class _RedirectRefused(FetchError):
    """A redirect to a scheme that is not fetched (said with the URL by ``_download``)."""


@dataclass(frozen=True)
class _Request:
    url: str
    headers: dict[str, str]


def _request(url: str) -> _Request:
    parts = urllib.parse.urlsplit(url)
    if parts.scheme not in ("http", "https"):
        raise FetchError(
            f"{redact_url(url)}: only http and https URLs are fetched (as the Kubernetes "
            "provider fetches)"
        )
    headers = {"User-Agent": "gpu-platform-offline-preview"}
    if parts.username is not None:
        user = urllib.parse.unquote(parts.username)
        password = urllib.parse.unquote(parts.password or "")
        token = base64.b64encode(f"{user}:{password}".encode()).decode()
        headers["Authorization"] = f"Basic {token}"
        host = parts.hostname or ""
        netloc = f"[{host}]" if ":" in host else host
        if parts.port is not None:
            netloc += f":{parts.port}"
        url = urllib.parse.urlunsplit(parts._replace(netloc=netloc))
    return _Request(url, headers)


def _redirects() -> HTTPRedirectHandler:
    from urllib.request import HTTPRedirectHandler  # only when a program fetches by URL

    class Redirects(HTTPRedirectHandler):
        """urllib's redirects, but to http(s) only, and without the credentials to another
        host (Go's client drops ``Authorization`` there)."""

        def redirect_request(  # noqa: PLR0917 - urllib's signature
            self,
            req: Request,
            fp: IO[bytes],
            code: int,
            msg: str,
            headers: HTTPMessage,
            newurl: str,
        ) -> Request | None:
            target = urlsplit(urljoin(req.full_url, newurl))
            if target.scheme not in ("http", "https"):
                raise _RedirectRefused(f"redirected to {redact_url(newurl)}: only http and https")
            new = super().redirect_request(req, fp, code, msg, headers, newurl)
            if new is not None and target.hostname != urlsplit(req.full_url).hostname:
                new.remove_header("Authorization")
            return new

    return Redirects()


def _download(
    request: _Request, shown: str, limit: int, end: float, stop: threading.Event
) -> bytes:
    import urllib.request  # only when a program fetches by URL: ~20 ms of imports

    timeout = max(0.1, end - time.monotonic())
    try:
        opener = urllib.request.build_opener(_redirects())
        with opener.open(
            urllib.request.Request(request.url, headers=request.headers), timeout=timeout
        ) as answer:
            declared = answer.headers.get("Content-Length")
            if declared and declared.isdigit() and int(declared) > limit:
                raise FetchTooLarge(f"{shown}: {declared} bytes, more than its cap of {limit}")
            data = bytearray()
            while not stop.is_set():
                chunk = answer.read1(_CHUNK)
                if not chunk:
                    return bytes(data)
                data += chunk
                if len(data) > limit:
                    raise FetchTooLarge(f"{shown}: more than its cap of {limit} bytes")
                if time.monotonic() > end:
                    break
            raise TimeoutError
    except _RedirectRefused as err:
        raise FetchError(f"{shown}: {err}") from None
    except FetchError:
        raise
    except TimeoutError:
        raise _TooSlow(shown) from None
    except (OSError, ValueError) as err:
        reason = getattr(err, "reason", None) or getattr(err, "strerror", None) or err
        if isinstance(reason, TimeoutError):  # urllib's URLError around a socket timeout
            raise _TooSlow(shown) from None
        raise FetchError(f"{shown}: {redact_url(str(reason))}") from None


def fetch_seconds() -> float:
    """``FETCH_SECONDS``, read when a fetch starts."""
    return FETCH_SECONDS


def fetch(
    url: str,
    *,
    limit: int,
    doing: str,
    deadline: RunDeadline = NO_DEADLINE,
    seconds: float | None = None,
) -> bytes:
    """The body at ``url``, at most ``limit`` bytes, within ``seconds`` (``FETCH_SECONDS``)
    and the run's ``deadline``. ``FetchError`` (``FetchTooLarge`` past the cap) names the URL
    without its credentials; past the run's deadline, ``PreviewTimedOut`` says it was
    ``doing`` this."""
    seconds = fetch_seconds() if seconds is None else seconds
    shown = redact_url(url)
    request = _request(url)
    allowed = deadline.allow(seconds)
    run_binds = deadline.binds(seconds)
    end = time.monotonic() + allowed
    outcome: dict[str, bytes | BaseException] = {}
    stop = threading.Event()

    def work() -> None:
        try:
            outcome["data"] = _download(request, shown, limit, end, stop)
        except BaseException as err:  # handed to the caller's thread
            outcome["error"] = err

    helper = threading.Thread(target=work, name=f"fetch {shown}", daemon=True)
    helper.start()
    helper.join(allowed + _GRACE)
    stop.set()
    error = outcome.get("error")
    if helper.is_alive() or isinstance(error, _TooSlow):
        if run_binds:
            raise deadline.expired(doing)
        raise FetchError(f"{shown}: no complete answer within {seconds:g} s (its deadline)")
    if isinstance(error, BaseException):
        raise error
    data = outcome["data"]
    assert isinstance(data, bytes)
    return data
