"""Chief's stored conversation, read without pydantic, for the first screen.

The page shows the conversation before pydantic has loaded (``wiggum.web.shell``),
so it cannot build ``ChatRecord`` objects yet.  :class:`StoredRecord` reads a
stored row (``ChatRecord.to_storage()``) with the attribute names and defaults
of ``ChatRecord``, which is all the chat view reads; once the app has loaded,
the view renders the validated records again.  ``tests/ui/test_stored_chat.py``
keeps :data:`DEFAULTS` equal to ``ChatRecord``'s own.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["DEFAULTS", "StoredCitation", "StoredImage", "StoredRecord", "StoredToolCall"]

#: ``ChatRecord``'s fields the chat view reads, with their defaults.
DEFAULTS: dict[str, Any] = {
    "seq": 0,
    "role": "user",
    "content": "",
    "reasoning": None,
    "tool_calls": (),
    "tool_call_id": None,
    "is_error": False,
    "status": "complete",
    "usage": None,
    "error": None,
    "trimmed": 0,
    "note": False,
    "superseded": False,
    "parent": None,
    "citations": (),
    "images": (),
    "images_stripped": False,
}


class StoredToolCall:
    """One stored tool call: ``id``, ``name`` and ``args``, as ``ParsedToolCall``."""

    __slots__ = ("args", "id", "name")

    def __init__(self, data: Mapping[str, Any]) -> None:
        self.id = str(data.get("id", ""))
        self.name = str(data.get("name", ""))
        args = data.get("args")
        self.args = args if isinstance(args, dict) else {}


class StoredCitation:
    """A stored ``wiggum.llm.Citation``: the web source a reply cites."""

    __slots__ = ("title", "url")

    def __init__(self, data: Mapping[str, Any]) -> None:
        self.url = str(data.get("url") or "")
        self.title = str(data.get("title") or "")


class StoredImage:
    """A stored ``wiggum.chief.attachments.Attachment``: an image the person sent."""

    __slots__ = ("data", "media_type", "name")

    def __init__(self, data: Mapping[str, Any]) -> None:
        self.data = str(data.get("data") or "")
        self.media_type = str(data.get("media_type") or "image/png")
        self.name = str(data.get("name") or "")


class StoredRecord:
    """A stored conversation row, read the way ``ChiefChat.load`` reads it: a reply
    that was still streaming when the page went away shows as ``interrupted``."""

    __slots__ = ("_data",)

    def __init__(self, data: Mapping[str, Any]) -> None:
        self._data = data

    def __getattr__(self, name: str) -> Any:
        try:
            default = DEFAULTS[name]
        except KeyError:
            raise AttributeError(name) from None
        value = self._data.get(name, default)
        if name == "tool_calls":
            return [StoredToolCall(c) for c in value or () if isinstance(c, Mapping)]
        if name == "citations":
            return [StoredCitation(c) for c in value or () if isinstance(c, Mapping)]
        if name == "images":
            return [StoredImage(c) for c in value or () if isinstance(c, Mapping)]
        if name == "status" and value == "streaming":
            return "interrupted"
        return value
