"""The three wire formats the fault server speaks, as bytes: a reply in pieces.

Each :class:`Wire` builds what its dialect's server sends: the events before
the text, one text event, the finish with usage and the end marker, an error
event, and the same reply as one JSON body for ``chat()``.  Text goes in as
bytes, so a test can put bytes that are not UTF-8 into an event.

The reply the faults send is "good" … " end"; usage is 5 prompt and 2
completion tokens.  Where usage arrives on the wire differs, and a fault
that cuts a stream keeps what had arrived: Anthropic's ``message_start``
carries the prompt tokens, OpenAI's and Ollama's usage come at the end.
"""

from __future__ import annotations

import json

PROMPT_TOKENS, COMPLETION_TOKENS = 5, 2


def _json_str(text: bytes) -> bytes:
    """``text`` as a JSON string's bytes, bytes that are not UTF-8 left as they are."""
    try:
        return json.dumps(text.decode(), ensure_ascii=False).encode()
    except UnicodeDecodeError:
        return b'"' + text.replace(b"\\", b"\\\\").replace(b'"', b'\\"') + b'"'


def _j(obj: object) -> bytes:
    return json.dumps(obj, separators=(",", ":")).encode()


class Wire:
    """What each wire has (``head``, ``text``, ``tail``, ``end_marker``,
    ``error_event``, ``error_body``, ``body``, ``truncated_tool``), and a whole stream."""

    name = ""
    content_type = "text/event-stream"

    #: The whole reply as one JSON body, its text at ``TEXT``.
    whole = b""

    def stream(self, *texts: bytes) -> bytes:
        return self.head() + b"".join(self.text(t) for t in texts) + self.tail()

    def body(self, text: bytes) -> bytes:
        return self.whole.replace(b"TEXT", _json_str(text), 1)


class OpenAIWire(Wire):
    name = "openai"
    whole = (
        b'{"id":"c1","object":"chat.completion","model":"m","choices":[{"index":0,'
        b'"message":{"role":"assistant","content":TEXT},"finish_reason":"stop"}],'
        b'"usage":{"prompt_tokens":5,"completion_tokens":2,"total_tokens":7}}'
    )

    def _chunk(self, delta: bytes, finish: str | None = None) -> bytes:
        reason = b"null" if finish is None else _j(finish)
        return (
            b'data: {"id":"c1","object":"chat.completion.chunk","model":"m","choices":'
            b'[{"index":0,"delta":' + delta + b',"finish_reason":' + reason + b"}]}\n\n"
        )

    def head(self) -> bytes:
        return self._chunk(b'{"role":"assistant","content":""}')

    def text(self, text: bytes) -> bytes:
        return self._chunk(b'{"content":' + _json_str(text) + b"}")

    def tail(self) -> bytes:
        usage = {
            "prompt_tokens": PROMPT_TOKENS,
            "completion_tokens": COMPLETION_TOKENS,
            "total_tokens": PROMPT_TOKENS + COMPLETION_TOKENS,
        }
        return (
            self._chunk(b"{}", "stop")
            + b"data: "
            + _j({"id": "c1", "choices": [], "usage": usage})
            + b"\n\n"
            + self.end_marker()
        )

    def end_marker(self) -> bytes:
        return b"data: [DONE]\n\n"

    def error_event(self) -> bytes:
        return b"data: " + self.error_body() + b"\n\n"

    def error_body(self) -> bytes:
        return _j(
            {
                "error": {
                    "message": "The server had an error while processing your request.",
                    "type": "server_error",
                }
            }
        )

    def truncated_tool(self, *, stream: bool) -> bytes:
        call = {"index": 0, "id": "call_1", "type": "function"}
        if not stream:
            fn = {"name": "weather", "arguments": '{"city": "Zür'}
            return _j(
                {
                    "id": "c1",
                    "model": "m",
                    "choices": [
                        {
                            "index": 0,
                            "message": {
                                "role": "assistant",
                                "tool_calls": [call | {"function": fn}],
                            },
                            "finish_reason": "length",
                        }
                    ],
                }
            )
        first = call | {"function": {"name": "weather", "arguments": ""}}
        return (
            self._chunk(_j({"role": "assistant", "tool_calls": [first]}))
            + self._chunk(
                _j({"tool_calls": [{"index": 0, "function": {"arguments": '{"city": '}}]})
            )
            + self._chunk(_j({"tool_calls": [{"index": 0, "function": {"arguments": '"Zür'}}]}))
            + self._chunk(b"{}", "length")
            + self.end_marker()
        )


class AnthropicWire(Wire):
    name = "anthropic"
    whole = (
        b'{"id":"msg_1","type":"message","role":"assistant","model":"m","content":'
        b'[{"type":"text","text":TEXT}],"stop_reason":"end_turn",'
        b'"usage":{"input_tokens":5,"output_tokens":2}}'
    )

    @staticmethod
    def _event(name: str, data: bytes) -> bytes:
        return b"event: " + name.encode() + b"\ndata: " + data + b"\n\n"

    def head(self) -> bytes:
        start = {
            "type": "message_start",
            "message": {
                "id": "msg_1",
                "type": "message",
                "role": "assistant",
                "model": "m",
                "content": [],
                "usage": {"input_tokens": PROMPT_TOKENS, "output_tokens": 1},
            },
        }
        block = {
            "type": "content_block_start",
            "index": 0,
            "content_block": {"type": "text", "text": ""},
        }
        return self._event("message_start", _j(start)) + self._event(
            "content_block_start", _j(block)
        )

    def text(self, text: bytes) -> bytes:
        return self._event(
            "content_block_delta",
            b'{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":'
            + _json_str(text)
            + b"}}",
        )

    def tail(self) -> bytes:
        return (
            self._event("content_block_stop", b'{"type":"content_block_stop","index":0}')
            + self._event(
                "message_delta",
                _j(
                    {
                        "type": "message_delta",
                        "delta": {"stop_reason": "end_turn"},
                        "usage": {"output_tokens": COMPLETION_TOKENS},
                    }
                ),
            )
            + self.end_marker()
        )

    def end_marker(self) -> bytes:
        return self._event("message_stop", b'{"type":"message_stop"}')

    def error_event(self) -> bytes:
        return self._event("error", self.error_body())

    def error_body(self) -> bytes:
        return _j({"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}})

    def truncated_tool(self, *, stream: bool) -> bytes:
        if not stream:
            # A batch reply holds its arguments parsed: a cut shows as an empty input.
            return _j(
                {
                    "id": "msg_1",
                    "type": "message",
                    "role": "assistant",
                    "model": "m",
                    "content": [
                        {"type": "tool_use", "id": "toolu_1", "name": "weather", "input": {}}
                    ],
                    "stop_reason": "max_tokens",
                    "usage": {"input_tokens": 5, "output_tokens": 2},
                }
            )
        block = {
            "type": "content_block_start",
            "index": 0,
            "content_block": {"type": "tool_use", "id": "toolu_1", "name": "weather", "input": {}},
        }
        head = self.head().split(b"event: content_block_start")[0]
        return (
            head
            + self._event("content_block_start", _j(block))
            + self._event(
                "content_block_delta",
                _j(
                    {
                        "type": "content_block_delta",
                        "index": 0,
                        "delta": {"type": "input_json_delta", "partial_json": '{"city": "Zür'},
                    }
                ),
            )
            + self._event("content_block_stop", b'{"type":"content_block_stop","index":0}')
            + self._event(
                "message_delta",
                _j(
                    {
                        "type": "message_delta",
                        "delta": {"stop_reason": "max_tokens"},
                        "usage": {"output_tokens": 2},
                    }
                ),
            )
            + self.end_marker()
        )


class OllamaWire(Wire):
    name = "ollama"
    content_type = "application/x-ndjson"
    whole = (
        b'{"model":"m","message":{"role":"assistant","content":TEXT},'
        b'"done":true,"done_reason":"stop","prompt_eval_count":5,"eval_count":2}'
    )

    def head(self) -> bytes:
        return b""

    def text(self, text: bytes) -> bytes:
        return (
            b'{"model":"m","created_at":"2026-01-01T00:00:00Z","message":{"role":"assistant",'
            b'"content":' + _json_str(text) + b'},"done":false}\n'
        )

    def tail(self) -> bytes:
        return self.end_marker()

    def end_marker(self) -> bytes:
        return (
            b'{"model":"m","message":{"role":"assistant","content":""},"done":true,'
            b'"done_reason":"stop","prompt_eval_count":5,"eval_count":2}\n'
        )

    def error_event(self) -> bytes:
        return self.error_body() + b"\n"

    def error_body(self) -> bytes:
        return b'{"error":"an error was encountered while running the model"}'

    def truncated_tool(self, *, stream: bool) -> bytes:
        # Ollama sends arguments as objects: a cut reply is one with no arguments
        # and done_reason "length".
        line = _j(
            {
                "model": "m",
                "message": {
                    "role": "assistant",
                    "content": "",
                    "tool_calls": [{"function": {"name": "weather", "arguments": {}}}],
                },
                "done": True,
                "done_reason": "length",
            }
        )
        return line + b"\n" if stream else line


WIRES = {w.name: w for w in (OpenAIWire(), AnthropicWire(), OllamaWire())}
