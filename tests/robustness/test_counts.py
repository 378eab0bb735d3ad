"""docs/validation.md lists how many mutations of each class the suite runs: the same numbers
as the generators and tables make."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

from tests.robustness.stack_mutations import STACKS, text_mutations, value_mutations
from tests.robustness.test_other_inputs import MOCKS, POLICY_CONFIGS
from tests.robustness.test_programs import PROGRAMS

DOC = Path(__file__).resolve().parents[2] / "docs" / "validation.md"


def documented() -> dict[str, int]:
    text = DOC.read_text().split("## The robustness suite", 1)[1]
    return {cls: int(n) for cls, n in re.findall(r"^\| `([\w-]+)` \| (\d+) \|", text, re.M)}


def test_the_documented_counts_are_the_suites() -> None:
    counts = Counter(m.cls for s in STACKS for m in [*value_mutations(s), *text_mutations(s)])
    counts.update({"mocks": len(MOCKS), "policy-config": len(POLICY_CONFIGS)})
    counts["program"] = len(PROGRAMS)
    assert documented() == dict(counts)
