"""The local NVMe cache is claimed through generic ephemeral volumes only.

The GPU VMs' NVMe data disks belong to the VM: their data is lost when a node is deallocated,
redeployed or re-imaged. A PersistentVolumeClaim (or a StatefulSet's volumeClaimTemplates) on
that storage reads as durable storage that outlives the pod; a generic ephemeral volume in the
pod spec says what it is, a cache that goes away with the pod.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pulumi_policy import EnforcementLevel, PolicyResource, Severity, StackValidationArgs

from gpu_facts.aks.storage import LOCAL_NVME_PROVISIONER
from gpu_policy_support.pod_specs import kubernetes_kind
from gpu_policy_support.policy_factory import Config, PolicyInfo, Report, is_exempt, stack_policy
from gpu_policy_support.props import items, mapping, mappings, path, text
from gpu_policy_support.resource_types import PERSISTENT_VOLUME_CLAIM, STORAGE_CLASS
from gpu_policy_support.stack_index import index_by_type, object_name

NVME_STORAGE_CLASSES = "nvmeStorageClasses"
DEFAULT_CLASS_ANNOTATION = "storageclass.kubernetes.io/is-default-class"

INFO = PolicyInfo(
    name="nvme-cache-volumes-ephemeral",
    description=(
        f"Volumes on a StorageClass of the local NVMe provisioner {LOCAL_NVME_PROVISIONER} (or "
        "one named in nvmeStorageClasses) are generic ephemeral volumes in the pod spec, not "
        "PersistentVolumeClaims or StatefulSet volumeClaimTemplates: the data is lost when "
        "the VM is deallocated or redeployed."
    ),
    practices=("BP-18",),
    enforcement_level=EnforcementLevel.ADVISORY,
    severity=Severity.MEDIUM,
    remediation_steps=(
        "Mount the cache as spec.volumes[].ephemeral.volumeClaimTemplate with the NVMe "
        "StorageClass, and keep the only copy of datasets, checkpoints and weights on durable "
        "storage (Blob, Azure Files, a managed disk)."
    ),
    config={
        NVME_STORAGE_CLASSES: {
            "type": "array",
            "items": {"type": "string"},
            "default": [],
            "description": (
                "Names of local NVMe StorageClasses created outside the stack (a team's "
                "workload stack on a platform cluster)."
            ),
        }
    },
)


def nvme_classes(
    index: Mapping[str, list[PolicyResource]], config: Config
) -> tuple[set[str], bool]:
    """Names of the NVMe StorageClasses, and whether one is the cluster's default class."""
    names = {str(n) for n in items(config.get(NVME_STORAGE_CLASSES))}
    default = False
    for storage_class in index.get(STORAGE_CLASS, ()):
        if text(storage_class.props.get("provisioner")) != LOCAL_NVME_PROVISIONER:
            continue
        names.add(object_name(storage_class))
        annotations = mapping(path(storage_class.props, "metadata", "annotations"))
        default = default or text(annotations.get(DEFAULT_CLASS_ANNOTATION)) == "true"
    return names, default


def _on_nvme(claim_spec: Any, classes: set[str], default: bool) -> bool:
    class_name = text(mapping(claim_spec).get("storageClassName"))
    return class_name in classes if class_name is not None else default


LOST = "its data is lost when the VM is deallocated or redeployed"


def validate(args: StackValidationArgs, config: Config, report: Report) -> None:
    index = index_by_type(args.resources)
    classes, default = nvme_classes(index, config)
    if not classes:
        return
    for claim in index.get(PERSISTENT_VOLUME_CLAIM, ()):
        if is_exempt(claim.name, claim.props, config):
            continue
        if _on_nvme(claim.props.get("spec"), classes, default):
            report(
                f"PersistentVolumeClaim '{object_name(claim)}' claims the local NVMe cache, "
                f"which {LOST}: use a generic ephemeral volume in the pod spec instead.",
                claim.urn,
            )
    for resource_type, resources in index.items():
        if kubernetes_kind(resource_type) != "StatefulSet":
            continue
        for stateful_set in resources:
            if is_exempt(stateful_set.name, stateful_set.props, config):
                continue
            templates = mappings(path(stateful_set.props, "spec", "volumeClaimTemplates"))
            for template in templates:
                if _on_nvme(template.get("spec"), classes, default):
                    name = text(path(template, "metadata", "name")) or "?"
                    report(
                        f"StatefulSet '{object_name(stateful_set)}' keeps volumeClaimTemplate "
                        f"'{name}' on the local NVMe cache, which {LOST}: use a generic "
                        "ephemeral volume instead.",
                        stateful_set.urn,
                    )


POLICY = stack_policy(INFO, validate)
