"""Glob patterns (``*``, ``?``, ``[...]``, ``**``, ``{a,b}``) as regular expressions.

One translator serves the shell's filename expansion, ``find -name/-path``,
``grep --include`` and the ``glob`` argument of ``list_files``.  A backslash
makes the next character literal; the shell uses that to pass quoted parts of
a word through unexpanded.
"""

from __future__ import annotations

import re
from functools import lru_cache

from .regex import POSIX_CLASSES

__all__ = ["glob_matches", "glob_to_regex", "has_glob", "match_glob"]

_MAGIC = re.compile(r"(?<!\\)[*?\[]")


def has_glob(pattern: str) -> bool:
    """Whether ``pattern`` has an unescaped ``*``, ``?`` or ``[``."""
    return bool(_MAGIC.search(pattern))


def _bracket(pattern: str, i: int, pathname: bool) -> tuple[str, int] | None:
    j = i + 1
    negate = j < len(pattern) and pattern[j] in "!^"
    if negate:
        j += 1
    parts: list[str] = []
    first = True
    while j < len(pattern):
        c = pattern[j]
        if c == "]" and not first:
            body = "".join(parts)
            exclude = "/" if pathname else ""
            if negate:
                return (f"[^{body}{exclude}]" if body or exclude else "."), j + 1
            return (f"[{body}]" if body else "(?!)"), j + 1
        first = False
        if pattern.startswith("[:", j):
            end = pattern.find(":]", j)
            if end != -1 and pattern[j + 2 : end] in POSIX_CLASSES:
                parts.append(POSIX_CLASSES[pattern[j + 2 : end]])
                j = end + 2
                continue
        if c == "\\" and j + 1 < len(pattern):
            c = pattern[j + 1]
            j += 1
        if pattern.startswith("-", j + 1) and j + 2 < len(pattern) and pattern[j + 2] != "]":
            low, high = c, pattern[j + 2]
            if low <= high:  # a reversed range matches nothing, as in the shell
                parts.append(f"{re.escape(low)}-{re.escape(high)}")
            j += 3
            continue
        parts.append(re.escape(c))
        j += 1
    return None  # unterminated: the [ is literal


def _brace_items(pattern: str, i: int) -> tuple[list[str], int] | None:
    """The items of the brace group opening at ``pattern[i]``, split at its top-level
    commas, and the index after its ``}``; ``None`` when it is not closed or has no
    comma (then the ``{`` is literal)."""
    items: list[str] = []
    current: list[str] = []
    depth = 0
    j = i + 1
    while j < len(pattern):
        c = pattern[j]
        if c == "\\":
            current.append(pattern[j : j + 2])
            j += 2
            continue
        if c == "}" and depth == 0:
            items.append("".join(current))
            return (items, j + 1) if len(items) > 1 else None
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
        elif c == "," and depth == 0:
            items.append("".join(current))
            current = []
            j += 1
            continue
        current.append(c)
        j += 1
    return None


def _translate(pattern: str, pathname: bool, dot: bool) -> str:
    star = "[^/]*" if pathname else ".*"
    one = "[^/]" if pathname else "."
    out: list[str] = []
    i = 0
    n = len(pattern)
    segment_start = True
    while i < n:
        c = pattern[i]
        at_start = segment_start
        segment_start = False
        if at_start and not dot and c in "*?[":
            # A leading dot must be matched explicitly, as in the shell.
            out.append(r"(?!\.)")
        if c == "*":
            if pathname and pattern.startswith("**", i) and at_start:
                end = i + 2
                if end == n:
                    out.append(".*" if dot else r"(?:(?!\.)[^/]*(?:/(?!\.)[^/]*)*)?")
                    i = end
                    continue
                if pattern[end] == "/":
                    out.append(r"(?:[^/]*/)*" if dot else r"(?:(?!\.)[^/]*/)*")
                    i = end + 1
                    segment_start = True
                    continue
            while i < n and pattern[i] == "*":
                i += 1
            out.append(star)
            continue
        if c == "?":
            out.append(one)
        elif c == "[":
            bracket = _bracket(pattern, i, pathname)
            if bracket is None:
                out.append(r"\[")
            else:
                text, i = bracket
                out.append(text)
                continue
        elif c == "{":
            group = _brace_items(pattern, i)
            if group is None:
                out.append(r"\{")
            else:
                items, i = group
                alternatives = "|".join(_translate(item, pathname, True) for item in items)
                out.append(f"(?:{alternatives})")
                continue
        elif c == "\\" and i + 1 < n:
            out.append(re.escape(pattern[i + 1]))
            i += 2
            continue
        elif c == "/":
            out.append("/")
            segment_start = True
        else:
            out.append(re.escape(c))
        i += 1
    return "".join(out)


@lru_cache(maxsize=256)
def glob_to_regex(pattern: str, *, pathname: bool = True, dot: bool = False) -> re.Pattern[str]:
    """Compile a glob.

    ``pathname``: ``*``/``?``/``[...]`` do not match ``/`` and ``**`` spans
    directories (shell, list_files).  Without it they match anything
    (``find -path``).  ``dot``: a leading ``.`` may be matched by a wildcard.
    """
    try:
        return re.compile(_translate(pattern, pathname, dot), re.DOTALL)
    except re.error:
        # Whatever could not be translated is taken literally, never a crash.
        return re.compile(re.escape(pattern), re.DOTALL)


def match_glob(pattern: str, path: str, *, pathname: bool = True, dot: bool = False) -> bool:
    return glob_to_regex(pattern, pathname=pathname, dot=dot).fullmatch(path) is not None


def glob_matches(pattern: str, path: str) -> bool:
    """ripgrep/gitignore style: a pattern without ``/`` matches the base name.

    Wildcards match dotfiles here: an agent filtering ``*.md`` means every
    markdown file, hidden or not.
    """
    if "/" not in pattern.rstrip("/"):
        return match_glob(pattern, path.rpartition("/")[2], dot=True)
    return match_glob(pattern.removeprefix("./"), path, dot=True)
