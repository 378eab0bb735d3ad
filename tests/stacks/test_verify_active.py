"""``make verify --active``: probe pods created, watched and removed on the recorded cluster.

The fake API server here also takes the few writes an active run sends (a namespace, pods, the
namespace's deletion) and runs each pod at once: a container that asks for a GPU resource sees
a GPU device, one that does not sees none, unless the scenario breaks that.
"""

from __future__ import annotations

import copy
import io
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from gpu_facts.vendors import NVIDIA
from gpu_platform.verify import active
from gpu_platform.verify.active import (
    CLAIM_VARIANT,
    FOUND,
    MISSING,
    NAMESPACE_PREFIX,
    ProbePool,
    active_run,
)
from gpu_platform.verify.cli import main
from gpu_platform.verify.cluster import ClusterReader, connect
from gpu_platform.verify.deadline import Deadline
from gpu_platform.verify.results import CheckResult
from tests.stacks.test_verify import (
    STACK,
    TOKEN,
    FakeCluster,
    Run,
    _Handler,
    _recorded,
    serving,
    write_kubeconfig,
)

pytestmark = pytest.mark.slow
SMI_LIST = "GPU 0: Tesla T4 (UUID: GPU-9917c7a3-3df2-585c-beed-22b5fe81c8af)\n"
SMI_FAILED = (
    "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make sure "
    "that the latest NVIDIA driver is installed and running."
)


@dataclass
class ActiveCluster(FakeCluster):
    leaky: bool = False
    """Containers without a GPU see one anyway (isolation broken)."""
    unschedulable: bool = False
    """Probe pods stay Pending."""
    stuck: bool = False
    """A deleted namespace never goes away."""
    tool_fails: bool = False
    """The vendor's tool fails in the GPU probe (its pod ``Failed``, exit 9)."""
    pods_refused: bool = False
    """Creating a pod is forbidden (403)."""
    logs: dict[tuple[str, str], str] = field(default_factory=dict)
    writes: list[tuple[str, str]] = field(default_factory=list)
    claim_templates: list[dict[str, Any]] = field(default_factory=list)


def _printed(container: dict[str, Any], leaky: bool) -> str:
    resources = container.get("resources", {})
    asks = bool(resources.get("limits") or resources.get("claims"))
    script = container["command"][-1]
    seen = FOUND if asks or leaky else MISSING
    return seen + "\n" + (SMI_LIST if "nvidia-smi -L" in script and asks else "")


class _ActiveHandler(_Handler):
    def _authorized(self) -> bool:
        if self.headers.get("Authorization") != f"Bearer {TOKEN}":
            self._status(401, "Unauthorized", "Unauthorized")
            return False
        return True

    def _body(self) -> dict[str, Any]:
        length = int(self.headers.get("Content-Length") or 0)
        body: dict[str, Any] = json.loads(self.rfile.read(length))
        return body

    def do_POST(self) -> None:
        cluster = self.server.cluster
        assert isinstance(cluster, ActiveCluster)
        cluster.writes.append(("POST", self.path))
        if not self._authorized():
            return
        obj = self._body()
        if self.path == "/api/v1/namespaces":
            cluster.items("namespaces").append(obj)
        elif self.path.endswith("/resourceclaimtemplates"):
            cluster.claim_templates.append(obj)
        elif cluster.pods_refused and self.path.endswith("/pods"):
            self._status(403, "Forbidden", 'pods is forbidden: User "ci" cannot create pods')
            return
        elif m := re.fullmatch(r"/api/v1/namespaces/([^/]+)/pods", self.path):
            obj["metadata"]["namespace"] = m.group(1)
            obj["spec"]["nodeName"] = "aks-t4-27182818-vmss000000"
            obj["metadata"]["ownerReferences"] = [{"kind": "Pod", "name": "-", "uid": "-"}]
            phase = "Pending" if cluster.unschedulable else "Succeeded"
            status: dict[str, Any] = {"phase": phase}
            obj["status"] = status
            if cluster.unschedulable:
                status["conditions"] = [
                    {
                        "type": "PodScheduled",
                        "status": "False",
                        "reason": "Unschedulable",
                        "message": "0/4 nodes are available: 4 Insufficient nvidia.com/gpu.",
                    }
                ]
            for container in obj["spec"]["containers"]:
                printed = _printed(container, cluster.leaky)
                if cluster.tool_fails and "nvidia-smi -L" in container["command"][-1]:
                    printed = f"{FOUND}\n{SMI_FAILED}\n"
                    status["phase"] = "Failed"
                    terminated = {"exitCode": 9, "reason": "Error"}
                    status["containerStatuses"] = [
                        {"name": container["name"], "state": {"terminated": terminated}}
                    ]
                cluster.logs[(obj["metadata"]["name"], container["name"])] = printed
            cluster.items("pods").append(obj)
        else:
            self._status(404, "NotFound", self.path)
            return
        self._send_json(201, obj)

    def do_DELETE(self) -> None:
        cluster = self.server.cluster
        assert isinstance(cluster, ActiveCluster)
        cluster.writes.append(("DELETE", self.path))
        if not self._authorized():
            return
        m = re.fullmatch(r"/api/v1/namespaces/([^/]+)", self.path)
        if m is None:
            self._status(404, "NotFound", self.path)
            return
        if not cluster.stuck:
            name = m.group(1)
            lists = cluster.lists
            lists["namespaces"]["items"] = [
                n for n in cluster.items("namespaces") if n["metadata"]["name"] != name
            ]
            lists["pods"]["items"] = [
                p for p in cluster.items("pods") if p["metadata"].get("namespace") != name
            ]
        self._send_json(200, {"kind": "Status", "status": "Success"})

    def do_GET(self) -> None:
        cluster = self.server.cluster
        assert isinstance(cluster, ActiveCluster)
        path, _, query = self.path.partition("?")
        if m := re.fullmatch(r"/api/v1/namespaces/([^/]+)/pods/([^/]+)/log", path):
            container = query.partition("container=")[2].split("&")[0]
            self.server.cluster.requests.append(("GET", self.path))
            found = cluster.logs.get((m.group(2), container))
            if found is None:
                self._status(404, "NotFound", f"no log of {m.group(2)}/{container}")
                return
            data = found.encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/plain")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
            return
        if m := re.fullmatch(r"/api/v1/namespaces/([^/]+)/pods/([^/]+)", path):
            self.server.cluster.requests.append(("GET", self.path))
            pods = [
                p
                for p in cluster.items("pods")
                if p["metadata"]["name"] == m.group(2)
                and p["metadata"].get("namespace") == m.group(1)
            ]
            if pods:
                self._send_json(200, pods[0])
            else:
                self._status(404, "NotFound", f'pods "{m.group(2)}" not found')
            return
        super().do_GET()


def _active_cluster(**changes: Any) -> ActiveCluster:
    recorded = copy.deepcopy(_recorded())
    fields = {k: v for k, v in vars(recorded).items() if k != "stopped"}
    return ActiveCluster(**fields, **changes)


def _verify(cluster: ActiveCluster, tmp_path: Path, *extra: str) -> Run:
    out, err = io.StringIO(), io.StringIO()
    with serving(cluster, _ActiveHandler) as url:
        kubeconfig = write_kubeconfig(tmp_path / "kubeconfig", url)
        argv = ["--config", str(STACK), "--kubeconfig", str(kubeconfig), "--format", "json"]
        code = main([*argv, "--active", *extra], stdout=out, stderr=err)
    return Run(code, out.getvalue(), err.getvalue())


def _probe(
    cluster: ActiveCluster, tmp_path: Path, pool: ProbePool, deadline: Deadline
) -> tuple[list[CheckResult], list[CheckResult], list[str]]:
    """One pool probed on its own: its rows, the cleanup's, what the run said."""
    lines: list[str] = []
    with serving(cluster, _ActiveHandler) as url:
        api = connect(write_kubeconfig(tmp_path / "kubeconfig", url), "lab")
        reader = ClusterReader(api, deadline=deadline)
        with active_run(reader, deadline, lines.append) as (run, cleanup):
            rows = run.probe([pool])
        api.close()
    return rows, cleanup, lines


def _probe_namespaces(cluster: ActiveCluster) -> list[str]:
    return [
        n["metadata"]["name"]
        for n in cluster.items("namespaces")
        if n["metadata"]["name"].startswith(NAMESPACE_PREFIX)
    ]


def test_probes_run_on_every_pool_and_are_removed(tmp_path: Path) -> None:
    cluster = _active_cluster()
    run = _verify(cluster, tmp_path)
    assert run.code == 0, run.failures()
    probes = [r for r in run.rows() if r["check"].startswith("probe-")]
    assert [(r["check"], r["subject"], r["status"]) for r in probes] == [
        ("probe-gpu", "pool/a100", "pass"),
        ("probe-no-gpu", "pool/a100", "pass"),
        ("probe-one-of-two", "pool/a100", "pass"),
        ("probe-gpu", "pool/t4", "pass"),
        ("probe-no-gpu", "pool/t4", "pass"),
        ("probe-one-of-two", "pool/t4", "pass"),
        ("probe-cleanup", probes[-1]["subject"], "pass"),
    ]
    assert probes[0]["expected"] == (
        "sees its GPU (/dev/nvidia[0-9]*); device-plugin variant: the GPU asked for with "
        "resource limits (nvidia.com/mig-1g.5gb)"
    )
    assert probes[3]["found"] == f"{FOUND}; {SMI_LIST.strip()}"
    # It says exactly what it creates, and nothing of it is left.
    namespace = probes[-1]["subject"].removeprefix("namespace/")
    assert run.err.splitlines()[0] == (
        f"verify --active: creating namespace {namespace} and pods a100-gpu, a100-no-gpu, "
        "a100-one-of-two, t4-gpu, t4-no-gpu, t4-one-of-two"
    )
    assert _probe_namespaces(cluster) == []
    assert not [p for p in cluster.items("pods") if p["metadata"].get("namespace") == namespace]
    assert [method for method, _ in cluster.writes] == ["POST"] * 7 + ["DELETE"]


def test_a_pod_without_a_gpu_that_sees_one_fails(tmp_path: Path) -> None:
    cluster = _active_cluster(leaky=True)
    run = _verify(cluster, tmp_path)
    assert run.code == 1
    failed = {f for f in run.failures() if f[0].startswith("probe-")}
    assert failed == {
        ("probe-no-gpu", "pool/a100"),
        ("probe-one-of-two", "pool/a100"),
        ("probe-no-gpu", "pool/t4"),
        ("probe-one-of-two", "pool/t4"),
    }
    assert run.row("probe-no-gpu", "pool/t4")["found"] == f"{FOUND} ({active.UNASKED_GPU})"
    assert _probe_namespaces(cluster) == []


def test_a_probe_that_never_runs_fails_by_its_deadline_and_is_removed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(active, "PROBE_TIMEOUT", 0.5)
    monkeypatch.setattr(active, "POLL", 0.1)
    cluster = _active_cluster(unschedulable=True)
    run = _verify(cluster, tmp_path)
    assert run.code == 1
    assert run.row("probe-gpu", "pool/t4")["found"] == (
        "t4-gpu did not finish within 0.5 s: Unschedulable: 0/4 nodes are available: 4 "
        "Insufficient nvidia.com/gpu."
    )
    assert _probe_namespaces(cluster) == []


def test_a_cleanup_that_fails_is_a_failed_row(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(active, "CLEANUP_TIMEOUT", 0.3)
    monkeypatch.setattr(active, "POLL", 0.1)
    cluster = _active_cluster(stuck=True)
    run = _verify(cluster, tmp_path)
    assert run.code == 1
    (row,) = [r for r in run.rows() if r["check"] == "probe-cleanup"]
    namespace = row["subject"].removeprefix("namespace/")
    assert row["status"] == "fail"
    assert row["found"] == (
        f"still there after 0.3 s; remove it: kubectl delete namespace {namespace}"
    )


def test_a_gpu_probe_whose_tool_fails_fails(tmp_path: Path) -> None:
    """Seeing a device node is not enough: the vendor's tool must run (its exit status is the
    pod's)."""
    run = _verify(_active_cluster(tool_fails=True), tmp_path)
    assert run.code == 1
    failed = {f for f in run.failures() if f[0].startswith("probe-")}
    assert failed == {("probe-gpu", "pool/a100"), ("probe-gpu", "pool/t4")}
    assert run.row("probe-gpu", "pool/t4")["found"] == (
        f"nvidia-smi -L failed (exit 9): {FOUND}; {SMI_FAILED}"
    )


def test_the_cleanup_is_sent_after_the_runs_deadline(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Probes that wait out the run's deadline: the namespace is still deleted, under the
    cleanup's own deadline."""
    monkeypatch.setattr(active, "POLL", 0.1)
    cluster = _active_cluster(unschedulable=True)
    pool = ProbePool("t4", NVIDIA, "nvidia.com/gpu.shared", "cuda@sha256:x")
    deadline = Deadline(run_seconds=1.0)
    rows, cleanup, lines = _probe(cluster, tmp_path, pool, deadline)
    assert deadline.remaining() < 0
    assert [(r.check, r.status) for r in rows] == [
        ("probe-gpu", "fail"),
        ("probe-no-gpu", "fail"),
        ("probe-one-of-two", "fail"),
    ]
    assert [(r.check, r.status) for r in cleanup] == [("probe-cleanup", "pass")]
    assert lines[-1].endswith(" deleted")
    assert _probe_namespaces(cluster) == []


def test_a_run_that_stops_with_an_error_says_what_it_cleaned_up(tmp_path: Path) -> None:
    """An error ends the run without rows (exit 2); stderr still says the namespace went."""
    cluster = _active_cluster(pods_refused=True)
    run = _verify(cluster, tmp_path)
    assert run.code == 2
    *_, cleaned, error = run.err.splitlines()
    assert re.fullmatch(
        r"verify --active: namespace gpu-platform-verify-[0-9a-f]{6} deleted", cleaned
    )
    assert error.startswith("verify: error: not allowed to post /api/v1/namespaces/")
    assert _probe_namespaces(cluster) == []


def test_an_interrupted_run_still_removes_its_probes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def interrupted(self: active.ActiveRun, names: set[str]) -> dict[str, Any]:
        raise KeyboardInterrupt

    monkeypatch.setattr(active.ActiveRun, "_wait", interrupted)
    cluster = _active_cluster()
    run = _verify(cluster, tmp_path)
    assert run.code == 130
    assert run.err.splitlines()[-2:] == [
        run.err.splitlines()[-2],
        "verify: interrupted",
    ]
    assert "deleted" in run.err.splitlines()[-2]
    assert _probe_namespaces(cluster) == []


def test_read_only_without_active(tmp_path: Path) -> None:
    cluster = _active_cluster()
    out, err = io.StringIO(), io.StringIO()
    with serving(cluster, _ActiveHandler) as url:
        kubeconfig = write_kubeconfig(tmp_path / "kubeconfig", url)
        code = main(
            ["--config", str(STACK), "--kubeconfig", str(kubeconfig)], stdout=out, stderr=err
        )
    assert code == 0 and cluster.writes == []


def test_the_conformance_report_counts_the_probes(tmp_path: Path) -> None:
    run = _verify(_active_cluster(), tmp_path, "--conformance")
    assert run.code == 0, run.failures()
    rows = {r["subject"]: r for r in run.rows() if r["check"] == "conformance"}
    secure = rows["ai-conformance-1.36/secure_accelerator_access"]
    assert secure["status"] == "pass"
    assert secure["found"].startswith("6 of 6 rows pass; TestSecureAcceleratorAccess's three cases")
    assert rows["ai-conformance-1.36/gpu_sharing"]["status"] == "pass"  # MIG and time-slicing
    assert rows["ai-conformance-1.36/accelerator_metrics"]["status"] == "pass"
    assert rows["ai-conformance-1.36/ai_inference"]["status"] == "skip"


def test_a_dra_pool_runs_the_claim_variant(tmp_path: Path) -> None:
    """The official test's shape on a DRA pool: a ResourceClaimTemplate, the pods' claims."""
    cluster = _active_cluster()
    pool = ProbePool("h100", NVIDIA, "nvidia.com/gpu", "cuda@sha256:x", "gpu.nvidia.com")
    rows, cleanup, _ = _probe(cluster, tmp_path, pool, Deadline())
    assert [(r.check, r.status) for r in [*rows, *cleanup]] == [
        ("probe-gpu", "pass"),
        ("probe-no-gpu", "pass"),
        ("probe-one-of-two", "pass"),
        ("probe-cleanup", "pass"),
    ]
    assert rows[0].expected.endswith(f"{CLAIM_VARIANT} (gpu.nvidia.com)")
    (template,) = cluster.claim_templates
    assert template["metadata"]["name"] == "h100-accelerator-claim-template"
    assert _probe_namespaces(cluster) == []
