"""Scripted turns for the provider simulator: what one chat request gets back.

A :class:`Turn` is dialect-neutral; :mod:`.wire` renders it as OpenAI, Anthropic or Ollama,
streamed or not, depending on the request that consumes it.
"""

from __future__ import annotations

import asyncio
import json
import math
import secrets
import string
import threading
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

_ALNUM = string.ascii_letters + string.digits


def rand_id(prefix: str, n: int) -> str:
    """``prefix`` + ``n`` random alphanumerics (``chatcmpl-…``, ``call_…``, ``msg_01…``)."""
    return prefix + "".join(secrets.choice(_ALNUM) for _ in range(n))


def split_text(s: str, n: int) -> list[str]:
    """Split ``s`` into ``n`` near-equal, non-empty pieces (fewer if ``s`` is shorter)."""
    if not s:
        return []
    n = max(1, min(n, len(s)))
    size, extra = divmod(len(s), n)
    out, pos = [], 0
    for i in range(n):
        step = size + (1 if i < extra else 0)
        out.append(s[pos : pos + step])
        pos += step
    return out


# --------------------------------------------------------------------------- parts


@dataclass
class Text:
    """Assistant text. ``text`` may be a string (split into ``chunks`` pieces) or an explicit
    list of pieces, each sent as its own wire chunk."""

    text: str | Sequence[str]
    chunks: int = 3
    #: Web pages this text cites, ``(url, title)``: Anthropic ``citations`` on the text
    #: block (``citations_delta`` when streamed), OpenAI/OpenRouter ``url_citation``
    #: annotations on the message (on the text's last chunk when streamed).
    citations: Sequence[tuple[str, str]] = ()

    def pieces(self) -> list[str]:
        if isinstance(self.text, str):
            return split_text(self.text, self.chunks)
        return [p for p in self.text if p]

    @property
    def full(self) -> str:
        return self.text if isinstance(self.text, str) else "".join(self.text)


@dataclass
class WebSearch:
    """A web search the provider ran itself (Anthropic's ``web_search`` server tool): a
    ``server_tool_use`` block (its query streamed as ``input_json_delta``) and the
    ``web_search_tool_result`` block holding ``results`` as ``(url, title)``.  Other
    dialects have no such blocks and send nothing for it."""

    query: str
    results: Sequence[tuple[str, str]] = ()
    id: str | None = None


@dataclass
class Reasoning:
    """Reasoning / thinking text. Rendered as OpenAI ``reasoning_content`` (or the
    ``Turn.reasoning_format`` variant), an Anthropic ``thinking`` block (``thinking_delta``s then
    one ``signature_delta``), or Ollama ``message.thinking``."""

    text: str | Sequence[str]
    chunks: int = 3
    signature: str | None = None  # Anthropic signature; random if None

    def pieces(self) -> list[str]:
        if isinstance(self.text, str):
            return split_text(self.text, self.chunks)
        return [p for p in self.text if p]

    @property
    def full(self) -> str:
        return self.text if isinstance(self.text, str) else "".join(self.text)


@dataclass
class ToolCall:
    """A tool call. ``arguments`` is a dict (JSON-encoded compactly on the wire) or a raw
    string sent verbatim (use that for malformed-JSON tests). ``chunks`` is how many fragments
    the arguments string is split into when streamed (OpenAI / Anthropic; Ollama sends the
    whole call in one chunk). ``id`` is generated per dialect (``call_…`` / ``toolu_…``) when
    None; the ids actually sent are recorded on ``Request.tool_call_ids``."""

    name: str
    arguments: Mapping[str, Any] | str = field(default_factory=dict)
    id: str | None = None
    chunks: int = 3

    @property
    def arguments_json(self) -> str:
        if isinstance(self.arguments, str):
            return self.arguments
        return json.dumps(self.arguments, separators=(",", ":"), ensure_ascii=False)

    @property
    def arguments_obj(self) -> Any:
        """Arguments as an object (for Anthropic ``input`` / Ollama ``arguments``)."""
        if isinstance(self.arguments, str):
            try:
                return json.loads(self.arguments)
            except ValueError:
                return self.arguments
        return dict(self.arguments)


@dataclass
class Usage:
    prompt_tokens: int
    completion_tokens: int
    cached_tokens: int = 0
    reasoning_tokens: int = 0


Part = Text | Reasoning | ToolCall | WebSearch


# --------------------------------------------------------------------------- faults


@dataclass
class HttpError:
    """Answer with ``status`` and ``body``. ``body=None`` → a dialect-shaped error JSON
    (OpenAI ``{"error":{...}}``, Anthropic ``{"type":"error","error":{...}}``, Ollama
    ``{"error":"..."}``) built from ``message``/``type``/``code`` (defaults depend on status).
    A dict body is sent as JSON; str/bytes are sent verbatim. ``per_dialect`` maps a dialect
    name to a body that overrides ``body`` for requests in that dialect."""

    status: int
    body: Any = None
    headers: Mapping[str, str] = field(default_factory=dict)
    message: str | None = None
    type: str | None = None
    code: str | int | None = None
    per_dialect: Mapping[str, Any] = field(default_factory=dict)


@dataclass
class Disconnect:
    """Close the socket after ``after`` wire chunks (SSE events / NDJSON lines), without the
    final chunk, ``[DONE]`` or the chunked-encoding terminator. Non-streaming: ``after=0``
    closes before any response; otherwise headers and half the body are sent, then close."""

    after: int = 0


@dataclass
class StreamError:
    """After ``after`` wire chunks, send an in-band error inside the 200 stream and end it:
    OpenAI/OpenRouter chunk ``{"error":{"message","code"},"choices":[{...,"finish_reason":
    "error"}]}``; Anthropic ``event: error`` with ``{"type":"error","error":{"type",
    "message"}}``; Ollama ``{"error":"..."}`` line. Non-streaming: a 200 whose JSON body is
    that error object."""

    after: int = 0
    message: str = "Provider returned error"
    code: int | str = 502
    type: str = "overloaded_error"  # Anthropic error type


@dataclass
class Stall:
    """After ``after`` wire chunks, send nothing for ``seconds`` (None = until the client
    disconnects or the simulator stops). Then ``then="close"`` drops the connection
    abruptly, ``"continue"`` sends the rest of the turn. Non-streaming: the stall happens
    before the response headers."""

    after: int = 0
    seconds: float | None = None
    then: Literal["close", "continue"] = "close"


Fault = HttpError | Disconnect | StreamError | Stall


class Gate:
    """Holds a streamed turn's wire chunks back until the test lets them out.

    ``Turn(..., gate=gate)`` sends its headers at once, then each wire chunk (SSE
    event / NDJSON line) only once the gate allows one more: ``allow(n)`` lets
    ``n`` more out, ``open()`` all that remain.  What a client shows or hands over
    while the gate holds is what arrived so far, whatever the machine's speed: the
    test that waits for it needs no clock.  Safe to call from any thread.
    """

    def __init__(self, allowed: int = 0) -> None:
        self._allowed: float = allowed
        self._sent = 0
        self._changed = threading.Condition()

    def allow(self, n: int = 1) -> None:
        with self._changed:
            self._allowed += n
            self._changed.notify_all()

    def allow_until(self, n: int) -> None:
        """Let out the chunks up to the ``n``-th (none again that already went)."""
        with self._changed:
            self._allowed = max(self._allowed, n)
            self._changed.notify_all()

    def open(self) -> None:
        self.allow_until(math.inf)

    @property
    def sent(self) -> int:
        """Wire chunks that went out so far."""
        return self._sent

    def wait_sent(self, n: int, timeout: float = 10.0) -> None:
        """Block until ``n`` chunks went out (a generous ``timeout`` bounds the wait)."""
        with self._changed:
            if not self._changed.wait_for(lambda: self._sent >= n, timeout):
                raise TimeoutError(f"the gate let {self._sent} of {n} chunks out")

    async def admit(self, reader: asyncio.StreamReader) -> bool:
        """Wait for leave to send one more chunk (the server's side); True if the
        client went away meanwhile."""
        while True:
            with self._changed:
                if self._sent < self._allowed:
                    self._sent += 1
                    self._changed.notify_all()
                    return False
            try:  # the client sends nothing more: data here is its disconnect
                data = await asyncio.wait_for(reader.read(65536), 0.01)
            except TimeoutError:
                continue
            if not data:
                return True

    def __repr__(self) -> str:
        return f"Gate(sent={self._sent}, allowed={self._allowed})"


@dataclass
class Raw:
    """Send exactly these byte chunks (each its own HTTP chunk / socket write). A float/int
    item sleeps that many seconds; str items are UTF-8 encoded. ``complete=False`` drops the
    connection at the end instead of finishing the body."""

    chunks: Sequence[bytes | str | float]
    status: int = 200
    content_type: str = "text/event-stream; charset=utf-8"
    headers: Mapping[str, str] = field(default_factory=dict)
    delay: float = 0.0
    complete: bool = True


# --------------------------------------------------------------------------- turn

ReasoningFormat = Literal[
    "reasoning_content", "reasoning", "reasoning_details", "openrouter", "think"
]
UsageMode = Literal["auto", "separate", "on_finish", "none"]


class Turn:
    """One scripted response.

    Positional ``parts`` are sent in order: ``str`` (= ``Text(s, chunks)``), :class:`Text`,
    :class:`Reasoning`, :class:`ToolCall`. Keyword shortcuts ``reasoning=``, ``text=``,
    ``tool_calls=`` append parts in that order after the positional ones; ``tool_calls``
    items may be ToolCall, ``(name, args)`` or ``{"name":..., "arguments":...}``.

    Options:
      usage          Usage | (prompt, completion) | None (estimate from sizes)
      finish_reason  generic "stop" | "length" | "tool_calls" | "content_filter" (mapped per
                     dialect, e.g. Anthropic end_turn/max_tokens/tool_use/refusal), or any
                     other string passed through verbatim. Default: tool_calls if any, else stop.
      delay          seconds between wire chunks (streaming)
      ttfb           seconds before the response headers
      model          only a request for this model consumes the turn (None = any)
      fault          HttpError | Disconnect | StreamError | Stall
      garbage        True (dialect default junk) or list of raw lines, one interleaved before
                     each wire chunk: SSE comments, ``data: : keepalive``, non-JSON data lines
      line_ending    SSE line ending "\\n" | "\\r\\n" | "\\r" (or "lf" / "crlf" / "cr")
      reasoning_format  OpenAI only: reasoning_content (DeepSeek) | reasoning | reasoning_details
                     | openrouter (reasoning + reasoning_details) | think (<think> in content)
      usage_mode     OpenAI stream only: auto (separate ``choices: []`` chunk iff
                     ``stream_options.include_usage``) | separate (always) | on_finish (usage on
                     the finish_reason chunk) | none
      framing        "chunked" (Transfer-Encoding: chunked) | "close" (no length, Connection:
                     close, body ends when the socket closes)
      headers        extra response headers
      raw            Raw(...) — ignore everything else and send these bytes
      gate           Gate(): each wire chunk waits for the test to let it out (streaming)
    """

    def __init__(
        self,
        *parts: str | Part,
        text: str | None = None,
        reasoning: str | None = None,
        tool_calls: Iterable[ToolCall | tuple | Mapping] = (),
        chunks: int = 3,
        usage: Usage | tuple[int, int] | None = None,
        finish_reason: str | None = None,
        delay: float = 0.0,
        ttfb: float = 0.0,
        model: str | None = None,
        fault: Fault | None = None,
        garbage: bool | Sequence[str] = False,
        line_ending: str = "\n",
        reasoning_format: ReasoningFormat = "reasoning_content",
        usage_mode: UsageMode = "auto",
        framing: Literal["chunked", "close"] = "chunked",
        headers: Mapping[str, str] | None = None,
        raw: Raw | None = None,
        gate: Gate | None = None,
    ) -> None:
        out: list[Part] = []
        for p in parts:
            if isinstance(p, str):
                out.append(Text(p, chunks))
            elif isinstance(p, Text | Reasoning | ToolCall | WebSearch):
                out.append(p)
            else:
                raise TypeError(f"unsupported turn part: {p!r}")
        if reasoning:
            out.append(Reasoning(reasoning, chunks))
        if text:
            out.append(Text(text, chunks))
        for tc in tool_calls:
            if isinstance(tc, ToolCall):
                out.append(tc)
            elif isinstance(tc, tuple):
                out.append(ToolCall(*tc))
            else:
                out.append(ToolCall(tc["name"], tc.get("arguments", {}), tc.get("id")))
        self.parts = out
        if isinstance(usage, tuple):
            usage = Usage(*usage)
        self.usage = usage
        self._finish_reason = finish_reason
        self.delay = delay
        self.ttfb = ttfb
        self.model = model
        self.fault = fault
        self.garbage = garbage
        self.line_ending = {"lf": "\n", "crlf": "\r\n", "cr": "\r"}.get(
            line_ending.lower(), line_ending
        )
        if self.line_ending not in ("\n", "\r\n", "\r"):
            raise ValueError(f"bad line_ending {line_ending!r}")
        self.reasoning_format = reasoning_format
        self.usage_mode = usage_mode
        self.framing = framing
        self.headers = dict(headers or {})
        self.raw = raw
        self.gate = gate

    # convenience views
    @property
    def text(self) -> str:
        return "".join(p.full for p in self.parts if isinstance(p, Text))

    @property
    def reasoning(self) -> str:
        return "".join(p.full for p in self.parts if isinstance(p, Reasoning))

    @property
    def tool_calls(self) -> list[ToolCall]:
        return [p for p in self.parts if isinstance(p, ToolCall)]

    @property
    def finish_reason(self) -> str:
        if self._finish_reason:
            return self._finish_reason
        return "tool_calls" if self.tool_calls else "stop"

    def __repr__(self) -> str:
        bits = [repr(p) for p in self.parts]
        if self.fault:
            bits.append(f"fault={self.fault!r}")
        if self.raw:
            bits.append("raw=...")
        if self.model:
            bits.append(f"model={self.model!r}")
        return f"Turn({', '.join(bits)})"


# --------------------------------------------------------------------------- helpers


def http_error(
    status: int,
    body: Any = None,
    headers: Mapping[str, str] | None = None,
    *,
    message: str | None = None,
    type: str | None = None,
    code: str | int | None = None,
    model: str | None = None,
    ttfb: float = 0.0,
) -> Turn:
    """A turn answering with an HTTP error (see :class:`HttpError`)."""
    return Turn(
        fault=HttpError(status, body, dict(headers or {}), message, type, code),
        model=model,
        ttfb=ttfb,
    )


def rate_limited(retry_after: float | int | None = 1, *, model: str | None = None) -> Turn:
    """429 with a dialect-shaped body and ``Retry-After`` (omitted when None)."""
    headers = {} if retry_after is None else {"Retry-After": str(retry_after)}
    return http_error(429, headers=headers, model=model)


def overloaded(*, model: str | None = None) -> Turn:
    """Anthropic-style 529 overloaded_error (OpenAI-shaped body for OpenAI requests)."""
    return http_error(529, model=model)


OPENAI_CONTEXT_LENGTH = {
    "error": {
        "message": "This model's maximum context length is 128000 tokens. However, your "
        "messages resulted in 130000 tokens. Please reduce the length of the messages.",
        "type": "invalid_request_error",
        "param": "messages",
        "code": "context_length_exceeded",
    }
}
ANTHROPIC_CONTEXT_LENGTH = {
    "type": "error",
    "error": {
        "type": "invalid_request_error",
        "message": "prompt is too long: 210000 tokens > 200000 maximum",
    },
}
OLLAMA_CONTEXT_LENGTH = {"error": "the input length exceeds the context length"}


def context_length_exceeded(*, model: str | None = None) -> Turn:
    """400 in each provider's real wording."""
    return Turn(
        fault=HttpError(
            400,
            per_dialect={
                "openai": OPENAI_CONTEXT_LENGTH,
                "anthropic": ANTHROPIC_CONTEXT_LENGTH,
                "ollama": OLLAMA_CONTEXT_LENGTH,
            },
        ),
        model=model,
    )


def raw(
    chunks: Sequence[bytes | str | float],
    *,
    status: int = 200,
    content_type: str = "text/event-stream; charset=utf-8",
    headers: Mapping[str, str] | None = None,
    delay: float = 0.0,
    complete: bool = True,
    framing: Literal["chunked", "close"] = "chunked",
    model: str | None = None,
) -> Turn:
    """A turn that sends exactly ``chunks`` (see :class:`Raw`)."""
    return Turn(
        raw=Raw(list(chunks), status, content_type, dict(headers or {}), delay, complete),
        framing=framing,
        model=model,
    )
