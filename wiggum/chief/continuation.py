"""Continue a reply that was cut off (a reload mid-stream, Stop, a dropped stream).

The history already ends with the partial reply.  Anthropic takes a final
assistant message as a prefill and the model writes on from its last word;
the other dialects need a short instruction after it.  Pure: tested under CPython.
"""

from __future__ import annotations

from wiggum.llm.types import Message

CONTINUE_NOTE = (
    "Your previous reply was cut off. Continue it exactly where it stopped: "
    "do not repeat anything already written and add no preface."
)


def prefills(kind: str) -> bool:
    """Whether the dialect continues a final assistant message (prefill)."""
    return kind == "anthropic"


def continuation_messages(messages: list[Message], kind: str) -> tuple[list[Message], str]:
    """``(messages to send, the prefix the continuation is appended to)``.

    ``messages`` end with the partial reply.  Anthropic rejects a prefill that
    ends in whitespace, so the prefix is the partial without its trailing
    whitespace there (and the model writes the space itself).
    """
    if not messages or messages[-1].role != "assistant":
        raise ValueError("the history does not end with the reply to continue")
    last = messages[-1]
    if prefills(kind):
        prefix = last.text.rstrip()
        head = last.model_copy(update={"content": prefix, "thinking": [], "provider_blocks": []})
        return [*messages[:-1], head], prefix
    return [*messages, Message.user(CONTINUE_NOTE)], last.text
