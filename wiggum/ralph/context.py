"""One iteration's context, built fresh for every model call and kept within budget.

system prompt + one user message carrying the ``.ralph/`` files + this
iteration's assistant tool calls and tool results.  When the estimate does
not fit the model's window (reply reserve included), shrink in this order:

1. the oldest tool results of this iteration: replaced by a one-line stub
   pointing at a full copy under ``.ralph/tmp/`` (the model can read it back);
2. the long arguments of this iteration's calls that have already run (a
   ``write_file`` body, a heredoc): replaced by a note — what they carried is
   in the project's files now;
3. the long state files, head + tail (progress first: it grows every iteration);
4. give up with :class:`ContextOverflowError`.

Nothing is trimmed that the model cannot get back: elided outputs are saved,
slimmed calls already wrote their text, shrunk state files are still whole on
disk.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from wiggum.fs import FileStore, FileStoreError, PathError
from wiggum.llm import (
    ContextOverflowError,
    Message,
    ParsedToolCall,
    PreflightResult,
    ProviderConfig,
    ToolDefinition,
    capability_for,
    preflight_check,
)
from wiggum.llm.client import DEFAULT_REPLY_BUDGET
from wiggum.llm.registry import ModelCapability
from wiggum.tools.fence import fence

from .plan_focus import plan_focus
from .state import FEEDBACK, PLAN, PROGRESS, REFLECTIONS, SUMMARY, TASK, TMP_DIR

__all__ = [
    "BuiltContext",
    "ContextBuilder",
    "StateSnapshot",
    "head_tail",
    "render_state",
]

#: Headroom below which ``on_context_pressure`` fires.
PRESSURE_HEADROOM = 0.1
#: State files are never shrunk below this many characters.
MIN_STATE_CHARS = 600
#: Shrink order of the state files and the share of each kept from the head.
_SHRINK_ORDER = (
    ("progress", PROGRESS, 0.3),  # the latest entries matter most
    ("plan", PLAN, 0.6),
    ("summary", SUMMARY, 0.6),
    ("feedback", FEEDBACK, 0.6),
    ("task", TASK, 0.6),
    ("reflections", REFLECTIONS, 0.3),
)
_SAVED = re.compile(r"Full output saved to: (\S+)")
#: Tool results shorter than this are never elided: the stub would not be shorter.
MIN_ELIDE_CHARS = 400
#: A string argument longer than this, of a call that has run, may be slimmed.
BULKY_ARG_CHARS = 1200


@dataclass(slots=True)
class StateSnapshot:
    """The ``.ralph/`` files as the model should see them this iteration."""

    task: str = ""
    plan: str = ""
    progress: str = ""
    feedback: str = ""
    summary: str = ""
    #: The project's files (for orientation; not their content).
    files: list[str] = field(default_factory=list)
    #: What earlier runs learned (the latest sections of ``.ralph/reflections.md``).
    reflections: str = ""


@dataclass(slots=True)
class BuiltContext:
    messages: list[Message]
    preflight: PreflightResult
    #: Tool results replaced by stubs in this build (cumulative over the iteration).
    elided: int = 0
    #: State files that were shortened to head + tail.
    shrunk: list[str] = field(default_factory=list)
    #: Assistant turns whose long call arguments were replaced by notes (cumulative).
    slimmed: int = 0


def head_tail(text: str, limit: int, path: str, head_share: float = 0.6) -> str:
    """``text`` cut to about ``limit`` characters: head, a marker, tail (whole lines)."""
    if len(text) <= limit:
        return text
    head_budget = int(limit * head_share)
    tail_budget = limit - head_budget
    head = text[:head_budget]
    cut = head.rfind("\n")
    if cut > head_budget // 2:
        head = head[:cut]
    tail = text[len(text) - tail_budget :] if tail_budget > 0 else ""
    cut = tail.find("\n")
    if 0 <= cut < len(tail) // 2:
        tail = tail[cut + 1 :]
    omitted = text.count("\n") - head.count("\n") - tail.count("\n")
    marker = (
        f"[... {max(omitted, 1)} lines of {path} left out here to fit the context window; "
        "the file itself is complete ...]"
    )
    return f"{head}\n{marker}\n{tail}"


def _section(title: str, body: str, empty: str) -> str:
    return f"## {title}\n{body.strip() or empty}\n"


def render_state(iteration: int, max_iterations: int, state: StateSnapshot) -> str:
    files = state.files
    listing = "\n".join(files[:300]) + (
        f"\n... and {len(files) - 300} more" if len(files) > 300 else ""
    )
    parts = [
        f"# Iteration {iteration} of {max_iterations}\n",
        _section("Task (.ralph/task.md)", state.task, "(no task)"),
        _section(
            "Feedback (.ralph/feedback.md)",
            state.feedback,
            "(none: nothing failed last time)",
        ),
        _section(
            "Plan: where you are (.ralph/plan.md)",
            plan_focus(state.plan) or state.plan,
            "(no plan yet: write one first, a checklist of small steps)",
        ),
        _section("Progress (.ralph/progress.md)", state.progress, "(nothing yet)"),
        _section("Previous iteration (.ralph/summary.md)", state.summary, "(this is the first)"),
        _section(
            "Project files",
            fence(listing, "list_files") if files else "",
            "(the project is empty)",
        ),
        *(
            [_section("What earlier runs learned (.ralph/reflections.md)", state.reflections, "")]
            if state.reflections.strip()
            else []
        ),
        "Start by reading what you need, then take the next step.",
    ]
    return "\n".join(parts)


class ContextBuilder:
    """Builds the messages of every call of an iteration within the model's budget."""

    def __init__(
        self,
        provider: ProviderConfig,
        system_prompt: str,
        tools: Sequence[ToolDefinition],
        fs: FileStore,
        *,
        max_tokens: int | None = None,
        capability: ModelCapability | None = None,
        on_pressure: Callable[[int, int, float], Any] | None = None,
        logger: logging.Logger | None = None,
    ) -> None:
        self.provider = provider
        self.system_prompt = system_prompt
        self.tools = list(tools)
        self.fs = fs
        self.capability = capability or capability_for(provider)
        self.max_tokens = max_tokens
        # The same reserve chat() uses, so our estimate and its preflight agree.
        self.reserve = max_tokens or min(self.capability.max_output_tokens, DEFAULT_REPLY_BUDGET)
        self.on_pressure = on_pressure
        self.logger = logger or logging.getLogger("wiggum.ralph")

    def use_provider(self, provider: ProviderConfig) -> None:
        """Build for ``provider`` from now on (its window or reply limit was learned)."""
        self.provider = provider
        self.capability = capability_for(provider)
        cap = min(self.capability.max_output_tokens, DEFAULT_REPLY_BUDGET)
        self.reserve = self.max_tokens or cap

    def check(self, messages: Sequence[Message]) -> PreflightResult:
        return preflight_check(
            self.provider.model,
            messages,
            self.tools,
            capability=self.capability,
            max_tokens=self.reserve,
        )

    async def build(
        self,
        iteration: int,
        max_iterations: int,
        state: StateSnapshot,
        transcript: list[Message],
        extra: Sequence[Message] = (),
    ) -> BuiltContext:
        """The messages for the next call.

        ``transcript`` (this iteration's assistant and tool messages) is
        modified in place when tool results are elided, so an elision is done
        once and later calls of the iteration see the same stub.
        """
        system = Message.system(self.system_prompt)
        shown = StateSnapshot(**{k: getattr(state, k) for k in StateSnapshot.__slots__})

        def assemble() -> list[Message]:
            user = Message.user(render_state(iteration, max_iterations, shown))
            return [system, user, *transcript, *extra]

        messages = assemble()
        result = self.check(messages)
        elided = sum(1 for m in transcript if m.role == "tool" and _is_stub(m))
        # 1. Oldest tool results first.
        for index, message in enumerate(transcript):
            if result.ok:
                break
            if message.role != "tool" or _is_stub(message) or len(message.text) < MIN_ELIDE_CHARS:
                continue
            transcript[index] = await self._elide(iteration, index, message)
            elided += 1
            messages = assemble()
            result = self.check(messages)
        # 2. Then the bulky arguments of calls that have already run, oldest first.
        answered = {m.tool_call_id for m in transcript if m.role == "tool"}
        slimmed = sum(1 for m in transcript if m.role == "assistant" and _is_slim(m))
        for index, message in enumerate(transcript):
            if result.ok:
                break
            if message.role != "assistant" or not message.tool_calls:
                continue
            slim = _slim_turn(message, answered)
            if slim is None:
                continue
            transcript[index] = slim
            slimmed += 1
            messages = assemble()
            result = self.check(messages)
        # 3. Then the long state files, halving each until it fits or is short.
        shrunk: list[str] = []
        for name, path, head_share in _SHRINK_ORDER:
            original = getattr(state, name)
            limit = len(original)
            while not result.ok and limit > MIN_STATE_CHARS:
                limit = max(limit // 2, MIN_STATE_CHARS)
                setattr(shown, name, head_tail(original, limit, path, head_share))
                if name not in shrunk:
                    shrunk.append(name)
                messages = assemble()
                result = self.check(messages)
        if shown.files and not result.ok:
            shown.files = shown.files[:20]
            messages = assemble()
            result = self.check(messages)
        if not result.ok:
            self.logger.error(
                "ralph:context-overflow",
                extra={
                    "ralph": {"estimated": result.estimated_tokens, "window": result.context_window}
                },
            )
            raise ContextOverflowError(
                result.estimated_tokens,
                result.context_window,
                self.provider.id,
                self.provider.model,
            )
        if result.headroom < PRESSURE_HEADROOM and self.on_pressure is not None:
            self.on_pressure(result.estimated_tokens, result.context_window, result.headroom)
        return BuiltContext(messages, result, elided, shrunk, slimmed)

    async def _elide(self, iteration: int, index: int, message: Message) -> Message:
        text = message.text
        saved = _SAVED.search(text)
        if saved:
            where = saved.group(1)
        else:
            call = re.sub(r"[^A-Za-z0-9_.-]+", "_", message.tool_call_id or str(index))
            where = f"{TMP_DIR}/elided-{iteration}-{index}-{call}.txt"
            try:
                await self.fs.write_text(where, text)
            except (FileStoreError, PathError) as err:
                self.logger.warning("could not save elided output: %s", err)
                where = "(could not be saved; run the command again if you need it)"
        stub = (
            f"{_STUB_PREFIX} {message.name or 'tool'} ({len(text)} chars) elided to fit the "
            f"context window; full copy in {where}. Use head, tail or grep on it if you need it.]"
        )
        return message.model_copy(update={"content": stub})


_STUB_PREFIX = "[Output of"
_SLIM_PREFIX = "[elided to fit the context window:"


def _slim_turn(message: Message, answered: set[str | None]) -> Message | None:
    """``message`` with the long string arguments of its answered calls replaced
    by notes, or ``None`` when it has none."""
    calls: list[ParsedToolCall] = []
    changed = False
    for call in message.tool_calls:
        slim = _slim_call(call) if call.id in answered else None
        calls.append(slim or call)
        changed = changed or slim is not None
    return message.model_copy(update={"tool_calls": calls}) if changed else None


def _slim_call(call: ParsedToolCall) -> ParsedToolCall | None:
    path = call.args.get("path")
    where = f"; read {path} to see it as it is now" if isinstance(path, str) else ""
    args: dict[str, Any] = {}
    changed = False
    for key, value in call.args.items():
        if isinstance(value, str) and len(value) > BULKY_ARG_CHARS:
            value = f"{_SLIM_PREFIX} {len(value)} chars; the call ran with them in full{where}]"
            changed = True
        args[key] = value
    if not changed:
        return None
    # raw_args is what the OpenAI dialect sends back: keep it in step with args.
    raw = json.dumps(args, ensure_ascii=False)
    return call.model_copy(update={"args": args, "raw_args": raw, "repaired": False})


def _is_slim(message: Message) -> bool:
    return any(
        isinstance(v, str) and v.startswith(_SLIM_PREFIX)
        for call in message.tool_calls
        for v in call.args.values()
    )


def _is_stub(message: Message) -> bool:
    return isinstance(message.content, str) and message.content.startswith(_STUB_PREFIX)
