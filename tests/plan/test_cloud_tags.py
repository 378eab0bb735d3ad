"""plan.cloud_tags: Azure's and Alibaba Cloud's tag limits, both sides of each bound, exact
messages."""

from __future__ import annotations

import pytest

from gpu_platform.plan.cloud_tags import ack_tag_problems, azure_tag_problems


def test_azure_takes_50_tags_not_51() -> None:
    fifty = {f"t{i}": "v" for i in range(50)}
    assert azure_tag_problems(fifty) == []
    assert azure_tag_problems({**fifty, "t50": "v"}) == [
        ("", "51 tags; Azure takes at most 50 per resource")
    ]


def test_azure_name_and_value_lengths() -> None:
    assert azure_tag_problems({"n" * 512: "v" * 256}) == []
    assert azure_tag_problems({"n" * 513: "v", "ok": "v" * 257}) == [
        ("n" * 513, "Azure tag names are 1-512 characters, not 513"),
        ("ok", "Azure tag values are at most 256 characters, not 257"),
    ]
    assert azure_tag_problems({"": "v"}) == [("", "Azure tag names are 1-512 characters, not 0")]


@pytest.mark.parametrize(
    ("name", "shown"),
    [
        ("cost<center", "'<'"),
        ("a/b", "'/'"),
        ("50%", "'%'"),
        ("a&b?c", "'&', '?'"),
        ("back\\slash", "'\\\\'"),
        ("tab\there", "'\\t'"),
    ],
)
def test_azure_tag_names_refuse_its_characters(name: str, shown: str) -> None:
    assert azure_tag_problems({name: "v"}) == [
        (
            name,
            f"Azure tag names must not contain {shown} (none of <>%&\\?/ or a control character)",
        )
    ]


def test_azure_tag_names_ignore_case() -> None:
    assert azure_tag_problems({"Environment": "dev", "environment": "prod"}) == [
        (
            "environment",
            "Azure tag names ignore case: 'environment' is the same tag as 'Environment'",
        )
    ]


def test_azure_takes_what_the_stacks_use() -> None:
    assert azure_tag_problems({"environment": "dev", "cost-center": "ml:gpu (team) #1"}) == []


def test_ack_takes_20_tags_not_21() -> None:
    twenty = {f"t{i}": "v" for i in range(20)}
    assert ack_tag_problems(twenty) == []
    assert ack_tag_problems({**twenty, "t20": "v"}) == [
        ("", "21 tags; Alibaba Cloud takes at most 20 per resource")
    ]


def test_ack_lengths() -> None:
    assert ack_tag_problems({"k" * 64: "v" * 128}) == []
    assert ack_tag_problems({"k" * 65: "v", "ok": "v" * 129}) == [
        ("k" * 65, "Alibaba Cloud tag names are 1-64 characters, not 65"),
        ("ok", "Alibaba Cloud tag values are at most 128 characters, not 129"),
    ]


@pytest.mark.parametrize(
    ("key", "value", "message"),
    [
        ("aliyun-team", "x", "Alibaba Cloud refuses a tag name starting with 'aliyun'"),
        ("acs:owner", "x", "Alibaba Cloud refuses a tag name starting with 'acs:'"),
        ("team", "aliyunx", "Alibaba Cloud refuses a tag value starting with 'aliyun'"),
        ("url", "see https://x", "Alibaba Cloud refuses a tag value containing 'https://'"),
        ("a-http://b", "x", "Alibaba Cloud refuses a tag name containing 'http://'"),
    ],
)
def test_ack_refused_prefixes_and_urls(key: str, value: str, message: str) -> None:
    assert ack_tag_problems({key: value}) == [(key, message)]


def test_ack_takes_the_characters_azure_refuses_and_case_distinct_keys() -> None:
    assert ack_tag_problems({"a/b": "", "Env": "1", "env": "2", "Aliyun": "x"}) == []
