"""``event_json``: the stream parsers' fast JSON path gives what ``json.loads`` gives."""

from __future__ import annotations

import json

import pytest

from wiggum.llm.dialects.base import event_json
from wiggum.llm.think import ThinkSplitter

SAME = [
    b'{"choices":[{"index":0,"delta":{"content":" caf\xc3\xa9 \xf0\x9f\x99\x82"}}]}',
    b'{"a": [1, 2.5, -3e2, true, false, null], "b": {"c": "\\u00e9\\n"}}',
    b'  {"padded": "both sides"}  ',  # whitespace around: json.loads takes it
    b'{"trailing": "newline"}\n',
    b"[1, 2]",
    b'"just a string"',
    b"42",
]

FAIL = [
    b"",
    b": keepalive",
    b"[DONE]",
    b'{"a": 1} {"b": 2}',  # two values: json.loads refuses, so must this
    b'{"a": 1},{"b": 2}',
    b'{"a": ',
    b"\xff\xfe",  # not UTF-8
    b"NaNx",
]


@pytest.mark.parametrize("data", SAME)
def test_same_value_as_json_loads(data: bytes) -> None:
    assert event_json(data) == json.loads(data.decode())


@pytest.mark.parametrize("data", FAIL)
def test_refuses_what_json_loads_refuses(data: bytes) -> None:
    with pytest.raises(ValueError):
        json.loads(data.decode())
    with pytest.raises(ValueError):
        event_json(data)


def test_plain_text_passes_the_think_splitter_untouched() -> None:
    think = ThinkSplitter()
    assert think.plain("no tags here")
    assert not think.plain("a <b> tag could start")
    think.feed("<think>inside")
    assert not think.plain("still thinking")  # a think block is open
    think.feed("</think> out <thi")
    assert not think.plain("nk>")  # a half-read tag is held back
