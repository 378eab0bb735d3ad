"""The base of every settings model, and the value types the models share."""

from __future__ import annotations

from decimal import Decimal
from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StrictInt
from pydantic.alias_generators import to_camel

from gpu_facts.name_rules import DNS1123_LABEL, NameRule

Cloud = Literal["aks", "ack", "existing"]
"""Where the cluster lives, named as every layer's per-cloud folder is: AKS, ACK Pro, or a cluster
the platform does not create."""
FORMER_CLOUD_NAMES: dict[str, Cloud] = {"azure": "aks", "alicloud": "ack"}
"""The names of 0.1 (``cloud: azure``), still read as today's with a warning in 0.2."""
WholeNumber = Annotated[StrictInt, Field(ge=0)]
PositiveWhole = Annotated[StrictInt, Field(ge=1)]


def following(rule: NameRule) -> AfterValidator:
    """A validator refusing text that breaks ``rule``, in the rule's own words (the schema's
    names; ``plan.names`` judges the rest with the same rules)."""

    def validate(value: str) -> str:
        if (refusal := rule.refusal(value)) is not None:
            raise ValueError(refusal)
        return value

    return AfterValidator(validate)


DnsLabel = Annotated[str, following(DNS1123_LABEL)]
"""A namespace name: an RFC 1123 label, as Kubernetes takes it."""
Quantity = Annotated[str, Field(pattern=r"^\d+(\.\d+)?(m|k|Ki|Mi|Gi|Ti|Pi|M|G|T|P)?$")]

_QUANTITY_FACTORS = {
    "m": Decimal("0.001"),
    "": Decimal(1),
    "k": Decimal(10**3),
    "M": Decimal(10**6),
    "G": Decimal(10**9),
    "T": Decimal(10**12),
    "P": Decimal(10**15),
    "Ki": Decimal(2**10),
    "Mi": Decimal(2**20),
    "Gi": Decimal(2**30),
    "Ti": Decimal(2**40),
    "Pi": Decimal(2**50),
}


def quantity_value(quantity: str) -> Decimal:
    """A ``Quantity`` as a number (``"64Mi"`` -> 67108864), to compare two of them."""
    number = quantity.rstrip("mkKMGTPi")
    return Decimal(number) * _QUANTITY_FACTORS[quantity[len(number) :]]


MIN_KUBERNETES = "1.30"
"""Lowest Kubernetes version we support: ValidatingAdmissionPolicy is GA (v1) from 1.30."""
SYSTEM_POOL_NAME = "system"
"""Name of the system node pool the cluster components create (AKS and ACK); GPU pools
must not take it."""


class SettingsModel(BaseModel):
    model_config = ConfigDict(
        extra="forbid",
        frozen=True,
        alias_generator=to_camel,
        populate_by_name=True,
        defer_build=True,
    )
