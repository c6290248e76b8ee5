"""``$((...))``: integer arithmetic on a safe subset of expressions."""

from __future__ import annotations

import ast
import re
from collections.abc import Callable

__all__ = ["ArithmeticError_", "evaluate"]


class ArithmeticError_(ValueError):
    pass


_ALLOWED_CHARS = re.compile(r"[\sA-Za-z0-9_+\-*/%()<>=!&|^~]*")


def _to_python(expr: str) -> str:
    expr = expr.replace("&&", " and ").replace("||", " or ")
    # ``!x`` is logical not, but ``!=`` stays.
    return re.sub(r"!(?!=)", " not ", expr)


def _div(a: int, b: int, op: str) -> int:
    if b == 0:
        raise ArithmeticError_("division by 0")
    q = abs(a) // abs(b) * (1 if (a >= 0) == (b >= 0) else -1)
    return q if op == "/" else a - b * q


def evaluate(expr: str, lookup: Callable[[str], str | None]) -> int:
    """Evaluate like POSIX ``$(( ))``: integers, C operators, unset names are 0."""
    if not _ALLOWED_CHARS.fullmatch(expr):
        raise ArithmeticError_(f"{expr.strip()}: syntax error in expression")
    try:
        tree = ast.parse(_to_python(expr).strip() or "0", mode="eval")
    except SyntaxError:
        raise ArithmeticError_(f"{expr.strip()}: syntax error in expression") from None
    return _eval(tree.body, lookup, 0)


def _eval(node: ast.AST, lookup: Callable[[str], str | None], depth: int) -> int:
    if depth > 50:
        raise ArithmeticError_("expression nested too deeply")
    d = depth + 1
    if isinstance(node, ast.Constant) and isinstance(node.value, int):
        return int(node.value)
    if isinstance(node, ast.Name):
        value = (lookup(node.id) or "0").strip() or "0"
        try:
            return int(value, 0) if not value.lstrip("-").isdigit() else int(value)
        except ValueError:
            raise ArithmeticError_(f"{value}: not a number") from None
    if isinstance(node, ast.UnaryOp):
        v = _eval(node.operand, lookup, d)
        if isinstance(node.op, ast.USub):
            return -v
        if isinstance(node.op, ast.UAdd):
            return v
        if isinstance(node.op, ast.Not):
            return int(not v)
        if isinstance(node.op, ast.Invert):
            return ~v
    if isinstance(node, ast.BinOp):
        a, b = _eval(node.left, lookup, d), _eval(node.right, lookup, d)
        ops = {
            ast.Add: lambda: a + b,
            ast.Sub: lambda: a - b,
            ast.Mult: lambda: a * b,
            ast.Div: lambda: _div(a, b, "/"),
            ast.FloorDiv: lambda: _div(a, b, "/"),
            ast.Mod: lambda: _div(a, b, "%"),
            ast.LShift: lambda: a << min(b, 63),
            ast.RShift: lambda: a >> b,
            ast.BitAnd: lambda: a & b,
            ast.BitOr: lambda: a | b,
            ast.BitXor: lambda: a ^ b,
        }
        if isinstance(node.op, ast.Pow):
            if b < 0 or b > 64:
                raise ArithmeticError_("exponent out of range")
            return a**b
        for kind, fn in ops.items():
            if isinstance(node.op, kind):
                return fn()
    if isinstance(node, ast.BoolOp):
        values = [_eval(v, lookup, d) for v in node.values]
        return int(all(values) if isinstance(node.op, ast.And) else any(values))
    if isinstance(node, ast.Compare):
        left = _eval(node.left, lookup, d)
        for op, right_node in zip(node.ops, node.comparators, strict=True):
            right = _eval(right_node, lookup, d)
            checks = {
                ast.Lt: left < right,
                ast.LtE: left <= right,
                ast.Gt: left > right,
                ast.GtE: left >= right,
                ast.Eq: left == right,
                ast.NotEq: left != right,
            }
            if not checks.get(type(op), False):
                return 0
            left = right
        return 1
    raise ArithmeticError_("syntax error in expression")
