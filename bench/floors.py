"""Floors: the same number of registrations with none of our code, on the same mock engine.

``plain_floor`` registers plain Kubernetes objects: what any Pulumi program of that size pays.
``matched_floor`` registers one resource of the very SDK class for each resource our program
registered (components as bare ComponentResources), with the fewest inputs the class
accepts and without azure-native's API-version aliases, as our components create them
(``components.aks.azure_aliases``). Its gap to the plain floor is what the SDK classes cost by
themselves: their typed outputs, the aliases they keep.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import pulumi
import pulumi_kubernetes as k8s
from pulumi.runtime import rpc

from gpu_platform.components.aks.azure_aliases import without_version_aliases

# The SDKs' own message for a missing required argument, e.g. "Missing required property
# 'resource_group_name'"; the matched floor fills such arguments with a placeholder.
_MISSING = re.compile(r"Missing required property '(\w+)'")
_PLACEHOLDER = "floor"

SdkClass = Callable[..., Any]
"""A generated resource class: ``cls(name, opts=None, **inputs)``."""


@dataclass(frozen=True, slots=True)
class Registration:
    """What the matched floor needs of one recorded registration."""

    type: str
    name: str
    custom: bool


def plain_floor(count: int) -> None:
    """``count`` registrations: plain Namespaces and ConfigMaps (default provider)."""
    for i in range(count):
        if i % 2:
            k8s.core.v1.ConfigMap(
                f"floor-cm-{i}",
                metadata=k8s.meta.v1.ObjectMetaArgs(name=f"floor-cm-{i}", namespace="default"),
                data={"key": "value"},
            )
        else:
            k8s.core.v1.Namespace(
                f"floor-ns-{i}", metadata=k8s.meta.v1.ObjectMetaArgs(name=f"floor-ns-{i}")
            )


def sdk_class(type_token: str) -> SdkClass | None:
    """The SDK class of a type token, from the registry each SDK fills when it is imported.

    Only imported SDKs are known: the matched floor replays a run that has imported them.
    """
    pkg, _, rest = type_token.partition(":")
    if pkg == "pulumi" and rest.startswith("providers:"):
        package = rpc.get_resource_package(rest.removeprefix("providers:"), "")
        info = getattr(package, "pkg_info", None)
        if not info or info.get("token") != type_token:
            return None
        return getattr(importlib.import_module(info["fqn"]), info["class"])
    mod, _, _name = rest.rpartition(":")
    module = rpc.get_resource_module(pkg, mod, "")
    info = getattr(module, "mod_info", None)
    class_name = (info or {}).get("classes", {}).get(type_token)
    if info is None or class_name is None:
        return None
    return getattr(importlib.import_module(info["fqn"]), class_name)


def _construct(cls: SdkClass, name: str, opts: pulumi.ResourceOptions) -> None:
    """``cls(name)`` with placeholders for the arguments the class says are required.

    The SDK classes check required arguments before registering, so a refused attempt
    registers nothing.
    """
    kwargs: dict[str, str] = {}
    while True:
        try:
            cls(name, opts=opts, **kwargs)
            return
        except TypeError as err:
            missing = _MISSING.search(str(err))
            if missing is None or missing.group(1) in kwargs:
                raise
            kwargs[missing.group(1)] = _PLACEHOLDER


def matched_floor(registrations: Sequence[Registration]) -> None:
    """One registration per recorded one, with the same SDK class (or a bare component)."""
    opts = without_version_aliases(None)
    for reg in registrations:
        cls = sdk_class(reg.type) if reg.custom else None
        if cls is not None:
            _construct(cls, reg.name, opts)
        elif reg.custom:
            # A type no loaded SDK claims: the cheapest custom resource stands in.
            k8s.core.v1.ConfigMap(reg.name, metadata=k8s.meta.v1.ObjectMetaArgs(name=reg.name))
        else:
            pulumi.ComponentResource(reg.type, reg.name)
