"""Tool-argument parsing and repair (wiggum.llm.repair).

The corpus below is the contract: each row is a malformed ``arguments``
string as models and proxies produce them, with the object we expect back
and whether it must be flagged as truncated.  ``test_beats_each_library``
scores the composed parser against json_repair alone and pydantic_core's
partial parser alone on the same rows.
"""

from __future__ import annotations

import json

import json_repair
import pydantic_core
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from wiggum.llm.partial_json import PartialJsonParser, parse_partial_json
from wiggum.llm.repair import ArgumentsParse, attempt_json_repair, parse_tool_arguments

ERROR = object()  # expected: nothing usable (args == {} and error set)
T, F = True, False

# (id, raw, expected args or ERROR, expected truncated)
CORPUS: list[tuple[str, str, object, bool]] = [
    # -- fences, prose and wrappers
    ("fence_json", '```json\n{"path": "a.txt"}\n```', {"path": "a.txt"}, F),
    ("fence_plain", '```\n{"a": 1}\n```', {"a": 1}, F),
    ("fence_python_literals", '```python\n{"a": None, "b": True}\n```', {"a": None, "b": True}, F),
    (
        "prose_both_sides",
        'Here are the args: {"path": "src/app.py", "line": 3} Hope that helps!',
        {"path": "src/app.py", "line": 3},
        F,
    ),
    (
        "prose_apostrophes",
        'Sure, here\'s what I\'ll use: {"q": "x"}. Let me know if it\'s wrong.',
        {"q": "x"},
        F,
    ),
    (
        "prose_fence_prose",
        'Calling it now.\n```json\n{\n  "path": "a",\n  "content": "x"\n}\n```\nDone.',
        {"path": "a", "content": "x"},
        F,
    ),
    ("xml_wrapper", '<tool_call>{"a": 1}</tool_call>', {"a": 1}, F),
    ("bom", '\ufeff{"a": 1}', {"a": 1}, F),
    ("trailing_prose_braces", '{"a": 1} (then use {x})', {"a": 1}, F),
    ("trailing_fence_only", '{"a": 1}\n```', {"a": 1}, F),
    # -- quotes and keys
    ("single_quotes", "{'path': 'a.txt', 'n': 2}", {"path": "a.txt", "n": 2}, F),
    ("single_quotes_apostrophe", "{'msg': 'it's done'}", {"msg": "it's done"}, F),
    ("mixed_quotes", "{'a': \"it's\"}", {"a": "it's"}, F),
    (
        "python_dict_repr",
        "{'a': True, 'b': None, 'c': [1, 2]}",
        {"a": True, "b": None, "c": [1, 2]},
        F,
    ),
    ("unquoted_keys", '{path: "a.txt", n: 2}', {"path": "a.txt", "n": 2}, F),
    ("unquoted_keys_nested", "{a: {b: [1, 2]}}", {"a": {"b": [1, 2]}}, F),
    ("key_without_colon", '{"a" "x"}', {"a": "x"}, F),
    ("unquoted_value", '{"a": hello}', {"a": "hello"}, F),
    # -- literals
    ("python_literals", '{"a": True, "b": False, "c": None}', {"a": T, "b": F, "c": None}, F),
    (
        "python_literals_in_strings",
        '{"a": "True or None", "b": None}',
        {"a": "True or None", "b": None},
        F,
    ),
    ("js_undefined", '{"a": undefined, "b": 1}', {"a": None, "b": 1}, F),
    (
        "nan_infinity",
        '{"a": NaN, "b": Infinity, "c": -Infinity}',
        {"a": None, "b": None, "c": None},
        F,
    ),
    ("leading_dot_plus", '{"a": .5, "b": +1}', {"a": 0.5, "b": 1}, F),
    # -- commas
    ("missing_comma", '{"a": 1 "b": 2}', {"a": 1, "b": 2}, F),
    ("missing_comma_newline", '{\n"a": "x"\n"b": "y"\n}', {"a": "x", "b": "y"}, F),
    ("trailing_comma", '{"a": 1,}', {"a": 1}, F),
    (
        "trailing_commas_nested",
        '{"a": [1, 2,], "b": {"c": 3,},}',
        {"a": [1, 2], "b": {"c": 3}},
        F,
    ),
    ("double_comma", '{"a": "x",, "b": 2}', {"a": "x", "b": 2}, F),
    # -- comments
    ("line_comment", '{\n  "a": 1, // the count\n  "b": 2\n}', {"a": 1, "b": 2}, F),
    ("block_comment", '{"a": 1, /* note */ "b": 2}', {"a": 1, "b": 2}, F),
    ("hash_comment", '{\n  "a": 1, # count\n  "b": 2\n}', {"a": 1, "b": 2}, F),
    (
        "comment_markers_in_string",
        '{"url": "http://x.com/#frag", "re": "a//b", "b": 1,}',
        {"url": "http://x.com/#frag", "re": "a//b", "b": 1},
        F,
    ),
    # -- truncation (finish_reason: length, cut streams)
    ("trunc_string", '{"path": "a.ht', {"path": "a.ht"}, T),
    ("trunc_true", '{"n": tru', {"n": True}, T),
    ("trunc_false", '{"n": fals', {"n": False}, T),
    ("trunc_null", '{"n": nu', {"n": None}, T),
    ("trunc_python_none", '{"a": True, "b": Non', {"a": True, "b": None}, T),
    ("trunc_number", '{"n": 12', {"n": 12}, T),
    ("trunc_number_dot", '{"n": 12.', {"n": 12}, T),
    ("trunc_number_exp", '{"n": 1e', {"n": 1}, T),
    ("trunc_minus", '{"a": 1, "n": -', {"a": 1}, T),
    ("trunc_key", '{"a": 1, "pa', {"a": 1}, T),
    ("trunc_after_key", '{"a": 1, "b"', {"a": 1}, T),
    ("trunc_after_colon", '{"a": 1, "b": ', {"a": 1}, T),
    ("trunc_after_comma", '{"a": 1, ', {"a": 1}, T),
    ("trunc_unquoted_key", "{a: 1, pat", {"a": 1}, T),
    ("trunc_nested", '{"a": {"b": [1, 2', {"a": {"b": [1, 2]}}, T),
    ("trunc_escape", '{"a": "x\\', {"a": "x"}, T),
    ("trunc_unicode_escape", '{"a": "x\\u00', {"a": "x"}, T),
    ("trunc_surrogate_pair", '{"a": "x\\ud83c', {"a": "x"}, T),
    ("trunc_open_brace", "{", {}, T),
    (
        "trunc_file_content",
        '{"path": "index.html", "content": "<html>\\n<body>',
        {"path": "index.html", "content": "<html>\n<body>"},
        T,
    ),
    ("trunc_array_string", '{"files": ["a.py", "b.p', {"files": ["a.py", "b.p"]}, T),
    ("trunc_array_literal", '{"flags": [true, fa', {"flags": [True, False]}, T),
    ("trunc_single_quotes", "{'path': 'a.t", {"path": "a.t"}, T),
    ("trunc_missing_close", '{\n  "command": "ls -la",\n  "cwd": "/tmp"\n', None, T),
    ("trunc_in_comment", '{"a": 1 // comm', {"a": 1}, T),
    (
        "trunc_braces_in_string",
        '{"code": "function f() { return {a: 1}',
        {"code": "function f() { return {a: 1}"},
        T,
    ),
    ("trunc_in_fence", '```json\n{"path": "a.txt", "content": "hel', None, T),
    ("trunc_raw_newline", '{"content": "line1\nline2', {"content": "line1\nline2"}, T),
    # -- brackets
    ("mismatched_bracket", '{"a": [1, 2}', {"a": [1, 2]}, F),
    ("extra_close", '{"a": 1}}', {"a": 1}, F),
    ("array_not_closed", '{"a": ["x", "y"}', {"a": ["x", "y"]}, F),
    ("wrong_final_closer", '{"a": [1, 2]]', {"a": [1, 2]}, F),
    ("stray_closer_inside", '{"a": 1], "b": 2}', {"a": 1, "b": 2}, F),
    # -- strings
    ("raw_newline", '{"content": "line1\nline2"}', {"content": "line1\nline2"}, F),
    ("raw_tab", '{"content": "a\tb"}', {"content": "a\tb"}, F),
    ("escaped_newline", '{"content": "line1\\nline2",}', {"content": "line1\nline2"}, F),
    ("unescaped_inner_quotes", '{"a": "say "hi" now"}', {"a": 'say "hi" now'}, F),
    ("invalid_escape_path", '{"p": "C:\\path"}', {"p": "C:\\path"}, F),
    ("invalid_escape_regex", '{"pattern": "\\d+\\s*"}', {"pattern": "\\d+\\s*"}, F),
    ("unicode", '{"a": "héllo 🍍", "b": 1,}', {"a": "héllo 🍍", "b": 1}, F),
    ("unicode_escape_repair", '{"a": "\\u00e9", b: 1}', {"a": "é", "b": 1}, F),
    (
        "json_in_string_value",
        '{"args": "{\\"x\\": 1}", "b": 2,}',
        {"args": '{"x": 1}', "b": 2},
        F,
    ),
    # -- several objects
    ("concat_two", '{"a": 1}{"b": 2}', {"a": 1}, F),
    ("concat_duplicate", '{"a": 1}{"a": 1}', {"a": 1}, F),
    ("concat_newline", '{"a": 1}\n{"b": 2}', {"a": 1}, F),
    ("closed_too_early", '{"query": "test"}, "limit": 10}', {"query": "test", "limit": 10}, F),
    # -- not an object
    ("double_encoded", '"{\\"a\\": 1}"', {"a": 1}, F),
    ("double_encoded_python", "\"{'a': True}\"", {"a": True}, F),
    ("double_encoded_truncated", '"{\\"a\\": 1, \\"b\\": \\"x', {"a": 1, "b": "x"}, T),
    ("json_null", "null", {}, F),
    ("top_level_array", "[1, 2]", ERROR, F),
    ("top_level_number", "42", ERROR, F),
    ("plain_string", '"hello"', ERROR, F),
    ("string_with_braces", '"use {name} here"', ERROR, F),
    ("prose_only", "I cannot call this tool.", ERROR, F),
]

# Rows whose expected args are the same text with the obvious completion.
_FILLED = {
    "trunc_missing_close": {"command": "ls -la", "cwd": "/tmp"},
    "trunc_in_fence": {"path": "a.txt", "content": "hel"},
}
CORPUS = [
    (cid, raw, _FILLED.get(cid, exp) if exp is None else exp, tr) for cid, raw, exp, tr in CORPUS
]


def _is_right(expected: object, got: object) -> bool:
    if expected is ERROR:
        return got is None or got == {} or not isinstance(got, dict)
    return type(got) is dict and got == expected


def _json_repair_alone(raw: str) -> object:
    try:
        return json_repair.loads(raw)
    except Exception:
        return None


def _pydantic_alone(raw: str) -> object:
    try:
        return pydantic_core.from_json(raw, allow_partial="trailing-strings")
    except ValueError:
        return None


def _ours(raw: str) -> object:
    r = parse_tool_arguments(raw)
    return None if r.error else r.args


@pytest.mark.parametrize(
    ("cid", "raw", "expected", "truncated"), CORPUS, ids=[c[0] for c in CORPUS]
)
def test_corpus(cid: str, raw: str, expected: object, truncated: bool) -> None:
    result = parse_tool_arguments(raw)
    assert isinstance(result, ArgumentsParse)
    if expected is ERROR:
        assert result.args == {}
        assert result.error
    else:
        assert result.error is None
        assert result.args == expected
        # None of these rows is valid JSON as-is except where noted.
        assert result.repaired is (cid not in {"json_null_never"})
    assert result.truncated is truncated
    assert attempt_json_repair(raw) == ({} if expected is ERROR else expected)


def test_corpus_size() -> None:
    assert len(CORPUS) >= 60
    assert len({c[0] for c in CORPUS}) == len(CORPUS)


def test_beats_each_library(capsys: pytest.CaptureFixture[str]) -> None:
    scores = {"composed": 0, "json_repair": 0, "pydantic_core": 0}
    misses: dict[str, list[str]] = {k: [] for k in scores}
    for cid, raw, expected, _ in CORPUS:
        for name, fn in (
            ("composed", _ours),
            ("json_repair", _json_repair_alone),
            ("pydantic_core", _pydantic_alone),
        ):
            if _is_right(expected, fn(raw)):
                scores[name] += 1
            else:
                misses[name].append(cid)
    with capsys.disabled():
        print(f"\nrepair corpus ({len(CORPUS)} cases): {scores}")
        print(f"  json_repair misses: {misses['json_repair']}")
        print(f"  pydantic_core misses: {misses['pydantic_core']}")
    assert scores["composed"] == len(CORPUS), misses["composed"]
    assert scores["composed"] > scores["json_repair"]
    assert scores["composed"] > scores["pydantic_core"]


# -- decisions and flags


def test_valid_object_fast_path() -> None:
    r = parse_tool_arguments('{"path": "a", "n": [1, {"x": null}]}')
    assert r == ArgumentsParse({"path": "a", "n": [1, {"x": None}]}, False, False, None)


def test_empty_is_empty_object_not_repaired() -> None:
    for raw in ("", "   ", "\n\t"):
        assert parse_tool_arguments(raw) == ArgumentsParse({}, False, False, None)


def test_non_string_arguments() -> None:
    # Ollama sends objects; a missing field is None (seed: `arguments || '{}'`).
    assert parse_tool_arguments({"a": 1}).args == {"a": 1}  # type: ignore[arg-type]
    assert parse_tool_arguments(None) == ArgumentsParse({})  # type: ignore[arg-type]
    assert parse_tool_arguments(3).error  # type: ignore[arg-type]


def test_caller_truncation_is_kept_even_when_text_parses() -> None:
    # finish_reason: length after a prefix that happens to be a whole object.
    r = parse_tool_arguments('{"query": "test"}', truncated=True)
    assert r.args == {"query": "test"}
    assert r.truncated and not r.repaired
    assert parse_tool_arguments("", truncated=True).truncated


def test_concatenated_objects_are_reported() -> None:
    r = parse_tool_arguments('{"a": 1}{"b": 2}')
    assert r.args == {"a": 1} and r.extra_objects == ({"b": 2},)
    assert parse_tool_arguments('{"a": 1}{"a": 1}').extra_objects == ()
    r = parse_tool_arguments('{"a": 1}{"b": 2}{"c": 3')
    assert r.extra_objects == ({"b": 2}, {"c": 3}) and r.truncated


def test_non_object_errors_say_why() -> None:
    r = parse_tool_arguments("[1, 2]")
    assert r.args == {} and "object" in (r.error or "") and not r.repaired
    assert parse_tool_arguments("true").error


def test_nan_in_valid_json_is_repaired() -> None:
    r = parse_tool_arguments('{"a": NaN}')
    assert r.args == {"a": None} and r.repaired


def test_deep_nesting_does_not_raise() -> None:
    r = parse_tool_arguments("[" * 5000 + "]" * 5000)
    assert r.args == {} and r.error
    r = parse_tool_arguments('{"a": ' + "[" * 5000)
    assert r.truncated


def test_arguments_parse_is_frozen() -> None:
    r = parse_tool_arguments("{}")
    with pytest.raises(AttributeError):
        r.args = {"x": 1}  # type: ignore[misc]


# -- partial display


def test_parse_partial_json_display() -> None:
    assert parse_partial_json('{"path": "a.txt", "content": "<ht') == {
        "path": "a.txt",
        "content": "<ht",
    }
    assert parse_partial_json('{"path": "a.txt", "content": "line\nbr') == {
        "path": "a.txt",
        "content": "line\nbr",
    }
    assert parse_partial_json("{'path': 'a.t") == {"path": "a.t"}
    assert parse_partial_json("") is None
    assert parse_partial_json("nonsense") is None
    assert parse_partial_json('{"a": [1, 2') == {"a": [1, 2]}


def test_partial_parser_streams_and_throttles() -> None:
    doc = json.dumps({"path": "src/index.html", "content": "x" * 200_000})
    p = PartialJsonParser()
    parses = 0
    last = None
    for i in range(0, len(doc), 7):
        p.feed(doc[i : i + 7])
        before = p._parsed_len
        last = p.value()
        parses += p._parsed_len != before
        if i > 40:
            assert last is not None and last.get("path", "").startswith("src/")
    assert p.value(force=True) == json.loads(doc)
    assert p.text == doc and len(p) == len(doc)
    # Eager up to 2 KiB, then geometric: far fewer parses than deltas.
    assert parses < 2048 // 7 + 40, parses


def test_partial_parser_small_buffers_update_often() -> None:
    p = PartialJsonParser(eager_bytes=0, ratio=0)
    for ch in '{"path": "ab':
        p.feed(ch)
    assert p.value() == {"path": "ab"}


# -- properties

_json_leaf = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**53), max_value=2**53)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=20)
)
_json = st.recursive(
    _json_leaf,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=20,
)
_objects = st.dictionaries(st.text(max_size=10), _json, max_size=5)


@given(_objects, st.booleans())
def test_property_valid_objects_round_trip(obj: dict, ascii_only: bool) -> None:
    r = parse_tool_arguments(json.dumps(obj, ensure_ascii=ascii_only))
    assert r.args == obj
    assert not r.repaired and not r.truncated and r.error is None


@settings(suppress_health_check=[HealthCheck.too_slow], max_examples=150)
@given(_objects, st.booleans(), st.data())
def test_property_prefixes_are_truncated(obj: dict, ascii_only: bool, data: st.DataObject) -> None:
    text = json.dumps(obj, ensure_ascii=ascii_only)
    cut = data.draw(st.integers(min_value=1, max_value=len(text)))
    prefix = text[:cut]
    r = parse_tool_arguments(prefix)
    try:
        complete = type(json.loads(prefix)) is dict
    except ValueError:
        complete = False
    if complete:
        assert not r.truncated
    else:
        assert r.truncated, (prefix, r)
    assert isinstance(r.args, dict)
    parse_partial_json(prefix)


@settings(max_examples=300)
@given(st.text(max_size=200))
def test_property_arbitrary_text_never_raises(text: str) -> None:
    r = parse_tool_arguments(text)
    assert isinstance(r.args, dict)
    assert (r.error is None) or r.args == {}
    parse_partial_json(text)
    attempt_json_repair(text)


@settings(max_examples=300)
@given(st.text(alphabet="{}[]\"':,\\ntrufalsNoe0123456789.-/ #*\n", max_size=80))
def test_property_json_like_noise_never_raises(text: str) -> None:
    r = parse_tool_arguments(text)
    assert isinstance(r.args, dict)
    parse_partial_json(text)


# -- valid JSON costs one decode (per-call timings: bench/json_repair_corpus.py)


def test_valid_json_is_decoded_once_and_never_repaired(monkeypatch) -> None:
    import wiggum.llm.repair as repair

    def no_repair(raw, truncated):
        raise AssertionError("valid JSON went to the repair path")

    monkeypatch.setattr(repair, "_repair", no_repair)
    valid = json.dumps({"path": "src/app.py", "start_line": 10, "end_line": 40, "flag": True})
    big = json.dumps({"path": "index.html", "content": "<p>hello</p>\n" * 4000})
    for raw in (valid, big):
        assert parse_tool_arguments(raw) == ArgumentsParse(json.loads(raw), False, False, None)
