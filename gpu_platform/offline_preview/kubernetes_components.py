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

from gpu_platform.stack_config.yaml_file import InputFileError, decode_text, read_bytes

from .deadline import NO_DEADLINE, RunDeadline
from .engine import PreviewMocks, ProgramRun, RecordedResource, tree_order
from .fetch import FetchError, FetchTooLarge, fetch
from .helm_charts import (
    ChartBoundExceeded,
    ChartRef,
    ChartRenderError,
    ChartStore,
    ChartUnavailable,
    merge_values,
    post_render,
    render,
)
from .kube_manifests import (
    MANIFEST_MAX_BYTES,
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
from .redact import QuotingError, Redactor, redact_url, secret_strings
from .user_mocks import UserMocks
from .wire import (
    ASSET_SIG,
    SECRET_SIG,
    SIG_KEY,
    contains_secret,
    contains_unknown,
    markers,
    reveal,
    secret_values,
    unknown_paths,
)

NOTICE = "offline-preview"
"""The verdicts' policy name of the engine's own notices."""
RESOURCE_POLICY = "helm.sh/resource-policy"
_KUBERNETES_PROVIDER = "pulumi:providers:kubernetes"
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


REAL_PREVIEW_FAILS = "A real `pulumi preview` fails on it the same way"
"""Who fails on a broken component: the provider builds a v4 Chart's and yaml/v2's objects in a
real preview too."""


class Broken(QuotingError):
    """Had, but the provider would fail on it (a real preview fails too): mandatory. What it
    quotes (``quoted``: Helm's words, a manifest) is withheld when the component's inputs hold
    a secret."""


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
    deadline: RunDeadline = NO_DEADLINE
    doing: str = ""
    """What the component is, for a message past the deadline (``Helm v4 Chart 'x'``)."""


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None


def _prefix(inputs: dict[str, Any], name: str) -> str:
    """``resourcePrefix``; the component's name when not given (an empty string: none)."""
    prefix = inputs.get("resourcePrefix")
    return prefix if isinstance(prefix, str) else name


@dataclass(frozen=True)
class Text:
    """A manifest's text and where it came from (a file, a URL, the ``yaml`` input)."""

    source: str
    text: str


def _read(source: str, base: Path, ctx: Context) -> Text:
    """A manifest file or URL's text, as the provider reads it: within the manifests' size
    bound (``MANIFEST_MAX_BYTES``) and, for a URL, its fetch's deadline; UTF-8."""
    limit = MANIFEST_MAX_BYTES
    if re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*://", source):
        shown = redact_url(source)
        try:
            data = fetch(
                source, limit=limit, doing=f"{ctx.doing}: fetching {shown}", deadline=ctx.deadline
            )
        except FetchTooLarge as err:
            raise Broken(f"fetching {err}") from None
        except FetchError as err:
            raise Unavailable(f"fetching {err}") from None
    else:
        path = base / source
        try:
            data = read_bytes(path, limit)
        except InputFileError as err:
            why = err.problems[0].message
            if why.startswith(("larger than", "not a regular file", "not a path")):  # bad
                raise Broken(f"reading {source}: {why}") from None
            raise Unavailable(f"reading {source} failed: {why}") from None
        shown = source
    try:
        return Text(shown, decode_text(shown, data))
    except InputFileError as err:
        raise Broken(str(err)) from None


def _files(patterns: list[str], base: Path, globbing: bool, ctx: Context) -> list[Text]:
    """Each file's text; with ``globbing``, a pattern stands for its matches, sorted."""
    texts = []
    for pattern in patterns:
        if globbing and _GLOB.search(pattern):
            for match in sorted(glob.glob(str(base / pattern))):
                texts.append(_read(match, base, ctx))
        else:
            texts.append(_read(pattern, base, ctx))
    return texts


def _decode_all(texts: list[Text]) -> list[dict[str, Any]]:
    try:
        return [obj for text in texts for obj in decode(text.text, text.source)]
    except ManifestError as err:
        raise Broken(err.summary, err.quoted) from err


def _config_file(inputs: dict[str, Any], name: str, ctx: Context) -> Objects:
    file = _text(inputs.get("file"))
    if file is None:
        raise Broken("the required input `file` is not set")
    objects = _decode_all(_files([file], ctx.program_dir, globbing=False, ctx=ctx))
    return Objects(objects, _prefix(inputs, name), bool(inputs.get("skipAwait")))


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    return [v for v in value or [] if isinstance(v, str)]


def _config_group(inputs: dict[str, Any], name: str, ctx: Context) -> Objects:
    texts = _files(_strings(inputs.get("files")), ctx.program_dir, globbing=True, ctx=ctx)
    given = [Text(f"yaml[{i}]", text) for i, text in enumerate(_strings(inputs.get("yaml")))]
    objects = _decode_all([*texts, *given])
    objects += [obj for obj in inputs.get("objs") or [] if isinstance(obj, dict)]
    return Objects(objects, _prefix(inputs, name), bool(inputs.get("skipAwait")))


def _asset_text(asset: Any, index: int, ctx: Context) -> Text:
    """A ``valueYamlFiles`` entry (a file, string or remote asset)'s text."""
    if not isinstance(asset, dict) or asset.get(SIG_KEY) != ASSET_SIG:
        raise Broken(f"valueYamlFiles[{index}] is not an asset", f"{asset!r:.80}")
    if "text" in asset:
        return Text(f"valueYamlFiles[{index}]", str(asset["text"]))
    return _read(str(asset.get("path") or asset.get("uri")), ctx.program_dir, ctx)


def _map(inputs: dict[str, Any], key: str) -> dict[str, Any]:
    """An input that must be a map (or absent), as the provider's schema types it."""
    value = inputs.get(key)
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise Broken(f"the input `{key}` must be a map, not {type(value).__name__}")
    return value


def chart_objects(inputs: dict[str, Any], name: str, ctx: Context, hooks: bool = False) -> Objects:
    """A Helm v4 Chart's objects; ``hooks``: with its hooks, as a v3 Release installs them."""
    chart = _text(inputs.get("chart"))
    if chart is None:
        raise Broken("the required input `chart` is not set")
    repository = _map(inputs, "repositoryOpts")
    for key, value in (("chart", chart), ("version", inputs.get("version")),
                       ("repositoryOpts.repo", repository.get("repo"))):  # fmt: skip
        if isinstance(value, str) and "\0" in value:  # names no file or URL: Helm fails too
            raise Broken(f"the input `{key}` holds a NUL byte: it names no chart")
    ref = ChartRef(
        chart,
        _text(inputs.get("version")),
        _text(repository.get("repo")),
        _text(repository.get("username")),
        _text(repository.get("password")),
        bool(inputs.get("plainHttp")),
    )
    try:
        path = ctx.store.locate(ref, ctx.program_dir, ctx.deadline)
    except ChartUnavailable as err:
        raise Unavailable(f"Helm chart {ref.describe()} could not be had: {err}") from err
    except ChartRenderError as err:  # past a bound: Helm's cap on a chart, its memory
        raise Broken(f"Helm chart {ref.describe()} could not be had: {err}") from err
    values: dict[str, Any] = {}
    for i, asset in enumerate(inputs.get("valueYamlFiles") or []):
        given = _asset_text(asset, i, ctx)
        try:
            loaded = decode(given.text, given.source)
        except ManifestError as err:
            raise Broken(f"valueYamlFiles[{i}]: {err.summary}", err.quoted) from err
        values = merge_values(values, loaded[0] if loaded else {})
    values = merge_values(values, _map(inputs, "values"))
    namespace = _text(inputs.get("namespace")) or ctx.default_namespace
    renderer = _map(inputs, "postRenderer")
    try:
        objects = render(
            path,
            release=_text(inputs.get("name")) or name,
            namespace=namespace,
            values=values,
            include_crds=not inputs.get("skipCrds"),
            include_hooks=hooks,
            deadline=ctx.deadline,
        )
        command = _text(renderer.get("command"))
        if command:
            objects = post_render(objects, command, _strings(renderer.get("args")), ctx.deadline)
    except ChartUnavailable as err:  # no Helm SDK to render with
        raise Unavailable(
            f"Helm chart {ref.describe()} could not be rendered: {err}",
            "install Helm's SDK as said, then preview again: the chart itself is here.",
        ) from err
    except ChartBoundExceeded as err:  # our own words
        raise Broken(f"Helm chart {ref.describe()} does not render: {err}") from err
    except ChartRenderError as err:  # Helm's or the post-renderer's: may quote the values
        raise Broken(f"Helm chart {ref.describe()} does not render", str(err)) from err
    return Objects(objects, _prefix(inputs, name), bool(inputs.get("skipAwait")), True, namespace)


BUILDERS: dict[str, Callable[[dict[str, Any], str, Context], Objects]] = {
    CHART: chart_objects,
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


def _secret(value: Any) -> dict[str, Any]:
    return {SIG_KEY: SECRET_SIG, "value": value}


IDENTITY = ("apiVersion", "kind")
"""What stays plain of an object made from secret inputs (with ``metadata.name`` and
``.namespace``): its URN shows them anyway."""


def _engine_object(obj: dict[str, Any], *, from_secrets: bool = False) -> dict[str, Any]:
    """The registration's inputs: the whole object; a Secret's data and stringData secret
    (the provider marks them so raw YAML never leaks them).

    ``from_secrets``: the component's inputs hold a secret (a chart's values, a ``yaml``
    text). pulumi-kubernetes itself marks only a Secret's ``data`` and ``stringData``
    (``provider/pkg/provider/yaml/v2/yaml.go``, ``register``, read at 94977969d); its Helm v4
    Chart awaits its inputs with ``internals.UnsafeAwaitOutput`` (``helm/v4/chart.go``) and
    drops their secretness, so a value rendered from a secret reaches the engine in plain text
    (pulumi-kubernetes#999, #1353). This plan goes to CI logs: here every such object is
    secret but for what its URN shows anyway (``IDENTITY``, ``metadata.name`` and
    ``.namespace``). Policies still judge the values (``reveal``)."""
    inputs = _engine_value(obj)
    if obj.get("apiVersion") == "v1" and obj.get("kind") == "Secret":
        for key in ("data", "stringData"):
            if key in inputs:
                inputs[key] = _secret(inputs[key])
    if from_secrets:
        for key, value in inputs.items():
            if key == "metadata" and isinstance(value, dict):
                inputs[key] = {
                    k: v if k in ("name", "namespace") or _is_secret(v) else _secret(v)
                    for k, v in value.items()
                }
            elif key not in IDENTITY and not _is_secret(value):
                inputs[key] = _secret(value)
    return inputs


def _is_secret(value: Any) -> bool:
    return isinstance(value, dict) and value.get(SIG_KEY) == SECRET_SIG


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
    from_secrets = contains_secret(component.inputs)
    for obj, name, urn, wait in zip(objects, names, urns, waits, strict=True):
        inputs = _engine_object(obj, from_secrets=from_secrets)
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


def _what(component: RecordedResource, kind: str | None = None) -> str:
    return f"{kind or KINDS[component.type]} '{component.name}'"


def _notice(
    component: RecordedResource, level: str, text: str, kind: str | None = None
) -> Violation:
    """A notice on ``component``; no secret of its inputs and no URL's credentials in it (a
    Helm error may quote a value, a fetch error the URL)."""
    redactor = Redactor(secret_strings(secret_values(component.inputs)))
    message = redactor.text(f"{_what(component, kind)}: {text}")
    return Violation(NOTICE, level, component.urn, message)


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
    deadline: RunDeadline = NO_DEADLINE,
    fails: str = REAL_PREVIEW_FAILS,
) -> tuple[list[RecordedResource], Violation | None]:
    """One component's children as the provider registers them, or the notice saying why it
    has none (``what`` names the component in it, a Kubernetes component by default;
    ``instead`` says what was judged in their place; ``fails`` who fails on a broken one);
    ``PreviewTimedOut`` past the run's ``deadline``."""
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
    ctx = Context(program_dir, namespace, store, deadline, _what(component, what))
    deadline.enforce(f"building {ctx.doing}")
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
            f"{err.shown(contains_secret(component.inputs))}. {fails}; its objects "
            f"were not judged: {instead}. Fix: correct the chart's values or the manifests.",
            what,
        )


def build_components(
    run: ProgramRun,
    program_dir: Path,
    user_mocks: UserMocks | None = None,
    store: ChartStore | None = None,
    deadline: RunDeadline = NO_DEADLINE,
) -> tuple[ProgramRun, list[Violation]]:
    """``run`` with the children of every Kubernetes remote component, and the notices of
    those that could not be built; ``PreviewTimedOut`` past the run's ``deadline``."""
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
            deadline=deadline,
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
