"""Word expansion, in POSIX order: braces, parameters / command substitution /
arithmetic, field splitting, filename globbing, quote removal.

Quoted text is never split or globbed; an unquoted expansion that is empty
disappears, while ``""`` stays an empty argument.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Protocol

from wiggum.fs import FileStore

from ..ops.globs import glob_to_regex, has_glob
from .arith import ArithmeticError_, evaluate
from .globbing import expand_glob
from .nodes import Arith, CmdSub, Lit, Param, Part, Word

__all__ = ["Expander", "ExpansionError", "ExpansionScope"]

MAX_BRACE_WORDS = 10_000
_IFS = re.compile(r"[ \t\n]+")
_GLOB_SPECIAL = re.compile(r"([\\*?\[\]{}])")


class ExpansionError(Exception):
    pass


class ExpansionScope(Protocol):
    """What expansion needs from the running shell."""

    fs: FileStore

    @property
    def cwd(self) -> str: ...

    @property
    def params(self) -> list[str]: ...

    def get_var(self, name: str) -> str | None: ...

    def set_var(self, name: str, value: str) -> None: ...


@dataclass(frozen=True, slots=True)
class _Seg:
    text: str
    #: Unquoted: glob characters in it are wildcards.
    active: bool
    #: The result of an unquoted expansion: split on blanks.
    split: bool
    quoted: bool


#: Between the parameters of ``"$@"``: each becomes a field of its own.
_BREAK = _Seg(" ", False, False, True)


class Expander:
    def __init__(self, scope: ExpansionScope, substitute: Callable[[str], Awaitable[str]]) -> None:
        self.scope = scope
        self.substitute = substitute

    # -- entry points --------------------------------------------------------------

    async def words(self, words: list[Word]) -> list[str]:
        """Full expansion of command words into arguments."""
        out: list[str] = []
        for word in words:
            for parts in _brace_expand(word.parts):
                segments = await self._segments(parts)
                if not self.scope.params and any(_is_quoted_at(p) for p in parts):
                    # "$@" without parameters is no word at all, not an empty one.
                    segments = [s for s in segments if s.text]
                for field in _split_fields(segments):
                    out += await self._glob(field)
        return out

    async def text(self, word: Word) -> str:
        """Expansion without splitting or globbing (assignments, heredocs)."""
        segments = await self._segments(word.parts)
        return "".join(s.text for s in segments)

    async def pattern(self, word: Word) -> str:
        """A pattern (``case``, ``[[ x == p ]]``, ``${x/p/r}``): quoted parts
        match literally, the rest is a glob."""
        segments = await self._segments(word.parts)
        return "".join(s.text if s.active else _GLOB_SPECIAL.sub(r"\\\1", s.text) for s in segments)

    # -- parameters and substitutions ---------------------------------------------

    async def _segments(self, parts: tuple[Part, ...] | list[Part]) -> list[_Seg]:
        out: list[_Seg] = []
        for part in parts:
            if isinstance(part, Lit):
                out.append(_Seg(part.text, not part.quoted, False, part.quoted))
                continue
            if _is_quoted_at(part):
                for k, param in enumerate(self.scope.params):
                    if k:
                        out.append(_BREAK)
                    out.append(_Seg(param, False, False, True))
                continue
            if isinstance(part, Param):
                value = await self._param(part)
            elif isinstance(part, CmdSub):
                value = (await self.substitute(part.source)).rstrip("\n")
            elif isinstance(part, Arith):
                expr = await self.text(part.expr)
                try:
                    value = str(evaluate(expr, self.scope.get_var, self.scope.set_var))
                except ArithmeticError_ as err:
                    raise ExpansionError(str(err)) from None
            else:  # pragma: no cover - the union is closed
                raise TypeError(part)
            out.append(_Seg(value, not part.quoted, not part.quoted, part.quoted))
        return out

    async def _param(self, p: Param) -> str:
        value = self.scope.get_var(p.name)
        op = p.op
        if op is None:
            return value or ""
        if op == "len":
            return str(len(value or ""))
        if op in ("/", "//", "/#", "/%"):
            pattern = await self.pattern(p.arg) if p.arg is not None else ""
            replacement = await self.text(p.arg2) if p.arg2 is not None else ""
            return _replace(value or "", pattern, replacement, op)
        if op == ":":
            return await self._substring(value or "", p)
        if op in ("^^", ",,", "^", ","):
            text = value or ""
            convert = str.upper if op[0] == "^" else str.lower
            return convert(text) if len(op) == 2 else convert(text[:1]) + text[1:]
        is_set = value is not None
        non_empty = bool(value)
        arg = await self.text(p.arg) if p.arg is not None else ""
        if op in (":-", "-"):
            return value if (non_empty if op == ":-" else is_set) else arg  # type: ignore[return-value]
        if op in (":=", "="):
            if not (non_empty if op == ":=" else is_set):
                self.scope.set_var(p.name, arg)
                return arg
            return value or ""
        if op in (":+", "+"):
            return arg if (non_empty if op == ":+" else is_set) else ""
        if op in (":?", "?"):
            if not (non_empty if op == ":?" else is_set):
                raise ExpansionError(f"{p.name}: {arg or 'parameter null or not set'}")
            return value or ""
        return _remove_affix(value or "", arg, op)

    async def _substring(self, value: str, p: Param) -> str:
        offset = await self._number(p.arg)
        if offset < 0:
            offset = max(len(value) + offset, 0)
        if p.arg2 is None:
            return value[offset:]
        length = await self._number(p.arg2)
        end = offset + length if length >= 0 else len(value) + length
        if end < offset:
            raise ExpansionError(f"{length}: substring expression < 0")
        return value[offset:end]

    async def _number(self, word: Word | None) -> int:
        expr = await self.text(word) if word is not None else ""
        try:
            return evaluate(expr, self.scope.get_var, self.scope.set_var) if expr.strip() else 0
        except ArithmeticError_ as err:
            raise ExpansionError(str(err)) from None

    # -- globbing ----------------------------------------------------------------------

    async def _glob(self, field: list[tuple[str, bool]]) -> list[str]:
        literal = "".join(text for text, _ in field)
        if not any(active and has_glob(text) for text, active in field):
            return [literal]
        pattern = "".join(
            text if active else _GLOB_SPECIAL.sub(r"\\\1", text) for text, active in field
        )
        matches = await expand_glob(self.scope.fs, self.scope.cwd, pattern)
        return matches or [literal]


def _replace(value: str, pattern: str, replacement: str, op: str) -> str:
    """``${x/pat/rep}`` (first), ``//`` (every), ``/#`` (at the start), ``/%`` (at the end)."""
    if not pattern:
        return {"/#": replacement + value, "/%": value + replacement}.get(op, value)
    regex = glob_to_regex(pattern, pathname=False, dot=True).pattern
    if op == "/#":
        regex = rf"\A(?:{regex})"
    elif op == "/%":
        regex = rf"(?:{regex})\Z"
    # An empty match replaces nothing: ${x//*/y} is one y, not two.
    return re.sub(
        regex,
        lambda m: replacement if m.group() else "",
        value,
        count=0 if op == "//" else 1,
        flags=re.DOTALL,
    )


def _is_quoted_at(part: Part) -> bool:
    return isinstance(part, Param) and part.name == "@" and part.quoted and part.op is None


def _remove_affix(value: str, pattern: str, op: str) -> str:
    regex = glob_to_regex(pattern, pathname=False, dot=True)
    cuts = range(len(value) + 1)
    if op in ("#", "##"):
        order = reversed(cuts) if op == "##" else cuts
        for i in order:
            if regex.fullmatch(value[:i]):
                return value[i:]
    else:
        order = cuts if op == "%%" else reversed(cuts)
        for i in order:
            if regex.fullmatch(value[i:]):
                return value[:i]
    return value


def _split_fields(segments: list[_Seg]) -> list[list[tuple[str, bool]]]:
    fields: list[list[tuple[str, bool]]] = []
    current: list[tuple[str, bool]] = []
    started = False
    for seg in segments:
        if seg is _BREAK:
            fields.append(current)
            current, started = [], True
            continue
        if not seg.split:
            current.append((seg.text, seg.active))
            started = started or seg.quoted or bool(seg.text)
            continue
        pieces = _IFS.split(seg.text)
        for k, piece in enumerate(pieces):
            if k > 0 and started:
                fields.append(current)
                current, started = [], False
            if piece:
                current.append((piece, seg.active))
                started = True
    if started:
        fields.append(current)
    return fields


# -- brace expansion --------------------------------------------------------------------

# A word as brace expansion sees it: unquoted characters one by one (``str``),
# everything else opaque (a ``Part``).
_Atom = str | Part


def _atoms(parts: tuple[Part, ...]) -> list[_Atom]:
    out: list[_Atom] = []
    for part in parts:
        if isinstance(part, Lit) and not part.quoted:
            out.extend(part.text)
        else:
            out.append(part)
    return out


def _parts(atoms: list[_Atom]) -> tuple[Part, ...]:
    out: list[Part] = []
    buf: list[str] = []
    for atom in atoms:
        if isinstance(atom, str):
            buf.append(atom)
            continue
        if buf:
            out.append(Lit("".join(buf)))
            buf = []
        out.append(atom)
    if buf:
        out.append(Lit("".join(buf)))
    return tuple(out)


def _sequence(body: list[_Atom]) -> list[list[_Atom]] | None:
    if not all(isinstance(a, str) for a in body):
        return None
    text = "".join(body)  # type: ignore[arg-type]
    m = re.fullmatch(r"(-?\d+)\.\.(-?\d+)(?:\.\.(-?\d+))?", text)
    if m:
        start, end = int(m.group(1)), int(m.group(2))
        step = abs(int(m.group(3) or 1)) or 1
        if abs(end - start) // step > MAX_BRACE_WORDS:
            return None
        width = len(m.group(1)) if m.group(1).lstrip("-").startswith("0") else 0
        rng = range(start, end + 1, step) if start <= end else range(start, end - 1, -step)
        return [list(str(n).zfill(width)) for n in rng]
    m = re.fullmatch(r"([A-Za-z])\.\.([A-Za-z])", text)
    if m:
        a, b = ord(m.group(1)), ord(m.group(2))
        rng = range(a, b + 1) if a <= b else range(a, b - 1, -1)
        return [[chr(c)] for c in rng]
    return None


def _find_group(atoms: list[_Atom]) -> tuple[int, int, list[list[_Atom]]] | None:
    for start, atom in enumerate(atoms):
        if atom != "{":
            continue
        depth = 0
        commas: list[int] = []
        for end in range(start, len(atoms)):
            a = atoms[end]
            if a == "{":
                depth += 1
            elif a == "}":
                depth -= 1
                if depth == 0:
                    if commas:
                        bounds = [start, *commas, end]
                        alts = [
                            atoms[bounds[k] + 1 : bounds[k + 1]] for k in range(len(bounds) - 1)
                        ]
                        return start, end, alts
                    seq = _sequence(atoms[start + 1 : end])
                    if seq is not None:
                        return start, end, seq
                    break
            elif a == "," and depth == 1:
                commas.append(end)
    return None


def _brace_expand(parts: tuple[Part, ...]) -> list[tuple[Part, ...]]:
    atoms = _atoms(parts)
    if "{" not in atoms:
        return [parts]
    results: list[tuple[Part, ...]] = []
    pending = [atoms]
    while pending:
        current = pending.pop(0)
        group = _find_group(current)
        if group is None:
            results.append(_parts(current))
            continue
        start, end, alternatives = group
        for alt in alternatives:
            pending.append(current[:start] + alt + current[end + 1 :])
        if len(pending) + len(results) > MAX_BRACE_WORDS:
            raise ExpansionError("brace expansion produces too many words")
    return results
