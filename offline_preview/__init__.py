"""The offline preview: a Pulumi program and the policy pack on Pulumi's mock engine."""

from .cli import PreviewResult, preview
from .engine import ProgramRun, RecordedResource, Secret, run_callable, run_program
from .policy_runner import Violation, run_policies

__all__ = [
    "PreviewResult",
    "ProgramRun",
    "RecordedResource",
    "Secret",
    "Violation",
    "preview",
    "run_callable",
    "run_policies",
    "run_program",
]
