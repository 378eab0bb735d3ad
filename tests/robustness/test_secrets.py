"""Secrets stay secret in everything the preview shows: the JSON plan, the table, the Markdown
comment, notices, policy messages and failures. Each hostile program puts a secret where it
could leak (a chart's values, a repository or manifest URL's credentials, an image reference
with a token, a kubeconfig given as plain config, an error message) and every format must
show it masked, with the exit status the program earns anyway."""

from __future__ import annotations

import base64
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from gpu_platform.offline_preview.cli import EXIT_MANDATORY, EXIT_OK, EXIT_PROGRAM, main, preview
from gpu_platform.offline_preview.policy_runner import PolicyError
from gpu_platform.offline_preview.redact import REDACTED, SECRET_TEXT
from gpu_platform.offline_preview.render import RENDERERS
from gpu_platform.offline_preview.wire import Secret

from .remote_components import build_one, one_notice

SECRET = "s3cr3t-4f7a9c"
KUBECONFIG = (
    f"apiVersion: v1\nkind: Config\nusers:\n- name: ci\n  user:\n    token: {SECRET}-kube-token\n"
)
CHART = {
    "Chart.yaml": "apiVersion: v2\nname: app\nversion: 0.1.0\n",
    "templates/app.yaml": (
        "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: app}\n"
        "data: {token: {{ .Values.token | quote }}}\n"
        "---\napiVersion: apps/v1\nkind: Deployment\nmetadata: {name: app}\nspec:\n"
        "  selector: {matchLabels: {app: app}}\n  template:\n"
        "    metadata: {labels: {app: app}}\n    spec:\n      containers:\n"
        "      - name: app\n        image: registry.example.com/app:1.0\n"
        "        env: [{name: TOKEN, value: {{ .Values.token | quote }}}]\n"
    ),
}
HEAD = "import pulumi\nimport pulumi_kubernetes as k8s\n"


@dataclass(frozen=True)
class SecretLeak:
    name: str
    program: str
    exit: int
    shown: str
    """What the JSON plan shows in the secret's place (``[secret]`` or ``[redacted]``)."""
    stack_config: str = ""


LEAKS = [
    SecretLeak("a chart rendered from a secret value",
               HEAD + f"k8s.helm.v4.Chart('app', chart='chart', namespace='team', "
                      f"values={{'token': pulumi.Output.secret('{SECRET}')}})\n",
               EXIT_OK, SECRET_TEXT),
    SecretLeak("a repository URL's user and password",
               HEAD + "k8s.helm.v4.Chart('app', chart='app', version='1.0.0', repository_opts="
                      f"{{'repo': 'http://ci:{SECRET}@127.0.0.1:9/charts'}})\n",
               EXIT_OK, REDACTED),
    SecretLeak("a manifest URL's token",
               HEAD + "k8s.yaml.v2.ConfigFile('m', file="
                      f"'http://127.0.0.1:9/pod.yaml?access_token={SECRET}')\n",
               EXIT_OK, REDACTED),
    SecretLeak("an image reference carrying a token",
               HEAD + "k8s.core.v1.Pod('p', metadata={'name': 'p', 'namespace': 'team'}, "
                      "spec={'containers': [{'name': 'c', 'image': "
                      f"'ci:{SECRET}@registry.example.com/nvidia/cuda:latest', 'resources': "
                      "{'limits': {'nvidia.com/gpu': 1}}}]})\n",
               EXIT_MANDATORY, REDACTED),
    SecretLeak("a secret image a policy quotes",
               HEAD + "k8s.core.v1.Pod('p', metadata={'name': 'p', 'namespace': 'team'}, "
                      "spec={'containers': [{'name': 'c', 'image': pulumi.Output.secret("
                      f"'registry.example.com/{SECRET}/cuda:latest'), 'resources': "
                      "{'limits': {'nvidia.com/gpu': 1}}}]})\n",
               EXIT_MANDATORY, SECRET_TEXT),
    SecretLeak("a kubeconfig given as plain config",
               HEAD + "cfg = pulumi.Config('kubernetes')\n"
                      "k8s.Provider('k8s', kubeconfig=cfg.require('kubeconfig'))\n",
               EXIT_OK, SECRET_TEXT,
               stack_config=f"config:\n  kubernetes:kubeconfig: {json.dumps(KUBECONFIG)}\n"),
]  # fmt: skip
FORMATS = ["json", "table", "markdown"]


def _program(folder: Path, leak: SecretLeak) -> Path:
    (folder / "Pulumi.yaml").write_text("name: team\nruntime: python\n")
    (folder / "__main__.py").write_text(leak.program)
    if leak.stack_config:
        (folder / "Pulumi.dev.yaml").write_text(leak.stack_config)
    for path, text in CHART.items():
        (folder / "chart" / path).parent.mkdir(parents=True, exist_ok=True)
        (folder / "chart" / path).write_text(text)
    return folder


@pytest.mark.parametrize("leak", LEAKS, ids=[leak.name for leak in LEAKS])
def test_no_format_shows_a_secret(
    leak: SecretLeak,
    tmp_path: Path,
    capfd: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """One run, the three formats rendered from it (as ``main`` renders the one asked for)."""
    monkeypatch.setenv("GPU_PLATFORM_CACHE", str(tmp_path / "cache"))
    (tmp_path / "team").mkdir()
    result = preview(_program(tmp_path / "team", leak), stack="dev")
    err = capfd.readouterr().err
    assert result.exit_code == leak.exit, err
    for fmt in FORMATS:
        out = RENDERERS[fmt](result.run, result.violations)
        assert SECRET not in out + err, fmt
        if fmt == "json":  # the format that shows inputs
            assert leak.shown in out
    assert not any(SECRET in str(p) for p in (tmp_path / "cache").rglob("*"))


def test_a_charts_objects_made_from_a_secret_are_secret_in_the_plan(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    program = tmp_path / "team"
    program.mkdir()
    _program(program, LEAKS[0])
    assert main(["--program", str(program), "--format", "json"]) == EXIT_OK
    plan = json.loads(capfd.readouterr().out)
    made = {r["type"].rsplit(":", 1)[1]: r["inputs"] for r in plan["resources"] if ":" in r["name"]}
    assert made["ConfigMap"] == {
        "apiVersion": "v1",
        "kind": "ConfigMap",
        "metadata": {"name": "app", "namespace": "team"},
        "data": SECRET_TEXT,
    }
    assert made["Deployment"]["spec"] == SECRET_TEXT


def test_a_failure_quoting_a_secret_shows_it_masked(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    leak = SecretLeak(
        "an error message",
        HEAD + "kubeconfig = pulumi.Config('kubernetes').require('kubeconfig')\n"
        "raise ValueError('cannot use ' + kubeconfig.splitlines()[-1])\n",
        EXIT_PROGRAM,
        SECRET_TEXT,
        stack_config=LEAKS[-1].stack_config,
    )
    program = tmp_path / "team"
    program.mkdir()
    _program(program, leak)
    assert main(["--program", str(program), "--debug"]) == EXIT_PROGRAM
    err = capfd.readouterr().err
    assert SECRET not in err
    assert f"error: the program failed: ValueError: cannot use     {SECRET_TEXT}\n" in err


def test_a_secret_in_a_pod_spec_masks_its_value_not_the_packs_own_words(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    """One secret env value makes the SDK send the whole pod spec as a secret; the strings in it
    that the pack itself names (NVIDIA_VISIBLE_DEVICES, nvidia.com/gpu) are no secret, so the
    verdict still says what to remove, and the value stays masked."""
    leak = SecretLeak(
        "a secret env value",
        HEAD + "k8s.core.v1.Pod('p', metadata={'name': 'p', 'namespace': 'team'}, spec={"
        "'tolerations': [{'key': 'nvidia.com/gpu', 'operator': 'Exists'}], 'containers': "
        "[{'name': 'c', 'image': 'registry.example.com/app:1.0', 'env': [{'name': "
        f"'NVIDIA_VISIBLE_DEVICES', 'value': pulumi.Output.secret('{SECRET}')}}], "
        "'resources': {'limits': {'nvidia.com/gpu': 1}}}]})\n",
        EXIT_MANDATORY,
        SECRET_TEXT,
    )
    program = tmp_path / "team"
    program.mkdir()
    _program(program, leak)
    assert main(["--program", str(program), "--format", "json"]) == EXIT_MANDATORY
    out = capfd.readouterr().out
    assert SECRET not in out
    (verdict,) = [
        v for v in json.loads(out)["violations"] if v["policy"] == "no-nvidia-visible-devices-env"
    ]
    assert f"sets NVIDIA_VISIBLE_DEVICES in its env ('{SECRET_TEXT}')" in verdict["message"]


def test_an_object_named_from_a_secret_masks_it_in_its_urn(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    """A chart names an object after a secret value: the name and URN show it masked, the same
    way wherever the plan names that resource."""
    program = _program(tmp_path, LEAKS[0])
    template = program / "chart" / "templates" / "app.yaml"
    template.write_text(
        template.read_text().replace(
            "metadata: {name: app}", "metadata: {name: 'app-{{ .Values.token }}'}", 1
        )
    )
    for fmt in FORMATS:
        assert main(["--program", str(program), "--format", fmt]) == EXIT_OK
        out = capfd.readouterr().out
        assert SECRET not in out, fmt
        assert "app-[secret]" in out or fmt == "markdown", fmt  # markdown names no object
    assert main(["--program", str(program), "--format", "json"]) == EXIT_OK
    urns = [r["urn"] for r in json.loads(capfd.readouterr().out)["resources"]]
    assert any(urn.endswith("ConfigMap::app:team/app-[secret]") for urn in urns), urns


def test_a_policy_that_raises_quoting_a_secret_shows_it_masked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """preview masks it itself: a program run in its own virtualenv leaves the command's
    failure redactor nothing of its secrets."""
    from pulumi_policy import EnforcementLevel, ResourceValidationPolicy

    from gpu_policies import registry

    def validate(args: Any, report: Any) -> None:
        if args.resource_type == "kubernetes:core/v1:ConfigMap":
            raise ValueError(f"cannot read {args.props['data']['token']}")

    raises = ResourceValidationPolicy("raises", "a policy with a bug", validate)
    raises.enforcement_level = EnforcementLevel.MANDATORY
    monkeypatch.setattr(registry, "policies", lambda: [raises])
    leak = SecretLeak(
        "a policy quoting a secret",
        HEAD + "k8s.core.v1.ConfigMap('cm', metadata={'name': 'cm', 'namespace': 'team'}, "
        f"data={{'token': pulumi.Output.secret('{SECRET}')}})\n",
        EXIT_PROGRAM,
        SECRET_TEXT,
    )
    with pytest.raises(PolicyError) as err:
        preview(_program(tmp_path, leak), stack="dev")
    assert str(err.value).endswith(f"ValueError: cannot read {SECRET_TEXT}"), str(err.value)


LONG = SECRET * 12
"""A secret longer than a quote is cut at: the quote holds only its start."""
DERIVED = [
    ("a template failing with the value upper-cased and in base64", "chart",
     {"values": {"token": Secret(SECRET)}},
     '{{ fail (printf "bad %s %s" (.Values.token | upper) (.Values.token | b64enc)) }}\n',
     "does not render (at app/templates/app.yaml:1:3)"),
    ("a post-renderer echoing what it was given, then failing", "chart",
     {"values": {"token": Secret(SECRET)},
      "postRenderer": {"command": "sh", "args": ["-c", "tr a-z A-Z >&2; exit 1"]}},
     "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\ndata: {t: {{ .Values.token }}}\n",
     "does not render"),
    ("an object without a name quoted cut short", "group",
     {"yaml": [Secret(f"apiVersion: v1\nkind: ConfigMap\nmetadata: {{}}\ndata: {{t: {LONG}}}\n")]},
     "", "Kubernetes resources require a .metadata.name"),
]  # fmt: skip
"""Components made from a secret whose failure would quote it in a form no mask recognises."""


@pytest.mark.parametrize(
    ("kind", "inputs", "template", "said"),
    [case[1:] for case in DERIVED],
    ids=[case[0] for case in DERIVED],
)
def test_a_failure_made_from_a_secret_withholds_what_it_quotes(
    kind: str, inputs: dict[str, object], template: str, said: str, tmp_path: Path
) -> None:
    for path, text in CHART.items():
        (tmp_path / "chart" / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "chart" / path).write_text(template if template and "/" in path else text)
    _, notices = build_one(
        kind, {"chart": "chart", **inputs} if kind == "chart" else inputs, tmp_path
    )
    level, message = one_notice(notices)
    assert level == "mandatory"
    assert said in message and "the rest is withheld" in message, message
    for form in (SECRET, SECRET.upper(), base64.b64encode(SECRET.encode()).decode()[:12]):
        assert form not in message
