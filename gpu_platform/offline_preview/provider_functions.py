"""Plausible results of the provider functions (invokes) team programs call most.

A real preview calls the cloud; offline, a program still needs values of the right shape:
a region, an account, zones. Every value is recognisably fake (account ``123456789012``,
``offline`` names) and, where the stack config sets the provider's region or project, follows
it. Anything else is answered as unknown, or from ``--mocks``.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from pulumi.runtime import get_config

FAKE_AWS_ACCOUNT = "123456789012"
FAKE_GCP_PROJECT = "offline-project"
FAKE_AZURE_ID = "00000000-0000-0000-0000-000000000000"


def _config(key: str, default: str) -> str:
    return str(get_config(key) or default)


def _aws_region(args: dict[str, Any]) -> str:
    return str(args.get("region") or args.get("name") or _config("aws:region", "us-east-1"))


def _aws_get_region(args: dict[str, Any]) -> dict[str, Any]:
    region = _aws_region(args)
    return {
        "id": region,
        "name": region,
        "region": region,
        "description": f"{region} (offline preview)",
        "endpoint": f"ec2.{region}.amazonaws.com",
    }


def _aws_caller_identity(args: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": FAKE_AWS_ACCOUNT,
        "accountId": FAKE_AWS_ACCOUNT,
        "arn": f"arn:aws:iam::{FAKE_AWS_ACCOUNT}:user/offline-preview",
        "userId": "AIDAOFFLINEPREVIEW0000",
    }


def _aws_partition(args: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": "aws",
        "partition": "aws",
        "dnsSuffix": "amazonaws.com",
        "reverseDnsPrefix": "com.amazonaws",
    }


def _aws_zones(args: dict[str, Any]) -> dict[str, Any]:
    region = _aws_region(args)
    prefix = "".join(part[0] for part in region.split("-")[:-1]) + region.split("-")[-1]
    return {
        "id": region,
        "names": [f"{region}{z}" for z in "abc"],
        "zoneIds": [f"{prefix}-az{i}" for i in (1, 2, 3)],
        "groupNames": [region],
        "state": args.get("state", "available"),
    }


def _aws_vpc(args: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": "vpc-00000000000000000",
        "arn": f"arn:aws:ec2:{_aws_region({})}:{FAKE_AWS_ACCOUNT}:vpc/vpc-00000000000000000",
        "cidrBlock": "172.31.0.0/16",
        "default": bool(args.get("default", False)),
        "ownerId": FAKE_AWS_ACCOUNT,
        "tags": {},
    }


def _aws_subnets(args: dict[str, Any]) -> dict[str, Any]:
    return {"id": _aws_region({}), "ids": [f"subnet-0000000000000000{i}" for i in (1, 2, 3)]}


def _aws_ssm_parameter(args: dict[str, Any]) -> dict[str, Any]:
    name = str(args.get("name", ""))
    # The EKS-optimized (GPU) AMI parameters are what GPU programs read most.
    value = "ami-00000000000000000" if "/ami" in name or "image_id" in name else "offline"
    return {"id": name, "name": name, "arn": name, "type": "String", "value": value, "version": 1}


def _aws_policy_document(args: dict[str, Any]) -> dict[str, Any]:
    """The JSON the provider renders from ``statements`` (the common fields)."""
    statements = []
    for st in args.get("statements") or []:
        doc: dict[str, Any] = {"Effect": st.get("effect", "Allow")}
        if st.get("sid"):
            doc["Sid"] = st["sid"]
        for key, wire in (("actions", "Action"), ("resources", "Resource")):
            if st.get(key):
                doc[wire] = st[key]
        for principal in st.get("principals") or []:
            doc.setdefault("Principal", {})[principal["type"]] = principal["identifiers"]
        for cond in st.get("conditions") or []:
            doc.setdefault("Condition", {}).setdefault(cond["test"], {})[cond["variable"]] = cond[
                "values"
            ]
        statements.append(doc)
    text = json.dumps({"Version": args.get("version", "2012-10-17"), "Statement": statements})
    return {"id": "offline", "json": text, "minifiedJson": text}


def _gcp_project() -> str:
    return _config("gcp:project", FAKE_GCP_PROJECT)


def _gcp_region() -> str:
    return _config("gcp:region", "us-central1")


def _gcp_client_config(args: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": "offline",
        "accessToken": "offline-preview-placeholder",
        "project": _gcp_project(),
        "region": _gcp_region(),
        "zone": _config("gcp:zone", f"{_gcp_region()}-a"),
    }


def _gcp_get_project(args: dict[str, Any]) -> dict[str, Any]:
    project = str(args.get("projectId") or _gcp_project())
    return {
        "id": f"projects/{project}",
        "projectId": project,
        "name": project,
        "number": "000000000000",
        "labels": {},
        "effectiveLabels": {},
    }


def _gcp_zones(args: dict[str, Any]) -> dict[str, Any]:
    region = str(args.get("region") or _gcp_region())
    return {
        "id": f"projects/{args.get('project') or _gcp_project()}/regions/{region}",
        "names": [f"{region}-{z}" for z in "abc"],
        "project": args.get("project") or _gcp_project(),
        "region": region,
    }


def _azure_client_config(args: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": FAKE_AZURE_ID,
        "clientId": FAKE_AZURE_ID,
        "objectId": FAKE_AZURE_ID,
        "subscriptionId": FAKE_AZURE_ID,
        "tenantId": FAKE_AZURE_ID,
    }


_FUNCTIONS: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {
    "aws:index/getRegion:getRegion": _aws_get_region,
    "aws:index/getCallerIdentity:getCallerIdentity": _aws_caller_identity,
    "aws:index/getPartition:getPartition": _aws_partition,
    "aws:index/getAvailabilityZones:getAvailabilityZones": _aws_zones,
    "aws:ec2/getVpc:getVpc": _aws_vpc,
    "aws:ec2/getSubnets:getSubnets": _aws_subnets,
    "aws:ssm/getParameter:getParameter": _aws_ssm_parameter,
    "aws:iam/getPolicyDocument:getPolicyDocument": _aws_policy_document,
    "gcp:organizations/getClientConfig:getClientConfig": _gcp_client_config,
    "gcp:organizations/getProject:getProject": _gcp_get_project,
    "gcp:compute/getZones:getZones": _gcp_zones,
    "azure:core/getClientConfig:getClientConfig": _azure_client_config,
    "azuread:index/getClientConfig:getClientConfig": _azure_client_config,
}

KNOWN_FUNCTIONS = frozenset(_FUNCTIONS)


def provider_function_result(token: str, args: dict[str, Any]) -> dict[str, Any] | None:
    """A plausible result of ``token``, or None when the offline engine has none."""
    function = _FUNCTIONS.get(token)
    return function(args) if function else None
