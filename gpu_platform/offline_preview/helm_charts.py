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
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import os
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

import yaml

from .cache import cache_dir, find_uv
from .kube_manifests import ManifestError, decode

HELM_SDK = "helm-python-sdk==0.2.2"
"""What ``helm_sdk`` installs on first use: the version constraints.txt pins."""
HOOK_ANNOTATION = "helm.sh/hook"
_DOWNLOAD_TIMEOUT_S = 30


class ChartUnavailable(Exception):
    """The chart could not be had (offline, not found, no Helm SDK): the reason."""


class ChartRenderError(Exception):
    """Helm failed to render the chart (bad values, a failing template): Helm's message."""


def _installer() -> list[str] | None:
    """What installs a package for this interpreter: the project's or the PATH's uv, the uv
    this interpreter imports, else its pip. None in a virtualenv uv made (no pip) where uv is
    not on the PATH: ``python -m pip`` would only say "No module named pip"."""
    uv = find_uv()
    if uv:
        return [uv, "pip", "install", "-q", "--python", sys.executable]
    if importlib.util.find_spec("uv") is not None:
        return [sys.executable, "-m", "uv", "pip", "install", "-q", "--python", sys.executable]
    if importlib.util.find_spec("pip") is not None:
        return [sys.executable, "-m", "pip", "install", "-q", "--disable-pip-version-check"]
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
    done = subprocess.run(
        [*pip, "--target", str(partial), HELM_SDK], capture_output=True, text=True, check=False
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


def helm_sdk() -> ModuleType:
    """``helm_python``: this interpreter's, else the cached install (made on first use)."""
    try:
        return importlib.import_module("helm_python")
    except ImportError:
        pass
    target = cache_dir("python") / HELM_SDK.replace("==", "-")
    if not (target / "helm_python").is_dir():
        _install_helm_sdk(target)
    if str(target) not in sys.path:
        sys.path.append(str(target))
    return importlib.import_module("helm_python")


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
        where = f" from {self.repo}" if self.repo else ""
        return f"'{self.chart}' {self.version or '(unpinned)'}{where}"


def _repository_config() -> Path:
    if os.environ.get("HELM_REPOSITORY_CONFIG"):
        return Path(os.environ["HELM_REPOSITORY_CONFIG"])
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "helm" / "repositories.yaml"


def _repository_url(alias: str) -> str | None:
    """The URL Helm's configuration gives the repository ``alias`` (``helm repo add``)."""
    config = _repository_config()
    try:
        data: Any = yaml.safe_load(config.read_text()) or {}
    except (OSError, yaml.YAMLError):
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
        """``$GPU_PLATFORM_CHARTS`` folders, the cache, and the network."""
        paths = os.environ.get("GPU_PLATFORM_CHARTS", "")
        return cls(tuple(Path(p) for p in paths.split(os.pathsep) if p))

    def locate(self, ref: ChartRef, base: Path) -> Path:
        """The chart folder or ``.tgz`` for ``ref`` (local paths relative to ``base``)."""
        local = base / ref.chart
        if not ref.chart.startswith("oci://") and local.exists():
            if (local / "Chart.yaml").is_file() or local.is_file():
                return local
            raise ChartUnavailable(f"'{ref.chart}' is a folder without a Chart.yaml")
        given = self._given(ref)
        if given is not None:
            return given
        if ref.chart.startswith("oci://"):
            return self._remote(ref, ref.chart, None)
        if re.match(r"^https?://", ref.chart):
            return self._remote(ref, ref.chart, None)
        if ref.repo:
            if ref.repo.startswith("oci://"):
                return self._remote(ref, f"{ref.repo.rstrip('/')}/{ref.chart}", None)
            return self._remote(ref, ref.chart, ref.repo)
        alias, slash, name = ref.chart.partition("/")
        if slash and "/" not in name:
            url = _repository_url(alias)
            if url is None:
                raise ChartUnavailable(
                    f"no repository '{alias}' in Helm's configuration ({_repository_config()}); "
                    "set repositoryOpts.repo to the repository's URL"
                )
            return self._remote(ref, name, url)
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

    def _remote(self, ref: ChartRef, chart_ref: str, repo_url: str | None) -> Path:
        source = repo_url or chart_ref
        digest = hashlib.sha256(source.encode()).hexdigest()[:8]
        folder = self.cache / f"{_safe(source.split('://', 1)[-1])}-{digest}"
        cached = folder / f"{ref.name}-{_safe(ref.version or 'latest')}.tgz"
        if ref.version and cached.is_file():
            return cached
        if not self.network:
            raise ChartUnavailable(f"not in the cache ({folder}) and pulling is switched off")
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(dir=folder) as tmp:
            if re.match(r"^https?://", chart_ref):
                import urllib.request  # only for a chart given by URL: ~20 ms of imports

                archive = Path(tmp, "chart.tgz")
                try:
                    with urllib.request.urlopen(chart_ref, timeout=_DOWNLOAD_TIMEOUT_S) as answer:
                        archive.write_bytes(answer.read())
                except OSError as err:
                    raise ChartUnavailable(f"downloading {chart_ref} failed: {err}") from err
            else:
                archive = self._pull(ref, chart_ref, repo_url, Path(tmp))
            archive.replace(cached)
        return cached

    def _pull(self, ref: ChartRef, chart_ref: str, repo_url: str | None, into: Path) -> Path:
        helm = helm_sdk()
        try:
            helm.pull(
                chart_ref,
                destination=into,
                version=ref.version,
                repo_url=repo_url,
                plain_http=ref.plain_http,
                username=ref.username,
                password=ref.password,
            )
        except helm.HelmError as err:
            raise ChartUnavailable(f"pulling it failed: {err}") from err
        archives = sorted(into.glob("*.tgz"))
        if not archives:
            raise ChartUnavailable(f"pulling {chart_ref} gave no chart archive")
        return archives[0]


def _documents(source: str, text: str) -> list[dict[str, Any]]:
    try:
        return decode(text)
    except ManifestError as err:
        raise ChartRenderError(f"{source}: {err}") from err


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
) -> list[dict[str, Any]]:
    """Every object Helm renders for the release, CRDs (the chart's ``crds/``) first.

    ``include_hooks=False`` is the v4 ``Chart``: Pulumi renders with hooks disabled, so objects
    annotated ``helm.sh/hook`` are not made (``chart.go``: ``DisableHooks = true``; the SDK's
    ``includeHooks`` only applies to ``renderYamlToDirectory``). A v3 ``Release`` installs them.
    No cluster is asked: ``lookup`` finds nothing, ``.Capabilities`` are Helm's defaults.
    """
    helm = helm_sdk()
    try:
        with helm.Chart.load(chart) as loaded:
            crds = loaded.crds if include_crds else []
            manifests = loaded.render(values, name=release, namespace=namespace, is_install=True)
    except helm.HelmLibraryError as err:  # the native library would not load here
        raise ChartUnavailable(f"Helm's SDK could not load: {err}") from err
    except helm.HelmError as err:
        raise ChartRenderError(str(err)) from err
    objects = [obj for crd in crds for obj in _documents(crd["filename"], crd["data"])]
    for source in sorted(manifests):
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


def post_render(objects: list[dict[str, Any]], command: str, args: list[str]) -> list[dict]:
    """The ``postRenderer``: the manifest through ``command args...`` (stdin to stdout)."""
    stream = yaml.safe_dump_all(objects, sort_keys=False)
    try:
        done = subprocess.run(
            [command, *args], input=stream, capture_output=True, text=True, check=False, timeout=120
        )
    except (OSError, subprocess.TimeoutExpired) as err:
        raise ChartRenderError(f"the post-renderer {command} could not run: {err}") from err
    if done.returncode != 0:
        raise ChartRenderError(
            f"the post-renderer {command} exited {done.returncode}: {done.stderr.strip()[-300:]}"
        )
    return _documents(f"post-renderer {command}", done.stdout)
