"""``StreamResult.partial``: the reply so far, read from the stream's one
accumulator -- the same text the deltas join to, the same text the finished
reply (or a failed one's ``partial``) holds, and no copy made per delta."""

from __future__ import annotations

import pytest

from tests.llm.wire import (
    ANTHROPIC,
    HELLO,
    MODES,
    OLLAMA,
    OPENAI,
    SSE,
    a_end,
    a_start,
    a_text,
    anthropic_sse,
    chunk,
    cut_points,
    ndjson,
    pieces,
    sse,
)
from wiggum.llm import PartialReply, ProviderError, RequestOptions, stream
from wiggum.llm.transport import ReplayResponse, ReplayTransport

BODIES = {
    "openai": (
        OPENAI,
        sse(
            chunk({"role": "assistant", "reasoning_content": "Think "}),
            chunk({"reasoning_content": "twice."}),
            chunk({"content": "Hello "}),
            chunk({"content": "there, "}),
            chunk({"content": "friend."}, "stop"),
        ),
    ),
    "anthropic": (
        ANTHROPIC,
        anthropic_sse(a_start(), *a_text(0, "Hello ", "there, ", "friend."), *a_end("end_turn")),
    ),
    "ollama": (
        OLLAMA,
        ndjson(
            {"message": {"role": "assistant", "thinking": "Think twice."}, "done": False},
            {"message": {"role": "assistant", "content": "Hello "}, "done": False},
            {"message": {"role": "assistant", "content": "there, friend."}, "done": False},
            {"message": {"role": "assistant", "content": ""}, "done": True},
        ),
    ),
}


async def open_stream(provider, body: bytes, mode: str = "whole", *, extra=(), options=None):
    ctype = {"content-type": "application/x-ndjson"} if provider.kind == "ollama" else SSE
    transport = ReplayTransport(
        *extra, ReplayResponse(pieces(body, cut_points(body, mode)), 200, ctype)
    )
    return await stream(provider, HELLO, options, transport=transport)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("kind", sorted(BODIES))
async def test_partial_is_the_reply_so_far_after_every_delta(kind, mode):
    provider, body = BODIES[kind]
    result = await open_stream(provider, body, mode)
    assert isinstance(result.partial, PartialReply) and result.partial.content == ""
    joined = reasoning = ""
    async for delta in result.deltas:
        if delta.type == "content":
            joined += delta.text
        elif delta.type == "reasoning":
            reasoning += delta.text
        # The rest of the same read may already be in: never behind, never other.
        assert result.partial.content.startswith(joined)
        assert result.partial.reasoning.startswith(reasoning)
    response = await result.response
    assert result.partial.content == joined == response.content == "Hello there, friend."
    assert result.partial.reasoning == reasoning == (response.reasoning or "")


async def test_reading_partial_again_copies_nothing():
    provider, body = BODIES["openai"]
    result = await open_stream(provider, body, "bytes")
    async for delta in result.deltas:
        if delta.type == "content":
            first = result.partial.content
            assert result.partial.content is first  # joined once, then kept as one piece


async def test_partial_keeps_the_text_a_failed_stream_keeps():
    body = sse(
        chunk({"content": "Half an ans"}),
        {
            "id": "gen-1",
            "choices": [{"index": 0, "delta": {}, "finish_reason": "error"}],
            "error": {"message": "Upstream died", "code": 502},
        },
        done=False,
    )
    result = await open_stream(OPENAI, body)
    [_ async for _ in result.deltas]
    with pytest.raises(ProviderError) as info:
        await result.response
    assert result.partial.content == info.value.partial.content == "Half an ans"
    assert result.partial.delivered


async def test_partial_is_the_text_of_the_reply_not_of_the_think_tags():
    body = sse(
        chunk({"content": "<think>Plan it.</think>"}),
        chunk({"content": "\n\nThe answer."}, "stop"),
    )
    result = await open_stream(OPENAI, body)
    summed = "".join([d.text async for d in result.deltas if d.type == "content"])
    response = await result.response
    assert summed == "\n\nThe answer."  # the deltas carry the blank line as it came
    assert result.partial.content == response.content == "The answer."
    assert result.partial.reasoning == response.reasoning == "Plan it."


async def test_partial_follows_the_attempt_that_answers():
    failed = sse(
        {
            "id": "gen-1",
            "choices": [{"index": 0, "delta": {}, "finish_reason": "error"}],
            "error": {"message": "Upstream overloaded", "code": 502},
        },
        done=False,
    )
    _, ok = BODIES["openai"]

    async def no_sleep(_seconds: float) -> None:
        return None

    result = await open_stream(
        OPENAI,
        ok,
        extra=[ReplayResponse([failed], 200, SSE)],
        options=RequestOptions(sleep=no_sleep),
    )
    await result.response
    assert result.partial.content == "Hello there, friend."
    assert result.partial.reasoning == "Think twice."
