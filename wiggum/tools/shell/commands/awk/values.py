"""awk values: numbers, strings, and input strings that look like numbers.

Fields, ``-v`` values and ``split`` pieces are *strnums*: they compare as
numbers when both sides look numeric, as strings otherwise.  An unset
variable is both ``""`` and ``0``.
"""

from __future__ import annotations

import math
import re

from .lexer import AwkError

__all__ = [
    "UNSET",
    "StrNum",
    "Value",
    "compare",
    "format_printf",
    "to_num",
    "to_str",
    "truthy",
]


class StrNum(str):
    """Text from input: numeric when it looks like a number."""

    __slots__ = ()


class _Unset:
    __slots__ = ()

    def __repr__(self) -> str:
        return "UNSET"


UNSET = _Unset()
Value = float | str | _Unset

_LEADING_NUMBER = re.compile(r"[ \t\n\r\f\v]*([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)")
_LOOKS_NUMERIC = re.compile(
    r"[ \t\n\r\f\v]*[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?[ \t\n\r\f\v]*"
)


def to_num(value: Value) -> float:
    if isinstance(value, float):
        return value
    if value is UNSET:
        return 0.0
    m = _LEADING_NUMBER.match(value)  # type: ignore[arg-type]
    return float(m.group(1)) if m else 0.0


def to_str(value: Value, fmt: str = "%.6g") -> str:
    """As a string: integers print whole, other numbers through ``fmt`` (CONVFMT)."""
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        if value == int(value) and abs(value) < 1e16:
            return str(int(value))
        return fmt % value
    if value is UNSET:
        return ""
    return str(value)


def _numeric(value: Value) -> bool:
    if isinstance(value, float) or value is UNSET:
        return True
    return isinstance(value, StrNum) and _LOOKS_NUMERIC.fullmatch(value) is not None


def truthy(value: Value) -> bool:
    if isinstance(value, StrNum) and _numeric(value):
        return to_num(value) != 0
    if isinstance(value, str):
        return value != ""
    return to_num(value) != 0


def compare(left: Value, right: Value) -> int:
    """-1, 0 or 1: numerically when both sides are numeric, else as strings."""
    if _numeric(left) and _numeric(right):
        a, b = to_num(left), to_num(right)
    else:
        a, b = to_str(left), to_str(right)  # type: ignore[assignment]
    return (a > b) - (a < b)


_SPEC = re.compile(r"%([-+ #0]*)(\*|\d+)?(?:\.(\*|\d*))?(.?)")


def format_printf(fmt: str, args: list[Value], limit: int) -> str:
    """``printf``/``sprintf``: C conversions; missing arguments are empty or 0."""
    out: list[str] = []
    queue = list(args)

    def take() -> Value:
        return queue.pop(0) if queue else UNSET

    pos = 0
    for m in _SPEC.finditer(fmt):
        out.append(fmt[pos : m.start()])
        pos = m.end()
        flags, width, precision, conv = m.groups()
        if conv == "%":
            out.append("%")
            continue
        if not conv or conv not in "cdiouxXeEfFgGs":
            raise AwkError(f"printf: bad conversion in format {fmt!r}")
        if width == "*":
            number = int(to_num(take()))
            flags, width = (flags + "-", str(-number)) if number < 0 else (flags, str(number))
        if precision == "*":
            precision = str(max(int(to_num(take())), 0))
        if int(width or 0) > limit or int(precision or 0) > limit:
            raise AwkError("printf: field width too large")
        spec = "%" + flags + (width or "") + (f".{precision}" if precision is not None else "")
        out.append(_convert(spec, conv, take()))
    out.append(fmt[pos:])
    return "".join(out)


def _convert(spec: str, conv: str, value: Value) -> str:
    if conv == "s":
        return (spec + "s") % to_str(value)
    if conv == "c":
        char = chr(int(to_num(value)) % 0x110000) if isinstance(value, float) else to_str(value)[:1]
        return (spec + "s") % char
    number = to_num(value)
    if conv in "eEfFgG":
        return (spec + conv) % number
    if math.isnan(number) or math.isinf(number):
        return (spec + "f") % number
    whole = int(number)  # C truncates toward zero
    return (spec + ("d" if conv in "iu" else conv)) % whole
