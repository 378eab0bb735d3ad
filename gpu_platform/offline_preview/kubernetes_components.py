"""The Kubernetes provider's remote components, built offline as the provider builds them.

A Helm v4 ``Chart`` and the ``yaml/v2`` ``ConfigFile`` / ``ConfigGroup`` are *remote*
components: under ``pulumi preview`` the provider plugin renders the chart or reads the
manifests and registers one Kubernetes resource per object, as children of the component; the
policy pack then sees those objects like any other. Offline no plugin runs, so after the
program has run, ``build_components`` does the provider's part on each such registration
(pulumi-kubernetes ``provider/pkg/provider/helm/v4/chart.go`` and ``yaml/v2/configgroup.go``,
read at commits 5da82fe and 0fb51f6; ``kube_manifests`` holds the rules they share):

- children are named ``<resourcePrefix>:<namespace>/<name>`` (the prefix defaults to the
  component's name), typed ``kubernetes:<group>/<version>:<kind>``, parented to the component,
  through its provider, waiting for their CRDs and Namespaces;
- a ``Chart`` renders with ``values`` over ``valueYamlFiles``, its release ``name`` (default:
  the component's name) and ``namespace`` (default: the provider's ``namespace``, else
  ``default``), hooks left out and the chart's CRDs included unless ``skipCrds``; objects
  marked ``helm.sh/resource-policy: keep`` are retained on delete; the ``postRenderer`` runs;
- a component whose inputs are not all known gets no children, as the provider's own preview
  ("Input properties have unknown values. Preview is incomplete.").

What cannot be built is never silent: each such component gets a notice in the verdicts
(``offline-preview``), naming what and why, and saying its objects were not judged. Advisory
when the chart or manifest could not be had (offline, missing) or inputs are unknown;
mandatory when it was had but is broken (Helm fails to render it, a manifest does not decode):
a real ``pulumi preview`` fails there.
"""

from __future__ import annotations

import glob
import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from pulumi.runtime import mocks as pulumi_mocks

from .engine import PreviewMocks, ProgramRun, RecordedResource, tree_order
from .helm_charts import (
    ChartRef,
    ChartRenderError,
    ChartStore,
    ChartUnavailable,
    merge_values,
    post_render,
    render,
)
from .kube_manifests import (
    ManifestError,
    decode,
    dependencies,
    normalize,
    resource_name,
    type_token,
    with_skip_await,
)
from .kubernetes_types import CHART, CONFIG_FILE, CONFIG_GROUP, KINDS
from .policy_runner import Violation
from .user_mocks import UserMocks
from .wire import ASSET_SIG, SECRET_SIG, SIG_KEY, contains_unknown, markers, reveal, unknown_paths

NOTICE = "offline-preview"
"""The verdicts' policy name of the engine's own notices."""
RESOURCE_POLICY = "helm.sh/resource-policy"
_KUBERNETES_PROVIDER = "pulumi:providers:kubernetes"
_FETCH_TIMEOUT_S = 30
_GLOB = re.compile(r"(?:^|[^\\])[*?\[]")
"""The provider's test for a glob pattern (``isGlobPattern``)."""


NO_COPY_FIX = (
    "give the preview a local copy (a chart folder or .tgz as `chart`, or a folder of "
    "<name>-<version>/ charts in $GPU_PLATFORM_CHARTS; a file next to the program), or run once "
    "with network access (charts are then cached in ~/.cache/gpu-platform/charts)."
)


CHART_INPUTS_JUDGED = (
    "its own inputs were, as a Helm v3 Release's are (chart, version, namespace, values)"
)
"""What a Helm v4 Chart that could not be built is judged by instead of its objects."""


class Unavailable(Exception):
    """The chart or manifest could not be had: the objects are not judged (advisory).
    ``fix`` says what makes it available, when it is not a local copy or the network."""

    def __init__(self, message: str, fix: str = NO_COPY_FIX) -> None:
        super().__init__(message)
        self.fix = fix


class Broken(Exception):
    """Had, but the provider would fail on it (a real preview fails too): mandatory."""


@dataclass(frozen=True)
class Objects:
    """What a component makes: the objects, and how the provider registers them."""

    objects: list[dict[str, Any]]
    prefix: str
    skip_await: bool = False
    keep_policy: bool = False
    """Honour ``helm.sh/resource-policy: keep`` (charts only)."""
    namespace: str | None = None
    """The namespace namespaced objects without one get: a chart's release namespace; None
    for manifests (the provider's default namespace)."""


@dataclass(frozen=True)
class Context:
    program_dir: Path
    default_namespace: str
    store: ChartStore


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None


def _prefix(inputs: dict[str, Any], name: str) -> str:
    """``resourcePrefix``; the component's name when not given (an empty string: none)."""
    prefix = inputs.get("resourcePrefix")
    return prefix if isinstance(prefix, str) else name


def _read(source: str, base: Path) -> str:
    """A manifest file or URL's text, as the provider reads it."""
    if re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*://", source):
        import urllib.request  # only for a manifest given by URL: ~20 ms of imports

        try:
            with urllib.request.urlopen(source, timeout=_FETCH_TIMEOUT_S) as answer:
                return answer.read().decode()
        except (OSError, ValueError) as err:
            raise Unavailable(f"fetching {source} failed: {err}") from err
    try:
        return (base / source).read_text()
    except OSError as err:
        raise Unavailable(f"reading {source} failed: {err.strerror or err}") from err


def _files(patterns: list[str], base: Path, globbing: bool) -> list[str]:
    """Each file's text; with ``globbing``, a pattern stands for its matches, sorted."""
    texts = []
    for pattern in patterns:
        if globbing and _GLOB.search(pattern):
            for match in sorted(glob.glob(str(base / pattern))):
                texts.append(_read(match, base))
        else:
            texts.append(_read(pattern, base))
    return texts


def _decode_all(texts: list[str]) -> list[dict[str, Any]]:
    try:
        return [obj for text in texts for obj in decode(text)]
    except ManifestError as err:
        raise Broken(str(err)) from err


def _config_file(inputs: dict[str, Any], name: str, ctx: Context) -> Objects:
    file = _text(inputs.get("file"))
    if file is None:
        raise Broken("the required input `file` is not set")
    objects = _decode_all(_files([file], ctx.program_dir, globbing=False))
    return Objects(objects, _prefix(inputs, name), bool(inputs.get("skipAwait")))


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    return [v for v in value or [] if isinstance(v, str)]


def _config_group(inputs: dict[str, Any], name: str, ctx: Context) -> Objects:
    texts = _files(_strings(inputs.get("files")), ctx.program_dir, globbing=True)
    objects = _decode_all([*texts, *_strings(inputs.get("yaml"))])
    objects += [obj for obj in inputs.get("objs") or [] if isinstance(obj, dict)]
    return Objects(objects, _prefix(inputs, name), bool(inputs.get("skipAwait")))


def _asset_text(asset: Any, base: Path) -> str:
    """A ``valueYamlFiles`` entry (a file, string or remote asset)'s text."""
    if not isinstance(asset, dict) or asset.get(SIG_KEY) != ASSET_SIG:
        raise Broken(f"a valueYamlFiles entry is not an asset: {asset!r:.80}")
    if "text" in asset:
        return str(asset["text"])
    return _read(str(asset.get("path") or asset.get("uri")), base)


def _chart(inputs: dict[str, Any], name: str, ctx: Context, hooks: bool = False) -> Objects:
    chart = _text(inputs.get("chart"))
    if chart is None:
        raise Broken("the required input `chart` is not set")
    repository = inputs.get("repositoryOpts") or {}
    ref = ChartRef(
        chart,
        _text(inputs.get("version")),
        _text(repository.get("repo")),
        _text(repository.get("username")),
        _text(repository.get("password")),
        bool(inputs.get("plainHttp")),
    )
    try:
        path = ctx.store.locate(ref, ctx.program_dir)
    except ChartUnavailable as err:
        raise Unavailable(f"Helm chart {ref.describe()} could not be had: {err}") from err
    values: dict[str, Any] = {}
    for asset in inputs.get("valueYamlFiles") or []:
        try:
            loaded = decode(_asset_text(asset, ctx.program_dir))
        except ManifestError as err:
            raise Broken(f"a valueYamlFiles entry: {err}") from err
        values = merge_values(values, loaded[0] if loaded else {})
    values = merge_values(values, inputs.get("values") or {})
    namespace = _text(inputs.get("namespace")) or ctx.default_namespace
    try:
        objects = render(
            path,
            release=_text(inputs.get("name")) or name,
            namespace=namespace,
            values=values,
            include_crds=not inputs.get("skipCrds"),
            include_hooks=hooks,
        )
        renderer = inputs.get("postRenderer") or {}
        if _text(renderer.get("command")):
            objects = post_render(objects, renderer["command"], _strings(renderer.get("args")))
    except ChartUnavailable as err:  # no Helm SDK to render with
        raise Unavailable(
            f"Helm chart {ref.describe()} could not be rendered: {err}",
            "install Helm's SDK as said, then preview again: the chart itself is here.",
        ) from err
    except ChartRenderError as err:
        raise Broken(f"Helm chart {ref.describe()} does not render: {err}") from err
    return Objects(objects, _prefix(inputs, name), bool(inputs.get("skipAwait")), True, namespace)


BUILDERS: dict[str, Callable[[dict[str, Any], str, Context], Objects]] = {
    CHART: _chart,
    CONFIG_FILE: _config_file,
    CONFIG_GROUP: _config_group,
}


def _engine_value(value: Any) -> Any:
    """A decoded value as the engine carries it: every number a double."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        return float(value)
    if isinstance(value, dict):
        return {str(k): _engine_value(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_engine_value(v) for v in value]
    return value


def _engine_object(obj: dict[str, Any]) -> dict[str, Any]:
    """The registration's inputs: the whole object; a Secret's data and stringData secret
    (the provider marks them so raw YAML never leaks them)."""
    inputs = _engine_value(obj)
    if obj.get("apiVersion") == "v1" and obj.get("kind") == "Secret":
        for key in ("data", "stringData"):
            if key in inputs:
                inputs[key] = {SIG_KEY: SECRET_SIG, "value": inputs[key]}
    return inputs


def child_urn(parent: str, type_: str, name: str) -> str:
    """A child's URN as the mock engine makes it (the parent's type, then the child's)."""
    stack, project, qualified, _ = parent.removeprefix("urn:pulumi:").split("::", 3)
    return f"urn:pulumi:{stack}::{project}::{qualified.split('$')[-1]}${type_}::{name}"


def _children(
    component: RecordedResource,
    objects: list[dict[str, Any]],
    made: Objects,
    provider: str,
    mocks: PreviewMocks,
) -> list[RecordedResource]:
    """One registration per object, as the provider's ``Register`` makes them."""
    if made.skip_await:
        objects = [with_skip_await(obj) for obj in objects]
    waits = dependencies(objects)
    names = [resource_name(obj, made.prefix) for obj in objects]
    urns = [
        child_urn(component.urn, type_token(obj), n) for obj, n in zip(objects, names, strict=True)
    ]
    duplicates = sorted({u for u in urns if urns.count(u) > 1})
    if duplicates:
        raise Broken(f"two objects would both be registered as {duplicates[0].rsplit('::')[-1]}")
    children = []
    for obj, name, urn, wait in zip(objects, names, urns, waits, strict=True):
        inputs = _engine_object(obj)
        _, outputs = mocks.new_resource(
            pulumi_mocks.MockResourceArgs(type_token(obj), name, inputs, provider, custom=True)
        )
        annotations = obj["metadata"].get("annotations") or {}
        children.append(
            RecordedResource(
                urn=urn,
                type=type_token(obj),
                name=name,
                custom=True,
                parent=component.urn,
                inputs=markers(inputs),
                outputs=markers(dict(outputs)),
                provider=provider,
                retain_on_delete=made.keep_policy and annotations.get(RESOURCE_POLICY) == "keep",
                dependencies=[urns[j] for j in wait],
            )
        )
    return children


def _default_namespace(component: RecordedResource, by_urn: dict[str, RecordedResource]) -> str:
    """The provider's ``namespace`` when the program gave its provider one, else
    ``default`` (the kubeconfig context's namespace is not read offline)."""
    provider = by_urn.get(component.provider.rsplit("::", 1)[0])
    namespace = provider.inputs.get("namespace") if provider else None
    return namespace if isinstance(namespace, str) and namespace else "default"


def _notice(
    component: RecordedResource, level: str, text: str, kind: str | None = None
) -> Violation:
    what = f"{kind or KINDS[component.type]} '{component.name}'"
    return Violation(NOTICE, level, component.urn, f"{what}: {text}")


def build_one(
    component: RecordedResource,
    builder: Callable[[dict[str, Any], str, Context], Objects],
    *,
    program_dir: Path,
    by_urn: dict[str, RecordedResource],
    store: ChartStore,
    mocks: PreviewMocks,
    what: str | None = None,
    instead: str = "no policy saw them",
) -> tuple[list[RecordedResource], Violation | None]:
    """One component's children as the provider registers them, or the notice saying why it
    has none (``what`` names the component in it, a Kubernetes component by default;
    ``instead`` says what was judged in their place)."""
    if contains_unknown(component.inputs):
        return [], _notice(
            component,
            "advisory",
            "inputs known only after apply ("
            + ", ".join(unknown_paths(component.inputs))
            + "), so the provider cannot build it during a preview, offline or not: "
            f"its objects were not judged: {instead}.",
            what,
        )
    namespace = _default_namespace(component, by_urn)
    ctx = Context(program_dir, namespace, store)
    inputs = reveal(component.inputs)
    provider = component.provider if _KUBERNETES_PROVIDER in component.provider else ""
    try:
        made = builder(inputs, component.name, ctx)
        objects = normalize(made.objects, made.namespace or namespace)
        return _children(component, objects, made, provider, mocks), None
    except Unavailable as err:
        return [], _notice(
            component,
            "advisory",
            f"{err}. Its objects were not judged: {instead}. Fix: {err.fix}",
            what,
        )
    except (Broken, ManifestError) as err:
        return [], _notice(
            component,
            "mandatory",
            f"{err}. A real `pulumi preview` fails on it the same way; its objects "
            f"were not judged: {instead}. Fix: correct the chart's values or the manifests.",
            what,
        )


def build_components(
    run: ProgramRun,
    program_dir: Path,
    user_mocks: UserMocks | None = None,
    store: ChartStore | None = None,
) -> tuple[ProgramRun, list[Violation]]:
    """``run`` with the children of every Kubernetes remote component, and the notices of
    those that could not be built."""
    store = store or ChartStore.from_env()
    mocks = PreviewMocks(user_mocks)
    by_urn = {r.urn: r for r in run.resources}
    added: list[RecordedResource] = []
    notices: list[Violation] = []
    unbuilt: dict[str, RecordedResource] = {}
    for component in run.resources:
        builder = BUILDERS.get(component.type)
        if builder is None or not component.remote:
            continue
        instead = CHART_INPUTS_JUDGED if component.type == CHART else "no policy saw them"
        made, notice = build_one(
            component,
            builder,
            program_dir=program_dir,
            by_urn=by_urn,
            store=store,
            mocks=mocks,
            instead=instead,
        )
        added += made
        if notice is not None:
            notices.append(notice)
            if component.type == CHART:
                # Its own inputs are judged instead (chart, version, namespace, values), as a
                # Helm v3 Release's are: stack policies see a component's outputs.
                unbuilt[component.urn] = replace(
                    component, outputs={**component.inputs, **component.outputs}
                )
    if unbuilt:
        resources = [unbuilt.get(r.urn, r) for r in run.resources]
        run = ProgramRun(run.project, run.stack, resources, run.outputs)
    if added:
        run = ProgramRun(run.project, run.stack, tree_order([*run.resources, *added]), run.outputs)
    return run, notices
