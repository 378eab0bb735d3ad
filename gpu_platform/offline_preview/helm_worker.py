"""Helm's Go SDK in a process of its own, so a chart or a repository cannot take the preview
down with it.

Helm renders and pulls in native code that Python cannot interrupt: a template that loops, a
repository index that never ends or a render of gigabytes would hold the preview past its
deadline or abort the Go runtime, and the preview with it. Here it runs in a worker process
(``HelmWorker``) that the preview kills at its deadline, whose memory is capped
(``RLIMIT_DATA``: Go then aborts, and the preview reports the bound), and whose answers are
read up to a size cap. One worker serves every chart of a run; a worker that failed is
replaced.

The worker is this file run as a script (``python -I helm_worker.py LIMIT [SDK_DIR]``): it
imports Helm's SDK and the standard library only, and answers one JSON line per request.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any


def _render(helm: Any, request: dict[str, Any]) -> dict[str, Any]:
    with helm.Chart.load(request["chart"]) as chart:
        crds = chart.crds if request["include_crds"] else []
        manifests = chart.render(
            request["values"],
            name=request["release"],
            namespace=request["namespace"],
            is_install=True,
        )
    return {"crds": crds, "manifests": manifests}


def _pull(helm: Any, request: dict[str, Any]) -> dict[str, Any]:
    helm.pull(
        request["chart_ref"],
        destination=request["destination"],
        version=request["version"],
        repo_url=request["repo_url"],
        plain_http=request["plain_http"],
        username=request["username"],
        password=request["password"],
    )
    return {}


_OPERATIONS = {"render": _render, "pull": _pull}


def _answer(message: dict[str, Any]) -> None:
    sys.stdout.buffer.write(json.dumps(message).encode() + b"\n")
    sys.stdout.buffer.flush()


def serve(limit: int, sdk_dir: str) -> None:
    """Answer requests from stdin until it closes; the first line says whether Helm loaded."""
    if sdk_dir:
        sys.path.append(sdk_dir)
    try:
        import resource

        resource.setrlimit(resource.RLIMIT_DATA, (limit, limit))
    except (ImportError, ValueError, OSError):
        pass  # no such limit here (not Linux): the deadline still bounds the worker
    try:
        import helm_python as helm
    except Exception as err:  # the SDK or its native library is missing or broken
        _answer({"error": "HelmLibraryError", "message": f"{type(err).__name__}: {err}"})
        return
    _answer({"ready": True})
    for line in sys.stdin.buffer:
        request = json.loads(line)
        try:
            _answer({"ok": _OPERATIONS[request["op"]](helm, request)})
        except helm.HelmError as err:
            _answer({"error": type(err).__name__, "message": str(err)})
        except Exception as err:  # a bug or a bad request: said, and the worker goes on
            _answer({"error": type(err).__name__, "message": str(err)})


if __name__ == "__main__":
    os.environ.setdefault("GOTRACEBACK", "none")  # a crash says why, without every goroutine
    serve(int(sys.argv[1]), sys.argv[2] if len(sys.argv) > 2 else "")
