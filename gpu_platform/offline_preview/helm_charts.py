"""Helm charts found, pulled and rendered as the Kubernetes provider's Helm v4 ``Chart`` does.

Where a chart comes from (the ``chart`` input, the ``Chart`` docs' "Chart Resolution", in the
order Helm's ``LocateChart`` tries them):

1. ``oci://host/path/name`` (with ``version``): pulled from the OCI registry;
2. a local chart folder or packaged ``.tgz``, relative to the program's folder;
3. an ``https://.../name-1.2.3.tgz`` URL: downloaded;
4. ``name`` with ``repositoryOpts.repo`` (a repository URL): pulled from that repository;
5. ``alias/name``: the repository Helm's own configuration names ``alias``
   (``$HELM_REPOSITORY_CONFIG``, else ``~/.config/helm/repositories.yaml``).

Any other chart pinned to a version is looked up first in the folders of
``$GPU_PLATFORM_CHARTS`` (``:``-separated; ``<name>-<version>/`` or ``<name>-<version>.tgz``:
a copy the user gives), then, when it names where it comes from, in the cache
(``~/.cache/gpu-platform/charts``), and only then pulled, into the cache, so it is fetched
once. An unpinned chart is pulled every time (Helm takes the latest version). When none of
that works, ``ChartUnavailable`` says why.

Rendering uses Helm's Go SDK as a library (``helm-python-sdk``: no helm binary). Its wheel
unpacks to ~255 MB, three copies of one 85 MB native library, so it is not a runtime
requirement: the dev install has it, and anywhere else it is installed on first use, once, into
``~/.cache/gpu-platform/python/helm-python-sdk-<version>`` (``helm_sdk``), where the copies become
links to one file: ~87 MB.

The chart is untrusted input, so Helm renders and pulls in a worker process
(``helm_worker``) held to the run's deadline, to ``HELM_MEMORY_BYTES`` of memory and to
``RENDER_MAX_BYTES`` of answer; a pull also to its fetch's deadline (``fetch.FETCH_SECONDS``). A
chart archive is capped as Helm caps it, at ``MAX_CHART_BYTES`` decompressed, which Helm's
loader enforces itself (and, in the Helm 4.2.3 the SDK embeds, 5 MiB per file of a chart
folder); the same number caps the download of a ``.tgz`` given by URL. A repository URL's
credentials never name a cache folder and are never shown (``redact``).
"""

from __future__ import annotations

import atexit
import contextlib
import hashlib
import importlib
import importlib.util
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

import yaml

from gpu_platform.stack_config.yaml_file import InputFileError, read_text

from .cache import cache_dir, find_uv, isolated_install_env, offline_mode
from .deadline import NO_DEADLINE, RunDeadline
from .fetch import FetchError, FetchTooLarge, fetch, fetch_seconds
from .kube_manifests import ManifestError, decode
from .program_guard import become_reaper, children_of, end_processes
from .redact import redact_url, redact_urls

HELM_SDK = "helm-python-sdk==0.2.2"
"""What ``helm_sdk`` installs on first use: the version constraints.txt pins."""
HOOK_ANNOTATION = "helm.sh/hook"
MAX_CHART_BYTES = 100 * 1024 * 1024
"""Helm's own cap on a chart, decompressed: ``MaxDecompressedChartSize``, 100 MiB
(helm/helm ``pkg/chart/loader/archive/archive.go``, read at 01f45f9). Also the most a chart
archive fetched by URL may weigh: compressed, it is smaller than what it holds."""
HELM_MEMORY_BYTES = 1024 * 1024 * 1024
"""The Helm worker's data memory (``RLIMIT_DATA``); our charts render within 100 MiB."""
_OUT_OF_MEMORY = ("out of memory", "cannot allocate memory", "pthread_create failed")
"""What Go's runtime says when the worker reaches its data memory bound."""
RENDER_MAX_BYTES = MAX_CHART_BYTES
"""The most one answer of the worker may weigh (a chart's rendered objects, as JSON)."""
_MIB = 1024 * 1024
_START_SECONDS = 60.0
"""Seconds the worker may take to load Helm's SDK."""


class ChartUnavailable(Exception):
    """The chart could not be had (offline, not found, no Helm SDK): the reason."""


class ChartRenderError(Exception):
    """Helm failed to render the chart (bad values, a failing template): Helm's message."""


class ChartBoundExceeded(ChartRenderError):
    """The chart or its repository went past a bound: Helm's memory, the size of its answer,
    an archive's size."""


def _installer() -> list[str] | None:
    """What installs a package for this interpreter: the project's or the PATH's uv, the uv
    this interpreter imports, else its pip. None in a virtualenv uv made (no pip) where uv is
    not on the PATH: ``python -m pip`` would only say "No module named pip"."""
    uv = find_uv()
    no_config = ["--no-config", "--python", sys.executable]
    if uv:
        return [uv, "pip", "install", "-q", *no_config]
    if importlib.util.find_spec("uv") is not None:
        return [sys.executable, "-m", "uv", "pip", "install", "-q", *no_config]
    if importlib.util.find_spec("pip") is not None:
        return [
            *(sys.executable, "-m", "pip", "install", "-q"),
            *("--isolated", "--disable-pip-version-check"),
        ]
    return None


def _install_helm_sdk(target: Path) -> None:
    pip = _installer()
    if pip is None:
        raise ChartUnavailable(
            f"Helm's SDK ({HELM_SDK}) is not installed, and nothing here can install it (no uv "
            f"on the PATH, no pip in {sys.executable}): install it into this environment, "
            f"`uv pip install --python {sys.executable} {HELM_SDK}`"
        )
    print(
        f"offline preview: installing {HELM_SDK} (Helm's Go SDK, ~90 MB) into {target} "
        "(once, to render Helm charts)",
        file=sys.stderr,
    )
    partial = target.with_name(target.name + ".partial")
    shutil.rmtree(partial, ignore_errors=True)
    target.parent.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(
        [*pip, "--target", str(partial), HELM_SDK],
        capture_output=True,
        text=True,
        check=False,
        env=isolated_install_env(),
        cwd=target.parent,
    )
    if done.returncode != 0:
        raise ChartUnavailable(
            f"Helm's SDK ({HELM_SDK}) is not installed and installing it failed: "
            f"{done.stderr.strip()[-300:]}"
        )
    _link_copies(partial / "helm_python" / "lib")
    shutil.rmtree(target, ignore_errors=True)
    partial.rename(target)


def _link_copies(folder: Path) -> None:
    """Each file in ``folder`` that repeats another byte for byte becomes a link to it.

    The wheel carries the native library three times (``libhelm_c.so``, ``.so.0`` and
    ``.so.0.2.2``: a zip has no symlinks), 85 MB each; the versioned name keeps the bytes and
    the other two link to it, as a system install lays out a shared library."""
    if not folder.is_dir():
        return
    kept: dict[tuple[int, str], Path] = {}
    # The longest name first: libhelm_c.so.0.2.2 is the file, the shorter names link to it.
    for path in sorted(folder.iterdir(), key=lambda p: (-len(p.name), p.name)):
        if path.is_symlink() or not path.is_file():
            continue
        with path.open("rb") as handle:
            key = (path.stat().st_size, hashlib.file_digest(handle, "sha256").hexdigest())
        if key not in kept:
            kept[key] = path
            continue
        path.unlink()
        path.symlink_to(kept[key].name)


def helm_sdk_dir() -> str:
    """Where ``helm_python`` is: "" when this interpreter has it, else the cached install
    (made on first use; never with ``--offline``)."""
    if importlib.util.find_spec("helm_python") is not None:
        return ""
    target = cache_dir("python") / HELM_SDK.replace("==", "-")
    if not (target / "helm_python").is_dir():
        if offline_mode():
            raise ChartUnavailable(
                f"Helm's SDK ({HELM_SDK}) is not installed, and --offline installs nothing: "
                f"install it first, `uv pip install --python {sys.executable} {HELM_SDK}`"
            )
        _install_helm_sdk(target)
    return str(target)


def helm_sdk() -> ModuleType:
    """``helm_python`` in this process (to package a chart, in tests): this interpreter's,
    else the cached install. Charts render and pull in the worker (``HelmWorker``)."""
    target = helm_sdk_dir()
    if target and target not in sys.path:
        sys.path.append(target)
    return importlib.import_module("helm_python")


def helm_cache() -> Path:
    """Helm's own cache (``HELM_CACHE_HOME``: repository indexes it downloads to pull), inside
    ours; made when the worker starts."""
    folder = cache_dir("helm")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


class HelmWorker:
    """A running ``helm_worker``: one request at a time, each held to a number of seconds
    and a size of answer; Helm's memory capped. A worker that failed is stopped, and the next
    request starts another."""

    _current: HelmWorker | None = None

    def __init__(self, sdk_dir: str) -> None:
        worker = Path(__file__).with_name("helm_worker.py")
        self.process = subprocess.Popen(
            [sys.executable, "-I", str(worker), str(HELM_MEMORY_BYTES), sdk_dir],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            # A crash says why in one line; killed as a group, nothing it started outlives it.
            # Helm writes a repository's index into its cache while it pulls: ours, not
            # ~/.cache/helm (its config, with registry logins, stays the user's).
            env={**os.environ, "GOTRACEBACK": "none", "HELM_CACHE_HOME": str(helm_cache())},
            start_new_session=True,
        )
        self._stderr, self._stderr_head = bytearray(), bytearray()
        self._drain = threading.Thread(target=self._keep_stderr, daemon=True)
        self._drain.start()

    @classmethod
    def shared(cls) -> HelmWorker:
        """The run's worker, started on first use (and after a failure)."""
        worker = cls._current
        if worker is None or worker.process.poll() is not None:
            worker = cls(helm_sdk_dir())
            ready = worker.reply(_START_SECONDS, _MIB)
            if ready is None or "ready" not in ready:
                worker.stop()
                why = (ready or {}).get("message") or worker.stderr_tail()
                raise ChartUnavailable(f"Helm's SDK could not load: {why}")
            cls._current = worker
        return worker

    def _keep_stderr(self) -> None:
        """The first and last 4 KB of what the worker writes on stderr: Go's reason when it
        aborts comes first, a stack after it."""
        stream = self.process.stderr
        assert stream is not None
        fd = stream.fileno()
        for chunk in iter(lambda: os.read(fd, 4096), b""):
            if len(self._stderr_head) < 4096:
                self._stderr_head += chunk[: 4096 - len(self._stderr_head)]
            self._stderr += chunk
            del self._stderr[:-4096]

    def stderr_tail(self) -> str:
        """Why the worker ended: Go's ``fatal error`` line, else the last line it wrote."""
        self._drain.join(1.0)
        text = (self._stderr_head + b"\n" + self._stderr).decode(errors="replace")
        lines = [line for line in text.strip().splitlines() if line.strip()]
        fatal = [line for line in lines if line.startswith("fatal error")]
        return fatal[0] if fatal else (lines[-1] if lines else "")

    def stop(self) -> None:
        if HelmWorker._current is self:
            HelmWorker._current = None
        if self.process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait()
        for stream in (self.process.stdin, self.process.stdout):
            with contextlib.suppress(OSError):
                if stream is not None:
                    stream.close()

    def reply(self, seconds: float, limit: int) -> dict[str, Any] | None:
        """The next answer, None when the worker ended first; ``TimeoutError`` past
        ``seconds``, ``ChartBoundExceeded`` past ``limit`` bytes (the worker then stopped)."""
        stream = self.process.stdout
        assert stream is not None
        answer: list[bytes] = []
        reader = threading.Thread(
            target=lambda: answer.append(stream.readline(limit + 1)), daemon=True
        )
        reader.start()
        reader.join(seconds)
        if reader.is_alive():
            self.stop()
            raise TimeoutError
        line = answer[0] if answer else b""
        if len(line) > limit:
            self.stop()
            raise ChartBoundExceeded(f"Helm's answer is larger than {limit // _MIB} MiB")
        if not line:
            self.process.wait()
            return None
        return json.loads(line)

    def call(self, request: dict[str, Any], seconds: float) -> dict[str, Any]:
        """One request's answer: ``{"ok": ...}`` or ``{"error": type, "message": text}``."""
        stream = self.process.stdin
        assert stream is not None
        with contextlib.suppress(OSError):  # it ended: said below
            stream.write(json.dumps(request).encode() + b"\n")
            stream.flush()
        answer = self.reply(seconds, RENDER_MAX_BYTES)
        if answer is not None:
            return answer
        tail = self.stderr_tail()
        said = (self._stderr_head + self._stderr).decode(errors="replace")
        self.stop()
        # Go aborts on the bound with "out of memory", or, when its heap took the rest, on the
        # next thread's stack: RLIMIT_DATA counts the mappings a thread's stack is made of.
        if any(sign in said for sign in _OUT_OF_MEMORY):
            raise ChartBoundExceeded(
                f"Helm needed more than its memory bound of {HELM_MEMORY_BYTES // _MIB} MiB"
            )
        raise ChartRenderError(
            f"Helm's SDK ended without an answer (exit status {self.process.returncode}): {tail}"
        )


@atexit.register
def stop_helm_worker() -> None:
    """End the run's Helm worker (it also ends when our end of its stdin closes)."""
    if HelmWorker._current is not None:
        HelmWorker._current.stop()


def _helm(
    request: dict[str, Any], *, seconds: float | None, deadline: RunDeadline, doing: str
) -> dict[str, Any]:
    """A request to the worker within ``seconds`` (None: the run's deadline alone); past the
    run's deadline, ``PreviewTimedOut`` saying it was ``doing`` this."""
    cap = float("inf") if seconds is None else seconds
    allowed = deadline.allow(cap)
    try:
        return HelmWorker.shared().call(request, 1e9 if allowed == float("inf") else allowed)
    except TimeoutError:
        if deadline.binds(cap):
            raise deadline.expired(doing) from None
        raise


@dataclass(frozen=True)
class ChartRef:
    """What a release asks for: the ``chart``, ``version`` and ``repositoryOpts`` inputs."""

    chart: str
    version: str | None = None
    repo: str | None = None
    username: str | None = None
    password: str | None = None
    plain_http: bool = False

    @property
    def name(self) -> str:
        """The chart's bare name: ``nvdp/nvidia-device-plugin``, ``oci://.../x``, ``x-1.0.0.tgz``
        -> the last segment without a package's version."""
        last = self.chart.rstrip("/").rsplit("/", 1)[-1]
        package = re.match(r"^(?P<name>.+?)-v?\d+\.\d+\.\d+[^/]*\.tgz$", last)
        return package["name"] if package else last.removesuffix(".tgz")

    def describe(self) -> str:
        """The chart, version and repository, credentials redacted."""
        where = f" from {redact_url(self.repo)}" if self.repo else ""
        return f"'{redact_url(self.chart)}' {self.version or '(unpinned)'}{where}"


def _repository_config() -> Path:
    if os.environ.get("HELM_REPOSITORY_CONFIG"):
        return Path(os.environ["HELM_REPOSITORY_CONFIG"])
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "helm" / "repositories.yaml"


def _repository_url(alias: str) -> str | None:
    """The URL Helm's configuration gives the repository ``alias`` (``helm repo add``)."""
    config = _repository_config()
    try:
        data: Any = yaml.safe_load(read_text(config)) or {}
    except (InputFileError, yaml.YAMLError):
        return None
    for entry in data.get("repositories") or []:
        if isinstance(entry, dict) and entry.get("name") == alias and entry.get("url"):
            return str(entry["url"])
    return None


def _safe(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "_", text).strip("_")[:60]


@dataclass(frozen=True)
class ChartStore:
    """Where charts are found: the user's folders, the cache, then the network."""

    search: tuple[Path, ...] = ()
    cache: Path = field(default_factory=lambda: cache_dir("charts"))
    network: bool = True
    """False: never pull (tests, air-gapped runs); a chart not found locally is unavailable."""

    @classmethod
    def from_env(cls) -> ChartStore:
        """``$GPU_PLATFORM_CHARTS`` folders, the cache, and the network (not ``--offline``)."""
        paths = os.environ.get("GPU_PLATFORM_CHARTS", "")
        folders = tuple(Path(p) for p in paths.split(os.pathsep) if p)
        return cls(folders, network=not offline_mode())

    def locate(self, ref: ChartRef, base: Path, deadline: RunDeadline = NO_DEADLINE) -> Path:
        """The chart folder or ``.tgz`` for ``ref`` (local paths relative to ``base``); a pull
        within its fetch's deadline and the run's."""
        local = base / ref.chart
        if not ref.chart.startswith("oci://") and local.exists():
            if (local / "Chart.yaml").is_file() or local.is_file():
                return local
            raise ChartUnavailable(f"'{ref.chart}' is a folder without a Chart.yaml")
        given = self._given(ref)
        if given is not None:
            return given
        if ref.chart.startswith("oci://"):
            return self._remote(ref, ref.chart, None, deadline)
        if re.match(r"^https?://", ref.chart):
            return self._remote(ref, ref.chart, None, deadline)
        if ref.repo:
            if ref.repo.startswith("oci://"):
                return self._remote(ref, f"{ref.repo.rstrip('/')}/{ref.chart}", None, deadline)
            return self._remote(ref, ref.chart, ref.repo, deadline)
        alias, slash, name = ref.chart.partition("/")
        if slash and "/" not in name:
            url = _repository_url(alias)
            if url is None:
                raise ChartUnavailable(
                    f"no repository '{alias}' in Helm's configuration ({_repository_config()}); "
                    "set repositoryOpts.repo to the repository's URL"
                )
            return self._remote(ref, name, url, deadline)
        raise ChartUnavailable(
            f"no chart folder or archive '{ref.chart}' beside the program, and it names no "
            "repository (repositoryOpts.repo, an oci:// reference or a URL)"
        )

    def _given(self, ref: ChartRef) -> Path | None:
        """A copy in the user's folders: ``<name>-<version>/`` or ``<name>-<version>.tgz``."""
        if not ref.version:
            return None
        stem = f"{ref.name}-{ref.version.removeprefix('v')}"
        for folder in self.search:
            for candidate in (folder / stem, folder / f"{stem}.tgz"):
                if (candidate / "Chart.yaml").is_file() or candidate.is_file():
                    return candidate
        return None

    def cache_folder(self, source: str) -> Path:
        """The cache folder of a repository or chart URL: named after it without its
        credentials (nor do they enter the digest)."""
        shown = redact_url(source)
        digest = hashlib.sha256(shown.encode()).hexdigest()[:8]
        return self.cache / f"{_safe(shown.split('://', 1)[-1])}-{digest}"

    def _remote(
        self, ref: ChartRef, chart_ref: str, repo_url: str | None, deadline: RunDeadline
    ) -> Path:
        folder = self.cache_folder(repo_url or chart_ref)
        cached = folder / f"{ref.name}-{_safe(ref.version or 'latest')}.tgz"
        if ref.version and cached.is_file():
            return cached
        if not self.network:
            raise ChartUnavailable(f"not in the cache ({folder}) and pulling is switched off")
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(dir=folder) as tmp:
            if re.match(r"^https?://", chart_ref):
                archive = Path(tmp, "chart.tgz")
                archive.write_bytes(self._download(ref, chart_ref, deadline))
            else:
                archive = self._pull(ref, chart_ref, repo_url, Path(tmp), deadline)
            archive.replace(cached)
        return cached

    @staticmethod
    def _download(ref: ChartRef, url: str, deadline: RunDeadline) -> bytes:
        doing = f"downloading Helm chart {ref.describe()}"
        try:
            return fetch(url, limit=MAX_CHART_BYTES, doing=doing, deadline=deadline)
        except FetchTooLarge as err:
            raise ChartBoundExceeded(f"downloading {err} (Helm's cap on a chart)") from None
        except FetchError as err:
            raise ChartUnavailable(f"downloading {err}") from None

    def _pull(
        self,
        ref: ChartRef,
        chart_ref: str,
        repo_url: str | None,
        into: Path,
        deadline: RunDeadline,
    ) -> Path:
        request = {
            "op": "pull",
            "chart_ref": chart_ref,
            "destination": str(into),
            "version": ref.version,
            "repo_url": repo_url,
            "plain_http": ref.plain_http,
            "username": ref.username,
            "password": ref.password,
        }
        doing = f"pulling Helm chart {ref.describe()}"
        seconds = fetch_seconds()
        try:
            answer = _helm(request, seconds=seconds, deadline=deadline, doing=doing)
        except TimeoutError:
            raise ChartUnavailable(
                f"pulling it did not finish within {seconds:g} s (its deadline)"
            ) from None
        except ChartBoundExceeded as err:
            raise ChartBoundExceeded(f"pulling it: {err}") from None
        if "error" in answer:
            raise ChartUnavailable(f"pulling it failed: {redact_urls(answer['message'])}")
        archives = sorted(into.glob("*.tgz"))
        if not archives:
            raise ChartUnavailable(f"pulling {redact_url(chart_ref)} gave no chart archive")
        if archives[0].stat().st_size > MAX_CHART_BYTES:
            raise ChartBoundExceeded(
                f"the pulled archive is larger than {MAX_CHART_BYTES} bytes (Helm's cap on a chart)"
            )
        return archives[0]


def _documents(source: str, text: str) -> list[dict[str, Any]]:
    try:
        return decode(text, source)
    except ManifestError as err:
        raise ChartRenderError(str(err)) from err


def is_hook(obj: dict[str, Any]) -> bool:
    annotations = (obj.get("metadata") or {}).get("annotations") or {}
    return isinstance(annotations, dict) and HOOK_ANNOTATION in annotations


def render(
    chart: Path,
    *,
    release: str,
    namespace: str,
    values: dict[str, Any],
    include_crds: bool = True,
    include_hooks: bool = False,
    deadline: RunDeadline = NO_DEADLINE,
) -> list[dict[str, Any]]:
    """Every object Helm renders for the release, CRDs (the chart's ``crds/``) first.

    ``include_hooks=False`` is the v4 ``Chart``: Pulumi renders with hooks disabled, so objects
    annotated ``helm.sh/hook`` are not made (``chart.go``: ``DisableHooks = true``; the SDK's
    ``includeHooks`` only applies to ``renderYamlToDirectory``). A v3 ``Release`` installs them.
    No cluster is asked: ``lookup`` finds nothing, ``.Capabilities`` are Helm's defaults.
    Rendering takes at most what is left of the run's ``deadline``.
    """
    request = {
        "op": "render",
        "chart": str(chart),
        "values": values,
        "release": release,
        "namespace": namespace,
        "include_crds": include_crds,
    }
    doing = f"rendering Helm chart {chart.name} (release {release!r})"
    answer = _helm(request, seconds=None, deadline=deadline, doing=doing)
    if answer.get("error") == "HelmLibraryError":  # the native library would not load here
        raise ChartUnavailable(f"Helm's SDK could not load: {answer['message']}")
    if "error" in answer:
        raise ChartRenderError(answer["message"])
    crds, manifests = answer["ok"]["crds"], answer["ok"]["manifests"]
    objects = [obj for crd in crds for obj in _documents(crd["filename"], crd["data"])]
    for source in sorted(manifests):
        deadline.enforce(doing)
        if source.endswith("NOTES.txt"):
            continue
        for obj in _documents(source, manifests[source]):
            if include_hooks or not is_hook(obj):
                objects.append(obj)
    return objects


def merge_values(base: dict[str, Any], override: dict[str, Any]) -> dict[str, Any]:
    """Helm's coalescing of values: maps merge key by key, anything else is replaced."""
    merged = dict(base)
    for key, value in override.items():
        if isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = merge_values(merged[key], value)
        else:
            merged[key] = value
    return merged


def post_render(
    objects: list[dict[str, Any]],
    command: str,
    args: list[str],
    deadline: RunDeadline = NO_DEADLINE,
) -> list[dict]:
    """The ``postRenderer``: the manifest through ``command args...`` (stdin to stdout),
    within what is left of the run's ``deadline``; its output capped at ``RENDER_MAX_BYTES``
    and read within the manifests' bounds."""
    stream = yaml.safe_dump_all(objects, sort_keys=False).encode()
    what = f"the post-renderer {command}"
    try:
        status, out, err = run_bounded(
            [command, *args], stream, deadline.remaining(), RENDER_MAX_BYTES
        )
    except TimeoutError:  # before OSError, of which it is one
        raise deadline.expired(f"running {what}") from None
    except OSError as error:
        raise ChartRenderError(f"{what} could not run: {error}") from error
    except OutputTooLarge:
        raise ChartBoundExceeded(f"{what} wrote more than {RENDER_MAX_BYTES} bytes") from None
    if status != 0:
        raise ChartRenderError(f"{what} exited {status}: {err.strip()[-300:]}")
    try:
        text = out.decode()
    except UnicodeDecodeError:
        raise ChartRenderError(f"{what} wrote text that is not UTF-8") from None
    return _documents(f"{what}'s output", text)


class OutputTooLarge(Exception):
    """A command wrote more than it may."""


def run_bounded(
    argv: list[str], stdin: bytes, seconds: float | None, limit: int
) -> tuple[int, bytes, str]:
    """Run ``argv`` with ``stdin``: its status, stdout (at most ``limit`` bytes: past that,
    ``OutputTooLarge``) and the end of its stderr. Past ``seconds``, ``TimeoutError``. Either
    way it is killed with everything it started (its own process group), and whatever it left
    running once it ended is killed then (it would hold its output open and run on)."""
    become_reaper()  # a daemon it detaches stays among our children, to be ended
    before = children_of(os.getpid())
    process = subprocess.Popen(
        argv,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    out, err = bytearray(), bytearray()
    too_large = threading.Event()

    def feed() -> None:
        with contextlib.suppress(OSError):
            assert process.stdin is not None
            process.stdin.write(stdin)
            process.stdin.close()

    def drain(stream: Any, into: bytearray, cap: int | None) -> None:
        for chunk in iter(lambda: stream.read1(65536), b""):
            into += chunk
            if cap is not None and len(into) > cap:
                too_large.set()
                return
            if cap is None:
                del into[:-8192]

    workers = [
        threading.Thread(target=feed, daemon=True),
        threading.Thread(target=drain, args=(process.stdout, out, limit), daemon=True),
        threading.Thread(target=drain, args=(process.stderr, err, None), daemon=True),
    ]
    for worker in workers:
        worker.start()
    end = None if seconds is None else time.monotonic() + seconds
    try:
        while process.poll() is None and not too_large.is_set():
            if end is not None and time.monotonic() >= end:
                raise TimeoutError
            workers[1].join(0.05)
        if not too_large.is_set():
            end_processes(children_of(os.getpid()) - before)
            for worker in workers[1:]:
                worker.join(5.0)
        if too_large.is_set():
            raise OutputTooLarge
    finally:
        if process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
        process.wait()
        end_processes(children_of(os.getpid()) - before)
    return process.returncode, bytes(out), err.decode(errors="replace")
