"""The pod of a custom resource that holds no PodSpec of its own, as its operator builds it.

KServe components write PodSpec fields inline next to containers given as single fields; a
Kubeflow Trainer TrainJob patches its runtime's trainer pod; an Argo template is a pod whose
pod-level fields may come from the steps or DAG template that calls it, or from the workflow
(``gpu_facts.pod_templates`` has the facts and their sources). Each is given to the policies as
an ordinary pod spec (a read-only mapping), whose fields are read from the resource only when
a policy reads them: an unknown field stops only the policies that need it.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from pulumi_policy.proxy import UnknownValueError

from gpu_facts.pod_templates import (
    ARGO_MAIN_CONTAINER,
    ARGO_POD_FIELDS,
    ARGO_POD_SPEC_PATCH,
    ARGO_WORKFLOW_ONLY_FIELDS,
    INLINE_CONTAINER_KEYS,
    KSERVE_CONTAINER,
    KSERVE_RUNTIME_KINDS,
    TRAIN_JOB_DEFAULT_RUNTIME_KIND,
    TRAIN_JOB_PATCH_PATH,
    TRAINER_CONTAINER,
)

from .props import items, mapping, mappings, path, text, walk


class Overlay(Mapping[str, Any]):
    """``base`` with some keys computed from the resource on first read (None: absent)."""

    def __init__(self, base: Mapping[str, Any], computed: Mapping[str, Callable[[], Any]]) -> None:
        self._base = base
        self._computed = computed
        self._cache: dict[str, Any] = {}

    def __getitem__(self, key: str) -> Any:
        if key not in self._computed:
            return self._base[key]
        if key not in self._cache:
            self._cache[key] = self._computed[key]()
        return self._cache[key]

    def __iter__(self) -> Iterator[str]:
        yield from self._computed
        yield from (k for k in self._base if k not in self._computed)

    def __len__(self) -> int:
        return len(set(self._base) | set(self._computed))


@dataclass(frozen=True, slots=True)
class RuntimeRef:
    """The runtime a resource's pod comes from: looked up in the stack by kind and name, or
    (KServe, no name) by a model format it serves with ``autoSelect``."""

    group: str
    kinds: tuple[str, ...]
    """Looked up in this order (KServe: the namespace's runtimes first)."""
    name: str | None
    model_format: str | None = None


def _known(read: Callable[[], str | None]) -> str | None:
    try:
        return read()
    except UnknownValueError:
        return None


# --- KServe -------------------------------------------------------------------------------


def _named(container: Mapping[str, Any], default: str) -> Mapping[str, Any]:
    if text(container.get("name")):
        return container
    return Overlay(container, {"name": lambda: default})


def _served_by(predictor: Mapping[str, Any]) -> RuntimeRef | None:
    """The ServingRuntime a predictor's ``model`` names, or the model format one must serve."""
    try:
        model = predictor.get("model")
    except UnknownValueError:
        return None
    if not isinstance(model, Mapping):
        return None
    return RuntimeRef(
        "serving.kserve.io",
        KSERVE_RUNTIME_KINDS,
        _known(lambda: text(model.get("runtime"))),
        _known(lambda: text(path(model, "modelFormat", "name"))),
    )


def inline_pod(
    component: Mapping[str, Any], *, predictor: bool
) -> tuple[Mapping[str, Any], RuntimeRef | None]:
    """A KServe component's pod: its PodSpec fields, its ``containers`` and the containers it
    gives as single fields (``model``, a framework shortcut, ``art``); for a predictor, the
    ServingRuntime its model is served by."""

    def pod_containers() -> list[Mapping[str, Any]]:
        found = [
            _named(value, KSERVE_CONTAINER)
            for key in INLINE_CONTAINER_KEYS
            if isinstance(value := component.get(key), Mapping)
        ]
        return [*found, *mappings(component.get("containers"))]

    runtime = _served_by(component) if predictor else None
    return Overlay(component, {"containers": pod_containers}), runtime


# --- Kubeflow Trainer v2 ------------------------------------------------------------------


def train_job_pod(spec: Mapping[str, Any]) -> tuple[Mapping[str, Any], RuntimeRef | None]:
    """A TrainJob's trainer pod as far as the TrainJob writes it: ``spec.trainer`` in the
    container ``node`` and the pod patches of ``spec.runtimePatches``; the rest is its
    runtime's (``runtimeRef``, a ClusterTrainingRuntime unless it says otherwise)."""

    def patches() -> list[Mapping[str, Any]]:
        return [
            mapping(patch_spec)
            for patch in mappings(spec.get("runtimePatches"))
            for _, patch_spec in walk(patch, TRAIN_JOB_PATCH_PATH)
        ]

    def patched_containers(where: str) -> dict[str, dict[str, Any]]:
        found: dict[str, dict[str, Any]] = {}
        for patch in patches():
            for container in mappings(patch.get(where)):
                name = text(container.get("name")) or ""
                found.setdefault(name, {"name": name}).update(container)
        return found

    def trainer_containers() -> list[Mapping[str, Any]]:
        trainer = mapping(spec.get("trainer"))
        patched = patched_containers("containers")
        node = dict(patched.pop(TRAINER_CONTAINER, {}))
        node.update(
            {
                key: value
                for key, value in (
                    ("name", TRAINER_CONTAINER),
                    ("image", trainer.get("image")),
                    ("command", trainer.get("command")),
                    ("args", trainer.get("args")),
                    ("env", trainer.get("env")),
                    ("resources", trainer.get("resourcesPerNode")),
                )
                if value is not None
            }
        )
        return [node, *patched.values()]

    def first(field: str) -> Callable[[], Any]:
        return lambda: next((p[field] for p in patches() if p.get(field)), None)

    def tolerations() -> list[Any] | None:
        found = [t for p in patches() for t in items(p.get("tolerations"))]
        return found or None

    def node_selector() -> dict[str, Any] | None:
        merged: dict[str, Any] = {}
        for patch in patches():
            merged.update(mapping(patch.get("nodeSelector")))
        return merged or None

    ref = mapping(spec.get("runtimeRef"))
    runtime = RuntimeRef(
        "trainer.kubeflow.org",
        (text(ref.get("kind")) or TRAIN_JOB_DEFAULT_RUNTIME_KIND,),
        text(ref.get("name")),
    )
    view = Overlay(
        {},
        {
            "containers": trainer_containers,
            "initContainers": lambda: list(patched_containers("initContainers").values()),
            "tolerations": tolerations,
            "nodeSelector": node_selector,
            "affinity": first("affinity"),
            "securityContext": first("securityContext"),
        },
    )
    return view, runtime


# --- Argo Workflows -----------------------------------------------------------------------

_POD_TEMPLATE_KEYS = ("container", "script", "containerSet")


def _parse_patch(value: Any) -> Mapping[str, Any]:
    """A ``podSpecPatch`` string (JSON or YAML), or nothing when it is not a mapping."""
    if not isinstance(value, str) or not value.strip():
        return {}
    try:
        parsed = json.loads(value)
    except ValueError:
        import yaml  # the Pulumi SDK requires PyYAML: it is in every venv the pack runs in

        try:
            parsed = yaml.safe_load(value)
        except yaml.YAMLError:
            return {}
    return parsed if isinstance(parsed, Mapping) else {}


def merge_patch(base: Mapping[str, Any], patch: Mapping[str, Any]) -> dict[str, Any]:
    """A strategic-merge patch on a pod spec, as far as pod policies read one: containers are
    merged by name (a new name is added), maps merged key by key, anything else replaced."""
    merged = dict(base)
    for key, value in patch.items():
        old = merged.get(key)
        if key in ("containers", "initContainers") and isinstance(value, list):
            by_name = {text(c.get("name")): dict(c) for c in mappings(old)}
            for container in mappings(value):
                name = text(container.get("name"))
                by_name[name] = merge_patch(by_name.get(name, {}), container)
            merged[key] = list(by_name.values())
        elif isinstance(value, Mapping) and isinstance(old, Mapping):
            merged[key] = merge_patch(old, value)
        else:
            merged[key] = value
    return merged


def _callers(templates: list[Mapping[str, Any]]) -> dict[str, list[Mapping[str, Any]]]:
    """Template name -> the steps and DAG templates that call it, in the workflow's order."""
    found: dict[str, list[Mapping[str, Any]]] = {}
    for template in templates:
        steps = [s for group in items(template.get("steps")) for s in mappings(group)]
        tasks = list(mappings(path(template, "dag", "tasks")))
        for call in (*steps, *tasks):
            name = text(call.get("template"))
            calling = found.setdefault(name or "", [])
            if name is not None and not any(t is template for t in calling):
                calling.append(template)
    return found


def _inherited(
    template: Mapping[str, Any], field: str, callers: Mapping[str, list[Mapping[str, Any]]]
) -> Any:
    """The nearest caller's value of ``field`` (breadth first up the calls), else None."""
    seen: list[Mapping[str, Any]] = [template]
    queue = list(callers.get(text(template.get("name")) or "", ()))
    while queue:
        caller = queue.pop(0)
        if any(caller is s for s in seen):
            continue
        seen.append(caller)
        if caller.get(field):
            return caller[field]
        queue.extend(callers.get(text(caller.get("name")) or "", ()))
    return None


def _argo_pod(
    template: Mapping[str, Any],
    workflow: Mapping[str, Any],
    callers: Mapping[str, list[Mapping[str, Any]]],
) -> dict[str, Any]:
    defaults = mapping(workflow.get("templateDefaults"))
    main = [
        _named(c, ARGO_MAIN_CONTAINER)
        for key in ("container", "script")
        if isinstance(c := template.get(key), Mapping)
    ]
    pod: dict[str, Any] = {
        "containers": [
            *main,
            *mappings(path(template, "containerSet", "containers")),
            *mappings(template.get("sidecars")),
        ],
        "initContainers": list(mappings(template.get("initContainers"))),
    }
    for field in ARGO_POD_FIELDS:
        value = (
            template.get(field)
            or defaults.get(field)
            or _inherited(template, field, callers)
            or workflow.get(field)
        )
        if value:
            pod[field] = value
    for field in ARGO_WORKFLOW_ONLY_FIELDS:
        if workflow.get(field) is not None:
            pod[field] = workflow[field]
    for source in (workflow, defaults, template):
        pod = merge_patch(pod, _parse_patch(source.get(ARGO_POD_SPEC_PATCH)))
    return pod


class Lazy(Mapping[str, Any]):
    """A mapping built on first read."""

    def __init__(self, build: Callable[[], Mapping[str, Any]]) -> None:
        self._build = build
        self._built: Mapping[str, Any] | None = None

    def _value(self) -> Mapping[str, Any]:
        if self._built is None:
            self._built = self._build()
        return self._built

    def __getitem__(self, key: str) -> Any:
        return self._value()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._value())

    def __len__(self) -> int:
        return len(self._value())


def argo_pods(
    workflow: Mapping[str, Any],
) -> Iterator[tuple[str, Mapping[str, Any], Mapping[str, Any]]]:
    """Each template of an Argo WorkflowSpec that runs containers, named, with its pod spec and
    labels (the workflow's ``podMetadata`` under the template's ``metadata``)."""
    templates = list(mappings(workflow.get("templates")))
    callers = _callers(templates)
    for index, template in enumerate(templates):
        if not any(isinstance(template.get(key), Mapping) for key in _POD_TEMPLATE_KEYS):
            continue
        name = text(template.get("name")) or f"#{index}"
        labels = Lazy(
            lambda t=template: {
                **mapping(path(workflow, "podMetadata", "labels")),
                **mapping(path(t, "metadata", "labels")),
            }
        )
        yield name, Lazy(lambda t=template: _argo_pod(t, workflow, callers)), labels
