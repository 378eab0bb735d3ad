"""ACK's GPU-memory ledger per GPU, as ``kubectl inspect cgpu`` shows it (seed 003, BP-16).

The tool reads only the Kubernetes API (gpushare-device-plugin ``cmd/inspect``, the open-source
``kubectl inspect gpushare`` it extends; names in ``gpu_facts.ack.addons``): a shared node's
allocatable ``aliyun.com/gpu-mem`` split evenly over its ``aliyun.com/gpu-count`` GPUs is each
GPU's total; every pod on the node that is not ``Succeeded`` or ``Failed`` adds its containers'
``aliyun.com/gpu-mem`` limits to the GPU its ``ALIYUN_COM_GPU_MEM_IDX`` annotation names, or to
"pending" when it has none. We compute the same table from the same objects, so no binary is
needed, and fail a node where a GPU, or the node, has more booked than it holds: the scheduler
extender never books that, so something bypassed it (BP-17).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from gpu_facts.ack.addons import GPU_COUNT_RESOURCE, GPU_MEM_INDEX_ANNOTATION
from gpu_facts.scheduling import ALIYUN_GPU_MEM

from .cluster import Obj
from .objects import entries, mapping, name_of, text, whole
from .results import CheckResult, many, outcome
from .seed_expectations import SeedPool

CHECK = "gpu-memory"
EXPECTED = "allocated ≤ total GiB on every GPU (kubectl inspect cgpu)"
_DONE = ("Succeeded", "Failed")


def pod_gpu_mem(pod: Obj) -> int:
    """The pod's ``aliyun.com/gpu-mem``: the sum of its containers' limits, as the tool sums."""
    return sum(
        whole(mapping(c, "resources", "limits").get(ALIYUN_GPU_MEM)) or 0
        for c in entries(pod, "spec", "containers")
    )


def pod_gpu_index(pod: Obj) -> int | None:
    """The GPU the scheduler extender booked the pod on; None: pending (no index, or one that is
    no whole number of at least 0, which the tool also counts as pending)."""
    index = whole(text(pod, "metadata", "annotations", GPU_MEM_INDEX_ANNOTATION))
    return index if index is not None and index >= 0 else None


@dataclass
class GpuBook:
    index: int
    """The GPU's index; -1 for what is pending."""
    total: int
    allocated: int = 0
    pods: list[str] = field(default_factory=list)

    @property
    def over(self) -> bool:
        return self.allocated > self.total


@dataclass
class Ledger:
    """One node's books, as the tool keeps them."""

    gpus: list[GpuBook]
    pending: GpuBook
    total: int = 0
    """The node's allocatable ``aliyun.com/gpu-mem`` (GiB), which the tool splits over its GPUs."""
    count: int = 0
    """The GPUs the tool splits it over: the node's advertised count, else the instance type's."""
    count_note: str = ""
    """What the node advertises as its GPU count, when that is not the instance type's."""
    count_wrong: bool = False
    """The node advertises a GPU count other than the instance type's."""


def ledger(node: Obj, pods: list[Obj], gpus: int) -> Ledger:
    """Per-GPU books and the pending book of one node; ``gpus`` (the instance type's) stands in
    when the node advertises no GPU count."""
    allocatable = mapping(node, "status", "allocatable")
    total = whole(allocatable.get(ALIYUN_GPU_MEM)) or 0
    count = whole(allocatable.get(GPU_COUNT_RESOURCE))
    note, wrong = "", False
    if count is None:
        note, count = f"no {GPU_COUNT_RESOURCE}: {many(gpus, 'GPU')} from the instance type", gpus
    elif count != gpus:
        note, wrong = f"{GPU_COUNT_RESOURCE} {count}, the instance type has {gpus}", True
    per_gpu = total // count if count > 0 else 0
    # Books for the instance type's GPUs up front, for any other a pod names: a nonsense count
    # (10**12, which fails the row anyway) cannot build that many.
    books = {i: GpuBook(i, per_gpu) for i in range(min(count, gpus))}
    pending = GpuBook(-1, 0)
    for pod in pods:
        asked = pod_gpu_mem(pod)
        if asked <= 0 or text(pod, "status", "phase") in _DONE:
            continue
        index = pod_gpu_index(pod)
        if index is None:
            book = pending
        else:
            book = books.setdefault(index, GpuBook(index, per_gpu if index < count else 0))
        book.allocated += asked
        book.pods.append(f"{name_of(pod)} {asked}")
    return Ledger([books[i] for i in sorted(books)], pending, total, count, note, wrong)


def gpu_memory(node: Obj, pods: list[Obj], pool: SeedPool) -> CheckResult:
    """The node's row: ``GPU<i> allocated/total`` per GPU, pending, and the node's sum (GiB)."""
    subject = f"node/{name_of(node)}"
    book = ledger(node, pods, pool.gpus)
    node_total = book.total
    if node_total <= 0:
        return outcome(
            CHECK,
            subject,
            EXPECTED,
            f"the node advertises no {ALIYUN_GPU_MEM}: ACK's GPU sharing does not serve it",
            False,
        )
    used = sum(gpu.allocated for gpu in book.gpus) + book.pending.allocated
    found = ", ".join(f"GPU{gpu.index} {gpu.allocated}/{gpu.total}" for gpu in book.gpus)
    if book.pending.allocated:
        found += f", pending {book.pending.allocated} ({', '.join(book.pending.pods)})"
    found += f"; node {used}/{node_total} GiB"
    problems = [
        f"GPU{gpu.index} over by {gpu.allocated - gpu.total} ({', '.join(gpu.pods)})"
        + ("" if gpu.index < book.count else ": no such GPU on the node")
        for gpu in book.gpus
        if gpu.over
    ]
    if used > node_total:
        problems.append(f"node over by {used - node_total}")
    notes = [*problems, book.count_note] if book.count_note else problems
    if notes:
        found += " (" + "; ".join(notes) + ")"
    return outcome(CHECK, subject, EXPECTED, found, not problems and not book.count_wrong)
