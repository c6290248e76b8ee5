"""Shell tokenizer: source text to words, operators, newlines — and heredoc bodies.

Quoting is resolved here into word parts (``Lit``/``Param``/``CmdSub``/``Arith``)
that remember whether they were quoted, so expansion later knows what to
split and glob.  Heredoc bodies are read when the newline after their ``<<``
operator is reached and attached to the delimiter token.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from .nodes import Arith, CmdSub, Heredoc, Lit, Param, Part, Word

__all__ = [
    "NO_ARRAYS",
    "OPERATORS",
    "ShellSyntaxError",
    "Token",
    "arith_command_end",
    "parse_word_text",
    "tokenize",
]

OPERATORS = sorted(
    [
        "&&", "||", ";;", "<<<", "<<-", "<<", ">>", "<&", ">&", "&>>", "&>", ">|",
        "|", "&", ";", "<", ">", "(", ")",
    ],
    key=len,
    reverse=True,
)  # fmt: skip
_OP_CHARS = set("|&;<>()")
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_SPECIAL_PARAMS = set("?#$!@*-0123456789")
_PARAM_OPS = (
    ":-", ":=", ":+", ":?", "##", "%%", "//", "/#", "/%", "^^", ",,", "-", "=", "+", "?", "#",
    "%", "/", "^", ",", ":",
)  # fmt: skip
#: Operators whose argument has two parts: ``${x/pattern/replacement}``, ``${x:offset:length}``.
_TWO_PARTS = {"/": "/", "//": "/", "/#": "/", "/%": "/", ":": ":"}
_ANSI_ESCAPES = {
    "n": "\n", "t": "\t", "r": "\r", "a": "\a", "b": "\b", "f": "\f", "v": "\v",
    "\\": "\\", "'": "'", '"': '"', "e": "\x1b", "E": "\x1b", "?": "?",
}  # fmt: skip

NO_ARRAYS = (
    "arrays are not supported here; use a plain variable (a space-separated list and a for loop)"
)

Mode = Literal["word", "dquote", "heredoc", "arg"]


class ShellSyntaxError(Exception):
    def __init__(self, message: str, source: str = "", pos: int | None = None) -> None:
        if pos is not None and source:
            line = source.count("\n", 0, pos) + 1
            message = f"line {line}: {message}"
        super().__init__(message)


@dataclass(slots=True)
class Token:
    kind: Literal["word", "op", "newline", "io_number", "eof"]
    value: str
    pos: int
    word: Word | None = None
    heredoc: Heredoc | None = None


class _Parts:
    """Collects word parts, merging neighbouring literals of the same quoting."""

    def __init__(self) -> None:
        self.parts: list[Part] = []

    def lit(self, text: str, quoted: bool) -> None:
        last = self.parts[-1] if self.parts else None
        if isinstance(last, Lit) and last.quoted == quoted and text:
            self.parts[-1] = Lit(last.text + text, quoted)
        elif text or quoted:
            self.parts.append(Lit(text, quoted))

    def add(self, part: Part) -> None:
        self.parts.append(part)


class _Lexer:
    def __init__(self, source: str) -> None:
        self.s = source
        self.n = len(source)

    def error(self, message: str, pos: int) -> ShellSyntaxError:
        return ShellSyntaxError(message, self.s, pos)

    # -- the token stream ------------------------------------------------------

    def tokenize(self) -> list[Token]:
        s, n = self.s, self.n
        tokens: list[Token] = []
        pending: list[Heredoc] = []
        expect_delimiter: str | None = None
        i = 0
        while True:
            while i < n and s[i] in " \t\r":
                i += 1
            if i < n and s.startswith("\\\n", i):
                i += 2
                continue
            if i >= n:
                break
            c = s[i]
            if c == "#":
                while i < n and s[i] != "\n":
                    i += 1
                continue
            if c == "\n":
                tokens.append(Token("newline", "\n", i))
                i += 1
                for heredoc in pending:
                    i = self.read_heredoc(heredoc, i)
                pending = []
                continue
            if c in _OP_CHARS:
                op = next(o for o in OPERATORS if s.startswith(o, i))
                tokens.append(Token("op", op, i))
                i += len(op)
                if op in ("<<", "<<-"):
                    expect_delimiter = op
                continue
            start = i
            parts, i = self.scan(i, "word")
            raw = s[start:i]
            word = Word(tuple(parts), raw)
            if raw.isdigit() and i < n and s[i] in "<>":
                tokens.append(Token("io_number", raw, start))
                continue
            token = Token("word", raw, start, word)
            if expect_delimiter is not None:
                token.heredoc = self.heredoc_for(word, strip_tabs=expect_delimiter == "<<-")
                pending.append(token.heredoc)
                expect_delimiter = None
            tokens.append(token)
        # A heredoc whose command is the last line: its body is empty.
        tokens.append(Token("eof", "", n))
        return tokens

    def heredoc_for(self, word: Word, *, strip_tabs: bool) -> Heredoc:
        quoted = any(not isinstance(p, Lit) or p.quoted for p in word.parts)
        delimiter = "".join(p.text if isinstance(p, Lit) else "" for p in word.parts)
        if not all(isinstance(p, Lit) for p in word.parts):
            # ``<<$EOF`` is legal but means the literal text; keep what was written.
            delimiter = word.raw
        return Heredoc(delimiter, strip_tabs, expand=not quoted)

    def read_heredoc(self, heredoc: Heredoc, i: int) -> int:
        s, n = self.s, self.n
        lines: list[str] = []
        while i < n:
            end = s.find("\n", i)
            line = s[i:end] if end != -1 else s[i:]
            i = end + 1 if end != -1 else n
            if heredoc.strip_tabs:
                line = line.lstrip("\t")
            # Trailing blanks or a CR after the delimiter are typos, not content.
            if line.rstrip(" \t\r") == heredoc.delimiter:
                break
            lines.append(line)
        heredoc.body = "".join(line + "\n" for line in lines)
        if heredoc.expand:
            heredoc.word = parse_word_text(heredoc.body, "heredoc")
        return i

    # -- words -------------------------------------------------------------------

    def scan(self, i: int, mode: Mode) -> tuple[list[Part], int]:
        """Read parts from ``i`` until the end of the word (``word``), the
        closing quote (``dquote``) or the end of the text (``heredoc``, ``arg``)."""
        s, n = self.s, self.n
        out = _Parts()
        quoted = mode in ("dquote", "heredoc")
        start = i
        while i < n:
            c = s[i]
            if mode == "word" and (c in " \t\r\n" or c in _OP_CHARS):
                break
            if mode == "dquote" and c == '"':
                out.lit("", True)
                return out.parts, i + 1
            if c == "\\":
                i = self.backslash(i, mode, out)
            elif c == "'" and mode in ("word", "arg"):
                end = s.find("'", i + 1)
                if end == -1:
                    raise self.error("unterminated single quote", i)
                out.lit(s[i + 1 : end], True)
                i = end + 1
            elif c == '"' and mode in ("word", "arg"):
                parts, i = self.scan(i + 1, "dquote")
                for part in parts:
                    out.lit(part.text, True) if isinstance(part, Lit) else out.add(part)
            elif c == "$":
                i = self.dollar(i, quoted, mode, out)
            elif c == "`":
                i = self.backquote(i, quoted, out)
            else:
                out.lit(c, quoted)
                i += 1
        if mode == "dquote":
            raise self.error("unterminated double quote", start - 1)
        return out.parts, i

    def backslash(self, i: int, mode: Mode, out: _Parts) -> int:
        s, n = self.s, self.n
        if i + 1 >= n:
            out.lit("\\", mode != "word")
            return i + 1
        nxt = s[i + 1]
        if nxt == "\n":
            return i + 2  # line continuation
        if mode in ("word", "arg") or nxt in "$`\\" or (mode == "dquote" and nxt == '"'):
            out.lit(nxt, True)
        else:
            out.lit("\\" + nxt, True)
        return i + 2

    def dollar(self, i: int, quoted: bool, mode: Mode, out: _Parts) -> int:
        s, n = self.s, self.n
        nxt = s[i + 1] if i + 1 < n else ""
        if s.startswith("$((", i):
            end = self.arith_end(i + 3)
            if end is not None:
                out.add(Arith(parse_word_text(s[i + 3 : end], "heredoc"), quoted))
                return end + 2
        if nxt == "(":
            end = self.closing(i + 2, "()", quotes="'\"`")
            out.add(CmdSub(s[i + 2 : end], quoted))
            return end + 1
        if nxt == "{":
            end = self.closing(i + 2, "{}", quotes="'\"")
            out.add(self.param_expr(s[i + 2 : end], quoted, i))
            return end + 1
        if nxt == "'" and mode in ("word", "arg"):
            return self.ansi_c(i + 2, out)
        m = _NAME.match(s, i + 1)
        if m:
            out.add(Param(m.group(), quoted))
            return m.end()
        if nxt and nxt in _SPECIAL_PARAMS:
            out.add(Param(nxt, quoted))
            return i + 2
        out.lit("$", quoted)
        return i + 1

    def param_expr(self, inner: str, quoted: bool, pos: int) -> Param:
        if inner.startswith("#") and len(inner) > 1:
            name = inner[1:]
            if _NAME.fullmatch(name) or name.isdigit() or name in _SPECIAL_PARAMS:
                return Param(name, quoted, "len")
            raise self.error(f"${{{inner}}}: bad substitution", pos)
        m = _NAME.match(inner) or re.match(r"\d+", inner)
        if m:
            name, rest = m.group(), inner[m.end() :]
        elif inner[:1] and inner[0] in _SPECIAL_PARAMS:
            name, rest = inner[0], inner[1:]
        else:
            raise self.error(f"${{{inner}}}: bad substitution", pos)
        if not rest:
            return Param(name, quoted)
        if rest.startswith("["):
            raise self.error(f"${{{inner}}}: {NO_ARRAYS}", pos)
        mode: Mode = "heredoc" if quoted else "arg"
        for op in _PARAM_OPS:
            if rest.startswith(op):
                text = rest[len(op) :]
                if op not in _TWO_PARTS:
                    return Param(name, quoted, op, parse_word_text(text, mode))
                # Quotes inside work even within "...": "${f/"."/-}" replaces a dot.
                head, sep, tail = _partition_unquoted(text, _TWO_PARTS[op])
                second = parse_word_text(tail, "arg") if sep else None
                return Param(name, quoted, op, parse_word_text(head, "arg"), second)
        raise self.error(f"${{{inner}}}: bad substitution", pos)

    def ansi_c(self, i: int, out: _Parts) -> int:
        s, n = self.s, self.n
        text: list[str] = []
        while i < n and s[i] != "'":
            if s[i] == "\\" and i + 1 < n:
                nxt = s[i + 1]
                if nxt in _ANSI_ESCAPES:
                    text.append(_ANSI_ESCAPES[nxt])
                    i += 2
                    continue
                m = re.match(r"x([0-9A-Fa-f]{1,2})|([0-7]{1,3})", s[i + 1 :])
                if m:
                    text.append(chr(int(m.group(1), 16) if m.group(1) else int(m.group(2), 8)))
                    i += 1 + m.end()
                    continue
                text.append("\\" + nxt)
                i += 2
                continue
            text.append(s[i])
            i += 1
        if i >= n:
            raise self.error("unterminated $'...' quote", i)
        out.lit("".join(text), True)
        return i + 1

    def backquote(self, i: int, quoted: bool, out: _Parts) -> int:
        s, n = self.s, self.n
        j = i + 1
        text: list[str] = []
        while j < n and s[j] != "`":
            if s[j] == "\\" and j + 1 < n and s[j + 1] in "`$\\":
                text.append(s[j + 1])
                j += 2
                continue
            text.append(s[j])
            j += 1
        if j >= n:
            raise self.error("unterminated backquote", i)
        out.add(CmdSub("".join(text), quoted))
        return j + 1

    # -- finding the end of nested constructs --------------------------------------

    def skip_quoted(self, j: int) -> int:
        """``s[j]`` opens a quote; return the index after its end."""
        s, n = self.s, self.n
        q = s[j]
        if q == "'":
            end = s.find("'", j + 1)
            if end == -1:
                raise self.error("unterminated single quote", j)
            return end + 1
        j += 1
        while j < n and s[j] != q:
            j += 2 if s[j] == "\\" else 1
        if j >= n:
            raise self.error("unterminated quote", j)
        return j + 1

    def closing(self, j: int, pair: str, quotes: str) -> int:
        """Index of the ``pair[1]`` closing a ``$`` + ``pair[0]`` whose body starts at
        ``j``: nested pairs count, escaped characters and ``quotes`` do not."""
        s, n = self.s, self.n
        opener, closer = pair
        depth = 1
        start = j
        while j < n:
            c = s[j]
            if c in quotes:
                j = self.skip_quoted(j)
                continue
            if c == "\\":
                j += 2
                continue
            if c == opener:
                depth += 1
            elif c == closer:
                depth -= 1
                if depth == 0:
                    return j
            j += 1
        raise self.error(f"unterminated ${opener}", start - 2)

    def arith_end(self, j: int) -> int | None:
        """Index of the ``))`` closing ``$((``, or None when it is ``$( (...) )``."""
        s, n = self.s, self.n
        depth = 0
        while j < n:
            c = s[j]
            if c == "(":
                depth += 1
            elif c == ")":
                if depth == 0:
                    return j if s.startswith("))", j) else None
                depth -= 1
            j += 1
        raise self.error("unterminated $((", j)


def _partition_unquoted(text: str, sep: str) -> tuple[str, str, str]:
    """``str.partition`` at the first ``sep`` not quoted or escaped."""
    i = 0
    quote = ""
    while i < len(text):
        c = text[i]
        if c == "\\" and quote != "'":
            i += 2
            continue
        if quote:
            quote = "" if c == quote else quote
        elif c in "'\"":
            quote = c
        elif c == sep:
            return text[:i], sep, text[i + 1 :]
        i += 1
    return text, "", ""


def tokenize(source: str) -> list[Token]:
    """Tokens of ``source``, ending with an ``eof`` token.  ``ShellSyntaxError``."""
    return _Lexer(source).tokenize()


def arith_command_end(source: str, pos: int) -> int | None:
    """Index of the ``))`` closing a ``((`` whose body starts at ``pos``, or None
    when the parentheses are two subshells, ``((cd a); ls)``."""
    return _Lexer(source).arith_end(pos)


def parse_word_text(text: str, mode: Mode) -> Word:
    """Parse ``text`` as one word body: a heredoc, ``${x:-...}`` argument, ``$((...))``."""
    parts, _ = _Lexer(text).scan(0, mode)
    return Word(tuple(parts), text)
