"""``amd-smi static --driver`` in AMD's device plugin pod, where its image has the tool.

The guide's check runs ``amd-smi`` in the ROCm plugin pod. AMD's upstream device-plugin image
has no ``amd-smi`` (``../shared/notes/amd-facts.md``): there, and wherever the exec fails, the
``driver`` row reads the node labeller's ``amd.com/gpu.driver-version`` as before and says why.
A plugin image that has the tool (a site's own build) is read: the ``VERSION`` of each GPU's
``DRIVER`` section (``amd-smi static --driver``: ``DRIVER: NAME: amdgpu VERSION: <x>``).
"""

from __future__ import annotations

import re
from dataclasses import replace

from ..cluster import Obj
from ..driver import DriverReader, ExecError, ExecTarget
from ..objects import name_of
from ..results import CheckResult, outcome
from .checks import driver_version

STATIC_DRIVER: tuple[str, ...] = ("amd-smi", "static", "--driver")
NOT_IN_IMAGE = ("executable file not found", "no such file or directory", "not found")
"""What the runtime or a shell says when the image has no such program."""
_FIELD = re.compile(r"^\s*(NAME|VERSION):\s*(.*?)\s*$")


class AmdSmiError(ValueError):
    """amd-smi ran but shows no amdgpu driver with a version."""


def parse_driver(printed: str) -> str:
    """The amdgpu version ``amd-smi static --driver`` reports (the same on every GPU)."""
    names, versions = [], []
    for line in printed.splitlines():
        if match := _FIELD.match(line):
            (names if match.group(1) == "NAME" else versions).append(match.group(2))
    if not names:
        raise AmdSmiError(f"no DRIVER section in its output: {printed.strip()[:200]!r}")
    if any(name != "amdgpu" for name in names):
        raise AmdSmiError(f"the driver is {', '.join(sorted(set(names)))}, not amdgpu")
    known = sorted({v for v in versions if v and v != "N/A"})
    if not known:
        raise AmdSmiError("amdgpu is loaded but reports no version (N/A)")
    return ", ".join(known)


def amd_smi_driver(node: Obj, target: ExecTarget | None, read: DriverReader | None) -> CheckResult:
    """The node's ``driver`` row: amd-smi in its plugin pod, else the labeller's label, saying
    why (no ready plugin pod, no exec allowed, the tool not in the image, the exec failed)."""
    labelled = driver_version(node)
    if read is None:
        return labelled
    if target is None:
        why = "no ready AMD device plugin pod to run amd-smi in"
        return replace(labelled, found=f"{labelled.found} ({why}: read from the node label)")
    try:
        printed = read(target)
    except ExecError as err:
        text = str(err)
        if any(sign in text for sign in NOT_IN_IMAGE):
            why = f"amd-smi is not in {target.pod}'s image"
        else:
            why = f"amd-smi in {target.pod} failed: {text}"
        return replace(labelled, found=f"{labelled.found} ({why}: read from the node label)")
    subject = f"node/{name_of(node)}"
    try:
        version = parse_driver(printed)
    except AmdSmiError as err:
        return outcome(
            "driver", subject, labelled.expected, f"amd-smi in {target.pod}: {err}", False
        )
    found = f"amdgpu {version} (amd-smi static --driver in {target.pod})"
    return outcome("driver", subject, labelled.expected, found, True)
