"""Values as the engine carries them: secrets, unknowns and resource references.

The SDK's own deserializer turns a resource reference back into a live SDK resource when the
provider's Python package is installed; the mock monitor does that on a worker thread with an
event loop of its own, which hangs or fails with "Future ... attached to a different loop".
A real engine never does it: providers get the referenced resource's ID (custom resources) or
URN (components). ``from_struct`` does the same, then deserializes.
"""

from __future__ import annotations

from typing import Any

from google.protobuf import json_format, struct_pb2
from pulumi.asset import Archive, Asset
from pulumi.output import Unknown as SdkUnknown
from pulumi.runtime import rpc

# The wire markers (the SDK's own constants).
SECRET_SIG = rpc._special_secret_sig
RESOURCE_SIG = rpc._special_resource_sig
SIG_KEY = rpc._special_sig_key
ASSET_SIG = rpc._special_asset_sig
ARCHIVE_SIG = rpc._special_archive_sig
UNKNOWN_SENTINEL = rpc.UNKNOWN
"""The wire's unknown value; pulumi_policy reads the same string as an unknown string."""


class Secret:
    """A secret value as the engine received it; shown as ``[secret]``."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value

    def __repr__(self) -> str:
        return "[secret]"


class Unknown:
    """A value the engine knows only after the resource is created; shown as ``[unknown]``."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "[unknown]"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Unknown)

    def __hash__(self) -> int:
        return 0


UNKNOWN = Unknown()


def _without_refs(value: Any) -> Any:
    if isinstance(value, dict):
        if value.get(SIG_KEY) == RESOURCE_SIG:
            if "id" not in value:  # a component: its URN
                return value["urn"]
            return value["id"] or UNKNOWN_SENTINEL  # an empty ID is an unknown one
        return {k: _without_refs(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_without_refs(v) for v in value]
    return value


def from_struct(struct: struct_pb2.Struct) -> dict[str, Any]:
    """Deserialize a request's properties as the SDK does, resource references as a provider
    receives them, unknowns kept (as the SDK's ``Unknown``) and secrets as wire envelopes."""
    if RESOURCE_SIG.encode() in struct.SerializeToString():  # rare: skip the copy otherwise
        rebuilt = struct_pb2.Struct()
        rebuilt.update(_without_refs(json_format.MessageToDict(struct)))
        struct = rebuilt
    return dict(rpc.deserialize_properties(struct, keep_unknowns=True))


def _envelope(value: Asset | Archive) -> dict[str, Any]:
    """An asset or archive as the engine carries it: ``{<sig>: <asset sig>, "path": ...}``."""
    envelope: dict[str, Any] = {SIG_KEY: ASSET_SIG if isinstance(value, Asset) else ARCHIVE_SIG}
    for key in ("path", "text", "uri"):
        if hasattr(value, key):
            envelope[key] = markers(getattr(value, key))
            return envelope
    envelope["assets"] = markers(dict(getattr(value, "assets", {}) or {}))
    return envelope


def markers(value: Any) -> Any:
    """Secret envelopes and unknowns (the SDK's object or the wire string) as ``Secret`` and
    ``Unknown`` markers, recursively; assets and archives (the SDK deserializes them into
    ``FileAsset``...) back in their JSON-able wire envelopes."""
    if isinstance(value, SdkUnknown) or value == UNKNOWN_SENTINEL:
        return UNKNOWN
    if isinstance(value, (Asset, Archive)):
        return _envelope(value)
    if isinstance(value, dict):
        if value.get(SIG_KEY) == SECRET_SIG:
            return Secret(markers(value.get("value")))
        return {k: markers(v) for k, v in value.items()}
    if isinstance(value, list):
        return [markers(v) for v in value]
    return value


def to_wire(value: Any) -> Any:
    """The inverse of ``markers``: JSON-able, with the wire's envelopes and sentinel."""
    if isinstance(value, Unknown):
        return UNKNOWN_SENTINEL
    if isinstance(value, Secret):
        return {SIG_KEY: SECRET_SIG, "value": to_wire(value.value)}
    if isinstance(value, dict):
        return {k: to_wire(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [to_wire(v) for v in value]
    return value


def contains_unknown(value: Any) -> bool:
    if isinstance(value, Unknown):
        return True
    if isinstance(value, Secret):
        return contains_unknown(value.value)
    if isinstance(value, dict):
        return any(contains_unknown(v) for v in value.values())
    if isinstance(value, list):
        return any(contains_unknown(v) for v in value)
    return False


def contains_secret(value: Any) -> bool:
    if isinstance(value, Secret):
        return True
    if isinstance(value, dict):
        return any(contains_secret(v) for v in value.values())
    if isinstance(value, list):
        return any(contains_secret(v) for v in value)
    return False


def secret_values(value: Any) -> list[Any]:
    """The value of every ``Secret`` inside ``value``."""
    if isinstance(value, Secret):
        return [value.value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in secret_values(v)]
    if isinstance(value, list):
        return [s for v in value for s in secret_values(v)]
    return []


def plain_strings(value: Any) -> list[str]:
    """Every string inside ``value`` that is not inside a ``Secret``."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in plain_strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in plain_strings(v)]
    return []


def unknown_paths(value: Any, prefix: str = "") -> list[str]:
    """Dotted paths of every unknown in ``value`` (``spec.role``, ``subnets[0]``)."""
    if isinstance(value, Unknown):
        return [prefix or "(whole value)"]
    if isinstance(value, Secret):
        return unknown_paths(value.value, prefix)
    if isinstance(value, dict):
        return [
            p for k, v in value.items() for p in unknown_paths(v, f"{prefix}.{k}" if prefix else k)
        ]
    if isinstance(value, list):
        return [p for i, v in enumerate(value) for p in unknown_paths(v, f"{prefix}[{i}]")]
    return []


def reveal(value: Any, *, whole_floats_as_int: bool = False) -> Any:
    """``value`` with every ``Secret`` unwrapped and every ``Unknown`` as the wire's sentinel
    (which policies' proxies read as unknown), recursively; optionally ``53.0`` -> ``53`` (the
    engine carries every number as a double; providers send integers)."""
    if isinstance(value, Secret):
        return reveal(value.value, whole_floats_as_int=whole_floats_as_int)
    if isinstance(value, Unknown):
        return UNKNOWN_SENTINEL
    if isinstance(value, dict):
        return {k: reveal(v, whole_floats_as_int=whole_floats_as_int) for k, v in value.items()}
    if isinstance(value, list):
        return [reveal(v, whole_floats_as_int=whole_floats_as_int) for v in value]
    if whole_floats_as_int and isinstance(value, float) and value.is_integer():
        return int(value)
    return value
