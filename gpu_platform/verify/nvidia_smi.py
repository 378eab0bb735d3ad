"""Parse `nvidia-smi` output: driver/CUDA versions, the GPU (and MIG device) list, and from the
default table the GPUs' compute modes and the process list.

Accepted inputs for :func:`parse_driver_version`:
- the default `nvidia-smi` table (header line with `Driver Version:` and `CUDA Version:`),
- `nvidia-smi --version` (`DRIVER version : ...` / `CUDA Version : ...`),
- `nvidia-smi --query-gpu=driver_version --format=csv,noheader` (one version per GPU).

Failure output (driver not loaded, library mismatch, no devices) raises :class:`NvidiaSmiError`
with the tool's own message, so a check reports why, not just "parse error".
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = [
    "DriverInfo",
    "GpuDevice",
    "GpuProcess",
    "MigDevice",
    "NvidiaSmiError",
    "parse_compute_modes",
    "parse_driver_version",
    "parse_gpu_list",
    "parse_processes",
]


class NvidiaSmiError(ValueError):
    """`nvidia-smi` reported a failure, or printed something we cannot parse."""


@dataclass(frozen=True)
class DriverInfo:
    """The NVIDIA kernel driver a node runs, and the CUDA version it supports (if shown)."""

    version: str
    major: int
    cuda_version: str | None = None

    def at_least(self, min_major: int) -> bool:
        """True when the driver's major version is ``min_major`` or newer."""
        return self.major >= min_major


@dataclass(frozen=True)
class MigDevice:
    """A MIG device (GPU instance + compute instance) as listed by `nvidia-smi -L`."""

    index: int
    profile: str
    uuid: str


@dataclass(frozen=True)
class GpuDevice:
    """A physical GPU as listed by `nvidia-smi -L`, with the MIG devices carved from it."""

    index: int
    model: str
    uuid: str
    mig_devices: tuple[MigDevice, ...] = ()

    @property
    def mig_enabled(self) -> bool:
        """True when MIG devices are listed under this GPU."""
        return bool(self.mig_devices)


@dataclass(frozen=True)
class GpuProcess:
    """One row of the default table's process list."""

    gpu: int
    pid: int
    type: str
    """``C`` compute, ``G`` graphics, ``M+C`` an MPS client (``C+G``, ``M``, ... likewise)."""
    name: str
    """As the table prints it: long paths are cut to ``...<end>``."""
    memory: str
    """GPU memory used, e.g. ``30MiB`` (``N/A`` where the driver cannot tell)."""


# Messages nvidia-smi prints instead of data; matched case-insensitively anywhere in the text.
_FAILURE_PATTERNS = (
    re.compile(r"NVIDIA-SMI has failed[^\n]*", re.IGNORECASE),
    re.compile(r"Failed to initialize NVML[^\n]*", re.IGNORECASE),
    re.compile(r"No devices were found[^\n]*", re.IGNORECASE),
    re.compile(r"Unable to determine the device handle[^\n]*", re.IGNORECASE),
    re.compile(r"nvidia-smi: (?:command )?not found[^\n]*", re.IGNORECASE),
)

# Driver versions are 2 or 3 dotted numeric parts: 470.82.01, 550.54.15, 560.35.
_VERSION = r"(\d{2,4}(?:\.\d+){1,2})"
_TABLE_DRIVER = re.compile(r"Driver Version:\s*" + _VERSION)
_TABLE_CUDA = re.compile(r"CUDA Version:\s*(\d+\.\d+|N/A)")
_VERSION_FLAG_DRIVER = re.compile(r"^\s*DRIVER version\s*:\s*" + _VERSION + r"\s*$", re.MULTILINE)
_VERSION_FLAG_CUDA = re.compile(r"^\s*CUDA Version\s*:\s*(\d+\.\d+|N/A)\s*$", re.MULTILINE)
_CSV_LINE = re.compile(r"^" + _VERSION + r"$")

_GPU_LINE = re.compile(r"^GPU (\d+): (.+?) \(UUID: (GPU-[0-9A-Fa-f-]+)\)$")
# R470+ prints `MIG 1g.5gb     Device  0: (UUID: MIG-<uuid>)`; R450 printed
# `MIG 1g.5gb Device 0: (UUID: MIG-GPU-<uuid>/<gi>/<ci>)`. Both are accepted.
_MIG_LINE = re.compile(r"^\s+MIG (\S+)\s+Device\s+(\d+): \(UUID: (MIG-[0-9A-Za-z/-]+)\)$")


# The default table: a GPU block's second line ends with the compute mode (R470 to R570 layouts);
# the process list's rows are `| GPU GI CI PID Type Process-name Memory |`.
_TABLE_BORDER = re.compile(r"^\|=+(?:\+=+)*\|$")
_GPU_BLOCK_FIRST = re.compile(r"^\|\s+(\d+)\s{2,}\S.*\|.*\|.*\|$")
_COMPUTE_MODE = re.compile(r"\|\s*(?:\d+%|N/A)\s+(Default|E\. Process|E\. Thread|Prohibited)\s*\|$")
_PROCESS_ROW = re.compile(
    r"^\|\s+(\d+)\s+(\S+)\s+(\S+)\s+(\d+)\s+([A-Z+]+)\s+(.+?)\s+(\d+\s?MiB|N/A)\s*\|$"
)
_NO_PROCESSES = re.compile(r"No running processes found", re.IGNORECASE)


def _raise_on_failure(text: str) -> None:
    for pattern in _FAILURE_PATTERNS:
        found = pattern.search(text)
        if found:
            raise NvidiaSmiError(f"nvidia-smi failed: {found.group(0).strip()}")


def _driver_info(version: str, cuda: str | None) -> DriverInfo:
    return DriverInfo(
        version=version,
        major=int(version.split(".", 1)[0]),
        cuda_version=None if cuda in (None, "N/A") else cuda,
    )


def parse_driver_version(text: str) -> DriverInfo:
    """The driver version from `nvidia-smi`, `nvidia-smi --version` or the CSV driver query.

    Raises :class:`NvidiaSmiError` on failure output, on empty or unrecognised output, and when
    the CSV query lists different driver versions for different GPUs (a half-upgraded node).
    """
    _raise_on_failure(text)
    table = _TABLE_DRIVER.search(text)
    if table:
        cuda = _TABLE_CUDA.search(text)
        return _driver_info(table.group(1), cuda.group(1) if cuda else None)
    flag = _VERSION_FLAG_DRIVER.search(text)
    if flag:
        cuda = _VERSION_FLAG_CUDA.search(text)
        return _driver_info(flag.group(1), cuda.group(1) if cuda else None)
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    if not lines:
        raise NvidiaSmiError("nvidia-smi printed nothing; expected a driver version")
    versions = []
    for line in lines:
        match = _CSV_LINE.match(line)
        if not match:
            raise NvidiaSmiError(f"unrecognised nvidia-smi output line: {line!r}")
        versions.append(match.group(1))
    if len(set(versions)) > 1:
        raise NvidiaSmiError(f"GPUs report different driver versions: {sorted(set(versions))}")
    return _driver_info(versions[0], None)


def parse_gpu_list(text: str) -> list[GpuDevice]:
    """The GPUs and their MIG devices from `nvidia-smi -L`, in the order listed.

    Empty output yields an empty list; failure output (e.g. "No devices were found") and any
    unrecognised line raise :class:`NvidiaSmiError`.
    """
    _raise_on_failure(text)
    gpus: list[GpuDevice] = []
    migs: list[MigDevice] = []

    def close_gpu() -> None:
        if gpus and migs:
            gpus[-1] = GpuDevice(gpus[-1].index, gpus[-1].model, gpus[-1].uuid, tuple(migs))
        migs.clear()

    for number, line in enumerate(text.splitlines(), start=1):
        line = line.rstrip()
        if not line:
            continue
        gpu = _GPU_LINE.match(line)
        if gpu:
            close_gpu()
            gpus.append(GpuDevice(int(gpu.group(1)), gpu.group(2), gpu.group(3)))
            continue
        mig = _MIG_LINE.match(line)
        if mig:
            if not gpus:
                raise NvidiaSmiError(f"line {number}: MIG device listed before any GPU: {line!r}")
            migs.append(MigDevice(int(mig.group(2)), mig.group(1), mig.group(3)))
            continue
        raise NvidiaSmiError(f"line {number}: unrecognised nvidia-smi -L output: {line!r}")
    close_gpu()
    return gpus


def _section_start(lines: list[str], title: str) -> int | None:
    """Index of the line holding a table section's title (``Processes:``), or None."""
    for number, line in enumerate(lines):
        if line.strip().strip("|").strip() == title:
            return number
    return None


def parse_compute_modes(text: str) -> dict[int, str]:
    """GPU index -> compute mode (``Default``, ``E. Process``, ...) from the default table.

    Raises :class:`NvidiaSmiError` on failure output and when no GPU block shows a compute mode.
    """
    _raise_on_failure(text)
    lines = text.splitlines()
    end = min(
        (
            n
            for n in (_section_start(lines, "MIG devices:"), _section_start(lines, "Processes:"))
            if n is not None
        ),
        default=len(lines),
    )
    modes: dict[int, str] = {}
    current: int | None = None
    for line in lines[:end]:
        line = line.rstrip()
        first = _GPU_BLOCK_FIRST.match(line)
        if first:
            current = int(first.group(1))
            continue
        mode = _COMPUTE_MODE.search(line)
        if mode and current is not None:
            modes[current] = mode.group(1)
            current = None
    if not modes:
        raise NvidiaSmiError("no GPU with a compute mode in the nvidia-smi table")
    return modes


def parse_processes(text: str) -> list[GpuProcess]:
    """The process list of the default `nvidia-smi` table (empty when it says no process runs).

    Raises :class:`NvidiaSmiError` on failure output, when the table has no process list, and on
    a row of it that is not a process.
    """
    _raise_on_failure(text)
    lines = [line.rstrip() for line in text.splitlines()]
    start = _section_start(lines, "Processes:")
    if start is None:
        raise NvidiaSmiError("no process list in the nvidia-smi output (not the default table?)")
    rows = lines[start + 1 :]
    header_end = next((n for n, line in enumerate(rows) if _TABLE_BORDER.match(line)), None)
    if header_end is None:
        raise NvidiaSmiError("the nvidia-smi process list has no header")
    processes: list[GpuProcess] = []
    for line in rows[header_end + 1 :]:
        if line.startswith("+") or not line.strip():
            break  # the closing border
        if _NO_PROCESSES.search(line):
            continue
        row = _PROCESS_ROW.match(line)
        if not row:
            raise NvidiaSmiError(f"unrecognised nvidia-smi process row: {line.strip()!r}")
        gpu, _gi, _ci, pid, kind, name, memory = row.groups()
        processes.append(GpuProcess(int(gpu), int(pid), kind, name.strip(), memory))
    return processes
