"""Event templates: a stream event read through a template is what ``json`` reads.

The property that matters: whenever ``match`` takes a text, ``json.loads`` of
that text is the template's object with exactly the matched strings in the
holes; a text it cannot vouch for is refused (and goes to ``json``).  Then the
stream parsers give the same deltas and response with templates as without.
"""

from __future__ import annotations

import copy
import json
from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import wiggum.llm.event_template as event_template
from wiggum.llm import (
    ContentDelta,
    Message,
    ProviderConfig,
    ReasoningDelta,
    RequestOptions,
    ToolCallArgsDelta,
    stream,
)
from wiggum.llm.event_stream import TemplatedSSE
from wiggum.llm.event_template import EventTemplate
from wiggum.llm.sse import READ_SLICE
from wiggum.llm.transport import ReplayResponse, ReplayTransport

OPENAI = {
    "id": "chatcmpl-C1x",
    "object": "chat.completion.chunk",
    "created": 1764160000,
    "model": "gpt-4o-mini",
    "system_fingerprint": "fp_44709d6fcb",
    "choices": [{"index": 0, "delta": {"content": "Hel"}, "logprobs": None, "finish_reason": None}],
    "obfuscation": "k3Xq",
}
ANTHROPIC = {
    "type": "content_block_delta",
    "index": 0,
    "delta": {"type": "text_delta", "text": "Hi"},
}


def openai_with(content: str, padding: str) -> dict:
    obj = copy.deepcopy(OPENAI)
    obj["choices"][0]["delta"]["content"] = content
    obj["obfuscation"] = padding
    return obj


def dumps(obj: dict, ascii_only: bool = False, compact: bool = True) -> str:
    seps = (",", ":") if compact else (", ", ": ")
    return json.dumps(obj, ensure_ascii=ascii_only, separators=seps)


@pytest.mark.parametrize("compact", [True, False], ids=["compact", "spaced"])
def test_learns_both_holes_in_text_order(compact):
    text = dumps(OPENAI, compact=compact)
    template = EventTemplate.learn(text, {"content": "Hel", "obfuscation": "k3Xq"})
    assert template is not None and template.keys == ("content", "obfuscation")
    other = dumps(openai_with('lo "wörld" \\ \n 🙂', "Zz9"), compact=compact)
    assert template.match(other) == ['lo "wörld" \\ \n 🙂', "Zz9"]


@pytest.mark.parametrize(
    "values",
    [
        {"content": "other"},  # not the string the text holds
        {"nope": "x"},  # no such key
        {"index": "0"},  # not a string
    ],
)
def test_no_template_when_the_text_does_not_hold_the_values(values):
    assert EventTemplate.learn(dumps(OPENAI), values) is None


def test_no_template_when_the_key_is_not_unique():
    text = '{"a":{"text":"x"},"delta":{"text":"x"}}'
    assert EventTemplate.learn(text, {"text": "x"}) is None


@pytest.mark.parametrize(
    "text",
    [
        dumps({**OPENAI, "created": 1764160001}),  # a number changed
        dumps({**OPENAI, "usage": None}),  # a key more
        dumps(OPENAI).replace('"content":"Hel"', '"content":null'),  # not a string now
        dumps(OPENAI).replace('"content":"Hel"', '"content":"a"b"'),  # a quote not escaped
        dumps(OPENAI).replace('"content":"Hel"', '"content":"a\\"'),  # escape runs on
        dumps(OPENAI).replace('"content":"Hel"', '"content":"a\x01"'),  # raw control char
        dumps(OPENAI).replace('"content":"Hel"', '"content":"\\x41"'),  # no such escape
        dumps(OPENAI)[:-1],  # cut short
        dumps(OPENAI) + " ",  # more after the end
    ],
)
def test_refuses_what_is_not_the_template_but_for_its_strings(text):
    template = EventTemplate.learn(dumps(OPENAI), {"content": "Hel", "obfuscation": "k3Xq"})
    assert template.match(text) is None


@settings(max_examples=300, deadline=None)
@given(content=st.text(), padding=st.text(), ascii_only=st.booleans())
def test_any_strings_in_the_holes_are_read_as_json_reads_them(content, padding, ascii_only):
    template = EventTemplate.learn(dumps(OPENAI), {"content": "Hel", "obfuscation": "k3Xq"})
    assert template.match(dumps(openai_with(content, padding), ascii_only)) == [content, padding]


@settings(max_examples=1500, deadline=None)
@given(
    content=st.text(max_size=12),
    at=st.integers(min_value=0, max_value=200),
    cut=st.integers(min_value=0, max_value=3),
    insert=st.text(alphabet='"\\{}[],:0 an\x01\n', max_size=3),
)
def test_whatever_it_takes_json_reads_the_same(content, at, cut, insert):
    """Any text ``match`` takes, mutated anywhere, is the template with those strings."""
    template = EventTemplate.learn(dumps(ANTHROPIC), {"text": "Hi"})
    good = dumps({**ANTHROPIC, "delta": {"type": "text_delta", "text": content}})
    at %= len(good) + 1
    text = good[:at] + insert + good[at + cut :]
    values = template.match(text)
    if values is None:
        return
    expected = copy.deepcopy(ANTHROPIC)
    expected["delta"]["text"] = values[0]
    assert json.loads(text) == expected


# --------------------------------------------------------------------------- parsers


def sse(obj: dict | str, event: str | None = None) -> bytes:
    head = f"event: {event}\n" if event else ""
    data = obj if isinstance(obj, str) else dumps(obj)
    return f"{head}data: {data}\n\n".encode()


def openai_chunk(delta: dict, finish=None, **extra) -> dict:
    obj = {
        "id": "chatcmpl-1",
        "object": "chat.completion.chunk",
        "created": 1764160000,
        "model": "gpt-4o-mini",
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
    }
    obj.update(extra)
    return obj


def openai_body() -> bytes:
    out = [sse(openai_chunk({"role": "assistant", "content": ""}, obfuscation="a"))]
    out += [
        sse(openai_chunk({"content": w}, obfuscation="p" * i))
        for i, w in enumerate(["Hel", 'lo "there"', " <thi", "nk>hm</think>", " ok\\", "✓"])
    ]
    out.append(sse(openai_chunk({"content": " later"}, created=1764160001)))  # a new second
    calls = [
        {
            "index": i,
            "id": f"call_{i}",
            "type": "function",
            "function": {"name": n, "arguments": ""},
        }
        for i, n in enumerate(["read_file", "write_file"])
    ]
    out.append(sse(openai_chunk({"tool_calls": calls})))
    for piece in ['{"pa', 'th": "a', '.txt"}']:  # two calls, their arguments interleaved
        for i in range(2):
            frag = {"tool_calls": [{"index": i, "function": {"arguments": piece}}]}
            out.append(sse(openai_chunk(frag, obfuscation="q")))
    out.append(sse(openai_chunk({}, "tool_calls")))
    usage = {"prompt_tokens": 5, "completion_tokens": 9, "total_tokens": 14}
    out.append(sse({**openai_chunk({}), "choices": [], "usage": usage}))
    out.append(b"data: [DONE]\n\n")
    return b"".join(out)


def anthropic_body() -> bytes:
    msg = {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "model": "claude-sonnet-4-20250514",
        "content": [],
        "usage": {"input_tokens": 5, "output_tokens": 1},
    }
    out = [sse({"type": "message_start", "message": msg}, "message_start")]

    def block(i: int, content_block: dict) -> None:
        start = {"type": "content_block_start", "index": i, "content_block": content_block}
        out.append(sse(start, "content_block_start"))

    def delta(i: int, d: dict) -> None:
        out.append(
            sse({"type": "content_block_delta", "index": i, "delta": d}, "content_block_delta")
        )

    def stop(i: int) -> None:
        out.append(sse({"type": "content_block_stop", "index": i}, "content_block_stop"))

    block(0, {"type": "thinking", "thinking": ""})
    for t in ["Let me", ' "think"', " more"]:
        delta(0, {"type": "thinking_delta", "thinking": t})
    delta(0, {"type": "signature_delta", "signature": "sig"})
    stop(0)
    block(1, {"type": "text", "text": ""})
    for t in ["Sure", ", here", " \\ 🙂"]:
        delta(1, {"type": "text_delta", "text": t})
    stop(1)
    block(2, {"type": "tool_use", "id": "toolu_1", "name": "read_file", "input": {}})
    for p in ['{"pa', 'th": "', 'a.txt"}']:
        delta(2, {"type": "input_json_delta", "partial_json": p})
    stop(2)
    end = {
        "type": "message_delta",
        "delta": {"stop_reason": "tool_use"},
        "usage": {"output_tokens": 9},
    }
    out.append(sse(end, "message_delta"))
    out.append(sse({"type": "message_stop"}, "message_stop"))
    return b"".join(out)


def folded(deltas: list) -> list[tuple]:
    """The deltas with each run of text, reasoning or one call's arguments as one:
    a run a template reads is applied once, so only the cut between them differs."""
    out: list[tuple] = []
    for d in deltas:
        if isinstance(d, ContentDelta | ReasoningDelta):
            key, piece = (d.type,), d.text
        elif isinstance(d, ToolCallArgsDelta):
            key, piece = (d.type, d.index), d.args
        else:
            out.append((repr(d),))
            continue
        if out and out[-1][0] == key:
            out[-1] = (key, out[-1][1] + piece)
        else:
            out.append((key, piece))
    return out


async def read(kind: str, body: bytes, cut: int | list[int]) -> tuple[list, dict]:
    """The stream in reads of ``cut`` bytes (or cut at those places)."""
    model = "gpt-4o-mini" if kind == "openai" else "claude-sonnet-4-20250514"
    provider = ProviderConfig(id="t", kind=kind, base_url="http://x", model=model, api_key="sk-t")
    if isinstance(cut, int):
        chunks = [body[i : i + cut] for i in range(0, len(body), cut)]
    else:
        chunks = [body[a:b] for a, b in pairwise([0, *cut, len(body)])]
    replay = ReplayTransport(ReplayResponse(chunks, headers={"content-type": "text/event-stream"}))
    result = await stream(provider, [Message.user("hi")], RequestOptions(), transport=replay)
    deltas = folded([d async for d in result.deltas])
    response = await result.response
    return deltas, response.model_dump()


@pytest.fixture
def counted(monkeypatch) -> dict[str, int]:
    """How many events templates read one by one, and how many whole runs."""
    seen = {"events": 0, "runs": 0, "literal": 0}
    match, apply_run = EventTemplate.match, TemplatedSSE._apply
    literal_run = TemplatedSSE._literal_run

    def counting_match(self, text):
        values = match(self, text)
        seen["events"] += values is not None
        return values

    def counting_run(self, *args):
        took = apply_run(self, *args)
        seen["runs"] += took
        return took

    def counting_literal(self, *args):
        stop = literal_run(self, *args)
        seen["literal"] += stop > 0
        return stop

    monkeypatch.setattr(EventTemplate, "match", counting_match)
    monkeypatch.setattr(TemplatedSSE, "_literal_run", counting_literal)
    monkeypatch.setattr(TemplatedSSE, "_apply", counting_run)
    return seen


async def same_with_and_without(kind: str, body: bytes, cut, monkeypatch) -> tuple:
    """The stream read with templates, then without: the same deltas (folded) and response."""
    with_templates = await read(kind, body, cut)
    with monkeypatch.context() as m:
        m.setattr(event_template, "MAX_TEMPLATES", 0)
        without = await read(kind, body, cut)
    assert with_templates == without
    return with_templates


@pytest.mark.parametrize("cut", [1, 7, 64, 1 << 20])
@pytest.mark.parametrize(
    ("kind", "body"),
    [("openai", openai_body()), ("anthropic", anthropic_body())],
    ids=["openai", "anthropic"],
)
async def test_a_stream_reads_the_same_with_templates_as_without(
    kind, body, cut, monkeypatch, counted
):
    _, response = await same_with_and_without(kind, body, cut, monkeypatch)
    assert counted["events"] + counted["runs"] >= 3  # the templates did read deltas
    assert response["raw"]["last_event"]  # the last event parsed for ``raw``


def long_body(kind: str, pieces: list[str]) -> bytes:
    """A reply of many text deltas, in the wire format of ``kind``; every other
    event with its non-ASCII characters as ``\\u`` escapes (surrogates always)."""

    def data(i: int, obj: dict) -> bytes:
        surrogate = any(0xD800 <= ord(c) <= 0xDFFF for c in pieces[i])
        return sse(dumps(obj, ascii_only=surrogate or i % 2 == 1))

    if kind == "openai":
        out = [
            data(i, openai_chunk({"content": p}, obfuscation="o" * (i % 5)))
            for i, p in enumerate(pieces)
        ]
        return b"".join([*out, sse(openai_chunk({}, "stop")), b"data: [DONE]\n\n"])
    body = anthropic_body()
    cut = body.index(b"event: content_block_stop")
    deltas = [
        b"event: content_block_delta\n"
        + data(
            i,
            {
                "type": "content_block_delta",
                "index": 0,
                "delta": {"type": "thinking_delta", "thinking": p},
            },
        )
        for i, p in enumerate(pieces)
    ]
    return body[:cut] + b"".join(deltas) + body[cut:]


# Strings a run's decoding must take exactly as a parse of each event does.
TRICKY = [
    "plain",
    'quote " and backslash \\ and slash /',
    "new\nline\ttab",
    "café ✓",
    "\ud83d",  # a surrogate pair split between two events: two halves, as each parse leaves it
    "\ude42",
    "🙂 raw",
    "",
]


@pytest.mark.parametrize("cut", [5, 61, 4096, 16384, 1 << 20])
@pytest.mark.parametrize("kind", ["openai", "anthropic"])
async def test_runs_decode_strings_as_a_parse_of_each_event_does(kind, cut, monkeypatch, counted):
    pieces = TRICKY * 40
    _, response = await same_with_and_without(kind, long_body(kind, pieces), cut, monkeypatch)
    if cut >= 16384:  # big reads: their first events teach the template, the rest is runs
        assert counted["runs"] >= 1
    text = response["reasoning"] if kind == "anthropic" else response["content"]
    assert text.endswith("".join(pieces)) and "\ud83d\ude42" in text


MESSES = [
    b": a comment between events\n\n",
    b"id: 7\n",  # a field the frame does not know, inside the next event
    b"\n\n\n",  # blank lines more
    b"data: 1\n",  # a data line more: the next event's data is not JSON, and dropped
]


def messy_body(kind: str) -> bytes:
    body = long_body(kind, [f" w{i}" for i in range(400)])
    for word in (b" w130", b" w250"):  # well after the first reads, where runs are read at once
        at = body.rindex(b"data: ", 0, body.index(word))
        body = body[:at] + b"".join(MESSES) + body[at:]
    body = body.replace(b" w300", b" w\\x300")  # an escape JSON does not have: dropped
    body = body.replace(b" w301", b" w\t301")  # a raw control character: dropped too
    body = body.replace(b" w302", b" w\xff302")  # not UTF-8: dropped
    # far from those: an escape and an encoded surrogate in one run, dropped
    body = body.replace(b" w350", b" w\\n\xed\xa0\x80350")
    body = body.replace(b"data: {", b"data:{", 1)  # no space after the colon
    return body


@pytest.mark.parametrize("cut", [3, 50, 4096, 16384, 1 << 20, "after a line"])
@pytest.mark.parametrize("kind", ["openai", "anthropic"])
async def test_what_a_frame_cannot_vouch_for_goes_the_decoders_way(kind, cut, monkeypatch, counted):
    body = messy_body(kind)
    if cut == "after a line":  # a read ends inside an event, right after one of its lines
        cut = [body.index(b"data: 1\n") + len(b"data: 1\n")]
    await same_with_and_without(kind, body, cut, monkeypatch)
    if cut == 16384:
        assert counted["runs"] >= 2
    crlf = body.replace(b"\n", b"\r\n")
    await same_with_and_without(kind, crlf, cut, monkeypatch)


@pytest.mark.parametrize("cut", [16384, 1 << 20])
async def test_a_run_whose_events_differ_in_their_head_is_read_right(cut, monkeypatch, counted):
    # Anthropic names every event; here ten in the middle of a run come without
    # their ``event:`` line: the frame takes both, and the strings stay in order.
    body = long_body("anthropic", [f" w{i}" for i in range(400)])
    for i in range(200, 210):
        line = body.rindex(b"event: ", 0, body.index(b' w%d"' % i))
        body = body[:line] + body[body.index(b"\n", line) + 1 :]
    _, response = await same_with_and_without("anthropic", body, cut, monkeypatch)
    assert counted["runs"] >= 1
    assert response["reasoning"].endswith("".join(f" w{i}" for i in range(400)))


async def test_a_read_larger_than_a_slice_reads_as_small_reads_do():
    words = [f" w{i} é🙂\\" for i in range(3000)]
    body = b"".join(
        sse(openai_chunk({"content": w}, obfuscation="x" * (i % 7))) for i, w in enumerate(words)
    )
    body += sse(openai_chunk({}, "stop")) + b"data: [DONE]\n\n"
    assert len(body) > 3 * READ_SLICE
    whole = await read("openai", body, len(body))
    small = await read("openai", body, 997)
    assert whole == small
    assert whole[1]["content"] == "".join(words)


def plain_body(kind: str, words: list[str]) -> bytes:
    """Text deltas: Anthropic's (one hole), OpenAI's with its padding (two), or
    an OpenAI-compatible server's without it (one: OpenRouter, Ollama, vLLM...)."""
    if kind == "anthropic":
        return long_body("anthropic", words)
    surrogate = {w for w in words if any(0xD800 <= ord(c) <= 0xDFFF for c in w)}

    def chunk(i: int, word: str) -> dict:
        padding = {"obfuscation": "x" * (i % 9)} if kind == "openai" else {}
        return openai_chunk({"content": word}, **padding)

    out = [sse(dumps(chunk(i, w), ascii_only=w in surrogate)) for i, w in enumerate(words)]
    return b"".join([*out, sse(openai_chunk({}, "stop")), b"data: [DONE]\n\n"])


@pytest.mark.parametrize("cut", [9000, 16384, 1 << 20])
@pytest.mark.parametrize("kind", ["openai", "compatible", "anthropic"])
async def test_runs_of_one_head_are_read_as_literal_bytes(kind, cut, monkeypatch, counted):
    words = [*TRICKY, " ok\\", *(f" w{i}" for i in range(600))] * 2
    wire = "anthropic" if kind == "anthropic" else "openai"
    _, response = await same_with_and_without(wire, plain_body(kind, words), cut, monkeypatch)
    assert counted["literal"] >= 1
    text = response["reasoning"] if kind == "anthropic" else response["content"]
    assert text.endswith("".join(words))


@pytest.mark.parametrize("cut", [16384, 1 << 20])
@pytest.mark.parametrize("kind", ["openai", "compatible"])
async def test_a_literal_run_stops_where_another_event_comes_between(
    kind, cut, monkeypatch, counted
):
    # a keep-alive and another head in the middle: the bytes differ from the
    # literal run there, and the frame's patterns read the rest
    words = [f" w{i}" for i in range(900)]
    body = plain_body(kind, words)
    at = body.rindex(b"data: ", 0, body.index(b" w500"))
    body = body[:at] + b": keep-alive\n\nevent: message\n" + body[at:]
    _, response = await same_with_and_without("openai", body, cut, monkeypatch)
    assert counted["literal"] >= 1 and counted["runs"] > counted["literal"]
    assert response["content"] == "".join(words)


async def test_a_template_over_several_data_lines_has_no_frame(monkeypatch):
    # Each event's JSON spans two ``data:`` lines.  One in the middle has a
    # second line that is no ``data:`` line: its data is not JSON, and it is
    # dropped; a frame built from the template's text would have read it.
    def event(word: str, data2: str = "data: ") -> bytes:
        head = json.dumps(openai_chunk({"content": word}), separators=(",", ":"))[:-1]
        return f'data: {head},\n{data2}"x":1}}\n\n'.encode()

    words = [f" w{i}" for i in range(1500)]
    body = b"".join(event(w, "" if w == " w900" else "data: ") for w in words)
    body += b"data: [DONE]\n\n"
    _, response = await same_with_and_without("openai", body, 1 << 20, monkeypatch)
    assert " w900" not in response["content"]
    assert response["content"] == "".join(w for w in words if w != " w900")
