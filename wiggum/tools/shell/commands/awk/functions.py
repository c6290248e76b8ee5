"""awk's built-in functions that need no interpreter state: how many arguments
each takes, ``substr`` by POSIX's rounding rules, and the math functions
(out of range gives awk's ``nan``/``inf``, never a Python exception).
"""

from __future__ import annotations

import math

__all__ = ["ARITY", "math_function", "substr"]

#: (fewest, most) arguments of each built-in function.
ARITY = {
    "length": (0, 1), "substr": (2, 3), "index": (2, 2), "split": (2, 3), "sub": (2, 3),
    "gsub": (2, 3), "match": (2, 2), "sprintf": (1, 10_000), "sin": (1, 1), "cos": (1, 1),
    "atan2": (2, 2), "exp": (1, 1), "log": (1, 1), "sqrt": (1, 1), "int": (1, 1),
    "rand": (0, 0), "srand": (0, 1), "tolower": (1, 1), "toupper": (1, 1), "close": (1, 2),
    "fflush": (0, 1),
}  # fmt: skip


def substr(text: str, start: float, length: float | None = None) -> str:
    """POSIX substr: positions from 1, rounded; what falls outside the string is dropped."""
    first = _round(start)
    last = len(text) + 1 if length is None else first + _round(length)
    first, last = max(first, 1), min(last, len(text) + 1)
    return text[first - 1 : last - 1] if last > first else ""


def _round(x: float) -> int:
    if math.isnan(x):
        return 0
    if math.isinf(x):
        return 1 << 62 if x > 0 else -(1 << 62)
    return math.floor(x + 0.5)


def math_function(name: str, args: list[float]) -> float:
    x = args[0]
    try:
        if name == "int":
            return float(math.trunc(x)) if math.isfinite(x) else x
        if name == "sqrt":
            return math.sqrt(x) if x >= 0 else math.nan
        if name == "log":
            return math.log(x) if x > 0 else (-math.inf if x == 0 else math.nan)
        if name == "exp":
            return math.exp(x)
        if name == "atan2":
            return math.atan2(x, args[1])
        return math.sin(x) if name == "sin" else math.cos(x)
    except OverflowError:
        return math.inf
