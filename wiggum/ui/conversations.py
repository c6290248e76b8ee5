"""Several conversations with Chief per project: the list and where each is kept.

Each conversation's records live in their own ``AppStorage`` message slot: the
first one in ``"chief"`` (where every conversation from before this list was
kept, so old projects open as they were), later ones in ``"chief:<id>"``.  The
list — ids, titles, which one is open — is one meta record per project
(:func:`meta_key`).  Deleting a project deletes every slot with it.

Pure functions over the plain dict stored in the meta record.
"""

from __future__ import annotations

import os
import time
from collections.abc import Mapping
from typing import Any

from wiggum.persist import CHIEF

__all__ = [
    "MAIN",
    "RENAME_PROMPT",
    "add_chat",
    "choices",
    "delete_question",
    "meta_key",
    "open_chat",
    "read_chats",
    "remove_chat",
    "rename_chat",
    "slot",
    "title_from",
]

MAIN = "main"
DEFAULT_TITLE = "Conversation"


#: What the browser's prompt asks when the open conversation is renamed.
RENAME_PROMPT = "Name this conversation"


def meta_key(project_id: str) -> str:
    return f"chats:{project_id}"


def slot(chat_id: str) -> str:
    """The message slot of conversation ``chat_id``."""
    return CHIEF if chat_id == MAIN else f"{CHIEF}:{chat_id}"


def read_chats(value: Any) -> dict[str, Any]:
    """The stored list, repaired: never empty, ``current`` always listed."""
    chats: list[dict[str, Any]] = []
    if isinstance(value, Mapping):
        for c in value.get("chats") or ():
            ok = isinstance(c, Mapping) and isinstance(c.get("id"), str) and c["id"]
            if ok and all(x["id"] != c["id"] for x in chats):
                chats.append(
                    {
                        "id": c["id"],
                        "title": str(c.get("title") or DEFAULT_TITLE),
                        "created": float(c.get("created") or 0),
                    }
                )
    if not chats:
        chats = [{"id": MAIN, "title": DEFAULT_TITLE, "created": 0.0}]
    current = value.get("current") if isinstance(value, Mapping) else None
    if current not in [c["id"] for c in chats]:
        current = chats[0]["id"]
    return {"current": current, "chats": chats}


def add_chat(data: Mapping[str, Any], now: float | None = None) -> dict[str, Any]:
    """A new, empty conversation, made the open one."""
    out = read_chats(data)
    chat_id = os.urandom(5).hex()
    out["chats"].append(
        {"id": chat_id, "title": "New chat", "created": time.time() if now is None else now}
    )
    out["current"] = chat_id
    return out


def rename_chat(data: Mapping[str, Any], chat_id: str, title: str) -> dict[str, Any]:
    out = read_chats(data)
    title = " ".join(title.split())[:80]
    for c in out["chats"]:
        if c["id"] == chat_id and title:
            c["title"] = title
    return out


def remove_chat(data: Mapping[str, Any], chat_id: str) -> dict[str, Any]:
    """The list without ``chat_id``; the open one moves to its neighbour (a
    fresh empty conversation when it was the last)."""
    out = read_chats(data)
    ids = [c["id"] for c in out["chats"]]
    if chat_id not in ids:
        return out
    i = ids.index(chat_id)
    out["chats"] = [c for c in out["chats"] if c["id"] != chat_id]
    if not out["chats"]:
        # The last one went: an empty conversation in its place (its slot was cleared).
        return {"current": MAIN, "chats": [{"id": MAIN, "title": DEFAULT_TITLE, "created": 0.0}]}
    if out["current"] == chat_id:
        out["current"] = out["chats"][max(0, i - 1)]["id"]
    return out


def title_from(text: str) -> str:
    """A conversation's title from its first message."""
    line = " ".join(text.split())
    return line if len(line) <= 40 else line[:39].rstrip() + "…"


def choices(data: Mapping[str, Any]) -> list[tuple[str, str]]:
    """Each conversation of the list as ``(id, title)``, in its order."""
    return [(str(c["id"]), str(c["title"])) for c in data.get("chats") or ()]


def open_chat(data: Mapping[str, Any]) -> tuple[str, str] | None:
    """The open conversation's ``(id, title)``; ``None`` when none is open."""
    current = data.get("current")
    if not current:
        return None
    return current, next((title for id_, title in choices(data) if id_ == current), "")


def delete_question(title: str) -> str:
    """What the browser asks before the conversation ``title`` is deleted."""
    return f"Delete the conversation “{title}”? This cannot be undone."
