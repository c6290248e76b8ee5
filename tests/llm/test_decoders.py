"""SSE / NDJSON decoders and the think-tag splitter, fed at every boundary."""

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from wiggum.llm.ndjson import NDJSONDecoder
from wiggum.llm.sse import SSEDecoder, SSEEvent
from wiggum.llm.think import ThinkSplitter


def feed_all(decoder, body: bytes, cuts: list[int]) -> list:
    out, last = [], 0
    for cut in [*cuts, len(body)]:
        out.extend(decoder.feed(body[last:cut]))
        last = cut
    return out + decoder.close()


def splits(body: bytes):
    yield []  # whole
    yield list(range(1, len(body)))  # every byte
    yield list(range(7, len(body), 7))
    rng = random.Random(len(body))
    for _ in range(20):
        yield sorted(rng.sample(range(1, len(body)), min(len(body) - 1, rng.randint(1, 12))))


SSE_BODY = (
    ": OPENROUTER PROCESSING\n\n"
    'data: {"a":1}\n\n'
    'data:{"b":2}\n\n'  # no space after the colon
    'event: message_start\ndata: {"c":"\U0001f30d caf\u00e9"}\n\n'
    "data: : keepalive\n\n"
    "data: line1\ndata: line2\n\n"
    "id: 7\nretry: 100\ndata: x\n\n"
    "data: [DONE]\n\n"
).encode()

EXPECTED = [
    SSEEvent(None, b'{"a":1}'),
    SSEEvent(None, b'{"b":2}'),
    SSEEvent("message_start", '{"c":"\U0001f30d caf\u00e9"}'.encode()),
    SSEEvent(None, b": keepalive"),
    SSEEvent(None, b"line1\nline2"),
    SSEEvent(None, b"x"),
    SSEEvent(None, b"[DONE]"),
]


@pytest.mark.parametrize("newline", [b"\n", b"\r\n", b"\r"], ids=["LF", "CRLF", "CR"])
def test_sse_every_line_ending_and_boundary(newline):
    body = SSE_BODY.replace(b"\n", newline)
    for cuts in splits(body):
        assert feed_all(SSEDecoder(), body, cuts) == EXPECTED, cuts


def test_sse_crlf_split_between_reads_is_one_line_end():
    # "data: a\r" | "\ndata: b" must be two data lines of ONE event, not two events.
    d = SSEDecoder()
    assert d.feed(b"data: a\r") == []
    assert d.feed(b"\ndata: b\r\n\r\n") == [SSEEvent(None, b"a\nb")]


def test_sse_last_event_without_blank_line_is_kept_at_close():
    d = SSEDecoder()
    assert d.feed(b'data: {"x":1}') == []
    assert d.close() == [SSEEvent(None, b'{"x":1}')]


def test_sse_field_without_colon_and_event_reset():
    d = SSEDecoder()
    events = d.feed(b"event: ping\ndata\n\ndata: after\n\n")
    assert events == [SSEEvent("ping", b""), SSEEvent(None, b"after")]


@given(st.lists(st.binary(max_size=40), max_size=8), st.data())
def test_sse_never_raises_and_is_boundary_independent(pieces, data):
    body = b"".join(pieces)
    whole = feed_all(SSEDecoder(), body, [])
    if len(body) > 1:
        cuts = sorted(set(data.draw(st.lists(st.integers(1, len(body) - 1), max_size=6))))
        assert feed_all(SSEDecoder(), body, cuts) == whole


def test_ndjson_lines_at_every_boundary():
    body = '{"a":1}\n\n{"b":"\u00e9\U0001f600"}\r\n  \n{"done":true}'.encode()
    expected = [b'{"a":1}', '{"b":"\u00e9\U0001f600"}'.encode(), b'{"done":true}']
    for cuts in splits(body):
        assert feed_all(NDJSONDecoder(), body, cuts) == expected


def think_run(pieces: list[str]) -> tuple[str, str]:
    s = ThinkSplitter()
    out = []
    for p in pieces:
        out.extend(s.feed(p))
    out.extend(s.close())
    return (
        "".join(t for r, t in out if not r),
        "".join(t for r, t in out if r),
    )


@pytest.mark.parametrize(
    "text,content,reasoning",
    [
        ("<think>plan</think>answer", "answer", "plan"),
        ("no tags at all", "no tags at all", ""),
        ("a < b and c <thin", "a < b and c <thin", ""),  # a partial tag at the end is text
        ("x<think>r1</think>y<think>r2</think>z", "xyz", "r1r2"),
        ("<think>never closed", "", "never closed"),
    ],
)
def test_think_tags_split_anywhere(text, content, reasoning):
    for cuts in splits(text.encode()):
        pieces, last = [], 0
        for cut in [*cuts, len(text)]:
            if cut <= len(text):
                pieces.append(text[last:cut])
                last = cut
        assert think_run(pieces) == (content, reasoning)
