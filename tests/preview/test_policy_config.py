"""--policy-config: read and checked as the Pulumi CLI checks --policy-pack-config, stricter
where the CLI would silently ignore a part (offline_preview/policy_config.py)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from gpu_platform.offline_preview.policy_config import (
    LEVELS,
    policy_config_problems,
    read_policy_config,
    validate_policy_config,
)
from gpu_platform.stack_config.yaml_file import FileProblem, InputFileError
from gpu_policies.registry import policies

TAINTED = "gpu-node-pools-tainted"
PRIVILEGED = "no-privileged-gpu-containers"
PACK = policies()


def test_the_levels_are_pulumis() -> None:
    assert LEVELS == ("advisory", "mandatory", "remediate", "disabled")


@pytest.mark.parametrize(
    "config",
    [
        {},
        {"all": "mandatory"},
        {"all": {"enforcementLevel": "remediate"}},
        {TAINTED: "disabled"},
        {TAINTED: {"enforcementLevel": "advisory", "requiredTaintValue": "true"}},
        {PRIVILEGED: {"exemptNamespaces": ["kube-system", "monitoring"]}},
    ],
)
def test_configs_pulumi_accepts_are_accepted(config: dict[str, Any]) -> None:
    assert policy_config_problems(config, PACK) == []


@pytest.mark.parametrize(
    ("config", "expected"),
    [
        ({"all": 5}, [("all", "5 is neither an enforcement level nor an object")]),
        (
            {"all": "blocking"},
            [
                (
                    "all",
                    "'blocking' is not an enforcement level "
                    "(advisory, mandatory, remediate, disabled)",
                )
            ],
        ),
        (
            {"all": {"enforcementLevel": True}},
            [
                (
                    "all.enforcementLevel",
                    "True is not an enforcement level (advisory, mandatory, remediate, disabled)",
                )
            ],
        ),
        (
            {"all": {"exemptNames": []}},
            [("all.exemptNames", "only enforcementLevel applies to every policy")],
        ),
        (
            {TAINTED: {"requiredTaintValue": 5}},
            [(f"{TAINTED}.requiredTaintValue", "5 is not of type 'string'")],
        ),
        (
            {PRIVILEGED: {"exemptNamespaces": "kube-system"}},
            [(f"{PRIVILEGED}.exemptNamespaces", "'kube-system' is not of type 'array'")],
        ),
        (
            {PRIVILEGED: {"exemptNamespaces": [1]}},
            [(f"{PRIVILEGED}.exemptNamespaces.0", "1 is not of type 'string'")],
        ),
        (
            {TAINTED: {"requiredTaintValu": "x"}},
            [
                (
                    f"{TAINTED}.requiredTaintValu",
                    "not a property of this policy (Pulumi ignores it); "
                    "did you mean 'requiredTaintValue'?",
                )
            ],
        ),
        (
            {"gpu-node-pools-taintd": "advisory"},
            [
                (
                    "gpu-node-pools-taintd",
                    "no policy of the pack has this name (Pulumi ignores it); "
                    f"did you mean '{TAINTED}'?",
                )
            ],
        ),
        (
            {TAINTED: ["advisory"]},
            [(TAINTED, "['advisory'] is neither an enforcement level nor an object")],
        ),
    ],
)
def test_bad_configs_name_the_bad_key(
    config: dict[str, Any], expected: list[tuple[str, str]]
) -> None:
    assert policy_config_problems(config, PACK) == expected
    with pytest.raises(InputFileError) as err:
        validate_policy_config(config, PACK, "pack.json")
    assert [p.message for p in err.value.problems] == [f"{k}: {m}" for k, m in expected]


def test_the_file_is_a_json_object(tmp_path: Path) -> None:
    path = tmp_path / "pack.json"
    path.write_text(json.dumps({"all": "advisory"}))
    assert read_policy_config(path) == {"all": "advisory"}
    path.write_text("  \n")
    assert read_policy_config(path) == {}  # as the CLI: empty content is no config


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            '{"all": "advisory",}',
            FileProblem("not JSON: Expecting property name enclosed in double quotes", 1, 20),
        ),
        ("[1]", FileProblem("a JSON object of policy names (or all) to levels or objects")),
        ('{"all": "advisory", "all": "mandatory"}', FileProblem("key 'all' given twice")),
        ('{"all": NaN}', FileProblem("NaN is not JSON")),
        ("[" * 100_000 + "]" * 100_000, FileProblem("nested too deep")),
        ("all: advisory\n", FileProblem("not JSON: Expecting value", 1, 1)),
    ],
)
def test_a_file_that_is_no_policy_config_is_refused(
    tmp_path: Path, text: str, expected: FileProblem
) -> None:
    path = tmp_path / "pack.json"
    path.write_text(text)
    with pytest.raises(InputFileError) as err:
        read_policy_config(path)
    assert err.value.problems == [expected]
