"""The MPS server on an MPS node: ``nvidia-smi`` in the MPS control daemon's pod (seed 003, BP-16).

Seed 003 confirms MPS with ``nvidia-smi`` showing ``nvidia-cuda-mps-server`` next to the client.
We run the same default table in the node's MPS control daemon pod (ACK's ``ack-mps-control``,
or the NVIDIA device plugin's ``mps-control-daemon``): both run with the host's or the pod's
shared PID namespace, so the server the daemon starts is named in the process list. What is
parsed: the table's process list and each GPU's compute mode (``verify.nvidia_smi``).

A server exists only once a client connected (``gpu_facts.nvidia.mps``), so with no GPU pod on the
node an absent server is what a healthy node shows; the daemon's mark on the GPUs is then the
``EXCLUSIVE_PROCESS`` compute mode. Fails: a GPU pod (or an ``M+C`` client) on the node and no
server; a GPU not in ``E. Process``; a table we cannot read.
"""

from __future__ import annotations

from gpu_facts.nvidia.mps import EXCLUSIVE_PROCESS, MPS_CLIENT_TYPE, MPS_SERVER_PROCESS

from .nvidia_smi import GpuProcess, NvidiaSmiError, parse_compute_modes, parse_processes
from .results import CheckResult, many, outcome

SHOW_TABLE: tuple[str, ...] = ("nvidia-smi",)
CHECK = "mps-server"
EXPECTED = f"{MPS_SERVER_PROCESS} running for the node's MPS clients, GPUs in {EXCLUSIVE_PROCESS}"


def is_mps_server(process: GpuProcess) -> bool:
    """The table prints the executable, a path, or its end after ``...`` when it is long."""
    name = process.name.rsplit("/", 1)[-1]
    if name.startswith("..."):
        return MPS_SERVER_PROCESS.endswith(name[3:]) and len(name) > 6
    return name == MPS_SERVER_PROCESS


def mps_server(node: str, table: str, client_pods: list[str]) -> CheckResult:
    """One MPS node: its daemon pod's ``nvidia-smi`` table and the GPU pods running on it."""
    subject = f"node/{node}"
    try:
        processes = parse_processes(table)
        modes = parse_compute_modes(table)
    except NvidiaSmiError as err:
        return outcome(CHECK, subject, EXPECTED, str(err), False)
    servers = [p for p in processes if is_mps_server(p)]
    clients = [p for p in processes if p.type == MPS_CLIENT_TYPE]
    unserved = not servers and bool(client_pods or clients)
    if servers:
        pids = ", ".join(f"PID {p.pid} on GPU {p.gpu}" for p in servers)
        found = f"{MPS_SERVER_PROCESS} running ({pids}), {many(len(clients), 'MPS client')}"
    elif unserved:
        who = ", ".join(client_pods) or many(len(clients), f"{MPS_CLIENT_TYPE} process")
        found = (
            f"no {MPS_SERVER_PROCESS} while GPU pods run on the node ({who}), so their CUDA "
            "calls do not go through MPS: the control daemon started no server for them (see "
            "its log; on ACK the pods must set hostIPC)"
        )
    else:
        found = (
            f"no MPS client on the node, so no {MPS_SERVER_PROCESS} yet (the control daemon "
            "starts it for the first client)"
        )
    ready = [i for i, mode in sorted(modes.items()) if mode == EXCLUSIVE_PROCESS]
    if ready:
        found += f"; GPU {', '.join(str(i) for i in ready)} in {EXCLUSIVE_PROCESS}"
    shared = [i for i, mode in sorted(modes.items()) if mode != EXCLUSIVE_PROCESS]
    for i in shared:
        found += (
            f"; GPU {i} in {modes[i]} compute mode, not {EXCLUSIVE_PROCESS}: the MPS control "
            "daemon has not taken it (see its log)"
        )
    return outcome(CHECK, subject, EXPECTED, found, not unserved and not shared)
