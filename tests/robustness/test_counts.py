"""docs/validation.md lists how many mutations of each class the suite runs: the same numbers
as the generators and tables make."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

from tests.robustness import (
    test_chart_bounds,
    test_component_args,
    test_confinement,
    test_fetch_bounds,
    test_provider_inputs,
    test_secrets,
    test_untrusted_manifests,
    test_verify_answers,
)
from tests.robustness.stack_mutations import STACKS, text_mutations, value_mutations
from tests.robustness.test_other_inputs import MOCKS, POLICY_CONFIGS
from tests.robustness.test_programs import CHILDREN, MARKUP, NUMBERS, PROGRAMS

DOC = Path(__file__).resolve().parents[2] / "docs" / "validation.md"


def documented() -> dict[str, int]:
    text = DOC.read_text().split("## The robustness suite", 1)[1]
    return {cls: int(n) for cls, n in re.findall(r"^\| `([\w-]+)` \| (\d+) \|", text, re.M)}


def test_the_documented_counts_are_the_suites() -> None:
    counts = Counter(m.cls for s in STACKS for m in [*value_mutations(s), *text_mutations(s)])
    counts.update({"mocks": len(MOCKS), "policy-config": len(POLICY_CONFIGS)})
    counts["program"] = len(PROGRAMS) + len(CHILDREN) + len(NUMBERS) + len(MARKUP)
    counts.update(untrusted_input())
    assert documented() == dict(counts)


def untrusted_input() -> dict[str, int]:
    """The classes of untrusted input beyond the stack and input files (issue 31)."""
    verify = test_verify_answers
    return {
        "manifest": len(test_untrusted_manifests.CASES)
        + len(test_untrusted_manifests.FIFO_CARRIERS)
        + len(test_untrusted_manifests.NUL_PATHS),
        "fetch": len(test_fetch_bounds.FETCHES) + len(test_fetch_bounds.CHARTS) + 1,
        "chart": len(test_chart_bounds.CASES),
        "secret": len(test_secrets.LEAKS) * len(test_secrets.FORMATS)
        + 3  # a failure or a policy quoting a secret, an object named after one
        + len(test_secrets.DERIVED),
        "install": len(test_confinement.REDIRECTS)
        + len(test_confinement.BAD_REQUIREMENTS)
        + len(test_confinement.CHECKS),
        "provider": len(test_provider_inputs.INPUTS) + len(test_provider_inputs.UNHOSTED),
        "component-args": len(test_component_args.WRONG_TYPES) + len(test_component_args.BOUNDS),
        "verify-answers": len(verify.ERROR_CHANNELS)
        + 2 * len(verify.READERS)
        + 2
        + len(verify.API_ANSWERS)
        + 1,  # a program folder that prints without end
    }
