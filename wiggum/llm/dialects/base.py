"""The dialect contract: canonical messages out, wire events in.

A dialect converts a :class:`Call` into an :class:`HttpRequest`, and turns
the provider's answer — a whole body, or a stream fed to a parser piece by
piece — into calls on the shared :class:`ResponseAccumulator`.  It knows
nothing about retries, abort, logging or finalization.  What one vendor
wants of the format (headers, key header, body fields, web search) it takes
from the vendor's facts (``wiggum/llm/vendors/``).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any, Protocol

from ..accumulator import ResponseAccumulator
from ..call import Call
from ..errors import LLMError, MalformedResponseError
from ..http_errors import error_from_response
from ..transport import HttpRequest
from ..utf8 import Utf8
from ..vendors import Vendor


class StreamParser(Protocol):
    def feed(self, chunk: bytes) -> None: ...

    def close(self) -> None: ...


class Dialect(Protocol):
    name: str
    #: How its stream is framed: ``"sse"`` or ``"ndjson"``.
    stream_format: str

    def build_request(self, call: Call, *, stream: bool) -> HttpRequest: ...

    def stream_parser(self, acc: ResponseAccumulator, call: Call) -> StreamParser: ...

    def parse_body(self, body: bytes, acc: ResponseAccumulator, call: Call) -> None: ...

    def parse_error(
        self, status: int, body: bytes, headers: Mapping[str, str], call: Call
    ) -> LLMError: ...


class ErrorAnswers:
    """``parse_error`` for a dialect class: its ``error_fields`` reads
    ``(message, type, code)`` from the wire format's error envelope."""

    error_fields: Callable[[Any], tuple[Any, Any, Any]]

    def parse_error(
        self, status: int, body: bytes, headers: Mapping[str, str], call: Call
    ) -> LLMError:
        return error_answer(status, body, headers, call, self.error_fields)


def function_tools(tools) -> list[dict[str, Any]]:
    """Tool definitions in the OpenAI ``{"type": "function", ...}`` shape (Ollama uses it too)."""
    return [
        {
            "type": "function",
            "function": {"name": t.name, "description": t.description, "parameters": t.parameters},
        }
        for t in tools
    ]


def post_json(
    call: Call, url: str, body: dict[str, Any], vendor: Vendor, *, sse: bool = False
) -> HttpRequest:
    """The chat request every dialect ends with (``sse``: ask for an event stream).

    The vendor's facts join the dialect's body: its headers (API version,
    browser opt-in, attribution), its body fields and its web search (when
    the caller asked for one); the key goes into its key header; the
    provider's extra headers and the caller's extra body fields come last,
    so they can override.
    """
    headers = {"Content-Type": "application/json"}
    if sse:
        headers["Accept"] = "text/event-stream"
    headers.update(vendor.headers)
    headers.update(vendor.browser_headers)
    headers.update(vendor.chat_headers)
    headers.update(vendor.key_headers(call.provider.secret()))
    headers.update(call.provider.headers)
    body.update(vendor.chat_fields)
    searches = call.options.web_search
    if searches > 0 and vendor.web_search is not None:
        vendor.web_search.add_to(body, searches)
    body.update(call.options.extra_body)
    return HttpRequest("POST", url, headers, json_body(body))


def error_answer(
    status: int,
    body: bytes,
    headers: Mapping[str, str],
    call: Call,
    fields: Callable[[Any], tuple[Any, Any, Any]],
) -> LLMError:
    """An HTTP error answer as an :class:`LLMError`; ``fields`` reads
    ``(message, type, code)`` from the dialect's error envelope (given the
    parsed body, or ``None`` when it is not JSON)."""
    text = body.decode("utf-8", "replace")
    message, etype, code = fields(load_json(body))
    return error_from_response(
        status,
        text,
        headers,
        *call.label,
        message=message if isinstance(message, str) else text[:500],
        error_type=etype if isinstance(etype, str) else None,
        code=str(code) if code is not None else None,
    )


def json_body(payload: dict[str, Any]) -> bytes:
    return json.dumps(payload, ensure_ascii=False, separators=(",", ":")).encode()


def load_json(body: bytes) -> Any:
    """The body as JSON, or ``None`` when it is not JSON."""
    try:
        return json.loads(body)
    except ValueError:
        return None


def json_object(body: bytes, call: Call) -> dict[str, Any]:
    """A whole answer's body, which must be a JSON object (invalid UTF-8 in
    it replaced, and said: :mod:`~wiggum.llm.utf8`)."""
    try:
        obj = json.loads(Utf8(call.label).decode(body))
    except ValueError:
        obj = None
    if not isinstance(obj, dict):
        raise MalformedResponseError(
            "The provider's answer is not JSON", *call.label, detail="text that is not JSON"
        )
    return obj


#: The C scanner under ``json.loads``: one call per stream event instead of the
#: Python wrappers around it (``loads`` -> ``decode`` -> two whitespace regexes ->
#: ``raw_decode``), which cost more than the parse of a small event.
_scan = json.JSONDecoder().scan_once


def event_json(data: str | bytes) -> Any:
    """``json.loads(data)`` for one stream event's data, faster.

    Raises ``ValueError`` exactly when that would: any payload the scanner does
    not take whole (whitespace around it, garbage, a keep-alive) goes through
    ``json.loads`` itself.
    """
    text = data.decode() if type(data) is bytes else data
    try:
        obj, end = _scan(text, 0)
    except (StopIteration, ValueError):
        end = -1
    if end == len(text):
        return obj
    return json.loads(text)


def join_url(base_url: str, path: str) -> str:
    """Append ``path`` unless the base URL already ends with it."""
    base = base_url.rstrip("/")
    return base if base.endswith(path) else base + path


def image_url(part) -> str:
    if part.url:
        return part.url
    return f"data:{part.media_type or 'image/png'};base64,{part.data or ''}"


def split_data_url(url: str) -> tuple[str, str] | None:
    """``(media_type, base64)`` of a ``data:`` URL, else ``None``."""
    if not url.startswith("data:") or ";base64," not in url:
        return None
    head, data = url[5:].split(";base64,", 1)
    return head or "image/png", data


def flat_or_wrapped(tc: Any) -> dict[str, Any] | None:
    """A tool call's ``{name, arguments}``: OpenAI's ``{"function": {...}}``, or the
    flat shape small local models and some Ollama versions send (no ``function``,
    ``type`` or ``id``)."""
    if type(tc) is not dict:
        return None
    fn = tc.get("function")
    if type(fn) is dict:
        return fn
    return tc if isinstance(tc.get("name"), str) and tc.get("name") else None
