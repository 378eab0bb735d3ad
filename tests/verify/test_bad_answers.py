"""readiness.bad_answers: a list not read is one failing row; the rows it would have fed are
skipped, the others left alone."""

from __future__ import annotations

from pathlib import Path

import pytest

from gpu_platform.verify.answers import BadAnswer
from gpu_platform.verify.bad_answers import reads, with_bad_answers
from gpu_platform.verify.cli import load_stack
from gpu_platform.verify.expectations import Expectations, expectations
from gpu_platform.verify.results import CheckResult

ROOT = Path(__file__).resolve().parents[2]
PLUGIN, EXPORTER, TRAINING = "nvidia-device-plugin", "gpu-metrics", "gpu-training"


@pytest.fixture(scope="module")
def exp() -> Expectations:
    stack = ROOT / "tests" / "data" / "verify" / "Pulumi.verify.yaml"
    found = expectations(load_stack(ROOT, "verify", stack))
    assert (found.plugin_namespace, found.exporter and found.exporter.namespace) == (
        PLUGIN,
        EXPORTER,
    )
    assert TRAINING in {ns.name for ns in found.namespaces}
    return found


def _bad(resource: str, namespace: str | None = None, selector: str = "") -> BadAnswer:
    what = f"list {resource}" + (f" in {namespace}" if namespace else "")
    return BadAnswer(what, resource, namespace, selector, "a list", "the answer is null")


def _row(check: str, subject: str, status: str = "fail") -> CheckResult:
    return CheckResult(check, subject, "x", "y", status)  # type: ignore[arg-type]


ROWS = [
    _row("node-count", "pool/t4"),
    _row("node-count", "pool/a100"),
    _row("taint", "node/n1"),
    _row("gpu-daemon", "node/n1"),
    _row("driver", "node/n1"),
    _row("daemonset", f"daemonset/{PLUGIN}/nvidia-device-plugin"),
    _row("daemonset", f"daemonset/{EXPORTER}/dcgm-exporter"),
    _row("exporter", "node/n1"),
    _row("gpu-series", "node/n1"),
    _row("gpu-attribution", f"namespace/{TRAINING}"),
    _row("gpu-attribution", "namespace/gpu-inference"),
    _row("network-policy", f"namespace/{TRAINING}"),
    _row("gpu-quota", f"namespace/{TRAINING}"),
    _row("admission-binding", f"namespace/{TRAINING}"),
    _row("admission-binding", "namespace/gpu-inference"),
]


@pytest.mark.parametrize(
    ("bad", "unread"),
    [
        (_bad("nodes", selector="gpu-platform.io/pool=t4"), {("node-count", "pool/t4")}),
        (
            _bad("daemonsets", PLUGIN),
            {
                ("gpu-daemon", "node/n1"),
                ("driver", "node/n1"),
                ("daemonset", f"daemonset/{PLUGIN}/nvidia-device-plugin"),
            },
        ),
        (_bad("pods", PLUGIN), {("gpu-daemon", "node/n1"), ("driver", "node/n1")}),
        (
            _bad("daemonsets"),  # all namespaces: ACK's MPS daemon
            {
                ("gpu-daemon", "node/n1"),
                ("driver", "node/n1"),
                ("daemonset", f"daemonset/{PLUGIN}/nvidia-device-plugin"),
            },
        ),
        (
            _bad("daemonsets", EXPORTER),
            {
                ("exporter", "node/n1"),
                ("gpu-series", "node/n1"),
                ("gpu-attribution", f"namespace/{TRAINING}"),
                ("gpu-attribution", "namespace/gpu-inference"),
                ("daemonset", f"daemonset/{EXPORTER}/dcgm-exporter"),
            },
        ),
        (_bad("pods", TRAINING), {("gpu-attribution", f"namespace/{TRAINING}")}),
        (
            _bad("namespaces", TRAINING),
            {
                ("gpu-attribution", f"namespace/{TRAINING}"),
                ("network-policy", f"namespace/{TRAINING}"),
                ("gpu-quota", f"namespace/{TRAINING}"),
                ("admission-binding", f"namespace/{TRAINING}"),
            },
        ),
        (_bad("networkpolicies", TRAINING), {("network-policy", f"namespace/{TRAINING}")}),
        (_bad("resourcequotas", TRAINING), {("gpu-quota", f"namespace/{TRAINING}")}),
        (
            _bad("validatingadmissionpolicybindings"),
            {
                ("admission-binding", f"namespace/{TRAINING}"),
                ("admission-binding", "namespace/gpu-inference"),
            },
        ),
        (_bad("configmaps", TRAINING), set()),  # a list nobody told us about: its row only
    ],
    ids=lambda v: v.what if isinstance(v, BadAnswer) else "",
)
def test_each_list_feeds_its_rows(exp: Expectations, bad: BadAnswer, unread: set[object]) -> None:
    assert {(r.check, r.subject) for r in ROWS if reads(bad, r, exp)} == unread


def test_rows_fed_by_a_bad_list_are_skipped_and_the_list_fails_once(exp: Expectations) -> None:
    bad = _bad("resourcequotas", TRAINING)
    rows = [_row("gpu-quota", f"namespace/{TRAINING}"), _row("taint", "node/n1", "pass")]
    assert with_bad_answers(rows, [bad], exp) == [
        CheckResult(
            "gpu-quota",
            f"namespace/{TRAINING}",
            "x",
            f"not checked: list resourcequotas in {TRAINING} gave no list",
            "skip",
        ),
        rows[1],
        CheckResult("api-answer", bad.what, "a list", "the answer is null", "fail"),
    ]


def test_a_partly_read_list_fails_once_and_skips_nothing(exp: Expectations) -> None:
    bad = BadAnswer("list pods in x", "pods", PLUGIN, "", "a list", "item 3 ...", partial=True)
    rows = [_row("gpu-daemon", "node/n1")]
    assert with_bad_answers(rows, [bad], exp) == [
        rows[0],
        CheckResult("api-answer", "list pods in x", "a list", "item 3 ...", "fail"),
    ]
