"""The faults a provider (or what stands between it and the page) can commit, and
what the client must make of each: the catalogue of ``test_fault_matrix.py``
and ``bench/faults.py``.

Each :class:`Fault` is a handler for :class:`~tests.llm.fault_server.FaultServer`
and the :class:`Outcome` expected of ``stream()`` and of ``chat()`` with the
bounds below: the error class (or success), the words ``explain()`` titles
it with, how many requests the server saw (retries), the text kept (the
reply, or the partial reply of an error) and whether usage was kept.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass

from tests.llm.fault_server import Ctx, Handler, gzip_stream, http_date
from wiggum.llm import errors as E

#: The bounds the faults are tried with (seconds): the answer's head and each
#: body read, and a stream's wait for its next event.
TIMEOUT, IDLE = 0.6, 0.3
#: The bounds of a case that no bound ends: roomy, so a loaded machine cannot
#: turn its reply (or its error) into a timeout.
ROOMY_TIMEOUT, ROOMY_IDLE = 20.0, 10.0
#: A drip's pause between pieces: well inside both bounds.
DRIP = 0.1
#: Requests a retried fault gets: the first and the default two retries.
ALL_TRIES = 3
GOOD = "good end"
LONG = 2 * 1024 * 1024


@dataclass(frozen=True)
class Outcome:
    #: ``None``: the reply succeeds.
    error: type | None = None
    #: ``explain()``'s title for the error.
    title: str | None = None
    #: Requests the server saw (``None``: not counted, e.g. nothing listening).
    requests: int | None = 1
    #: The reply's text, or the error's partial text (``""``: none arrived).
    content: str | None = GOOD
    #: Usage kept (the reply's, or what had arrived of it before the fault).
    usage: bool = True
    #: The bound that ends the case (its give-up time is at most twice this).
    bound: float = 0.0
    #: The error's ``detail`` (what came instead of a reply), when it says one.
    detail: str | None = None


Expect = Outcome | Callable[[str], Outcome]


@dataclass(frozen=True)
class Fault:
    name: str
    handler: Handler
    stream: Expect
    chat: Expect

    def expect(self, mode: str, dialect: str) -> Outcome:
        found = self.stream if mode == "stream" else self.chat
        return found(dialect) if callable(found) else found


# ---------------------------------------------------------------- outcomes


def failed(
    error: type,
    title: str,
    *,
    requests: int | None = 1,
    bound: float = 0.0,
    detail: str | None = None,
) -> Outcome:
    """An error before any text arrived."""
    return Outcome(error, title, requests, "", False, bound, detail)


def cut(error: type, title: str, *, bound: float = 0.0) -> Callable[[str], Outcome]:
    """An error after "good" arrived: the partial keeps it (and Anthropic's usage,
    which came first)."""
    return lambda d: Outcome(error, title, 1, "good", usage=d == "anthropic", bound=bound)


#: Nothing listens: no request is ever seen (the retries happen all the same).
REFUSED = failed(E.NetworkError, "Connection failed", requests=None)
UNREADABLE = failed(E.MalformedResponseError, "Unreadable reply")
WEB_PAGE = failed(E.MalformedResponseError, "Unreadable reply", detail="a web page")
DROPPED = failed(E.NetworkError, "Connection failed", requests=ALL_TRIES)
CUT_OFF_BATCH = failed(E.StreamIncompleteError, "Reply cut off", requests=ALL_TRIES)
UNAVAILABLE = failed(E.ProviderError, "Provider unavailable", requests=ALL_TRIES)


def _in_stream_title(dialect: str) -> str:
    return "Provider error" if dialect == "ollama" else "Provider unavailable"


def _error_body(dialect: str) -> Outcome:
    # A 200 body that is an error object: OpenAI's server_error and Anthropic's
    # overloaded_error are retried; Ollama's bare {"error": …} is not.
    tries = 1 if dialect == "ollama" else ALL_TRIES
    return failed(E.ProviderError, _in_stream_title(dialect), requests=tries)


def _in_stream_first(dialect: str) -> Outcome:
    return _error_body(dialect)


# ---------------------------------------------------------------- handlers


async def ok(ctx: Ctx) -> None:
    await ctx.answer(ctx.reply(b"good", b" end"), content_type=ctx.content_type)


async def reset_before_headers(ctx: Ctx) -> None:
    ctx.reset()


async def close_before_headers(ctx: Ctx) -> None:
    return  # the connection is closed cleanly, nothing said


async def _half(ctx: Ctx) -> None:
    """The head and the first half of the reply ("good"), the rest never sent."""
    if ctx.stream:
        await ctx.head(200, ctx.content_type)
        await ctx.send(ctx.wire.head() + ctx.wire.text(b"good"), pause=0.05)
    else:
        body = ctx.reply(b"good", b" end")
        await ctx.head(200, ctx.content_type, {"Content-Length": str(len(body))})
        await ctx.send(body[: len(body) // 2], pause=0.05)


async def reset_mid_stream(ctx: Ctx) -> None:
    await _half(ctx)
    ctx.reset()


async def eof_mid_stream(ctx: Ctx) -> None:
    await _half(ctx)  # then closed cleanly, with no end marker


async def stall_before_headers(ctx: Ctx) -> None:
    await ctx.stall()


async def stall_before_first_byte(ctx: Ctx) -> None:
    if ctx.stream:
        await ctx.head(200, ctx.content_type)
    else:
        await ctx.head(200, ctx.content_type, {"Content-Length": "300"})
    await ctx.stall()


async def stall_mid_stream(ctx: Ctx) -> None:
    await _half(ctx)
    await ctx.stall()


async def slow_drip(ctx: Ctx) -> None:
    """The reply in pieces, each well inside the bounds, all of them past them."""
    texts = [b"good", b" ", b"e", b"n", b"d"]
    if ctx.stream:
        await ctx.head(200, ctx.content_type)
        wire = ctx.wire
        pieces = [wire.head(), *(wire.text(t) for t in texts), wire.tail()]
    else:
        body = ctx.reply(*texts)
        await ctx.head(200, ctx.content_type, {"Content-Length": str(len(body))})
        step = len(body) // 8 + 1
        pieces = [body[i : i + step] for i in range(0, len(body), step)]
    for piece in pieces:
        await ctx.send(piece, pause=DRIP)


def _keepalive(ctx: Ctx) -> bytes:
    # SSE has comments; NDJSON and a JSON body only blank lines
    return b": ping\n\n" if ctx.stream and ctx.wire.name != "ollama" else b"\n"


async def keepalive_only(ctx: Ctx) -> None:
    await ctx.head(200, ctx.content_type)
    loop = asyncio.get_running_loop()
    end = loop.time() + 10.0
    while loop.time() < end:
        await ctx.send(_keepalive(ctx), pause=0.05)


async def keepalive_then_reply(ctx: Ctx) -> None:
    await ctx.head(200, ctx.content_type)
    for _ in range(3):
        await ctx.send(_keepalive(ctx), pause=0.02)
    await ctx.send(ctx.reply(b"good", b" end"))


def _status(status: int, body: bytes = b"", content_type: str = "application/json", **headers):
    async def handler(ctx: Ctx) -> None:
        await ctx.answer(body, status, content_type, **headers)

    return handler


def _first_then_ok(first: Handler) -> Handler:
    async def handler(ctx: Ctx) -> None:
        await (first if ctx.attempt == 1 else ok)(ctx)

    return handler


async def rate_limit_date(ctx: Ctx) -> None:
    if ctx.attempt == 1:
        await ctx.answer(b'{"error":{"message":"slow down"}}', 429, **{"Retry-After": http_date(2)})
    else:
        await ok(ctx)


async def html_200(ctx: Ctx) -> None:
    await ctx.answer(b"<!DOCTYPE html><html><body>Welcome</body></html>", content_type="text/html")


async def html_200_unlabelled(ctx: Ctx) -> None:
    await ctx.answer(b"\n<!doctype html><title>Sign in</title>", content_type=ctx.content_type)


async def garbage_stream(ctx: Ctx) -> None:
    await ctx.head(200, ctx.content_type)
    for n in range(10):
        await ctx.send(b"lorem ipsum dolor %d sit amet\n" % n)


async def empty_200(ctx: Ctx) -> None:
    await ctx.answer(b"", content_type=ctx.content_type)


async def in_stream_error(ctx: Ctx) -> None:
    if not ctx.stream:
        await ctx.answer(ctx.wire.error_body())
        return
    await ctx.head(200, ctx.content_type)
    await ctx.send(ctx.wire.head() + ctx.wire.text(b"good") + ctx.wire.error_event())


async def in_stream_error_first(ctx: Ctx) -> None:
    if not ctx.stream:
        await ctx.answer(ctx.wire.error_body())
        return
    await ctx.head(200, ctx.content_type)
    await ctx.send(ctx.wire.error_event())


async def invalid_utf8(ctx: Ctx) -> None:
    await ctx.answer(
        ctx.reply(b"good", b" A\xffB", b" C\xc3(D", b" end"), content_type=ctx.content_type
    )


SPLIT_TEXT = "Hello, wörld — ünïcode ✓ 🌍 end"


async def split_utf8(ctx: Ctx) -> None:
    """Every multi-byte character cut between two writes."""
    body = ctx.reply(SPLIT_TEXT.encode())
    await ctx.head(200, ctx.content_type)
    at = 0
    while at < len(body):
        nxt = at + 1
        while nxt < len(body) and body[nxt] < 0x80:  # up to inside the next non-ASCII
            nxt += 1
        await ctx.send(body[at : nxt + 1], pause=0.002)
        at = nxt + 1


async def long_line(ctx: Ctx) -> None:
    await ctx.answer(ctx.reply(b"good", b"x" * LONG, b" end"), content_type=ctx.content_type)


async def truncated_tool_args(ctx: Ctx) -> None:
    await ctx.answer(ctx.wire.truncated_tool(stream=ctx.stream), content_type=ctx.content_type)


async def redirect_same_origin(ctx: Ctx) -> None:
    case = ctx.seen.path.split("/")[1]
    where = f"/{case}/ok/{ctx.wire.name}/{ctx.rest}"
    await ctx.answer(b"", 307, **{"Location": where})


#: Where the cross-origin redirect points: ``localhost`` is another origin
#: than ``127.0.0.1``; a request that arrives there is counted under this case.
ELSEWHERE = "elsewhere"


async def redirect_cross_origin(ctx: Ctx) -> None:
    where = f"http://localhost:{ctx.server.port}/{ELSEWHERE}/ok/{ctx.wire.name}/{ctx.rest}"
    await ctx.answer(b"", 307, **{"Location": where})


async def gzip(ctx: Ctx) -> None:
    wire = ctx.wire
    if ctx.stream:
        pieces = [wire.head(), wire.text(b"good"), wire.text(b" end"), wire.tail()]
        await ctx.head(200, ctx.content_type, {"Content-Encoding": "gzip"})
        for piece in gzip_stream(pieces):
            await ctx.send(piece, pause=0.01)
    else:
        body = b"".join(gzip_stream([ctx.reply(b"good", b" end")]))
        await ctx.answer(body, content_type=ctx.content_type, **{"Content-Encoding": "gzip"})


async def bad_gzip(ctx: Ctx) -> None:
    body = b"this is not gzip at all"
    await ctx.answer(body, content_type=ctx.content_type, **{"Content-Encoding": "gzip"})


async def duplicate_end_markers(ctx: Ctx) -> None:
    if not ctx.stream:
        await ok(ctx)
        return
    wire = ctx.wire
    body = wire.stream(b"good", b" end") + wire.end_marker() + wire.text(b" after") + wire.tail()
    await ctx.answer(body, content_type=ctx.content_type)


async def sse_labelled_json(ctx: Ctx) -> None:
    label = "application/json" if ctx.stream else "text/event-stream"
    await ctx.head(200, label)
    await ctx.send(ctx.reply(b"good", b" end"))


async def json_to_stream_request(ctx: Ctx) -> None:
    await ctx.answer(ctx.wire.body(b"good end"), content_type="application/json")


async def reset_after_end(ctx: Ctx) -> None:
    if ctx.stream:
        await ctx.head(200, ctx.content_type)
        await ctx.send(ctx.reply(b"good", b" end"), pause=0.05)
    else:  # the whole body, by its length, then the reset
        await ctx.answer(ctx.reply(b"good", b" end"), content_type=ctx.content_type)
        await asyncio.sleep(0.05)
    ctx.reset()


_JSON_500 = b'{"error":{"message":"Internal error","type":"server_error"}}'
_HTML_502 = b"<html><body><h1>502 Bad Gateway</h1></body></html>"

FAULTS: list[Fault] = [
    Fault("refused", ok, REFUSED, REFUSED),
    Fault("reset_before_headers", reset_before_headers, DROPPED, DROPPED),
    Fault("close_before_headers", close_before_headers, DROPPED, DROPPED),
    Fault(
        "reset_mid_stream",
        reset_mid_stream,
        cut(E.StreamIncompleteError, "Reply cut off"),
        CUT_OFF_BATCH,
    ),
    Fault(
        "eof_mid_stream",
        eof_mid_stream,
        cut(E.StreamIncompleteError, "Reply cut off"),
        CUT_OFF_BATCH,
    ),
    Fault(
        "stall_before_headers",
        stall_before_headers,
        failed(E.RequestTimeoutError, "No answer", bound=TIMEOUT),
        failed(E.RequestTimeoutError, "No answer", bound=TIMEOUT),
    ),
    Fault(
        "stall_before_first_byte",
        stall_before_first_byte,
        failed(E.StreamIdleError, "Reply stalled", bound=IDLE),
        failed(E.RequestTimeoutError, "No answer", bound=TIMEOUT),
    ),
    Fault(
        "stall_mid_stream",
        stall_mid_stream,
        cut(E.StreamIdleError, "Reply stalled", bound=IDLE),
        failed(E.RequestTimeoutError, "No answer", bound=TIMEOUT),
    ),
    Fault("slow_drip", slow_drip, Outcome(bound=1.5), Outcome(bound=1.5)),
    Fault(
        "keepalive_only",
        keepalive_only,
        failed(E.StreamIdleError, "Reply stalled", bound=IDLE),
        failed(E.RequestTimeoutError, "No answer", bound=TIMEOUT),
    ),
    Fault("keepalive_then_reply", keepalive_then_reply, Outcome(), Outcome()),
    Fault(
        "rate_limit_seconds",
        _status(429, b'{"error":{"message":"slow down"}}', **{"Retry-After": "1"}),
        failed(E.RateLimitError, "Rate limited", requests=ALL_TRIES),
        failed(E.RateLimitError, "Rate limited", requests=ALL_TRIES),
    ),
    Fault("rate_limit_date", rate_limit_date, Outcome(requests=2), Outcome(requests=2)),
    Fault(
        "retry_after_too_long",
        _status(429, b'{"error":{"message":"try later"}}', **{"Retry-After": "3600"}),
        failed(E.RateLimitError, "Rate limited"),
        failed(E.RateLimitError, "Rate limited"),
    ),
    Fault("server_error_json", _status(500, _JSON_500), UNAVAILABLE, UNAVAILABLE),
    Fault("server_error_html", _status(502, _HTML_502, "text/html"), UNAVAILABLE, UNAVAILABLE),
    Fault("server_error_empty", _status(503, b"", "text/plain"), UNAVAILABLE, UNAVAILABLE),
    Fault(
        "server_error_once",
        _first_then_ok(_status(500, _JSON_500)),
        Outcome(requests=2),
        Outcome(requests=2),
    ),
    Fault("html_200", html_200, WEB_PAGE, WEB_PAGE),
    Fault("html_200_unlabelled", html_200_unlabelled, WEB_PAGE, WEB_PAGE),
    Fault(
        "garbage_stream",
        garbage_stream,
        failed(
            E.MalformedResponseError,
            "Unreadable reply",
            detail="text that is not a reply stream",
        ),
        failed(E.MalformedResponseError, "Unreadable reply", detail="text that is not JSON"),
    ),
    Fault("empty_200", empty_200, UNREADABLE, UNREADABLE),
    Fault(
        "in_stream_error",
        in_stream_error,
        lambda d: Outcome(E.ProviderError, _in_stream_title(d), 1, "good", usage=d == "anthropic"),
        _error_body,
    ),
    Fault("in_stream_error_first", in_stream_error_first, _in_stream_first, _error_body),
    Fault(
        "invalid_utf8",
        invalid_utf8,
        Outcome(content="good A\ufffdB C\ufffd(D end"),
        Outcome(content="good A\ufffdB C\ufffd(D end"),
    ),
    Fault("split_utf8", split_utf8, Outcome(content=SPLIT_TEXT), Outcome(content=SPLIT_TEXT)),
    Fault(
        "long_line",
        long_line,
        Outcome(content="good" + "x" * LONG + " end"),
        Outcome(content="good" + "x" * LONG + " end"),
    ),
    Fault(
        "truncated_tool_args",
        truncated_tool_args,
        Outcome(content="", usage=False),
        Outcome(content="", usage=False),
    ),
    Fault("redirect_same_origin", redirect_same_origin, Outcome(requests=2), Outcome(requests=2)),
    Fault(
        "redirect_cross_origin",
        redirect_cross_origin,
        failed(E.RedirectError, "Redirected elsewhere"),
        failed(E.RedirectError, "Redirected elsewhere"),
    ),
    Fault("gzip", gzip, Outcome(), Outcome()),
    Fault("bad_gzip", bad_gzip, UNREADABLE, UNREADABLE),
    Fault("duplicate_end_markers", duplicate_end_markers, Outcome(), Outcome()),
    Fault("sse_labelled_json", sse_labelled_json, Outcome(), Outcome()),
    Fault("json_to_stream_request", json_to_stream_request, Outcome(), Outcome()),
    Fault("reset_after_end", reset_after_end, Outcome(), Outcome()),
    Fault(
        "auth_401",
        _status(401, b'{"error":{"message":"Incorrect API key provided"}}'),
        failed(E.AuthenticationError, "API key rejected"),
        failed(E.AuthenticationError, "API key rejected"),
    ),
]

HANDLERS: dict[str, Handler] = {f.name: f.handler for f in FAULTS} | {"ok": ok}
BY_NAME = {f.name: f for f in FAULTS}
