"""Regular expressions as agents write them, compiled with Python's ``re``.

grep and sed take POSIX basic (BRE) or extended (ERE) syntax.  Both are
translated to Python syntax: in BRE ``\\(``, ``\\|``, ``\\+`` are operators and
``(``, ``|``, ``+`` literals; ``\\<``/``\\>`` become word boundaries; bracket
classes like ``[[:space:]]`` are expanded.  GNU extensions agents rely on
(``\\w``, ``\\s``, ``\\b``, and — beyond GNU — ``\\d``) pass through.
"""

from __future__ import annotations

import re
import warnings
from typing import Literal

__all__ = ["POSIX_CLASSES", "RegexError", "Syntax", "compile_regex", "translate"]

Syntax = Literal["basic", "extended", "python"]


class RegexError(ValueError):
    pass


#: The POSIX bracket classes (``[[:alpha:]]``) as Python class contents; glob
#: brackets take the same ones.
POSIX_CLASSES = {
    "alpha": "a-zA-Z",
    "digit": "0-9",
    "alnum": "a-zA-Z0-9",
    "upper": "A-Z",
    "lower": "a-z",
    "space": r" \t\n\r\f\v",
    "blank": r" \t",
    "punct": r"!-/:-@\[-`{-~",
    "xdigit": "0-9A-Fa-f",
    "word": r"\w",
    "cntrl": r"\x00-\x1f\x7f",
    "print": r"\x20-\x7e",
    "graph": r"\x21-\x7e",
}

# Characters special to Python's re but literal in POSIX BRE.
_BRE_LITERAL = set("+?(){}|")


def _bracket(pattern: str, i: int) -> tuple[str, int]:
    """Translate the bracket expression starting at ``pattern[i] == '['``."""
    j = i + 1
    out = ["["]
    if j < len(pattern) and pattern[j] in "^!":
        out.append("^")
        j += 1
    if j < len(pattern) and pattern[j] == "]":
        out.append(r"\]")
        j += 1
    while j < len(pattern):
        c = pattern[j]
        if c == "]":
            out.append("]")
            return "".join(out), j + 1
        if c == "[" and pattern.startswith("[:", j):
            end = pattern.find(":]", j + 2)
            if end != -1:
                name = pattern[j + 2 : end]
                if name not in POSIX_CLASSES:
                    raise RegexError(f"invalid character class [:{name}:]")
                out.append(POSIX_CLASSES[name])
                j = end + 2
                continue
        if c == "\\" and j + 1 < len(pattern):
            out.append(pattern[j : j + 2])
            j += 2
            continue
        if c in "[&~|" or (c == "-" and out[-1].endswith("-")):
            # Literal here; Python would warn about (future) set operations.
            out.append("\\" + c)
        else:
            out.append(c)
        j += 1
    raise RegexError("unmatched [ in regular expression")


def translate(pattern: str, syntax: Syntax) -> str:
    if syntax == "python":
        return pattern
    basic = syntax == "basic"
    out: list[str] = []
    i = 0
    n = len(pattern)
    while i < n:
        c = pattern[i]
        if c == "[":
            text, i = _bracket(pattern, i)
            out.append(text)
            continue
        if c == "\\" and i + 1 < n:
            nxt = pattern[i + 1]
            i += 2
            if nxt in "<>":
                out.append(r"\b")
            elif basic and nxt in _BRE_LITERAL:
                out.append(nxt)  # \( \| \+ ... are the BRE operators
            elif nxt.isdigit() or nxt in "wWsSbBdDntrf":
                out.append("\\" + nxt)
            else:
                out.append(re.escape(nxt))
            continue
        if c == "\\":
            out.append(r"\\")
        elif basic and c in _BRE_LITERAL:
            out.append("\\" + c)
        elif basic and c == "*" and (not out or out[-1] in ("^", "(", "|")):
            out.append(r"\*")  # a leading * is literal in BRE
        else:
            out.append(c)
        i += 1
    return "".join(out)


def compile_regex(
    pattern: str,
    syntax: Syntax = "extended",
    *,
    ignore_case: bool = False,
    word: bool = False,
    whole_line: bool = False,
) -> re.Pattern[str]:
    source = translate(pattern, syntax)
    if word:
        source = rf"(?<!\w)(?:{source})(?!\w)"
    if whole_line:
        source = rf"^(?:{source})$"
    try:
        with warnings.catch_warnings():
            # Python-syntax patterns may still contain "[[" or "--" in classes.
            warnings.simplefilter("ignore", FutureWarning)
            return re.compile(source, re.IGNORECASE if ignore_case else 0)
    except re.error as err:
        raise RegexError(f"invalid regular expression {pattern!r}: {err}") from None
