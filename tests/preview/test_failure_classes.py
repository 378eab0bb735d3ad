"""Programs a real ``pulumi preview`` accepts run offline: one program per class of failure
the engine used to have (tests/preview/programs), each with its exact plan and exit status."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from gpu_platform.offline_preview.cli import (
    EXIT_CONFIG,
    EXIT_MANDATORY,
    EXIT_OK,
    EXIT_PROGRAM,
    main,
)

PROGRAMS = Path(__file__).parent / "programs"
UNKNOWN = "[unknown]"


def _plan(
    capsys: pytest.CaptureFixture[str], program: str | Path, *extra: str
) -> tuple[int, dict[str, Any], str]:
    code = main(["--program", str(PROGRAMS / program), "--format", "json", *extra])
    captured = capsys.readouterr()
    return code, json.loads(captured.out) if captured.out else {}, captured.err


def _inputs(plan: dict[str, Any]) -> dict[tuple[str, str], Any]:
    return {(r["type"], r["name"]): r["inputs"] for r in plan["resources"]}


def test_outputs_known_only_after_create_are_unknown_and_their_applies_do_not_run(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, plan, err = _plan(capsys, "unknown-outputs")
    assert (code, err) == (EXIT_OK, "")
    # Auto-named as pulumi-kubernetes' Check names them (<name>-<8 hex>): a preview knows it.
    assert re.fullmatch(r"team-[0-9a-f]{8}", plan["outputs"].pop("namespace"))
    assert re.fullmatch(r"settings-[0-9a-f]{8}", plan["outputs"].pop("settingsName"))
    assert plan["outputs"] == {
        "endpoint": UNKNOWN,
        "kubeconfig": UNKNOWN,
        "roleArn": "arn:aws:iam::123456789012:role/eks",  # an input: known
        "settingsLabels": {"team": "ml"},
    }
    inputs = _inputs(plan)
    assert inputs[("kubernetes:apps/v1:Deployment", "trainer")]["metadata"] == {
        "namespace": UNKNOWN,
        "name": "trainer",
    }
    assert inputs[("kubernetes:core/v1:Service", "svc")]["metadata"] == {
        "namespace": "team",
        "name": "svc",
    }
    assert plan["violations"] == []


def test_unknown_inputs_are_shown_in_the_table_and_markdown(
    capsys: pytest.CaptureFixture[str],
) -> None:
    program = str(PROGRAMS / "unknown-outputs")
    assert main(["--program", program]) == EXIT_OK
    table = capsys.readouterr().out
    assert (
        "kubernetes:apps/v1:Deployment  trainer\n│    ? known after apply: metadata.namespace"
        in table
    )
    assert '  endpoint: "[unknown]"' in table
    assert main(["--program", program, "--format", "markdown"]) == EXIT_OK
    markdown = capsys.readouterr().out
    assert "- `kubernetes:apps/v1:Deployment` `trainer`: metadata.namespace" in markdown


def test_resources_passed_as_inputs_reach_the_engine_as_their_ids(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, plan, err = _plan(capsys, "resource-reference")
    assert (code, err) == (EXIT_OK, "")
    inputs = _inputs(plan)
    attachment = "aws:iam/rolePolicyAttachment:RolePolicyAttachment"
    assert inputs[(attachment, "a")] == {"policyArn": "arn:x", "role": "node-id"}
    assert inputs[(attachment, "pool-ecr")]["role"] == "node-id"
    pool = inputs[("team:eks:GpuPool", "pool")]
    # A component is referenced by its URN, a custom resource by its ID.
    assert pool == {
        "network": "urn:pulumi:dev::resource-reference::pulumi:pulumi:Stack$team:net:Network::net",
        "role": "node-id",
    }
    assert plan["outputs"] == {"roleArn": UNKNOWN}


def test_common_invokes_have_typed_results_that_follow_the_stack_config(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, plan, err = _plan(capsys, "invokes")
    assert (code, err) == (EXIT_OK, "")
    assert plan["outputs"] == {
        "awsZones": ["eu-west-1a", "eu-west-1b", "eu-west-1c"],
        "awsZoneIds": ["ew1-az1", "ew1-az2", "ew1-az3"],
        "region": "eu-west-1",
        "nodeRoleArn": "arn:aws:iam::123456789012:role/n",
        "gcpProject": "team-gpu",
        "gcpProjectNumber": "000000000000",
        "gcpZones": ["europe-west4-a", "europe-west4-b", "europe-west4-c"],
        "azureTenant": "00000000-0000-0000-0000-000000000000",
        "existingEndpoint": UNKNOWN,  # no stand-in: unknown, its apply skipped
    }


def test_mocks_file_answers_invokes_and_adds_resource_outputs(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    mocks = tmp_path / "mocks.yaml"
    mocks.write_text(
        "invokes:\n"
        "  aws:eks/getCluster:getCluster: {endpoint: https://shared.example}\n"
        "  aws:index/getRegion:getRegion: {name: ap-south-1}\n"
        "resources:\n"
        "  aws:eks/cluster:Cluster:\n"
        "    endpoint: https://gpu.example\n"
        "    certificateAuthority: {data: Y2E=}\n"
    )
    code, plan, _ = _plan(capsys, "invokes", "--mocks", str(mocks))
    assert code == EXIT_OK
    assert plan["outputs"]["existingEndpoint"] == "https://shared.example"
    assert plan["outputs"]["region"] == "ap-south-1"
    # With the cluster's outputs given, the program's applies run: this one fails on purpose.
    code, _, err = _plan(capsys, "unknown-outputs", "--mocks", str(mocks))
    assert code == EXIT_PROGRAM
    assert "AssertionError: an apply ran on a value only known after create: 'Y2E='" in err


def test_json_mocks_file_and_its_errors(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    mocks = tmp_path / "mocks.json"
    mocks.write_text(json.dumps({"resources": {"aws:iam/role:Role": {"arn": "arn:r"}}}))
    code, plan, _ = _plan(capsys, "resource-reference", "--mocks", str(mocks))
    assert (code, plan["outputs"]) == (EXIT_OK, {"roleArn": "arn:r"})
    mocks.write_text(json.dumps({"invoke": {}}))
    code, plan, err = _plan(capsys, "resource-reference", "--mocks", str(mocks))
    assert (code, plan) == (EXIT_CONFIG, {})
    assert err == f"error: {mocks}:1:2: invoke: unknown key; use `invokes` and `resources`\n"


def test_remote_components_show_with_their_inputs(capsys: pytest.CaptureFixture[str]) -> None:
    code, plan, err = _plan(capsys, "remote-component")
    # The engine runs it through; the pack then judges the pool's taint value (BP-01: the
    # device plugin chart's feature discovery tolerates only ``present``), and stack policies
    # see the node group with what the program gave it: no exporter watches its GPUs.
    assert (code, err) == (EXIT_MANDATORY, "")
    assert [(v["policy"], v["enforcement"]) for v in plan["violations"]] == [
        ("gpu-node-pools-tainted", "mandatory"),
        ("gpu-pools-have-metrics-exporter", "advisory"),
    ]
    inputs = _inputs(plan)
    assert inputs[("eks:index:Cluster", "gpu")] == {
        "instanceType": "t3.medium",
        "desiredCapacity": 1.0,
        "createOidcProvider": True,
    }
    group = inputs[("eks:index:ManagedNodeGroup", "gpu-nodes")]
    assert group["cluster"].endswith("$eks:index:Cluster::gpu")
    assert group["instanceTypes"] == ["g5.xlarge"]
    assert group["taints"] == [{"key": "nvidia.com/gpu", "value": "true", "effect": "NO_SCHEDULE"}]
    assert inputs[("pulumi:providers:kubernetes", "eks")] == {"kubeconfig": UNKNOWN}
    assert plan["outputs"] == {"kubeconfig": UNKNOWN}
    assert main(["--program", str(PROGRAMS / "remote-component")]) == EXIT_MANDATORY
    assert "eks:index:Cluster  gpu [remote component: built by its plugin]" in (
        capsys.readouterr().out
    )


def test_a_program_error_is_named_as_the_programs_own(capsys: pytest.CaptureFixture[str]) -> None:
    code, plan, err = _plan(capsys, "program-error")
    assert (code, plan) == (EXIT_PROGRAM, {})
    assert err.splitlines() == [
        "error: the program failed: ValueError: m5.large is not a GPU instance type",
        '  at: __main__.py:10: raise ValueError(f"{instance_type} is not a GPU instance type")',
        '  resource: team:eks:GpuPool "pool"',
        "  cause: the program's own error",
        "  way past: fix the program at the line above; if it needs a value only the cloud "
        "knows, give it with --mocks FILE (see docs/offline-preview.md#mocks)",
        "  (--debug shows the traceback)",
    ]
    main(["--program", str(PROGRAMS / "program-error"), "--debug"])
    assert "Traceback (most recent call last)" in capsys.readouterr().err


def _program(tmp_path: Path, source: str, name: str = "team") -> Path:
    program = tmp_path / name
    program.mkdir()
    (program / "Pulumi.yaml").write_text(f"name: {name}\nruntime: python\n")
    (program / "__main__.py").write_text(source)
    return program


@pytest.mark.parametrize(
    ("manifest", "why"),
    [
        ("kind: ConfigMap\nmetadata: {name: bad\n  namespace: [x\n", ":3:12: did not find"),
        ("- not\n- an object\n", "a document is not an object"),
        ("a: " + "x" * (16 * 1024 * 1024) + "\n", "larger than 16777216 bytes"),
    ],
    ids=["yaml", "not-an-object", "too-large"],
)
def test_a_v1_manifest_the_provider_cannot_decode_is_the_programs_error(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, manifest: str, why: str
) -> None:
    """v1 yaml.ConfigFile asks the provider to decode the file's text: a manifest it refuses is
    the program's to fix, said as such, not an engine limit to mock."""
    source = 'import pulumi_kubernetes as k8s\nk8s.yaml.ConfigFile("app", file="app.yaml")\n'
    program = _program(tmp_path, source)
    (program / "app.yaml").write_text(manifest)
    code = main(["--program", str(program), "--format", "json"])
    err = capsys.readouterr().err
    assert code == EXIT_PROGRAM
    lines = err.splitlines()
    assert lines[0].startswith(
        "error: the program failed: ManifestError: decoding YAML: the text a v1 "
        "yaml.ConfigFile or ConfigGroup decodes"
    ), err
    assert why in lines[0]
    assert "  cause: the program's own error" in lines
    assert "--mocks" not in err


def test_a_plain_invoke_without_a_result_is_named_as_an_engine_limit(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    program = _program(
        tmp_path,
        "import pulumi\n"
        "vpc = pulumi.runtime.invoke('aws:ec2/getVpcs:getVpcs', {}).value\n"
        "pulumi.export('first', vpc['ids'][0])\n",
    )
    assert main(["--program", str(program)]) == EXIT_PROGRAM
    assert capsys.readouterr().err.splitlines()[:8] == [
        "error: the program failed: TypeError: 'NoneType' object is not subscriptable",
        "  at: __main__.py:3: pulumi.export('first', vpc['ids'][0])",
        "  invokes without an offline result (unknown, as data a preview cannot read): "
        "aws:ec2/getVpcs:getVpcs",
        "  cause: a limit of the offline engine, not an error in the program",
        "  way past: the invoke aws:ec2/getVpcs:getVpcs reads data only the cloud has, and "
        "nothing answers it offline: give its result with --mocks FILE (see "
        "docs/offline-preview.md#mocks), an entry such as",
        "      invokes:",
        "        aws:ec2/getVpcs:getVpcs:",
        "          <wireKey>: <value>",
    ]


# A provider SDK's generated data source, as Pulumi's codegen writes one (pulumi-aws'
# ``aws.ec2.get_ami``): a result type, and a function that reads the invoke's result with
# ``pulumi.get``, which asserts on the empty result of an invoke nothing answered.
SDK_FUNCTION = """\
import pulumi


@pulumi.output_type
class GetAmiResult:
    def __init__(__self__, id=None, image_id=None, architecture=None):
        pulumi.set(__self__, "id", id)
        pulumi.set(__self__, "image_id", image_id)
        pulumi.set(__self__, "architecture", architecture)

    @property
    @pulumi.getter
    def id(self) -> str:
        return pulumi.get(self, "id")

    @property
    @pulumi.getter(name="imageId")
    def image_id(self) -> str:
        return pulumi.get(self, "image_id")

    @property
    @pulumi.getter
    def architecture(self) -> str:
        return pulumi.get(self, "architecture")


def get_ami(most_recent=None, owners=None, opts=None):
    __args__ = {"mostRecent": most_recent, "owners": owners}
    token = "aws:ec2/getAmi:getAmi"
    __ret__ = pulumi.runtime.invoke(token, __args__, opts=opts, typ=GetAmiResult).value
    return GetAmiResult(
        id=pulumi.get(__ret__, "id"),
        image_id=pulumi.get(__ret__, "image_id"),
        architecture=pulumi.get(__ret__, "architecture"),
    )
"""


def test_an_sdk_data_source_without_an_answer_names_the_invoke_and_its_mocks_entry(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The SDK fails inside its own function, not in the program: the message still names the
    invoke as an offline limit, with the --mocks entry its result type asks for."""
    site = tmp_path / "site"
    (site / "team_aws_sdk").mkdir(parents=True)
    (site / "team_aws_sdk" / "__init__.py").write_text(SDK_FUNCTION)
    monkeypatch.syspath_prepend(str(site))
    program = _program(
        tmp_path,
        "import pulumi\n"
        "import team_aws_sdk\n"
        "ami = team_aws_sdk.get_ami(most_recent=True, owners=['amazon'])\n"
        "pulumi.export('ami', ami.image_id)\n",
    )
    assert main(["--program", str(program)]) == EXIT_PROGRAM
    err = capsys.readouterr().err.splitlines()
    assert err[1:] == [
        "  at: __main__.py:3: ami = team_aws_sdk.get_ami(most_recent=True, owners=['amazon'])",
        "  invokes without an offline result (unknown, as data a preview cannot read): "
        "aws:ec2/getAmi:getAmi",
        "  cause: a limit of the offline engine, not an error in the program",
        "  way past: the invoke aws:ec2/getAmi:getAmi reads data only the cloud has, and nothing "
        "answers it offline: give its result with --mocks FILE (see "
        "docs/offline-preview.md#mocks), an entry such as",
        "      invokes:",
        "        aws:ec2/getAmi:getAmi:",
        "          id: <value>",
        "          architecture: <value>",
        "          imageId: <value>",
        "  (--debug shows the traceback)",
    ]
    # The entry, filled in, is the way past: the program runs.
    mocks = tmp_path / "mocks.yaml"
    mocks.write_text("invokes:\n  aws:ec2/getAmi:getAmi: {id: ami-1, imageId: ami-1}\n")
    code, plan, _ = _plan(capsys, program, "--mocks", str(mocks))
    assert (code, plan["outputs"]) == (EXIT_OK, {"ami": "ami-1"})


def test_a_missing_sdk_is_named_with_how_to_install_it(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    program = _program(tmp_path, "import pulumi_gcp as gcp\n")
    assert main(["--program", str(program)]) == EXIT_PROGRAM
    err = capsys.readouterr().err
    assert err.startswith("error: the program failed: ModuleNotFoundError: No module named")
    assert "cause: a Python package the program needs is not installed" in err
    assert "list `pulumi-gcp` in a requirements.txt next to Pulumi.yaml" in err


def test_a_read_resource_has_the_id_it_was_read_by_and_unknown_state(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    program = _program(
        tmp_path,
        "import pulumi\n"
        "class Vpc(pulumi.CustomResource):\n"
        "    def __init__(self, name, id):\n"
        "        opts = pulumi.ResourceOptions(id=id)\n"
        "        super().__init__('aws:ec2/vpc:Vpc', name, {'cidrBlock': None}, opts)\n"
        "vpc = Vpc('shared', 'vpc-0123')\n"
        "pulumi.export('id', vpc.id)\n"
        "pulumi.export('cidr', vpc.cidrBlock)\n",
    )
    code, plan, _ = _plan(capsys, program)
    assert (code, plan["resources"], plan["outputs"]) == (
        EXIT_OK,
        [],  # a read is not a change of the plan
        {"id": "vpc-0123", "cidr": UNKNOWN},
    )
    mocks = tmp_path / "mocks.yaml"
    mocks.write_text("resources:\n  aws:ec2/vpc:Vpc: {cidrBlock: 10.0.0.0/16}\n")
    code, plan, _ = _plan(capsys, program, "--mocks", str(mocks))
    assert plan["outputs"] == {"id": "vpc-0123", "cidr": "10.0.0.0/16"}


def test_lookups_return_resources_with_unknown_outputs_or_mocked_ones(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Reads by ID, a resource of the stack's state by URN (``getResource``) and a component
    whose outputs hold resources: the program runs, as a preview would, with what only the
    cloud or the state knows unknown, or given by --mocks."""
    code, plan, err = _plan(capsys, "library-lookups")
    assert (code, err) == (EXIT_OK, "")
    assert plan["outputs"] == {
        "namespace": "team-ml",
        "sharedQuota": UNKNOWN,
        "existingLabels": UNKNOWN,
        "resourceGroupLocation": UNKNOWN,
    }
    assert [r["name"] for r in plan["resources"]] == ["ml", "ml-ns"]  # reads change nothing
    mocks = tmp_path / "mocks.yaml"
    mocks.write_text(
        "resources:\n"
        "  kubernetes:core/v1:ResourceQuota: {spec: {hard: {requests.nvidia.com/gpu: '8'}}}\n"
        "  azure-native:resources:ResourceGroup: {location: westeurope}\n"
    )
    code, plan, _ = _plan(capsys, "library-lookups", "--mocks", str(mocks))
    assert code == EXIT_OK
    assert plan["outputs"]["sharedQuota"] == {"hard": {"requests.nvidia.com/gpu": "8"}}
    assert plan["outputs"]["resourceGroupLocation"] == "westeurope"
