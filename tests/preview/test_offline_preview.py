"""The offline preview: recording, the JSON contract, secrets, policy verdicts and exit codes."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import textwrap
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pulumi
import pulumi_kubernetes as k8s
import pytest
from pulumi_policy import EnforcementLevel, ResourceValidationPolicy

from gpu_platform.offline_preview import Secret, preview, run_callable, run_policies
from gpu_platform.offline_preview.cli import (
    EXIT_CONFIG,
    EXIT_MANDATORY,
    EXIT_OK,
    EXIT_PROGRAM,
    main,
)
from gpu_platform.offline_preview.engine import (
    PreviewMocks,
    RecordingMonitor,
    run_program,
    tree_order,
)
from gpu_platform.offline_preview.policy_runner import Violation
from gpu_platform.stack_config import ConfigError

PROJECT_ROOT = Path(__file__).resolve().parents[2]

PROGRAM = textwrap.dedent(
    """
    import pulumi
    import pulumi_kubernetes as k8s

    cfg = pulumi.Config()
    ns = k8s.core.v1.Namespace(
        "team",
        metadata=k8s.meta.v1.ObjectMetaArgs(name=cfg.require("namespace"), labels={"a": "b"}),
    )
    pulumi.export("namespace", ns.metadata.name)
    pulumi.export("token", cfg.require_secret("token"))
    """
)


@pytest.fixture
def program(tmp_path: Path) -> Path:
    (tmp_path / "Pulumi.yaml").write_text("name: sample\nruntime: python\n")
    (tmp_path / "__main__.py").write_text(PROGRAM)
    (tmp_path / "Pulumi.dev.yaml").write_text(
        "config:\n  sample:namespace: team-a\n  sample:token:\n    secure: AAABAGVuY3J5cHRlZA==\n"
    )
    return tmp_path


def test_records_inputs_parent_and_options() -> None:
    def build() -> None:
        parent = pulumi.ComponentResource("test:index:Parent", "p")
        k8s.core.v1.Namespace(
            "ns",
            metadata=k8s.meta.v1.ObjectMetaArgs(name="n1"),
            opts=pulumi.ResourceOptions(parent=parent, protect=True, replace_on_changes=["spec"]),
        )
        k8s.core.v1.Secret(
            "s",
            metadata=k8s.meta.v1.ObjectMetaArgs(name="s1"),
            string_data={"k": pulumi.Output.secret("hidden")},
        )

    run = run_callable(build)
    ns = next(r for r in run.resources if r.type == "kubernetes:core/v1:Namespace")
    assert ns.inputs["metadata"] == {"name": "n1"}
    assert ns.parent is not None and ns.parent.endswith("test:index:Parent::p")
    assert ns.protect is True
    assert ns.replace_on_changes == ["spec"]
    secret = next(r for r in run.resources if r.type == "kubernetes:core/v1:Secret")
    # The whole stringData map is secret once any value in it is.
    assert isinstance(secret.inputs["stringData"], Secret) or isinstance(
        secret.inputs["stringData"]["k"], Secret
    )


def test_resources_come_in_one_order_whatever_the_registration_order() -> None:
    def build() -> None:
        for name in ("b", "a", "c"):
            parent = pulumi.ComponentResource("test:index:Parent", name)
            for child in ("z", "y"):
                k8s.core.v1.Namespace(f"{name}-{child}", opts=pulumi.ResourceOptions(parent=parent))

    run = run_callable(build)
    names = [r.name for r in run.resources if r.type != "pulumi:pulumi:Stack"]
    # Parents first, then their children; siblings by type, then name.
    assert names == ["a", "a-y", "a-z", "b", "b-y", "b-z", "c", "c-y", "c-z"]
    reordered = tree_order(list(reversed(run.resources)))
    assert [r.urn for r in reordered] == [r.urn for r in run.resources]


def test_runs_without_a_current_event_loop() -> None:
    # Python 3.12+ no longer makes a loop on demand (3.12/3.13 warn, 3.14 raises); the SDK asks
    # for the current one, so the engine sets its own.
    asyncio.set_event_loop(None)
    run = run_callable(lambda: k8s.core.v1.Namespace("ns"))
    assert [r.name for r in run.resources if r.type == "kubernetes:core/v1:Namespace"] == ["ns"]


def test_json_contract(program: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["--program", str(program), "--stack", "dev", "--format", "json"])
    document: dict[str, Any] = json.loads(capsys.readouterr().out)
    assert code == EXIT_OK
    assert set(document) == {"stack", "resources", "outputs", "violations"}
    assert document["stack"] == "dev"
    (ns,) = [r for r in document["resources"] if r["type"] == "kubernetes:core/v1:Namespace"]
    assert set(ns) == {"urn", "type", "name", "parent", "dependsOn", "inputs"}
    assert ns["inputs"]["metadata"] == {"name": "team-a", "labels": {"a": "b"}}
    assert document["outputs"] == {"namespace": "team-a", "token": "[secret]"}
    assert document["violations"] == []


def test_table_and_markdown_render(program: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--program", str(program), "--format", "table"]) == EXIT_OK
    table = capsys.readouterr().out
    assert "kubernetes:core/v1:Namespace  team" in table
    assert '"[secret]"' in table and "0 mandatory" in table
    assert main(["--program", str(program), "--format", "markdown"]) == EXIT_OK
    markdown = capsys.readouterr().out
    assert markdown.startswith("### Offline preview: `sample/dev`")
    assert "| `kubernetes:core/v1:Namespace` | 1 |" in markdown


def test_invalid_config_exits_2_with_nothing_on_stdout(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("config:\n  gpu-platform:cloud: gcp\n  gpu-platform:colour: red\n")
    code = main(["--config", str(bad), "--format", "json"])
    captured = capsys.readouterr()
    assert code == EXIT_CONFIG
    assert captured.out == ""
    assert "colour: unknown key" in captured.err
    assert "cloud" in captured.err


def test_program_failure_exits_3(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "Pulumi.yaml").write_text("name: broken\nruntime: python\n")
    (tmp_path / "__main__.py").write_text("raise RuntimeError('boom')\n")
    assert main(["--program", str(tmp_path)]) == EXIT_PROGRAM
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "boom" in captured.err


def _no_labels(args: Any, report: Any) -> None:
    if args.resource_type == "kubernetes:core/v1:Namespace" and not args.props["metadata"].get(
        "labels"
    ):
        report("namespaces need labels")


def test_policies_see_wire_props_and_levels_resolve(program: Path) -> None:
    policy = ResourceValidationPolicy(
        "namespaces-have-labels", "Namespaces have labels.", _no_labels, EnforcementLevel.MANDATORY
    )

    def build() -> None:
        k8s.core.v1.Namespace("bare", metadata=k8s.meta.v1.ObjectMetaArgs(name="bare"))

    run = run_callable(build)
    (violation,) = run_policies(run.resources, [policy])
    assert violation == Violation(
        "namespaces-have-labels", "mandatory", run.resources[0].urn, "namespaces need labels"
    )
    (advisory,) = run_policies(run.resources, [policy], {"namespaces-have-labels": "advisory"})
    assert advisory.enforcement == "advisory"
    assert run_policies(run.resources, [policy], {"all": "disabled"}) == []


def test_mandatory_violation_sets_exit_code(program: Path) -> None:
    result = preview(program)
    assert result.exit_code == EXIT_OK
    result.violations.append(Violation("p", "mandatory", None, "m"))
    assert result.exit_code == EXIT_MANDATORY


def test_invalid_config_registers_nothing() -> None:
    monitor = RecordingMonitor(PreviewMocks())
    config = {"gpu-platform:cloud": "existing", "gpu-platform:gpuPools": '[{"name": "X"}]'}
    with pytest.raises(ConfigError) as err:
        run_program(PROJECT_ROOT, project="gpu-platform", stack="t", config=config, monitor=monitor)
    assert "gpuPools[0].name" in str(err.value)
    assert monitor.recorded == []


class _RemoteNodeGroup(pulumi.ComponentResource):
    """pulumi-eks ``ManagedNodeGroup`` as its Python SDK registers it: a remote component."""

    def __init__(self, name: str, **props: object) -> None:
        super().__init__("eks:index:ManagedNodeGroup", name, props, remote=True)


def test_stack_policies_see_a_remote_components_inputs_where_its_outputs_are_missing() -> None:
    """Its plugin computes its outputs and does not run offline; the program's inputs are what
    a real preview's children would carry, so stack policies judge with them."""
    from pulumi_policy import StackValidationPolicy

    from gpu_platform.offline_preview.user_mocks import UserMocks

    seen: list[dict[str, Any]] = []

    def plain(value: Any) -> Any:
        if isinstance(value, Mapping):
            return {k: plain(v) for k, v in value.items()}
        if isinstance(value, Sequence) and not isinstance(value, str):
            return [plain(v) for v in value]
        return value

    def read(args: Any, report: Any) -> None:
        seen.extend(plain(r.props) for r in args.resources if r.resource_type.startswith("eks:"))

    policy = StackValidationPolicy("reads-pools", "Reads pools.", read)
    taint = {"key": "nvidia.com/gpu", "value": "true", "effect": "NO_SCHEDULE"}

    def build() -> None:
        _RemoteNodeGroup("gpu", instanceTypes=["g5.xlarge"], taints=[taint])

    run = run_callable(build)
    (group,) = run.resources
    assert (group.remote, group.outputs) == (True, {})  # the plugin's part stays unknown
    run_policies(run.resources, [policy])
    assert seen == [{"instanceTypes": ["g5.xlarge"], "taints": [taint]}]
    # Outputs given with --mocks win over the inputs.
    mocks = UserMocks(resources={"eks:index:ManagedNodeGroup": {"taints": []}})
    mocked = run_callable(build, monitor=RecordingMonitor(PreviewMocks(mocks)))
    seen.clear()
    run_policies(mocked.resources, [policy])
    assert seen == [{"instanceTypes": ["g5.xlarge"], "taints": []}]


def test_assets_are_recorded_in_their_wire_form_and_survive_json() -> None:
    """A chart's ``valueYamlFiles`` are assets: recorded as the engine carries them, so a
    program run in its own interpreter ships them back as JSON and the chart is still built."""
    from gpu_platform.offline_preview.wire import ASSET_SIG, SIG_KEY, markers, to_wire

    result = run_callable(
        lambda: k8s.helm.v4.Chart(
            "dp",
            chart="./chart",
            value_yaml_files=[pulumi.FileAsset("values.yaml"), pulumi.StringAsset("a: 1")],
        )
    )
    (chart,) = result.resources
    files = chart.inputs["valueYamlFiles"]
    assert files == [
        {SIG_KEY: ASSET_SIG, "path": "values.yaml"},
        {SIG_KEY: ASSET_SIG, "text": "a: 1"},
    ]
    assert markers(json.loads(json.dumps(to_wire(chart.inputs)))) == chart.inputs


def test_the_help_names_the_command_as_installed(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(["--help"])
    assert done.value.code == 0
    assert capsys.readouterr().out.startswith("usage: gpu-platform-preview ")


@pytest.mark.slow
def test_no_event_loop_is_left_open_for_the_interpreter_to_collect_at_exit() -> None:
    """The mock monitor's worker threads await on event loops of their own; left open, one
    collected at exit after its socket printed "Exception ignored in ... BaseEventLoop.__del__
    ... Invalid file descriptor: -1" under the preview's output (now and then). Closed by the
    engine at exit; a run after that makes new ones."""
    script = textwrap.dedent(
        """
        import asyncio, gc
        import pulumi_kubernetes as k8s
        from gpu_platform.offline_preview import engine

        def program():
            for i in range(20):
                k8s.core.v1.Namespace(f"ns{i}")

        engine.run_callable(program)
        engine.close_loops()  # what atexit runs
        gc.collect()
        loops = [o for o in gc.get_objects() if isinstance(o, asyncio.BaseEventLoop)]
        open_loops = sum(not loop.is_closed() for loop in loops)
        print(open_loops, len(engine.run_callable(program).resources))
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=120
    )
    assert done.stdout.split() == ["0", "20"]
    assert "Exception ignored" not in done.stderr


def test_a_stack_without_a_file_is_named_when_the_run_fails(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`--stack prd` reads as a stack without config: the failure (a required key missing)
    ends with the file that is not there and the stacks that are."""
    (tmp_path / "Pulumi.yaml").write_text("name: team\nruntime: python\n")
    (tmp_path / "Pulumi.prod.yaml").write_text("config:\n  team:namespace: ml\n")
    (tmp_path / "__main__.py").write_text(
        "import pulumi\npulumi.export('ns', pulumi.Config().require('namespace'))\n"
    )
    assert main(["--program", str(tmp_path), "--stack", "prd"]) == EXIT_PROGRAM
    assert capsys.readouterr().err.endswith(
        f"note: stack 'prd' has no config: there is no Pulumi.prd.yaml in {tmp_path}; "
        "the stacks there: prod (--stack NAME)\n"
    )
    assert main(["--program", str(tmp_path), "--stack", "prod"]) == EXIT_OK
    assert "note:" not in capsys.readouterr().err


def test_our_stack_misspelt_names_the_stacks_there(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--stack", "prd"]) == EXIT_CONFIG
    err = capsys.readouterr().err
    assert err.startswith("error: invalid stack config (1 problem):\n  cloud: Field required\n")
    assert "there is no Pulumi.prd.yaml" in err and "the stacks there: ack-dev, amd-dev," in err


def test_a_failure_that_is_not_about_config_gets_no_stack_note(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "Pulumi.yaml").write_text("name: team\nruntime: python\n")
    (tmp_path / "__main__.py").write_text("raise ValueError('the program itself')\n")
    assert main(["--program", str(tmp_path)]) == EXIT_PROGRAM
    err = capsys.readouterr().err
    assert "ValueError: the program itself" in err and "note:" not in err


def test_an_exported_resource_shows_its_outputs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """As the SDK's Stack registers it (``massage``): the resource's public outputs, not a
    Python repr; a secret among them keeps the whole output secret."""
    (tmp_path / "Pulumi.yaml").write_text("name: team\nruntime: python\n")
    (tmp_path / "__main__.py").write_text(
        "import pulumi\n"
        "import pulumi_kubernetes as k8s\n"
        "ns = k8s.core.v1.Namespace('ns', metadata={'name': 'ml'})\n"
        "pulumi.export('ns', ns)\n"
        "pulumi.export('both', {'ns': ns, 'token': pulumi.Output.secret('s3cret')})\n"
    )
    assert main(["--program", str(tmp_path), "--format", "json"]) == EXIT_OK
    outputs = json.loads(capsys.readouterr().out)["outputs"]
    ns = outputs["ns"]
    assert ns["urn"].endswith("kubernetes:core/v1:Namespace::ns")
    assert ns["metadata"]["name"] == "ml"
    assert "@isPulumiResource" not in ns
    assert "s3cret" not in json.dumps(outputs["both"])
