"""``python -m gpu_platform.offline_preview``: the program and the policy pack on Pulumi's mock
engine.

Exit status: 0 no mandatory violation, 1 a mandatory violation, 2 bad input (the stack config,
an input file, an option, a folder that is not a Pulumi Python program), 3 the program failed
(its own error, an exit before it finished, past --timeout, past --memory) or a policy could
not judge it, 130 interrupted (Ctrl-C).

What it prints never holds a secret: secret values and URL credentials are masked in the plan,
the verdicts and every message (``redact``).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
import traceback
from collections.abc import Set
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gpu_platform.stack_config.files import (
    Project,
    StackConfig,
    program_main,
    read_project,
    read_stack_config,
)
from gpu_platform.stack_config.yaml_file import FileProblem, InputFileError

from .cache import OFFLINE_ENV
from .deadline import PreviewTimedOut, RunDeadline
from .engine import PreviewMocks, ProgramRun, RecordedResource, RecordingMonitor, run_program
from .kubernetes_components import build_components
from .policy_config import read_policy_config, validate_policy_config
from .policy_runner import PolicyError, Violation, run_policies
from .program_env import ProgramEnvError, program_python
from .program_guard import DEFAULT_MEMORY_MIB, DEFAULT_TIMEOUT, MEMORY_ENV, ProgramTimedOut
from .program_runner import ChildConfigError, ChildFailure, run_in
from .redact import Redactor, public_words, redact_urls, secret_pieces, secret_strings
from .render import RENDERERS
from .rendered_releases import render_releases
from .user_mocks import UserMocks, load_mocks
from .wire import plain_strings, secret_values

if TYPE_CHECKING:  # the failure classes are imported by a run that fails
    from .failure import ProgramFailure

EXIT_OK, EXIT_MANDATORY, EXIT_CONFIG, EXIT_PROGRAM = 0, 1, 2, 3
EXIT_INTERRUPTED = 130
"""128 + SIGINT, as shells report a command Ctrl-C ended."""
EXIT_INPUT = EXIT_CONFIG
"""Bad input of any kind: the stack config, an input file, an option, the program folder."""


@dataclass
class PreviewResult:
    run: ProgramRun
    """What the program registered, with every secret of the run masked in its plain values
    (``redact``): what the plan shows."""
    violations: list[Violation]
    """The pack's verdicts and the engine's notices, secrets and URL credentials masked."""

    @property
    def exit_code(self) -> int:
        mandatory = any(v.enforcement == "mandatory" for v in self.violations)
        return EXIT_MANDATORY if mandatory else EXIT_OK


def python_project(program_dir: Path) -> Project:
    """The program folder's project, refused (``InputFileError``) unless it is a Pulumi Python
    program: a ``Pulumi.yaml``, ``runtime: python``, an entry point (``program_main``)."""
    project = read_project(program_dir)
    if project.runtime != "python":
        raise InputFileError(
            project.path,
            [
                FileProblem(
                    f"runtime {project.runtime!r}: the offline preview runs Pulumi Python "
                    "programs (runtime: python)"
                )
            ],
        )
    program_main(project)
    return project


SECRET_CONFIG_KEYS = ("kubeconfig",)
"""Config keys whose values are credentials however they are given (plain included)."""


def config_secrets(config: dict[str, str], secret_keys: list[str]) -> set[str]:
    """The stack config's secret values (``secure:`` ones, and every ``*:kubeconfig``), with
    the strings inside those that are JSON."""
    found: set[str] = set()
    for key, value in config.items():
        if key in secret_keys or key.rpartition(":")[2] in SECRET_CONFIG_KEYS:
            found.add(value)
            with contextlib.suppress(ValueError):
                found |= secret_strings(json.loads(value))
    return found


def run_secrets(
    resources: list[RecordedResource], outputs: dict[str, Any], public: Set[str] = frozenset()
) -> set[str]:
    """Every string a run holds as a secret, in its resources' inputs and outputs and in the
    stack's outputs. A secret that is text is one whole; of a secret map or list (the SDK makes
    a whole structure secret when a part is), the strings that appear nowhere in plain text and
    are none of the ``public`` words (``public_words`` of the pack's own text)."""
    values = [outputs, *(r.inputs for r in resources), *(r.outputs for r in resources)]
    whole: set[str] = set()
    inside: set[str] = set()
    for value in values:
        for secret in secret_values(value):
            if isinstance(secret, str):
                whole.add(secret)
            else:
                inside |= secret_strings(secret)
    if inside:
        inside -= {s for value in values for s in plain_strings(value)} | public
    return whole | inside


def _identity(r: RecordedResource, redactor: Redactor) -> dict[str, Any]:
    """What names a resource, with every secret in it masked, the same way everywhere so the
    plan's graph holds: an object named by a secret (a yaml/v2 ``objs`` entry, a chart's
    template) carries the secret in its name and URN."""
    mask = redactor.text
    return {
        "urn": mask(r.urn),
        "name": mask(r.name),
        "parent": mask(r.parent) if r.parent else r.parent,
        "provider": mask(r.provider),
        "dependencies": [mask(u) for u in r.dependencies],
        "property_dependencies": {
            k: [mask(u) for u in v] for k, v in r.property_dependencies.items()
        },
        "aliases": [mask(a) for a in r.aliases],
    }


def _redacted(
    run: ProgramRun,
    violations: list[Violation],
    redactor: Redactor,
    public: Set[str] = frozenset(),
) -> PreviewResult:
    """The plan and verdicts with every secret masked; a verdict on a resource that holds
    secrets also with each piece of them masked (a policy may quote part of a value)."""
    resources = [
        replace(
            r,
            inputs=redactor.value(r.inputs),
            outputs=redactor.value(r.outputs),
            **(_identity(r, redactor) if redactor else {}),
        )
        for r in run.resources
    ]
    outputs = redactor.value(run.outputs)
    by_urn = {r.urn: r for r in run.resources}
    masked = []
    for v in violations:
        held = by_urn.get(v.urn or "")
        secrets = run_secrets([held], {}, public) if held is not None else set()
        about = redactor.with_secrets(secret_pieces(secrets) - public) if secrets else redactor
        urn = redactor.text(v.urn) if v.urn and redactor else v.urn
        masked.append(replace(v, urn=urn, message=about.text(v.message)))
    return PreviewResult(ProgramRun(run.project, run.stack, resources, outputs), masked)


def _stack_config(project: Project, stack: str, config_file: Path | None) -> StackConfig | None:
    """The stack's config: ``config_file`` (which must exist), else ``Pulumi.<stack>.yaml``
    when there is one (a stack may have no config file)."""
    if config_file is not None:
        return read_stack_config(config_file, project.name)
    path = project.stack_file(stack)
    return read_stack_config(path, project.name) if path.exists() else None


def preview(
    program_dir: Path = Path(),
    *,
    stack: str = "dev",
    config_file: Path | None = None,
    pack_config: dict[str, Any] | None = None,
    mocks: UserMocks | None = None,
    monitor: RecordingMonitor | None = None,
    timeout: float | None = DEFAULT_TIMEOUT,
    pack_config_source: Path | str = "policy pack config",
    memory_mib: int | None = DEFAULT_MEMORY_MIB,
    isolated: bool = False,
) -> PreviewResult:
    """Run a program and the policy pack; raises bad input (``InputFileError``), the program's
    own errors (``ConfigError``...) and ``ProgramTimedOut`` (``PreviewTimedOut`` past the
    deadline after the program: ``timeout`` covers the program and everything built after it;
    ``ProgramOutOfMemory`` when it allocates more than ``memory_mib`` MiB).

    A program that needs SDKs this interpreter lacks runs in its own virtualenv
    (``program_env``), and every program does with ``isolated`` (this interpreter's, then): its
    failures then arrive as ``ChildFailure``, already explained.
    """
    from gpu_policies.registry import policies  # the pack's modules, as the CLI would load them

    pack = policies()
    if pack_config:
        validate_policy_config(pack_config, pack, pack_config_source)
    program_dir = program_dir.resolve()
    project = python_project(program_dir)
    main = program_main(project)
    stack_config = _stack_config(project, stack, config_file)
    config = stack_config.config if stack_config else {}
    secret_keys = stack_config.secret_keys if stack_config else []
    python = program_python(program_dir, project).python
    if python is None and isolated:  # never in this process: the pack is out of its reach
        python = Path(sys.executable)
    deadline = RunDeadline(timeout)  # from the program's start: it, then all built after it
    if python is None:
        run = run_program(
            program_dir,
            project=project.name,
            stack=stack,
            config=config,
            secret_keys=secret_keys,
            monitor=monitor or RecordingMonitor(PreviewMocks(mocks)),
            main=main,
            timeout=timeout,
            memory_mib=memory_mib,
        )
    else:
        run = run_in(
            python,
            program_dir,
            project=project.name,
            stack=stack,
            config=config,
            secret_keys=secret_keys,
            mocks=asdict(mocks or UserMocks()),
            main=main,
            timeout=timeout,
            memory_mib=memory_mib,
        )
    # The Kubernetes provider's remote components (Helm v4 Chart, yaml/v2), built as it would;
    # Helm v3 Releases rendered too, for the pack only (beyond a real preview: reported so).
    run, notices = build_components(run, program_dir, mocks, deadline=deadline)
    rendered = render_releases(run, program_dir, mocks, deadline=deadline)
    # The pack's own words (NVIDIA_VISIBLE_DEVICES) stay readable inside a secret pod spec.
    public = public_words(
        text for p in pack for text in (p.name, p.description, p.remediation_steps or "")
    )
    secrets = config_secrets(config, secret_keys) | run_secrets(run.resources, run.outputs, public)
    try:
        found = run_policies([*run.resources, *rendered.objects], pack, pack_config)
    except PolicyError as err:  # what it says may quote a value: masked as the plan is (the
        # caller's failure redactor knows the secrets of a program run here, not in its venv)
        masked = Redactor(secrets)
        urn = masked.text(err.urn) if err.urn else None
        raise PolicyError(err.policy, urn, masked.text(err.said)) from err
    violations = [*notices, *rendered.notices, *rendered.attribute(found)]
    return _redacted(run, violations, Redactor(secrets), public)


def no_stack_file_note(program_dir: Path, stack: str) -> str:
    """A line for a failed run whose stack has no ``Pulumi.<stack>.yaml``: a misspelt
    ``--stack`` reads as a stack without config, so the failure names a missing key, not the
    name. Empty when the file is there (or the folder is no project)."""
    try:
        path = read_project(program_dir.resolve()).stack_file(stack)
    except (InputFileError, OSError):
        return ""
    if path.is_file():
        return ""
    stacks = sorted(
        f.name[len("Pulumi.") : -len(".yaml")] for f in path.parent.glob("Pulumi.*.yaml")
    )
    there = f"; the stacks there: {', '.join(stacks)} (--stack NAME)" if stacks else ""
    return f"\nnote: stack {stack!r} has no config: there is no {path.name} in {path.parent}{there}"


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not 0 < value < float("inf"):
        raise argparse.ArgumentTypeError(f"must be more than 0 seconds: {text!r}")
    return value


def _mib(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"not a whole number of MiB: {text!r} (--memory or {MEMORY_ENV})"
        ) from None
    if value <= 0:
        raise argparse.ArgumentTypeError(
            f"must be more than 0 MiB: {text!r} (--memory or {MEMORY_ENV})"
        )
    return value


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="gpu-platform-preview", description=__doc__)
    parser.add_argument("--stack", default="dev", help="stack name: reads Pulumi.<stack>.yaml")
    parser.add_argument("--config", type=Path, help="a stack config file to use instead")
    parser.add_argument(
        "--program", type=Path, default=Path(), help="Pulumi Python program folder (default: here)"
    )
    parser.add_argument("--format", choices=sorted(RENDERERS), default="table")
    parser.add_argument(
        "--policy-config", type=Path, help="policy pack config (JSON), as --policy-pack-config"
    )
    parser.add_argument(
        "--mocks",
        type=Path,
        help="YAML/JSON results for invokes (token -> result) and resource outputs "
        "(type -> outputs), as Pulumi's test mocks",
    )
    parser.add_argument(
        "--timeout",
        type=_seconds,
        default=DEFAULT_TIMEOUT,
        metavar="SECONDS",
        help=f"end a program that runs longer (default {DEFAULT_TIMEOUT:g})",
    )
    parser.add_argument(
        "--memory",
        type=_mib,  # argparse converts a string default too: a bad environment value is exit 2
        default=os.environ.get(MEMORY_ENV, str(DEFAULT_MEMORY_MIB)),
        metavar="MIB",
        help="the most data memory the program may allocate, in MiB, beyond what the preview "
        f"holds when it starts it (default {DEFAULT_MEMORY_MIB}, or ${MEMORY_ENV})",
    )
    parser.add_argument(
        "--offline",
        action="store_true",
        help="CI mode: fetch nothing (charts and manifests from local copies and the cache "
        "only), install requirements only from uv's cache and only when every one is pinned "
        "by hash, unless their virtualenv is cached already",
    )
    parser.add_argument(
        "--isolated",
        action="store_true",
        help="run the program in an interpreter of its own even where this one would do, so "
        "that it cannot reach the pack or end the run (CI on programs it does not trust)",
    )
    parser.add_argument("--debug", action="store_true", help="the traceback of a failed program")
    return parser


def main(argv: list[str] | None = None) -> int:
    try:
        return _main(argv)
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except SystemExit:
        raise  # argparse's exit 2 on a bad option
    except BaseException as err:  # our own bug: never exit 1, which means a mandatory violation
        print(
            f"error: the offline preview itself failed: {type(err).__name__}: {err}\n"
            + "".join(traceback.format_exception(err)),
            file=sys.stderr,
        )
        return EXIT_PROGRAM


class _FailureRedactor(Redactor):
    """Masks what a failed run knew as secret: its config's secrets, and the secrets of what
    it registered before it failed (read when a message is masked)."""

    def __init__(self, config: set[str], monitor: RecordingMonitor) -> None:
        super().__init__(config)
        self._config, self._monitor = config, monitor

    def text(self, text: str) -> str:
        recorded = run_secrets(self._monitor.recorded, {})
        return Redactor(self._config | recorded).text(text)


def _failure_redactor(args: argparse.Namespace, monitor: RecordingMonitor) -> Redactor:
    """What a failure message masks: the stack config's secrets (when it can be read) and
    those of the resources the program registered."""
    try:
        project = read_project(args.program.resolve())
        stack_config = _stack_config(project, args.stack, args.config)
    except (InputFileError, OSError):
        stack_config = None
    config = (
        config_secrets(stack_config.config, stack_config.secret_keys) if stack_config else set()
    )
    return _FailureRedactor(config, monitor)


def _note(args: argparse.Namespace) -> str:
    return "" if args.config else no_stack_file_note(args.program, args.stack)


CONFIG_ERRORS = ("ConfigMissingError:", "ConfigTypeError:")
"""The SDK's errors for a config key the program reads (``Config().require``...)."""


def _config_note(args: argparse.Namespace, failure: ProgramFailure) -> str:
    """The note, for a program that failed on its config only: a program that does not read
    config fails the same with or without a stack file."""
    return _note(args) if failure.error.startswith(CONFIG_ERRORS) else ""


def _main(argv: list[str] | None) -> int:
    args = _parser().parse_args(argv)
    if args.offline:
        os.environ[OFFLINE_ENV] = "1"  # for every part of the run, the program's venv included

    from gpu_platform.stack_config import ConfigError

    try:
        pack_config = read_policy_config(args.policy_config) if args.policy_config else None
        mocks = load_mocks(args.mocks) if args.mocks else None
    except InputFileError as err:
        print(f"error: {redact_urls(str(err))}", file=sys.stderr)
        return EXIT_INPUT
    monitor = RecordingMonitor(PreviewMocks(mocks))
    redactor = _failure_redactor(args, monitor)
    try:
        result = preview(
            args.program,
            stack=args.stack,
            config_file=args.config,
            pack_config=pack_config,
            mocks=mocks,
            monitor=monitor,
            timeout=args.timeout,
            memory_mib=args.memory,
            pack_config_source=args.policy_config or "policy pack config",
            isolated=args.isolated,
        )
    # Every message below may quote the program's files (a requirement's URL with its token):
    # shown through the redactor, as the plan is.
    except InputFileError as err:
        print(f"error: {redactor.text(str(err))}", file=sys.stderr)
        return EXIT_INPUT
    except (ConfigError, ChildConfigError) as err:
        print(f"error: {redactor.text(str(err))}{_note(args)}", file=sys.stderr)
        return EXIT_CONFIG
    except ChildFailure as err:
        from .failure import ProgramFailure

        failed = ProgramFailure(**err.failure)
        message = failed.message(debug=args.debug) + _config_note(args, failed)
        print(redactor.text(message), file=sys.stderr)
        return EXIT_PROGRAM
    except ProgramEnvError as err:
        print(
            f"error: the program's Python environment: {redactor.text(str(err))}", file=sys.stderr
        )
        return EXIT_PROGRAM
    except PolicyError as err:
        print(f"error: {redactor.text(str(err))}", file=sys.stderr)
        return EXIT_PROGRAM
    except PreviewTimedOut as err:
        print(f"error: {redactor.text(str(err))}", file=sys.stderr)
        return EXIT_PROGRAM
    except (Exception, ProgramTimedOut) as err:  # any program failure is reported, not raised
        from .failure import explain

        unanswered = [i.token for i in monitor.invokes if not i.answered]
        failure = explain(err, args.program, unanswered)
        message = failure.message(debug=args.debug) + _config_note(args, failure)
        print(redactor.text(message), file=sys.stderr)
        return EXIT_PROGRAM
    print(RENDERERS[args.format](result.run, result.violations))
    return result.exit_code
