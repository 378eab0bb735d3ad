"""Helm releases in a stack: which chart each one installs, and its values."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

from pulumi_policy import PolicyResource

from gpu_facts.nvidia.device_plugin_chart import CHART_NAME, GPU_OPERATOR_CHART_NAME

from .props import is_false, mapping, path, text
from .resource_types import HELM_RELEASES

# The GPU Operator's chart deploys its own device plugin unless devicePlugin.enabled is false.
GPU_OPERATOR_CHART = GPU_OPERATOR_CHART_NAME


# A packaged chart's file name: <name>-<version>.tgz (Helm's "helm package" naming).
_PACKAGE = re.compile(r"^(?P<name>.+?)-(?P<version>v?\d+\.\d+\.\d+[^/]*)\.tgz$")


def _last_segment(props: Mapping[str, Any]) -> str:
    chart = text(props.get("chart")) or ""
    return chart.rstrip("/").rsplit("/", 1)[-1]


def chart_name(props: Mapping[str, Any]) -> str:
    """The chart's bare name: ``nvdp/nvidia-device-plugin``, OCI refs and package URLs
    (``.../nvidia-device-plugin-0.14.1.tgz``) -> ``nvidia-device-plugin``."""
    segment = _last_segment(props)
    package = _PACKAGE.match(segment)
    return package.group("name") if package else segment


def chart_version(props: Mapping[str, Any]) -> str | None:
    """The pinned chart version: ``version``, else the version in a package URL's name."""
    version = text(props.get("version"))
    if version:
        return version
    package = _PACKAGE.match(_last_segment(props))
    return package.group("version") if package else None


def releases(index: Mapping[str, list[PolicyResource]], chart: str) -> Iterator[PolicyResource]:
    """Every Helm release (v3 Release or v4 Chart) of ``chart``."""
    for resource_type in sorted(HELM_RELEASES):
        for release in index.get(resource_type, ()):
            if chart_name(release.props) == chart:
                yield release


def release_label(release: PolicyResource) -> str:
    name = text(release.props.get("name")) or release.name
    return f"'{name}' ({chart_name(release.props)})"


def deploys_device_plugin(release: PolicyResource) -> bool:
    """Both charts install the device plugin unless values.devicePlugin.enabled is false."""
    enabled = path(mapping(release.props.get("values")), "devicePlugin", "enabled")
    return not is_false(enabled)


def device_plugin_owners(index: Mapping[str, list[PolicyResource]]) -> list[PolicyResource]:
    owners = [*releases(index, CHART_NAME), *releases(index, GPU_OPERATOR_CHART)]
    return [release for release in owners if deploys_device_plugin(release)]
