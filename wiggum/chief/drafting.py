"""Chief writing the plan: the plan-writing tool call read as it streams.

A plan (``write_plan``) or a hand-off (``send_to_ralph``) arrives as the
arguments of a tool call, which stream like words but used to show nothing
until the whole call had arrived: a long plan looked like Chief had stopped.
:class:`PlanDraft` follows the one call that writes a plan, and reads its
text so far from the partial JSON (``wiggum.llm.partial_json.PartialJsonParser``, which
keeps a half-written string and reparses only as the text grows), so the
page can say "Chief is writing the plan…" from the call's first byte and
show the plan as it is written.
"""

from __future__ import annotations

from wiggum.llm.partial_json import PartialJsonParser

from .tool_round import HANDOFF_TOOL

__all__ = ["DRAFTED", "WRITING_PLAN", "PlanDraft"]

#: The tools whose calls write a plan, and the argument that holds it.
DRAFTED = {"write_plan": "content", HANDOFF_TOOL: "prompt"}

#: What the page says from the moment such a call starts streaming.
WRITING_PLAN = "Chief is writing the plan…"


class PlanDraft:
    """One plan-writing call as it streams (the stream's slot ``index``)."""

    def __init__(self, name: str, index: int) -> None:
        self.name = name
        self.index = index
        self._args = PartialJsonParser()

    @classmethod
    def starts(cls, name: str, index: int) -> PlanDraft | None:
        """A draft when ``name`` writes a plan, else ``None``."""
        return cls(name, index) if name in DRAFTED else None

    def feed(self, args: str) -> None:
        self._args.feed(args)

    @property
    def text(self) -> str:
        """The plan so far (``""`` before its argument has begun)."""
        value = self._args.value()
        text = value.get(DRAFTED[self.name]) if isinstance(value, dict) else None
        return text if isinstance(text, str) else ""
