"""A ValidatingAdmissionPolicy's CEL evaluated with cel-python (``celpy``) the way the API server
does: variables in order under ``variables``, then every validation, with ``object`` the
admitted object and ``namespaceObject`` its namespace. For the tests of our admission policies."""

from __future__ import annotations

import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import celpy
import celpy.evaluation
import lark


class _CastType:
    """Stands in for ``typing``'s ``Union``, ``List``, ``Dict``, ``Tuple``, ``Optional``,
    ``Callable``, ``Iterable``, ``Iterator`` and ``Match`` inside cel-python's evaluator, where
    after its import they only ever build the first argument of ``cast`` (which ignores it) or
    the annotations of functions it defines while evaluating (``celstr``'s ``expand``, read by
    nothing). cel-python 0.5 builds them for every name it resolves, macro and string literal
    (``cast(Union[Result, NameContainer], ...)``), and ``typing`` hashes the whole ``Result``
    union each time: a quarter of our CEL tests' CPU, for nothing (docs/performance.md, the
    inner loop)."""

    def __getitem__(self, _: object) -> type[object]:
        return object


_CAST = _CastType()
_CAST_ONLY = ("Union", "List", "Dict", "Tuple", "Optional", "Callable", "Iterable", "Iterator")
for _name in (*_CAST_ONLY, "Match"):
    if getattr(celpy.evaluation, _name, None) is getattr(typing, _name):  # typing's, nothing else
        setattr(celpy.evaluation, _name, _CAST)

# Rules whose node, with a single child tree, evaluates to exactly its child's value (their
# one-child branch in cel-python 0.5 is ``return self.visit_children(tree)[0]``); ``primary``
# does so too when its child is a ``literal``.
_PASS_THROUGH = frozenset(
    {"expr", "conditionalor", "conditionaland", "relation", "addition", "multiplication"}
    | {"unary", "member"}
)

_Step = tuple[Callable[[celpy.Evaluator, lark.Tree], Any], lark.Tree]

# What a literal evaluates to: immutable, so one value serves every evaluation.
_CONSTANTS = (
    celpy.celtypes.StringType,
    celpy.celtypes.BytesType,
    celpy.celtypes.IntType,
    celpy.celtypes.UintType,
    celpy.celtypes.DoubleType,
    celpy.celtypes.BoolType,
)


def _constant(value: Any) -> Callable[[celpy.Evaluator, lark.Tree], Any]:
    return lambda _evaluator, _literal: value


def _passes_through(node: lark.Tree) -> bool:
    if len(node.children) != 1 or not isinstance(child := node.children[0], lark.Tree):
        return False
    return node.data in _PASS_THROUGH or (node.data == "primary" and child.data == "literal")


def _steps(ast: lark.Tree) -> dict[int, _Step]:
    """Per node of ``ast`` (by id; the program keeps ``ast`` alive): the node that really
    computes its value, past the pass-through chain the grammar builds for every operand
    (``expr`` > ``conditionalor`` > ... > ``member`` > ``primary``, ten levels for a literal),
    and the rule's method, found once instead of by name on every visit; a literal's value,
    worked out once (cel-python parses a string literal's escapes on every evaluation)."""
    steps: dict[int, _Step] = {}
    literals = _Evaluator(ast, celpy.Activation(), {})
    for node in ast.iter_subtrees():
        target = node
        while _passes_through(target):
            target = target.children[0]
            assert isinstance(target, lark.Tree)
        method = getattr(_Evaluator, str(target.data), None)  # None: lark's default, unchanged
        if target.data == "literal" and isinstance(value := literals.literal(target), _CONSTANTS):
            steps[id(node)] = (_constant(value), target)
        elif method is not None and getattr(method, "visit_wrapper", None) is None:
            steps[id(node)] = (method, target)
    return steps


class _Evaluator(celpy.Evaluator):
    """cel-python's tree-walking evaluator, walking past pass-through nodes and taking
    literals' values as worked out once (``_steps``)."""

    def __init__(self, ast: lark.Tree, activation: celpy.Activation, steps: dict[int, _Step]):
        super().__init__(ast, activation)
        self.steps = steps

    def sub_evaluator(self, ast: lark.Tree) -> celpy.Evaluator:
        return _Evaluator(ast, self.activation, self.steps)

    def visit(self, tree: lark.Tree) -> Any:
        step = self.steps.get(id(tree))
        if step is None:
            return super().visit(tree)
        method, target = step
        return method(self, target)

    def visit_children(self, tree: lark.Tree) -> list[Any]:
        # Without ``self.level``, which only indents cel-python's CEL_TRACE log.
        return [self.visit(c) if isinstance(c, lark.Tree) else c for c in tree.children]


class Program:
    """One CEL expression, evaluated as ``celpy.InterpretedRunner`` evaluates it (its evaluator,
    its rules' methods, its activations) without the work that runner repeats on every
    evaluation for nothing: the base activation (the environment's annotations, expanded into
    name containers) is built once, since each evaluation clones it before binding its
    variables; pass-through nodes are walked past and literals evaluated once (``_steps``).
    Checked against cel-python's own runner, value for value, on every kind by
    tests/components/test_gpu_admission_cel_evaluator.py."""

    def __init__(self, env: celpy.Environment, expression: str) -> None:
        self.runner = env.program(env.compile(expression))
        self.base_activation = self.runner.new_activation()
        self.steps = _steps(self.runner.ast)

    def evaluate(self, context: Mapping[str, Any]) -> Any:
        return _Evaluator(self.runner.ast, self.base_activation, self.steps).evaluate(context)


@dataclass
class CompiledPolicy:
    variables: list[tuple[str, Program]]
    validations: list[tuple[str, Program]]
    """(message, program)"""


def compile_policy(spec: dict[str, Any]) -> CompiledPolicy:
    """The recorded policy's ``spec``, compiled."""
    env = celpy.Environment()
    return CompiledPolicy(
        variables=[(v["name"], Program(env, v["expression"])) for v in spec["variables"]],
        validations=[(v["message"], Program(env, v["expression"])) for v in spec["validations"]],
    )


def values(
    policy: CompiledPolicy, obj: dict[str, Any], namespace: dict[str, Any], *, stock: bool = False
) -> list[tuple[str, Any]]:
    """(variable's name or validation's message, its value), in the API server's order; with
    ``stock``, evaluated by cel-python's own runner instead of ``Program``."""
    activation: dict[str, Any] = {
        "object": celpy.json_to_cel(obj),
        "namespaceObject": celpy.json_to_cel(namespace),
    }
    variables: dict[str, Any] = {}
    found: list[tuple[str, Any]] = []
    for name, program in policy.variables:
        activation["variables"] = celpy.celtypes.MapType(
            {celpy.celtypes.StringType(k): v for k, v in variables.items()}
        )
        value = (program.runner if stock else program).evaluate(activation)
        assert not isinstance(value, celpy.CELEvalError), f"variable {name}: {value}"
        variables[name] = value
        found.append((name, value))
    activation["variables"] = celpy.celtypes.MapType(
        {celpy.celtypes.StringType(k): v for k, v in variables.items()}
    )
    for message, program in policy.validations:
        found.append((message, (program.runner if stock else program).evaluate(activation)))
    return found


def failed_messages(
    policy: CompiledPolicy, obj: dict[str, Any], namespace: dict[str, Any]
) -> list[str]:
    """Messages of the validations ``obj`` fails; a CEL error fails the test outright."""
    found = values(policy, obj, namespace)[len(policy.variables) :]
    for message, result in found:
        assert isinstance(result, celpy.celtypes.BoolType), f"{message}: {result!r}"
    return [message for message, result in found if not result]
