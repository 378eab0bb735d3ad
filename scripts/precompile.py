"""Compile, once at install, the cloud-SDK modules our program, previews and tests import.

uv installs without bytecode (pip compiles everything: ~45 s here for pulumi-azure-native
alone), so every process compiled these modules itself on first import, and `make test`'s two
workers and its preview subprocesses each did the same work at once. Only the SDK packages we
import are compiled, their own folder and no API-version subfolders; anything else compiles on
first use as before.
"""

from __future__ import annotations

import compileall
import sys
import sysconfig
from pathlib import Path

# Package -> (subfolders we import, how deep below each to go): azure-native and alicloud keep
# the default API version at a subfolder's top level, Kubernetes one level down (``core/v1``).
SDK_FOLDERS: dict[str, tuple[tuple[str, ...], int]] = {
    "pulumi_azure_native": (
        (
            "alertsmanagement",
            "authorization",
            "containerservice",
            "dashboard",
            "kubernetesconfiguration",
            "monitor",
            "operationalinsights",
            "resources",
            "security",
        ),
        0,
    ),
    "pulumi_alicloud": (("arms", "cs", "log", "vpc"), 0),
    "pulumi_kubernetes": (
        (
            "admissionregistration",
            "apiextensions",
            "apps",
            "batch",
            "core",
            "helm",
            "meta",
            "networking",
            "policy",
            "rbac",
            "yaml",
        ),
        1,
    ),
}
WHOLE_PACKAGES = ("pulumi", "kubernetes")
"""Compiled with every subfolder: the SDK core, and the Kubernetes client `make verify` uses."""


def folders(site: Path) -> list[tuple[Path, int]]:
    """(folder, how deep to recurse) for every folder to compile that is installed."""
    found = [(site / name, 20) for name in WHOLE_PACKAGES]
    for package, (subfolders, depth) in SDK_FOLDERS.items():
        found.append((site / package, 0))
        found.extend((site / package / sub, depth) for sub in subfolders)
    return [(folder, depth) for folder, depth in found if folder.is_dir()]


def main() -> int:
    site = Path(sysconfig.get_paths()["purelib"])
    ok = all(
        compileall.compile_dir(folder, maxlevels=depth, quiet=1, workers=0)
        for folder, depth in folders(site)
    )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
