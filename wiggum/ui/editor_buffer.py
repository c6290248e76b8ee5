"""What the workspace editor holds for one open file, and what happens when the
file changes on disk under it (pure: tested under CPython).

Conflict policy: Ralph may rewrite a file the person has open.

* The buffer has no unsaved edits: it takes the new text (``"reload"``).
* The buffer has unsaved edits: they are kept, never replaced.  The editor
  shows a bar "Ralph changed this file while you were editing" with
  [Show his version] [Keep mine] [Take his] (``"conflict"``).  *Keep mine*
  makes his text the base (the next save writes the person's text over it; his
  version stays in History as his checkpoint); *Take his* puts his text in the
  buffer as one undoable change (Ctrl/Cmd-Z brings the person's text back).
* The disk text equals the buffer, or the base did not change: nothing to do.

Also what the editor's bar says: its state, the save shortcut of this
platform, which key press saves, and what each answer to a conflict says.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

__all__ = [
    "CONFLICT_SAID",
    "CONFLICT_TEXT",
    "Buffer",
    "DiskChange",
    "can_save",
    "is_save_key",
    "language_for",
    "save_hint",
    "state_text",
    "theirs_label",
]

DiskChange = Literal["none", "reload", "conflict"]

_LANGS = {
    "html": "html",
    "htm": "html",
    "css": "css",
    "js": "javascript",
    "mjs": "javascript",
    "cjs": "javascript",
    "ts": "javascript",
    "json": "json",
    "webmanifest": "json",
    "md": "markdown",
    "markdown": "markdown",
    "svg": "xml",
    "xml": "xml",
}


def language_for(path: str) -> str:
    """CodeMirror language name for ``path`` ("" = plain text)."""
    name = path.rsplit("/", 1)[-1]
    ext = name.rsplit(".", 1)[-1].lower() if "." in name else ""
    return _LANGS.get(ext, "")


@dataclass
class Buffer:
    """``base`` is the text last read from or written to disk; ``text`` what the
    editor holds; ``theirs`` the disk text of an unresolved conflict."""

    path: str
    base: str
    text: str
    theirs: str | None = None

    @property
    def dirty(self) -> bool:
        return self.text != self.base

    def edited(self, text: str) -> None:
        self.text = text

    def saved(self) -> None:
        """The buffer's text is now on disk."""
        self.base = self.text
        self.theirs = None

    def disk_changed(self, disk: str) -> DiskChange:
        """The file on disk now reads ``disk``: what the editor must do."""
        if disk == self.base or disk == self.text:
            if disk == self.text:
                self.base = disk
                self.theirs = None
            return "none"
        if not self.dirty:
            self.base = self.text = disk
            return "reload"
        self.theirs = disk
        return "conflict"

    def keep_mine(self) -> None:
        if self.theirs is not None:
            self.base = self.theirs
        self.theirs = None

    def take_theirs(self) -> str:
        text = self.theirs if self.theirs is not None else self.base
        self.base = self.text = text
        self.theirs = None
        return text


#: The bar over the editor when the file changed on disk under unsaved edits.
CONFLICT_TEXT = "Ralph changed this file while you were editing. Your unsaved edits are still here."

#: What the editor says after each answer to "Ralph changed this file".
CONFLICT_SAID = {
    "mine": "Keeping your text: save to write it over Ralph's version.",
    "his": "Took Ralph's version (Ctrl/Cmd-Z brings yours back).",
}


def save_hint(platform: str) -> str:
    """The save shortcut as this platform spells it."""
    return "\u2318S" if "Mac" in platform or "iP" in platform else "Ctrl+S"


def state_text(dirty: bool) -> str:
    return "\u25cf Unsaved changes" if dirty else "Saved"


def is_save_key(key: str, *, ctrl: bool, meta: bool, alt: bool, shift: bool) -> bool:
    """Ctrl/Cmd-S alone (Ctrl-Shift-S and the like are other shortcuts)."""
    return key.lower() == "s" and (ctrl or meta) and not alt and not shift


def can_save(dirty: bool, buffer: Buffer) -> bool:
    """Whether Save does something: unsaved edits (the editor's flag), or Ralph's
    version kept under them (saving writes the person's over it)."""
    return dirty or buffer.theirs is not None


def theirs_label(shown: bool) -> str:
    """The button that shows or hides Ralph's version under a conflict."""
    return "Hide his version" if shown else "Show his version"
