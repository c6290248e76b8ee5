"""awk tokens: numbers, strings, regex literals, names, keywords, operators.

Whether ``/`` divides or opens a regex depends on the token before it, as in
every awk: after an operand it divides.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

__all__ = ["BUILTINS", "KEYWORDS", "AwkError", "Token", "tokenize", "unescape"]


class AwkError(Exception):
    """A syntax or run-time error: ``awk: <message>``, exit status 2."""


Kind = Literal["number", "string", "regex", "name", "builtin", "keyword", "op", "newline", "eof"]

KEYWORDS = {
    "BEGIN", "END", "if", "else", "while", "for", "do", "break", "continue", "next",
    "nextfile", "exit", "delete", "in", "print", "printf", "function", "func", "return",
    "getline",
}  # fmt: skip
BUILTINS = {
    "length", "substr", "index", "split", "sub", "gsub", "match", "sprintf", "sin", "cos",
    "atan2", "exp", "log", "sqrt", "int", "rand", "srand", "tolower", "toupper", "system",
    "close", "fflush",
}  # fmt: skip
_OPERATORS = sorted(
    [
        "+=", "-=", "*=", "/=", "%=", "^=", "**=", "==", "<=", ">=", "!=", "++", "--", "&&",
        "||", ">>", "**", "!~", "~", "<", ">", "!", "+", "-", "*", "/", "%", "^", "=", "?",
        ":", ",", ";", "{", "}", "(", ")", "[", "]", "$", "|",
    ],
    key=len,
    reverse=True,
)  # fmt: skip
_NUMBER = re.compile(r"(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_ESCAPES = {
    "n": "\n", "t": "\t", "r": "\r", "\\": "\\", '"': '"', "/": "/", "a": "\a", "b": "\b",
    "f": "\f", "v": "\v",
}  # fmt: skip


@dataclass(frozen=True, slots=True)
class Token:
    kind: Kind
    value: str
    line: int
    #: Where the token starts: ``f(`` calls, ``f (`` concatenates.
    pos: int = 0


def unescape(text: str) -> str:
    """awk string escapes: ``\\n \\t \\\\ \\" \\/ \\ooo``; others keep the backslash."""
    out = []
    i = 0
    while i < len(text):
        c = text[i]
        if c != "\\" or i + 1 >= len(text):
            out.append(c)
            i += 1
            continue
        nxt = text[i + 1]
        octal = re.match(r"[0-7]{1,3}", text[i + 1 :])
        if nxt in _ESCAPES:
            out.append(_ESCAPES[nxt])
            i += 2
        elif octal:
            out.append(chr(int(octal.group(), 8)))
            i += 1 + octal.end()
        else:
            out.append("\\" + nxt)
            i += 2
    return "".join(out)


def _divides(previous: Token | None) -> bool:
    """Whether a ``/`` after ``previous`` is division rather than a regex."""
    if previous is None:
        return False
    if previous.kind in ("number", "string", "regex", "name", "builtin"):
        return True
    return previous.kind == "op" and previous.value in (")", "]", "$", "++", "--")


def tokenize(source: str) -> list[Token]:
    tokens: list[Token] = []
    line = 1
    i, n = 0, len(source)
    while i < n:
        c = source[i]
        if c in " \t\r":
            i += 1
            continue
        if c == "\\" and source.startswith("\n", i + 1):
            i += 2
            line += 1
            continue
        if c == "#":
            while i < n and source[i] != "\n":
                i += 1
            continue
        if c == "\n":
            tokens.append(Token("newline", "\n", line, i))
            line += 1
            i += 1
            continue
        previous = tokens[-1] if tokens else None
        if c == '"':
            end = i + 1
            while end < n and source[end] != '"':
                if source[end] == "\n":
                    raise AwkError(f"line {line}: newline in string")
                end += 2 if source[end] == "\\" else 1
            if end >= n:
                raise AwkError(f"line {line}: unterminated string")
            tokens.append(Token("string", unescape(source[i + 1 : end]), line, i))
            i = end + 1
            continue
        if c == "/" and not _divides(previous):
            i = _regex(source, i, line, tokens)
            continue
        m = _NUMBER.match(source, i)
        if m and (c.isdigit() or c == "."):
            tokens.append(Token("number", m.group(), line, i))
            i = m.end()
            continue
        m = _NAME.match(source, i)
        if m:
            word = m.group()
            kind: Kind = "name"
            if word in KEYWORDS or word in BUILTINS:
                kind = "keyword" if word in KEYWORDS else "builtin"
            tokens.append(Token(kind, word, line, i))
            i = m.end()
            continue
        op = next((o for o in _OPERATORS if source.startswith(o, i)), None)
        if op is None:
            raise AwkError(f"line {line}: unexpected character {c!r}")
        tokens.append(Token("op", op, line, i))
        i += len(op)
    tokens.append(Token("eof", "", line, n))
    return tokens


def _regex(source: str, i: int, line: int, tokens: list[Token]) -> int:
    """Read the regex literal opening at ``source[i] == '/'``; return where it ends."""
    out = []
    j = i + 1
    in_bracket = False
    while j < len(source):
        c = source[j]
        if c == "\n":
            break
        if c == "\\" and j + 1 < len(source):
            # `\/` is a slash; every other escape is the regex's own.
            out.append("/" if source[j + 1] == "/" else source[j : j + 2])
            j += 2
            continue
        if c == "[":
            in_bracket = True
        elif c == "]":
            in_bracket = False
        elif c == "/" and not in_bracket:
            tokens.append(Token("regex", "".join(out), line, i))
            return j + 1
        out.append(c)
        j += 1
    raise AwkError(f"line {line}: unterminated regular expression")
