"""Parse and repair tool-call arguments (seed §6 "JSON Repair", §9 malformed calls).

Models and proxies hand us ``function.arguments`` strings that are not always
valid JSON: fenced in markdown, wrapped in prose, written as Python dicts,
missing commas, or cut off at ``finish_reason: length``.  This module turns
them into an object and says honestly what it had to do:

* :func:`parse_tool_arguments` -> :class:`ArgumentsParse` (``args``,
  ``repaired``, ``truncated``, ``error``).  The client stores these on
  :class:`~wiggum.llm.types.ParsedToolCall`; the loop refuses to execute a
  call that is ``truncated`` or has an ``error``.
* :func:`attempt_json_repair` -- the seed's helper: best-effort object or ``{}``.
* For *display* while arguments stream, :mod:`wiggum.llm.partial_json` builds on
  this module; nothing there decides what is executed.

How the repair is composed (well-kept parsers first, little hand-written code):

1. Fast path: ``json.loads`` + a type check.  Nothing else runs for valid input.
2. A small tokenizer (:func:`_scan`) walks the text once from the first ``{``.
   It understands strings (both quotes), comments and brackets, so it can find
   where the first object ends (dropping fences and prose around it), notice a
   cut-off input, map Python/JS literals (``True``/``None``/``undefined``/
   ``NaN``...) in value position, drop comments, and trim an unusable tail
   (a dangling key, half an escape, ``tru``) before closing the brackets.
3. Candidates from the normalised text: ``json.loads(strict=False)`` (raw
   newlines in strings), then ``pydantic_core.from_json(allow_partial=...)``
   and ``json_repair``; the winner is chosen by a sanity rule: no invented
   keys, then the most recovered leaves, then the stricter parser.

Decisions (documented here because callers depend on them):

* Top-level arrays, numbers, booleans and non-JSON strings are **errors**
  (tool arguments must be an object; wrapping would invent a key no schema
  knows).  ``null`` is ``{}`` (some providers send it for no-argument tools),
  flagged ``repaired``.  A JSON string that holds an object (double-encoded)
  is decoded and flagged ``repaired``.
* ``NaN``/``Infinity``/``undefined`` become ``None``: they are not JSON and
  would poison the conversation history when re-serialised.
* Concatenated objects ``{..}{..}`` (a proxy putting two calls' arguments on
  one index, or re-sending the full arguments at the end): ``args`` is the
  first object; further *different* objects are returned in
  ``extra_objects`` so the accumulator can split them.  Identical repeats
  are dropped.
* An object closed early and continued (``{"q":"x"},"limit":10}``) is merged.
* Invalid escapes keep their backslash (``"C:\\path"`` -> ``C:\\path``);
  valid escapes are decoded as JSON says.
* A truncated literal is completed when unambiguous (``tru`` -> ``true``), a
  truncated number keeps its digits, a half-written key or a key with no
  value is dropped, half an escape is dropped.  ``truncated`` is set all the
  same: the values are for display and error messages, not for execution.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

import json_repair
import pydantic_core

__all__ = [
    "ArgumentsParse",
    "attempt_json_repair",
    "parse_tool_arguments",
]


@dataclass(frozen=True, slots=True)
class ArgumentsParse:
    """The outcome of parsing one tool call's ``arguments`` string."""

    args: dict[str, Any]
    #: The text was not a valid JSON object as-is (something had to be fixed).
    repaired: bool = False
    #: The input ended mid-value, or the caller said the stream was cut off.
    #: Never execute such a call: the arguments may be incomplete.
    truncated: bool = False
    #: Set when nothing usable could be recovered; ``args`` is then ``{}``.
    error: str | None = None
    #: Further, different objects concatenated after the first (``{..}{..}``).
    extra_objects: tuple[dict[str, Any], ...] = field(default=())


def _reject_constant(name: str) -> Any:
    raise ValueError(f"non-JSON constant {name}")


# json.loads() would accept NaN/Infinity; arguments holding them need repair.
_DECODER = json.JSONDecoder(parse_constant=_reject_constant)
_LAX_DECODER = json.JSONDecoder(strict=False, parse_constant=_reject_constant)


def parse_tool_arguments(raw: str, *, truncated: bool = False) -> ArgumentsParse:
    """Parse ``function.arguments``; repair it if needed; never raises.

    ``truncated`` is the caller's knowledge that the stream was cut off
    (``finish_reason: length``, a broken stream); it is always carried into
    the result, even when the text happens to parse.
    """
    try:
        value = _DECODER.decode(raw)
    except (ValueError, RecursionError, TypeError):
        pass
    else:
        if type(value) is dict:
            return ArgumentsParse(value, False, truncated)
        return _non_object(value, truncated)
    if not isinstance(raw, str):
        # Ollama sends arguments as an object; a missing field arrives as None.
        if isinstance(raw, dict):
            return ArgumentsParse(raw, False, truncated)
        if raw is None:
            return ArgumentsParse({}, False, truncated)
        return ArgumentsParse(
            {}, True, truncated, f"tool arguments must be a JSON object, got {type(raw).__name__}"
        )
    if not raw.strip():
        return ArgumentsParse({}, False, truncated)
    try:
        return _repair(raw, truncated)
    except RecursionError:
        return ArgumentsParse({}, True, truncated, "arguments nested too deeply")
    except Exception as exc:  # parsers of untrusted text must not raise
        return ArgumentsParse(
            {}, True, truncated, f"unrepairable arguments ({exc.__class__.__name__})"
        )


def attempt_json_repair(raw: str) -> dict[str, Any]:
    """Best-effort object from ``raw``; ``{}`` when hopeless (seed §6)."""
    return parse_tool_arguments(raw).args


_TYPE_NAMES = {
    list: "an array",
    str: "a string",
    bool: "a boolean",
    int: "a number",
    float: "a number",
}


def _non_object(value: Any, truncated: bool) -> ArgumentsParse:
    if value is None:
        return ArgumentsParse({}, True, truncated)
    if isinstance(value, str) and value.lstrip()[:1] in ("{", "`"):
        inner = parse_tool_arguments(value, truncated=truncated)
        if inner.error is None:
            return ArgumentsParse(inner.args, True, inner.truncated, None, inner.extra_objects)
    kind = _TYPE_NAMES.get(type(value), type(value).__name__)
    return ArgumentsParse({}, False, truncated, f"tool arguments must be a JSON object, got {kind}")


# ---------------------------------------------------------------------------
# The tokenizer

#: Bare words mapped to JSON in value position (Python and JS spellings).
_LITERALS = {
    "true": "true",
    "false": "false",
    "null": "null",
    "True": "true",
    "False": "false",
    "None": "null",
    "undefined": "null",
    "NaN": "null",
    "Infinity": "null",
}
_COMPLETABLE = ("true", "false", "null", "True", "False", "None")
_WORD = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*")
_NUMBER = re.compile(r"[-+]?(?:[0-9A-Za-z.]|(?<=[eE])[-+])*")
_WS = re.compile(r"[ \t\r\n]*")
_SQ_BODY = re.compile(r"[^'\\]*")
_CLOSES_SQ = frozenset(",:}]")


@dataclass(slots=True)
class _Scan:
    text: str  # normalised JSON-ish text of the first object (closed if cut)
    open_text: str  # the same without the closing brackets (for partial parsers)
    end: int  # index in the source just after the object (len(source) if cut)
    cut: bool  # the source ended inside the object
    edits: int  # how many literal/comment edits were made


def _string_end(src: str, i: int, quote: str) -> int:
    """Index just after the string opening at ``i``, or -1 if unterminated."""
    if quote == '"':
        j = i + 1
        while True:
            j = src.find('"', j)
            if j < 0:
                return -1
            k = j - 1
            while src[k] == "\\":
                k -= 1
            if (j - 1 - k) % 2 == 0:  # not escaped
                return j + 1
            j += 1
    body = _SQ_BODY
    n = len(src)
    j = i + 1
    while True:
        j = body.match(src, j).end()
        if j >= n:
            return -1
        if src[j] == "\\":
            j += 2
            continue
        # src[j] == quote
        if quote == "'":
            # An apostrophe inside a word does not end a single-quoted string.
            k = _WS.match(src, j + 1).end()
            if k < n and src[k] not in _CLOSES_SQ:
                j += 1
                continue
        return j + 1


def _comment_end(src: str, i: int) -> int:
    """Where the comment opening at ``i`` ends, or -1 if it runs to the end: a
    ``/* */`` one after its ``*/``; a ``//`` or ``#`` one at its line's end (the
    newline stays)."""
    if src.startswith("/*", i):
        k = src.find("*/", i + 2)
        return -1 if k < 0 else k + 2
    return src.find("\n", i)


_SQ_ESCAPES = re.compile(r'\\.|\\$|"', re.S)


def _requote_piece(m: re.Match[str]) -> str:
    piece = m.group()
    return "'" if piece == "\\'" else '\\"' if piece == '"' else piece


def _requote(body: str) -> str:
    """A single-quoted string's body as the start of a double-quoted one."""
    return '"' + _SQ_ESCAPES.sub(_requote_piece, body)


def _trim_partial_escape(s: str) -> str:
    """Drop half an escape (``\\``, ``\\u00``, a lone high surrogate) at the end."""
    k = s.rfind("\\")
    if k < 0:
        return s
    run = len(s[:k]) - len(s[:k].rstrip("\\"))  # backslashes before this one
    if run % 2:  # this backslash is itself escaped
        return s
    tail = s[k + 1 :]
    if tail == "":
        return s[:k]
    if tail[0] == "u":
        hexdigits = tail[1:5]
        if len(hexdigits) < 4:
            return s[:k]
        if len(tail) == 5 and hexdigits[:2].lower() in ("d8", "d9", "da", "db"):
            return s[:k]  # high surrogate whose pair was cut off
    return s


def _scan(src: str, start: int) -> _Scan:
    """Walk the object starting at ``src[start] == '{'``; see module docstring."""
    n = len(src)
    out: list[str] = []
    seg = start  # start of the source span not yet copied to ``out``
    stack: list[str] = []
    # ``last``: what the previous significant token was.
    last = "open"
    member_mark = 0  # len(out) when the current member began
    edits = 0
    i = start
    cut_state = None  # how the text ended, when it ended inside the object

    def flush(upto: int) -> None:
        nonlocal seg
        if upto > seg:
            out.append(src[seg:upto])
        seg = upto

    while i < n:
        c = src[i]
        if c in " \t\r\n":
            i += 1
            continue
        if c == '"' or c == "'":
            j = _string_end(src, i, c)
            in_key = stack[-1] == "{" and last in ("open", "comma")
            if j < 0:
                if c == "'":
                    flush(i)
                    out.append(_requote(src[i + 1 :]))
                    seg = n
                    edits += 1
                cut_state = ("key-string" if in_key else "string", '"')
                break
            if c == "'":
                # We know where it ends; json_repair would have to guess.
                flush(i)
                out.append(_requote(src[i + 1 : j - 1]) + '"')
                seg = j
                edits += 1
            last = "key" if in_key else "value"
            i = j
            continue
        if c in "{[":
            stack.append(c)
            last = "open"
            i += 1
            flush(i)
            member_mark = len(out)
            continue
        if c in "}]":
            want = "{" if c == "}" else "["
            if want not in stack:
                flush(i)
                seg = i = i + 1
                edits += 1
                if src[i:].strip():  # a stray closer: drop it
                    continue
                # The text ends with a wrong closer (``{"a": [1]]``): the model
                # finished, so close what is open rather than call it cut off.
                out.extend("}" if b == "{" else "]" for b in reversed(stack))
                text = "".join(out)
                return _Scan(text, text, n, False, edits)
            if last == "comma":  # trailing comma: drop it (and what follows)
                flush(i)
                del out[member_mark:]
                edits += 1
            if stack[-1] != want:  # close what was left open
                flush(i)
                while stack[-1] != want:
                    out.append("}" if stack.pop() == "{" else "]")
                edits += 1
            stack.pop()
            last = "value"
            i += 1
            if not stack:
                flush(i)
                text = "".join(out)
                return _Scan(text, text, i, False, edits)
            continue
        if c == ":":
            last = "colon"
            i += 1
            continue
        if c == ",":
            i += 1
            if last == "comma" or last == "open":
                flush(i - 1)  # drop doubled commas
                seg = i
                edits += 1
                continue
            last = "comma"
            flush(i - 1)
            member_mark = len(out)
            continue
        if c == "#" or src.startswith(("//", "/*"), i):
            flush(i)
            k = _comment_end(src, i)
            edits += 1
            if k < 0:
                seg = i = n
                cut_state = ("comment", "")
                break
            seg = i = k
            continue
        in_value = last == "colon" or (last in ("open", "comma") and stack[-1] == "[")
        if c.isalpha() or c in "_$":
            m = _WORD.match(src, i)
            word = m.group()
            j = m.end()
            if in_value:
                if j >= n and word not in _LITERALS:
                    cut_state = ("word", word)
                    break
                rep = _LITERALS.get(word)
                if rep is not None and rep != word:
                    flush(i)
                    out.append(rep)
                    seg = j
                    edits += 1
                last = "value"
            elif stack[-1] == "{" and last in ("open", "comma"):
                if j >= n:
                    cut_state = ("key-word", word)
                    break
                k = _WS.match(src, j).end()
                if k < n and src[k] == ":":  # an unquoted key: quote it
                    flush(i)
                    out.append(f'"{word}"')
                    seg = j
                    edits += 1
                last = "key"
            i = j
            continue
        if in_value and (c.isdigit() or c in "-+."):
            if src.startswith("-Infinity", i):
                flush(i)
                out.append("null")
                seg = i = i + 9
                edits += 1
                last = "value"
                continue
            j = _NUMBER.match(src, i).end() or i + 1
            if j >= n:
                cut_state = ("number", src[i:j])
                break
            last = "value"
            i = j
            continue
        i += 1  # anything else is left for json_repair to judge

    # The source ended inside the object.
    flush(n)
    kind, extra = cut_state or ("end", "")
    if kind in ("key-string", "key-word") or (kind == "end" and last in ("key", "colon", "comma")):
        _drop_member(out, member_mark)
    elif kind == "string":
        # ``out`` holds everything up to the end; fix the string's tail.
        body = _trim_partial_escape("".join(out))
        out[:] = [body, extra]
    elif kind == "word":
        completion = next((w for w in _COMPLETABLE if w.startswith(extra)), None)
        if completion is None:
            _drop_member(out, member_mark)
        else:
            _truncate_out(out, len(extra))
            out.append(_LITERALS[completion])
    elif kind == "number":
        digits = extra.rstrip(".eE+-")
        if not any(ch.isdigit() for ch in digits):
            _drop_member(out, member_mark)
        else:
            _truncate_out(out, len(extra) - len(digits))
    elif kind == "comment" and last in ("key", "colon", "comma"):
        _drop_member(out, member_mark)
    open_text = "".join(out)
    closers = "".join("}" if b == "{" else "]" for b in reversed(stack))
    return _Scan(open_text + closers, open_text, n, True, edits)


def _truncate_out(out: list[str], k: int) -> None:
    """Remove the last ``k`` characters from the pieces in ``out``."""
    while k > 0 and out:
        last = out[-1]
        if len(last) <= k:
            k -= len(last)
            out.pop()
        else:
            out[-1] = last[:-k]
            k = 0


def _drop_member(out: list[str], mark: int) -> None:
    """Cut ``out`` back to where the current member began (dropping its comma).

    The piece flushed when the member began ends at its opener or just before
    its comma, so nothing of the member remains.
    """
    del out[mark:]


# ---------------------------------------------------------------------------
# Choosing between parsers


def _leaves(value: Any) -> int:
    if isinstance(value, dict):
        return sum(_leaves(v) for v in value.values()) + len(value)
    if isinstance(value, list):
        return sum(_leaves(v) for v in value) + 1
    return 1


def _invented_keys(value: Any, source: str) -> int:
    if isinstance(value, dict):
        return sum(
            (k not in source and json.dumps(k)[1:-1] not in source) + _invented_keys(v, source)
            for k, v in value.items()
        )
    if isinstance(value, list):
        return sum(_invented_keys(v, source) for v in value)
    return 0


def _clean_constants(value: Any) -> Any:
    """Replace non-finite floats (NaN/Infinity) by ``None``."""
    if isinstance(value, float):
        return None if value != value or value in (float("inf"), float("-inf")) else value
    if isinstance(value, dict):
        return {k: _clean_constants(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_clean_constants(v) for v in value]
    return value


def _json_repair(text: str) -> Any:
    try:
        return json_repair.loads(text, skip_json_loads=True)
    except Exception:  # json_repair must not take the caller down
        return None


def _pydantic_partial(text: str) -> Any:
    try:
        return pydantic_core.from_json(text, allow_partial="trailing-strings")
    except ValueError:
        return None


def _best_object(scan: _Scan, source: str) -> dict[str, Any] | None:
    """Parse the normalised object text; choose among the parsers' results."""
    try:
        return _choose(scan, source)
    except RecursionError:  # absurdly deep nesting: report, don't crash
        return None


def _choose(scan: _Scan, source: str) -> dict[str, Any] | None:
    try:
        value = _LAX_DECODER.decode(scan.text)
    except ValueError:
        pass
    else:
        if type(value) is dict:
            return value
    candidates: list[tuple[int, Any]] = []
    if scan.cut:
        # pydantic_core closes what is open and keeps the partial string.
        candidates.append((2, _pydantic_partial(scan.open_text)))
    candidates.append((1, _json_repair(scan.text)))
    if not scan.cut:
        candidates.append((0, _pydantic_partial(scan.text)))
    best = None
    best_key = None
    for rank, value in candidates:
        if isinstance(value, list) and value and isinstance(value[0], dict):
            value = value[0]  # json_repair's reading of {..}{..}
        if type(value) is not dict:
            continue
        value = _clean_constants(value)
        key = (-_invented_keys(value, source), _leaves(value), rank)
        if best_key is None or key > best_key:
            best, best_key = value, key
    return best


def _repair(raw: str, truncated: bool) -> ArgumentsParse:
    stripped = raw.strip()
    if stripped.startswith('"'):
        # A double-encoded object that was cut off or has a bad escape.
        inner = _pydantic_partial(stripped)
        if isinstance(inner, str) and inner.lstrip()[:1] in ("{", "`"):
            closed = _string_end(stripped, 0, '"') == len(stripped)
            result = parse_tool_arguments(inner, truncated=truncated or not closed)
            if result.error is None:
                return ArgumentsParse(
                    result.args, True, result.truncated, None, result.extra_objects
                )
    start = raw.find("{")
    if start < 0:
        return ArgumentsParse({}, True, truncated, "no JSON object in tool arguments")
    scan = _scan(raw, start)
    args = _best_object(scan, raw)
    if args is None:
        return ArgumentsParse({}, True, truncated or scan.cut, "unrepairable tool arguments")
    extra: list[dict[str, Any]] = []
    rest = raw[scan.end :].lstrip()
    cut = scan.cut
    if rest.startswith(","):
        # Closed too early, then continued: {"q":"x"},"limit":10}
        merged = raw[: scan.end - 1] + rest
        more = _scan(merged, start)
        merged_args = _best_object(more, merged)
        if merged_args is not None and _leaves(merged_args) > _leaves(args):
            args, cut, rest = merged_args, more.cut, merged[more.end :].lstrip()
    while rest.startswith("{"):
        more = _scan(rest, 0)
        obj = _best_object(more, rest)
        if obj is None:
            break
        cut = cut or more.cut
        if obj != args and obj not in extra:
            extra.append(obj)
        rest = rest[more.end :].lstrip()
    return ArgumentsParse(args, True, truncated or cut, None, tuple(extra))
