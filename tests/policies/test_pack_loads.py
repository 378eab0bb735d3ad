"""The pack loads on its own, as `pulumi preview --policy-pack policies` would load it."""

from __future__ import annotations

import subprocess
import sys
import sysconfig
from pathlib import Path

import yaml

from gpu_policies.registry import PACK_VERSION, REGISTERED

PACK = Path(__file__).resolve().parents[2] / "policies"


def test_registry_imports_from_the_pack_folder_alone() -> None:
    """From policies/ with only the installed packages: no project path, no editable install.

    ``-I -S`` drops the working directory, PYTHONPATH and .pth files (so the project's editable
    install of the pack is not used); site-packages is added back for pulumi and pulumi-policy,
    as the pack's own virtualenv would have them.
    """
    code = (
        "import sys\n"
        f"sys.path.append({sysconfig.get_paths()['purelib']!r})\n"
        "sys.path.insert(0, '.')\n"
        "import gpu_policies.registry as r\n"
        "import gpu_facts, gpu_policy_support, gpu_policies, os\n"
        "for package in (gpu_facts, gpu_policy_support, gpu_policies):\n"
        "    assert os.path.dirname(os.path.dirname(package.__file__)) == os.getcwd()\n"
        "project = {'stack_config', 'components', 'gpu_platform.offline_preview', 'tests'}\n"
        "assert not project & {m.split('.')[0] for m in sys.modules}\n"
        "print(len(r.policies()))\n"
    )
    result = subprocess.run(
        [sys.executable, "-I", "-S", "-c", code],
        cwd=PACK,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert int(result.stdout) == len(REGISTERED)


def test_pack_layout_follows_pulumi_conventions() -> None:
    manifest = yaml.safe_load((PACK / "PulumiPolicy.yaml").read_text())
    assert manifest["runtime"]["name"] == "python"
    assert manifest["version"] == PACK_VERSION
    requirements = (PACK / "requirements.txt").read_text()
    assert "pulumi-policy" in requirements
    main = (PACK / "__main__.py").read_text()
    assert main.count("PolicyPack(") == 1
    assert "from gpu_policies.registry import" in main
