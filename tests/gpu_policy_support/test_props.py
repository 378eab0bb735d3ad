"""What many policies read of a resource is read once per props object, and only while it
lives (gpu_policy_support/props.py, ``per_props``)."""

from __future__ import annotations

import gc
from collections.abc import Mapping
from typing import Any

import pytest
from pulumi_policy.proxy import UNKNOWN_STRING_VALUE, UnknownValueError, unknown_checking_proxy

from gpu_policy_support import props as props_module
from gpu_policy_support.pod_specs import pod_gpu_resources, pod_sites
from gpu_policy_support.props import per_props

DEPLOYMENT = "kubernetes:apps/v1:Deployment"


def _deployment(gpus: int) -> dict[str, Any]:
    container = {"name": "train", "resources": {"limits": {"nvidia.com/gpu": gpus}}}
    return {"spec": {"template": {"spec": {"containers": [container]}}}}


class Reads:
    def __init__(self) -> None:
        self.count = 0

    def __call__(self, props: Mapping[str, Any]) -> tuple[str, ...]:
        self.count += 1
        return tuple(sorted(props))


def test_a_props_object_is_read_once_per_question() -> None:
    props = unknown_checking_proxy({"a": 1, "b": 2})
    reads = Reads()
    assert per_props(props, "keys", reads) == ("a", "b")
    assert per_props(props, "keys", reads) == ("a", "b")
    assert reads.count == 1
    assert per_props(props, "other", reads) == ("a", "b")
    assert reads.count == 2


def test_another_object_with_equal_props_is_read_for_itself() -> None:
    reads = Reads()
    first, second = unknown_checking_proxy({"a": 1}), unknown_checking_proxy({"a": 1})
    per_props(first, "keys", reads)
    per_props(second, "keys", reads)
    assert reads.count == 2


def test_a_plain_dict_is_read_each_time() -> None:
    reads = Reads()
    props = {"a": 1}
    per_props(props, "keys", reads)
    per_props(props, "keys", reads)
    assert reads.count == 2


def test_what_was_read_goes_with_its_props() -> None:
    props = unknown_checking_proxy({"a": 1})
    per_props(props, "keys", Reads())
    key = id(props)
    assert key in props_module._READ
    del props
    gc.collect()
    assert key not in props_module._READ  # its id may name another object next


def test_a_read_that_meets_an_unknown_value_raises_each_time() -> None:
    props = unknown_checking_proxy({"a": UNKNOWN_STRING_VALUE})
    calls = []

    def read_a(props: Mapping[str, Any]) -> tuple[str, ...]:
        calls.append(1)
        return (props["a"],)

    for _ in range(2):
        with pytest.raises(UnknownValueError):
            per_props(props, "a", read_a)
    assert len(calls) == 2


def test_pods_and_their_gpus_are_the_same_read_or_not() -> None:
    plain = _deployment(2)
    proxied = unknown_checking_proxy(_deployment(2))
    for props in (plain, proxied, proxied):
        (site,) = pod_sites(DEPLOYMENT, props)
        assert pod_gpu_resources(site.spec) == {"nvidia.com/gpu"}
    first, again = pod_sites(DEPLOYMENT, proxied), pod_sites(DEPLOYMENT, proxied)
    assert first == again and first is not again  # a caller's list is its own
    assert pod_sites("kubernetes:core/v1:ConfigMap", proxied) == []
