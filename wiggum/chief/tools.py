"""Chief's tools: read the project, search design skills, save the plan, hand off.

They are ordinary :class:`wiggum.tools.Tool` classes (pydantic ``Args``, one
registry, the same dispatch that answers bad arguments with a clear error),
so Chief and Ralph share one tool contract.  ``read_file`` and
``list_files`` are Ralph's structured tools with Chief's descriptions, run
in a context whose policy refuses every write: Chief reads, never edits.

:class:`ChiefToolbox` is what the chat session holds: ``definitions()`` for
the request and ``dispatch(call)`` -> a
:class:`~wiggum.chief.tool_round.ToolOutcome` (the text for the model,
whether it is an error, and a ``ui_event`` that tells the page to react, e.g.
``{"type": "handoff"}`` switches to Ralph's tab).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from pydantic import Field

from wiggum.coordinator import Coordinator, HandoffRefused
from wiggum.coordinator.contract import RunBudget
from wiggum.fs import FileStore
from wiggum.llm import ParsedToolCall, ToolDefinition
from wiggum.skills import SkillLibrary
from wiggum.tools import (
    ListFilesTool,
    ReadFileTool,
    Tool,
    ToolArgs,
    ToolContext,
    ToolRegistry,
    ToolResult,
    WritePolicy,
    dispatch_for_model,
)

from .tool_round import HANDOFF_TOOL, ToolOutcome, UiEvent

__all__ = [
    "CHIEF_TMP_DIR",
    "READ_ONLY",
    "CheckRalphStatusTool",
    "ChiefListFilesTool",
    "ChiefReadFileTool",
    "ChiefToolResult",
    "ChiefToolbox",
    "SearchSkillsTool",
    "SendToRalphTool",
    "UiEvent",
    "WritePlanTool",
    "chief_registry",
]

#: Where full outputs too long for Chief's context are kept (Chief's own folder).
CHIEF_TMP_DIR = ".chief/tmp"

#: Chief's file tools may read anything and write nothing.
READ_ONLY = WritePolicy(read_only=("",), writable=())


@dataclass(frozen=True, slots=True)
class ChiefToolResult(ToolResult):
    #: What the page should do about this call (``None``: nothing).
    ui_event: UiEvent | None = None


class ChiefReadFileTool(ReadFileTool):
    description = (
        "Read a file of the project to see what exists before advising. Paths are relative to "
        "the project root. Ralph's notes are readable too: .ralph/summary.md (what he did), "
        ".ralph/feedback.md (failed checks), .ralph/plan.md, .ralph/progress.md; the agreed "
        "plan is .chief/plan.md. Optional offset/limit read part of a long file."
    )


class ChiefListFilesTool(ListFilesTool):
    description = (
        "List the project's files and folders (folders end with '/') to understand its "
        "structure. path '.' is the project root; recursive lists everything below; glob "
        "filters, e.g. '*.css'."
    )


class SearchSkillsTool(Tool):
    name = "search_skills"
    description = (
        "Search Wiggum's design guidance (layout, spacing, typography, colour, contrast, "
        "accessibility, forms, navigation, buttons, images and performance, dark mode). "
        "Returns the best-matching skills with their most relevant section. Use it before "
        "giving design advice."
    )

    class Args(ToolArgs):
        query: str = Field(
            min_length=1,
            description="What you need guidance on, in plain words, e.g. "
            "'contrast of white text on orange buttons' or 'mobile navigation menu'.",
        )
        limit: int = Field(default=3, ge=1, le=5, description="How many skills to return.")

    def __init__(self, skills: SkillLibrary) -> None:
        self.skills = skills

    async def run(self, args: Args, ctx: ToolContext) -> ToolResult:
        hits = self.skills.search(args.query, args.limit)
        if not hits:
            return ToolResult(
                f"No skills matched {args.query!r}. Try other words, e.g. layout, spacing, "
                "typography, colour, contrast, forms, navigation, images, dark mode."
            )
        parts = [f"{len(hits)} skill{'s' if len(hits) != 1 else ''} for {args.query!r}:"]
        for n, hit in enumerate(hits, 1):
            s = hit.skill
            parts.append(
                f"### {n}. {s.title}\n(skill {s.id}; tags: {', '.join(s.tags)})\n"
                f"{s.summary}\n\n{hit.snippet}"
            )
        return ToolResult("\n\n".join(parts))


class WritePlanTool(Tool):
    name = "write_plan"
    description = (
        "Save the agreed plan to .chief/plan.md (replacing the previous version). Use it when "
        "the person agrees on what to build, and again when the plan changes. Markdown: goal, "
        "pages/sections, content, style, behaviour, done-when."
    )

    class Args(ToolArgs):
        content: str = Field(min_length=1, description="The whole plan, in Markdown.")

    def __init__(self, coordinator: Coordinator) -> None:
        self.coordinator = coordinator

    async def run(self, args: Args, ctx: ToolContext) -> ToolResult:
        try:
            path = await self.coordinator.write_plan(args.content)
        except ValueError as err:
            return ToolResult.error(f"Error: not saved: {err}.")
        lines = len(args.content.strip().splitlines())
        return ChiefToolResult(
            f"Saved the plan to {path} ({lines} line{'s' if lines != 1 else ''}).",
            ui_event={"type": "plan_saved", "path": path},
        )


class SendToRalphTool(Tool):
    name = HANDOFF_TOOL
    description = (
        "Hand a refined, self-contained build prompt to Ralph, who starts building at once. "
        "ONLY when the person has clearly said to build (e.g. 'go', 'build it', 'send it to "
        "Ralph'). Ralph has not seen this conversation: include everything he needs. The plan "
        "saved with write_plan goes with the prompt whole."
    )

    class Args(ToolArgs):
        prompt: str = Field(
            min_length=1,
            description="The complete task for Ralph: what to build, files, structure, "
            "content, style, behaviour and acceptance checks.",
        )
        acceptance: list[str] = Field(
            default_factory=list,
            description="The acceptance criteria the person agreed to, one testable sentence "
            "each (e.g. 'An added to-do stays in the list after a reload'). Ralph checks each "
            "in the preview and is done only when all pass.",
        )
        plan_summary: str | None = Field(
            default=None,
            description="Optional one-line summary shown to the person with the hand-off.",
        )
        cap_usd: float | None = Field(
            default=None,
            gt=0,
            description="Only when the person named a spending cap for this run: US dollars. "
            "Otherwise leave it out (the cap in their Settings applies).",
        )

    def __init__(self, coordinator: Coordinator) -> None:
        self.coordinator = coordinator

    async def run(self, args: Args, ctx: ToolContext) -> ToolResult:
        # The person's own cap for this run; without one the runner's default applies.
        budget = RunBudget(max_cost=args.cap_usd) if args.cap_usd else None
        try:
            confirmation = await self.coordinator.send_to_ralph(
                args.prompt,
                plan_summary=args.plan_summary,
                plan=await self.coordinator.saved_plan(),
                acceptance=args.acceptance,
                budget=budget,
            )
        except HandoffRefused as err:
            return ToolResult.error(f"Not sent: {err}")
        run_id = self.coordinator.state.run_id
        return ChiefToolResult(
            f"{confirmation} The page is switching to Ralph's tab so the person can watch him "
            "work. Tell them so in a sentence or two; don't send again while he is running.",
            ui_event={
                "type": "handoff",
                "run_id": run_id,
                "plan_summary": (args.plan_summary or "").strip() or None,
            },
        )


class CheckRalphStatusTool(Tool):
    name = "check_ralph_status"
    description = (
        "Ralph's current status: idle, running (which iteration), or how his last run ended, "
        "with its summary, failed quality gates, feedback and token usage."
    )

    # Its own (empty) model: the base class's docstring would become the schema's description.
    class Args(ToolArgs):
        pass

    def __init__(self, coordinator: Coordinator) -> None:
        self.coordinator = coordinator

    async def run(self, args: Args, ctx: ToolContext) -> ToolResult:
        return ToolResult(self.coordinator.check_ralph_status())


def chief_registry(coordinator: Coordinator, skills: SkillLibrary) -> ToolRegistry:
    """Chief's six tools, in the order the model sees them."""
    return ToolRegistry(
        [
            ChiefReadFileTool(),
            ChiefListFilesTool(),
            SearchSkillsTool(skills),
            WritePlanTool(coordinator),
            SendToRalphTool(coordinator),
            CheckRalphStatusTool(coordinator),
        ]
    )


class ChiefToolbox:
    """The tools as the chat session uses them: definitions and a dispatch that never raises."""

    def __init__(
        self,
        coordinator: Coordinator,
        skills: SkillLibrary,
        fs: FileStore | None = None,
        *,
        logger: logging.Logger | None = None,
    ) -> None:
        self.registry = chief_registry(coordinator, skills)
        self.ctx = ToolContext(
            fs if fs is not None else coordinator.fs,
            tmp_dir=CHIEF_TMP_DIR,
            policy=READ_ONLY,
            logger=logger or logging.getLogger("wiggum.chief.tools"),
        )

    @property
    def names(self) -> list[str]:
        return self.registry.names

    def definitions(self) -> list[ToolDefinition]:
        return self.registry.definitions()

    async def dispatch(self, call: ParsedToolCall) -> ToolOutcome:
        """Run one call: the output for the model, whether it failed, its ui event."""
        result, text = await dispatch_for_model(self.registry, call, self.ctx)
        event = result.ui_event if isinstance(result, ChiefToolResult) else None
        return ToolOutcome(text, result.is_error, event)
