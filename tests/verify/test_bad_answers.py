"""verify.bad_answers: a list (or object) not read is one failing row; the rows it would have fed,
in the part of the report that read it (NVIDIA's, the seed checks', AMD's), are skipped, and the
others left alone."""

from __future__ import annotations

from pathlib import Path

import pytest

from gpu_platform.verify.amd.expectations import amd_expectation
from gpu_platform.verify.answers import BadAnswer
from gpu_platform.verify.bad_answers import Feeds, Reads, with_bad_answers
from gpu_platform.verify.cli import load_stack
from gpu_platform.verify.expectations import expectations
from gpu_platform.verify.results import CheckResult
from gpu_platform.verify.snapshot import Snapshot

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data" / "verify"
PLUGIN, EXPORTER, AMD = "nvidia-device-plugin", "gpu-metrics", "amd-gpu-operator"
TRAINING, INFERENCE, RESEARCH = "gpu-training", "gpu-inference", "gpu-research"
A0, H0, M0, C0 = "a100-0", "h100-0", "mi300x-0", "a10-0"
"""One node of each pool: MIG A100, the NVMe H100 (time-sliced, or MPS), MI300X, ACK's A10 MPS."""
CLASS, DRIVER = "gpu-nvme-cache-ephemeral", "localdisk.csi.acstor.io"


def _feeds(stack: Path, pool_nodes: dict[str, str], daemons: dict[str, str]) -> Feeds:
    platform = load_stack(ROOT, stack.stem.removeprefix("Pulumi."), stack)
    return Feeds(
        expectations(platform),
        amd_expectation(platform),
        {pool: frozenset({node}) for pool, node in pool_nodes.items()},
        {pool: frozenset({ns}) for pool, ns in daemons.items()},
    )


@pytest.fixture(scope="module")
def mixed() -> Feeds:
    """NVIDIA's MIG and NVMe pools next to AMD's MI300X pool, on AKS (every part has rows)."""
    feeds = _feeds(
        DATA / "Pulumi.verify-amd-aks.yaml",
        {"a100": A0, "h100nvl": H0, "mi300x": M0},
        {"a100": PLUGIN, "h100nvl": PLUGIN},
    )
    assert feeds.exp.plugin_namespace == PLUGIN
    assert feeds.exp.exporter is not None and feeds.exp.exporter.namespace == EXPORTER
    assert feeds.amd is not None and feeds.amd.namespace == AMD
    return feeds


@pytest.fixture(scope="module")
def plugin_mps(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The mixed stack with the H100 pool on the device plugin's MPS."""
    stack = tmp_path_factory.mktemp("mps") / "Pulumi.mps.yaml"
    mixed = (DATA / "Pulumi.verify-amd-aks.yaml").read_text()
    stack.write_text(mixed.replace("mode: timeSlicing", "mode: mps"))
    return stack


@pytest.fixture(scope="module")
def ack() -> Feeds:
    """ACK's MPS pool: its daemon found among the DaemonSets of every namespace."""
    return _feeds(DATA / "Pulumi.verify-ack.yaml", {"a10mps": C0}, {"a10mps": "kube-system"})


def _row(check: str, subject: str, status: str = "fail") -> CheckResult:
    return CheckResult(check, subject, "x", "y", status)  # type: ignore[arg-type]


NVIDIA_ROWS = [
    _row("node-count", "pool/a100"),
    _row("node-count", "pool/h100nvl"),
    _row("taint", f"node/{A0}"),
    _row("gfd-labels", f"node/{A0}"),
    _row("gpu-daemon", f"node/{A0}"),
    _row("driver", f"node/{A0}"),
    _row("gpu-daemon", f"node/{H0}"),
    _row("driver", f"node/{H0}"),
    _row("daemonset", f"daemonset/{PLUGIN}/nvidia-device-plugin"),
    _row("network-policy", f"namespace/{TRAINING}"),
    _row("gpu-quota", f"namespace/{TRAINING}"),
    _row("admission-binding", f"namespace/{TRAINING}"),
    _row("network-policy", f"namespace/{RESEARCH}"),
    _row("admission-binding", f"namespace/{RESEARCH}"),
    _row("exporter", f"node/{A0}"),
    _row("gpu-series", f"node/{A0}"),
    _row("daemonset", f"daemonset/{EXPORTER}/dcgm-exporter"),
    _row("gpu-attribution", f"namespace/{TRAINING}"),
    _row("gpu-attribution", f"namespace/{INFERENCE}"),
]
SEED_ROWS = [
    _row("mig-devices", f"node/{A0}"),
    _row("nvme-cache", f"storageclass/{CLASS}"),
    _row("nvme-cache", f"csidriver/{DRIVER}"),
    _row("nvme-disks", f"node/{H0}"),
    _row("nvme-disks", f"node/{M0}"),
    _row("node-image", "pool/a100"),
    _row("node-image", "pool/mi300x"),
]
AMD_ROWS = [
    _row("node-count", "pool/mi300x"),
    _row("taint", f"node/{M0}"),
    _row("gpu-daemon", f"node/{M0}"),
    _row("driver", f"node/{M0}"),
    _row("gpu-health", f"node/{M0}"),
    _row("exporter", f"node/{M0}"),
    _row("gpu-series", f"node/{M0}"),
    _row("daemonset", f"daemonset/{AMD}/mi300x-device-plugin"),
    _row("amd-gpu-attribution", f"namespace/{RESEARCH}"),
]


def _list(resource: str, namespace: str | None = None, selector: str = "", **kw: str) -> BadAnswer:
    what = f"list {resource}" + (f" in {namespace}" if namespace else "")
    return BadAnswer(
        what,
        resource,
        namespace,
        selector,
        "a list",
        "the answer is null",
        field_selector=kw.get("on", ""),
    )


def _get(resource: str, name: str) -> BadAnswer:
    return BadAnswer(f"get {resource} {name}", resource, None, "", "an object", "[]", name=name)


def _parts(feeds: Feeds) -> list[tuple[str, list[CheckResult], Reads]]:
    return [
        ("nvidia", NVIDIA_ROWS, feeds.nvidia),
        ("seeds", SEED_ROWS, feeds.seeds),
        ("amd", AMD_ROWS, feeds.amd_rows),
    ]


def _fed(feeds: Feeds, bad: BadAnswer) -> set[tuple[str, str, str]]:
    """(part, check, subject) of every row ``bad`` feeds."""
    return {
        (part, row.check, row.subject)
        for part, rows, reads in _parts(feeds)
        for row in rows
        if reads(bad, row)
    }


AMD_POD_ROWS = {
    ("amd", "gpu-daemon", f"node/{M0}"),
    ("amd", "exporter", f"node/{M0}"),
    ("amd", "gpu-series", f"node/{M0}"),
    ("amd", "amd-gpu-attribution", f"namespace/{RESEARCH}"),
}
PLUGIN_POD_ROWS = {
    ("nvidia", "gpu-daemon", f"node/{A0}"),
    ("nvidia", "driver", f"node/{A0}"),
    ("nvidia", "gpu-daemon", f"node/{H0}"),
    ("nvidia", "driver", f"node/{H0}"),
    ("seeds", "mig-devices", f"node/{A0}"),
}
EXPORTER_POD_ROWS = {
    ("nvidia", "exporter", f"node/{A0}"),
    ("nvidia", "gpu-series", f"node/{A0}"),
    ("nvidia", "gpu-attribution", f"namespace/{TRAINING}"),
    ("nvidia", "gpu-attribution", f"namespace/{INFERENCE}"),
}


@pytest.mark.parametrize(
    ("bad", "fed"),
    [
        # AMD's operator namespace: AMD's rows read from its operands, never NVIDIA's; not the
        # driver or GPU health (node labels), nor the DaemonSets' status from a pod list.
        (_list("pods", AMD), AMD_POD_ROWS),
        (
            _list("daemonsets", AMD),
            {*AMD_POD_ROWS, ("amd", "daemonset", f"daemonset/{AMD}/mi300x-device-plugin")},
        ),
        (_list("pods", RESEARCH), {("amd", "amd-gpu-attribution", f"namespace/{RESEARCH}")}),
        (
            _list("nodes", selector="gpu-platform.io/pool=mi300x"),
            {("amd", "node-count", "pool/mi300x"), ("seeds", "node-image", "pool/mi300x")},
        ),
        # NVIDIA's device plugin and exporter: NVIDIA's rows only.
        (_list("pods", PLUGIN), PLUGIN_POD_ROWS),
        (
            _list("daemonsets", PLUGIN),
            {*PLUGIN_POD_ROWS, ("nvidia", "daemonset", f"daemonset/{PLUGIN}/nvidia-device-plugin")},
        ),
        (_list("pods", EXPORTER), EXPORTER_POD_ROWS),
        (
            _list("daemonsets", EXPORTER),
            {*EXPORTER_POD_ROWS, ("nvidia", "daemonset", f"daemonset/{EXPORTER}/dcgm-exporter")},
        ),
        (
            _list("nodes", selector="gpu-platform.io/pool=a100"),
            {("nvidia", "node-count", "pool/a100"), ("seeds", "node-image", "pool/a100")},
        ),
        # The workload namespaces.
        (_list("pods", TRAINING), {("nvidia", "gpu-attribution", f"namespace/{TRAINING}")}),
        (
            # Its namespace's rows; AMD's attribution lists the namespace's pods itself.
            _get("namespaces", RESEARCH),
            {
                ("nvidia", "network-policy", f"namespace/{RESEARCH}"),
                ("nvidia", "admission-binding", f"namespace/{RESEARCH}"),
            },
        ),
        (
            _list("networkpolicies", TRAINING),
            {("nvidia", "network-policy", f"namespace/{TRAINING}")},
        ),
        (_list("resourcequotas", TRAINING), {("nvidia", "gpu-quota", f"namespace/{TRAINING}")}),
        (
            _list("validatingadmissionpolicybindings"),
            {
                ("nvidia", "admission-binding", f"namespace/{TRAINING}"),
                ("nvidia", "admission-binding", f"namespace/{RESEARCH}"),
            },
        ),
        # The seed checks' own reads.
        (_get("storageclasses", CLASS), {("seeds", "nvme-cache", f"storageclass/{CLASS}")}),
        (_get("csidrivers", DRIVER), {("seeds", "nvme-cache", f"csidriver/{DRIVER}")}),
        (
            _list("csistoragecapacities", "kube-system"),
            {("seeds", "nvme-disks", f"node/{H0}"), ("seeds", "nvme-disks", f"node/{M0}")},
        ),
        (_list("csistoragecapacities", "elsewhere"), set()),
        (_get("storageclasses", "another"), set()),
        (_list("configmaps", TRAINING), set()),  # a list nobody told us about: its row only
    ],
    ids=lambda v: v.what if isinstance(v, BadAnswer) else "",
)
def test_each_list_feeds_its_own_parts_rows(
    mixed: Feeds, bad: BadAnswer, fed: set[tuple[str, str, str]]
) -> None:
    assert _fed(mixed, bad) == fed


def test_the_device_plugins_mps_daemon_is_read_in_the_plugins_namespace(plugin_mps: Path) -> None:
    """Its pods are listed in the plugin's namespace (even when the plugin's DaemonSet was not
    found there), and the node's pods for its clients."""
    pools = {"a100": A0, "h100nvl": H0, "mi300x": M0}
    feeds = _feeds(plugin_mps, pools, {"a100": PLUGIN, "h100nvl": PLUGIN})
    no_plugin = _feeds(plugin_mps, pools, {})
    rows = [_row("gpu-daemon", f"node/{H0}"), _row("mps-server", f"node/{H0}")]

    def fed(feeds: Feeds, bad: BadAnswer) -> set[str]:
        reads = (feeds.nvidia, feeds.seeds, feeds.amd_rows)
        return {r.check for r in rows if any(f(bad, r) for f in reads)}

    assert fed(feeds, _list("pods", PLUGIN)) == {"gpu-daemon", "mps-server"}
    assert fed(feeds, _list("daemonsets", PLUGIN)) == {"gpu-daemon", "mps-server"}
    assert fed(no_plugin, _list("pods", PLUGIN)) == {"mps-server"}  # no plugin pod looked for
    assert fed(feeds, _list("pods", on=f"spec.nodeName={H0}")) == {"mps-server"}
    assert fed(feeds, _list("pods", on=f"spec.nodeName={A0}")) == set()


@pytest.mark.parametrize(
    ("bad", "fed"),
    [
        (
            _list("daemonsets"),  # all namespaces: ACK's MPS daemon is found by what it selects
            {
                ("gpu-daemon", f"node/{C0}"),
                ("driver", f"node/{C0}"),
                ("mps-server", f"node/{C0}"),
                ("daemonset", "daemonset/kube-system/mps-control-daemon"),
            },
        ),
        (
            _list("pods", "kube-system"),
            {("gpu-daemon", f"node/{C0}"), ("driver", f"node/{C0}"), ("mps-server", f"node/{C0}")},
        ),
        (
            # kubectl inspect cgpu's list: the node's GPU-memory books and MPS clients only.
            _list("pods", on=f"spec.nodeName={C0}"),
            {("gpu-memory", f"node/{C0}"), ("mps-server", f"node/{C0}")},
        ),
        (_list("pods", on="spec.nodeName=another"), set()),
    ],
    ids=lambda v: v.what + v.field_selector if isinstance(v, BadAnswer) else "",
)
def test_acks_mps_pool(ack: Feeds, bad: BadAnswer, fed: set[tuple[str, str]]) -> None:
    rows = [
        _row("gpu-daemon", f"node/{C0}"),
        _row("driver", f"node/{C0}"),
        _row("daemonset", "daemonset/kube-system/mps-control-daemon"),
        _row("daemonset", f"daemonset/{EXPORTER}/dcgm-exporter"),
        _row("exporter", f"node/{C0}"),
        _row("gpu-memory", f"node/{C0}"),
        _row("mps-server", f"node/{C0}"),
    ]
    reads = [ack.nvidia, ack.seeds, ack.amd_rows]
    assert {(r.check, r.subject) for r in rows if any(f(bad, r) for f in reads)} == fed
    assert not any(ack.amd_rows(bad, r) for r in rows)  # no AMD pool: AMD's part reads nothing


def test_feeds_of_a_snapshot(mixed: Feeds) -> None:
    snap = Snapshot(
        pool_nodes={"a100": [{"metadata": {"name": A0}}], "mi300x": [{"metadata": {"name": M0}}]},
        pool_daemons={"a100": [{"metadata": {"name": "p", "namespace": PLUGIN}}]},
    )
    feeds = Feeds.of(mixed.exp, snap, mixed.amd)
    assert feeds.pool_nodes == {"a100": frozenset({A0}), "mi300x": frozenset({M0})}
    assert feeds.daemon_namespaces == {"a100": frozenset({PLUGIN})}


def test_rows_fed_by_a_bad_answer_are_skipped_and_it_fails_once(mixed: Feeds) -> None:
    pods, storage = _list("pods", AMD), _get("storageclasses", CLASS)
    nvidia = [_row("gpu-daemon", f"node/{A0}", "pass")]
    seeds = [_row("nvme-cache", f"storageclass/{CLASS}")]
    amd = [
        _row("gpu-daemon", f"node/{M0}"),
        _row("driver", f"node/{M0}", "pass"),
        _row("gpu-series", f"node/{M0}", "skip"),  # already skipped: left as it is
    ]
    parts = [(nvidia, mixed.nvidia), (seeds, mixed.seeds), (amd, mixed.amd_rows)]
    assert with_bad_answers(parts, [pods, storage, pods]) == [
        nvidia[0],
        CheckResult(
            "nvme-cache",
            f"storageclass/{CLASS}",
            "x",
            f"not checked: get storageclasses {CLASS} gave no object",
            "skip",
        ),
        CheckResult(
            "gpu-daemon", f"node/{M0}", "x", f"not checked: list pods in {AMD} gave no list", "skip"
        ),
        amd[1],
        amd[2],
        # The same answer to the same request twice is one row.
        CheckResult("api-answer", pods.what, "a list", "the answer is null", "fail"),
        CheckResult("api-answer", storage.what, "an object", "[]", "fail"),
    ]


def test_a_partly_read_list_fails_once_and_skips_nothing(mixed: Feeds) -> None:
    bad = BadAnswer("list pods in x", "pods", PLUGIN, "", "a list", "item 3 ...", partial=True)
    rows = [_row("gpu-daemon", f"node/{A0}")]
    assert with_bad_answers([(rows, mixed.nvidia)], [bad]) == [
        rows[0],
        CheckResult("api-answer", "list pods in x", "a list", "item 3 ...", "fail"),
    ]
