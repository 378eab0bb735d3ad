"""NVIDIA MPS on a node, as ``nvidia-smi`` shows it (BP-16; the device plugin's ``mps`` sharing).

Sources: NVIDIA's MPS documentation, "Quick Start" (https://docs.nvidia.com/deploy/mps/): servers
"are started implicitly when a CUDA application is launched while the MPS controller is active",
and "nvidia-smi after the application is launched" verifies "the existence of the
nvidia-cuda-mps-server process"; the application itself appears "with the M+C type". The
``nvidia-cuda-mps-control`` man page: with no server running, "the control daemon launches an
MPS server" for the first client. The NVIDIA device plugin's MPS daemon
(NVIDIA/k8s-device-plugin ``cmd/mps-control-daemon/mps/daemon.go``) sets every GPU it serves to
the ``EXCLUSIVE_PROCESS`` compute mode and starts ``nvidia-cuda-mps-control -d``, no server; on an
ACK MPS node ``nvidia-smi`` shows the GPU in that mode too (seed 003's sample output: ``E.
Process``, ``nvidia-cuda-mps-server`` of type ``C``, the client ``M+C``).
"""

from __future__ import annotations

MPS_SERVER_PROCESS = "nvidia-cuda-mps-server"
"""The server process the control daemon starts for its first client."""
MPS_CLIENT_TYPE = "M+C"
"""``nvidia-smi``'s process type of an MPS client (compute, through MPS)."""
EXCLUSIVE_PROCESS = "E. Process"
"""How ``nvidia-smi``'s table shows the ``EXCLUSIVE_PROCESS`` compute mode an MPS GPU is in."""

# --- The MPS control daemon a team runs itself (BP-16) ----------------------------------------

MPS_CONTROL_COMMAND = "nvidia-cuda-mps-control"
"""NVIDIA's MPS control daemon binary (``nvidia-cuda-mps-control -d`` starts it): a container
that runs it is an MPS control daemon, whoever packaged it."""
PLUGIN_MPS_DAEMON_COMMAND = "mps-control-daemon"
"""The NVIDIA device plugin's own MPS daemon: the plugin image run as ``mps-control-daemon``
(chart 0.20.0 ``templates/daemonset-mps-control-daemon.yml``), which starts the binary above."""
ACK_MPS_DAEMON_LABEL = ("app.aliyun.com/name", "mps-control-daemon")
"""The label of ACK's MPS control daemon pods: seed 003 checks them with ``kubectl get po -l
app.aliyun.com/name=mps-control-daemon -A``."""
MPS_DAEMON_PRIORITY_CLASS = "system-node-critical"
"""Seed 003: the MPS control daemon pod uses ``priorityClassName: system-node-critical`` so the
node does not evict it when resources run short; a daemon stopped or restarted makes its MPS
clients fail (SPEC BP-16: never delete or restart it). NVIDIA's chart sets the same by default
(``values.yaml`` ``priorityClassName``)."""
