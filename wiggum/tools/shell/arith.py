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


_NAME = r"[A-Za-z_][A-Za-z0-9_]*"
_POST = re.compile(rf"\s*({_NAME})\s*(\+\+|--)\s*")
_PRE = re.compile(rf"\s*(\+\+|--)\s*({_NAME})\s*")
_ASSIGN = re.compile(rf"\s*({_NAME})\s*(<<|>>|[-+*/%&|^])?=(?!=)(.*)", re.DOTALL)


def evaluate(
    expr: str,
    lookup: Callable[[str], str | None],
    assign: Callable[[str, str], None] | None = None,
) -> int:
    """Evaluate like POSIX ``$(( ))``: integers, C operators, unset names are 0.

    Assignments (``i++``, ``--i``, ``n += 2``, ``x = y = 0``), ``a ? b : c``
    and ``,`` are handled here around Python's parser, which has none of them.
    """
    if not _ALLOWED_CHARS.fullmatch(expr.replace("?", "").replace(":", "").replace(",", "")):
        raise ArithmeticError_(f"{expr.strip()}: syntax error in expression")
    value = 0
    for piece in _split_top(expr, ","):
        value = _piece(piece, lookup, assign, 0)
    return value


def _piece(
    expr: str,
    lookup: Callable[[str], str | None],
    assign: Callable[[str, str], None] | None,
    depth: int,
) -> int:
    if depth > 50:
        raise ArithmeticError_("expression nested too deeply")
    ternary = _split_ternary(expr)
    if ternary is not None:
        cond, yes, no = ternary
        chosen = yes if _piece(cond, lookup, assign, depth + 1) else no
        return _piece(chosen, lookup, assign, depth + 1)
    m = _POST.fullmatch(expr) or _PRE.fullmatch(expr)
    if m:
        name, op = (m.group(1), m.group(2)) if m.re is _POST else (m.group(2), m.group(1))
        old = _eval(ast.Name(name), lookup, 0)
        new = old + (1 if op == "++" else -1)
        _store(assign, name, new)
        return old if m.re is _POST else new
    m = _ASSIGN.fullmatch(expr)
    if m:
        name, op, rest = m.groups()
        value = _piece(rest, lookup, assign, depth + 1)
        if op:
            value = _piece(f"{name} {op} ({value})", lookup, assign, depth + 1)
        _store(assign, name, value)
        return value
    try:
        tree = ast.parse(_to_python(expr).strip() or "0", mode="eval")
    except SyntaxError:
        raise ArithmeticError_(f"{expr.strip()}: syntax error in expression") from None
    return _eval(tree.body, lookup, 0)


def _store(assign: Callable[[str, str], None] | None, name: str, value: int) -> None:
    if assign is None:
        raise ArithmeticError_(f"{name}: assignment is not possible here")
    assign(name, str(value))


def _split_top(expr: str, sep: str) -> list[str]:
    """``expr`` split at ``sep`` outside parentheses."""
    pieces, depth, start = [], 0, 0
    for i, c in enumerate(expr):
        depth += (c == "(") - (c == ")")
        if c == sep and depth == 0:
            pieces.append(expr[start:i])
            start = i + 1
    pieces.append(expr[start:])
    return pieces


def _split_ternary(expr: str) -> tuple[str, str, str] | None:
    depth, question, nested = 0, -1, 0
    for i, c in enumerate(expr):
        depth += (c == "(") - (c == ")")
        if depth:
            continue
        if c == "?":
            if question == -1:
                question = i
            else:
                nested += 1
        elif c == ":" and question != -1:
            if nested == 0:
                return expr[:question], expr[question + 1 : i], expr[i + 1 :]
            nested -= 1
    if question != -1:
        raise ArithmeticError_(f"{expr.strip()}: `:' expected for conditional expression")
    return None


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
