"""One turn of Chief's conversation on screen: the block and its rounds.

A turn is the person's message and every reply and tool result that followed
it; with tools one answer is several calls (rounds).  :class:`TurnView` is the
block (one status, one usage line, Copy and the turn's buttons);
:class:`ReplyView` one round (reasoning, words, tools, the plan, an error).
What the block sums up and says is :mod:`wiggum.ui.turns`'; which buttons show
is the session's (:class:`~wiggum.session.chief.TurnActions`).

Streaming: each ``delta`` hands the reply's text to a
:class:`~wiggum.web.markdown_view.StreamingMarkdown`, which re-renders only the
still-open last block (finished blocks are built once).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import js  # type: ignore[import-not-found]

from wiggum.ui import turns
from wiggum.ui.errors import Explanation
from wiggum.ui.markup import chat as markup
from wiggum.ui.markup import reply
from wiggum.ui.sources import safe_sources

from ...dom import is_null, mount, mount_all, render_markdown, say
from ...markdown_view import StreamingMarkdown

if TYPE_CHECKING:  # the first screen shows this view before pydantic has loaded
    from wiggum.chief.chat import ChatRecord

__all__ = ["ReplyView", "TurnView", "show_alts", "strip_notice"]


def strip_notice(el: Any, record: Any) -> None:
    """Say on the reply that its request went without the person's images."""
    if not getattr(record, "images_stripped", False):
        return
    from wiggum.chief.attachments import NO_IMAGES_NOTE

    if is_null(el.querySelector('[data-testid="images-stripped"]')):
        el.appendChild(mount(markup.images_stripped(NO_IMAGES_NOTE)).el)


def show_alts(nav: Any, alts: list[int], seq: int) -> None:
    shown = turns.alt_nav(alts, seq)
    nav.hidden = shown is None
    if shown is not None:
        nav.setAttribute("data-prev", shown.prev)
        nav.setAttribute("data-next", shown.next)
        nav.querySelector(".alt-label").textContent = shown.label
        nav.querySelector("[data-action=alt-prev]").disabled = not shown.prev
        nav.querySelector("[data-action=alt-next]").disabled = not shown.next


class TurnView:
    """One person turn's answer: one Chief block holding every round (reply
    record) of the turn, with one status, one usage line, Copy and the turn's
    buttons (Retry, Continue, Regenerate, versions)."""

    def __init__(self, *, elsewhere: bool = False) -> None:
        #: Not this tab's turn: if it is still streaming, another tab streams it.
        self.elsewhere = elsewhere
        self.rounds: list[ReplyView] = []
        parts = mount(markup.turn_block())
        self.el, self.box, self.alts = parts.el, parts.box, parts.alts
        self.status, self.usage = parts.status, parts.usage
        self.retry, self.cont, self.regenerate = parts.retry, parts.cont, parts.regenerate

    def add(self, view: ReplyView) -> None:
        view.turn = self
        self.rounds.append(view)
        self.box.appendChild(view.el)
        self.refresh()

    def remove(self, view: ReplyView) -> None:
        if view in self.rounds:
            self.rounds.remove(view)
            view.el.remove()
        self.refresh()

    def text(self) -> str:
        """What Copy copies: the turn's words (markdown source), rounds joined."""
        words = (v.record.content.strip() for v in self.rounds)
        return "\n\n".join(w for w in words if w)

    def show_actions(self, retry: bool, resume: bool, regenerate: bool) -> None:
        self.retry.hidden = not retry
        self.cont.hidden = not resume
        self.regenerate.hidden = not regenerate

    def refresh(self) -> None:
        status = turns.turn_status([v.record.status for v in self.rounds])
        self.el.setAttribute("data-status", status)
        self.el.setAttribute("aria-busy", "true" if status == "streaming" else "false")
        if self.rounds:
            self.el.setAttribute("data-seq", str(self.rounds[-1].record.seq))
        say(self.status, turns.status_label(status, elsewhere=self.elsewhere))
        say(self.usage, turns.turn_line((v.record.usage for v in self.rounds), status))
        # The rounds before the last are the steps: their text stays, their tools fold.
        for i, view in enumerate(self.rounds):
            view.el.classList.toggle("is-step", i < len(self.rounds) - 1)


class ReplyView:
    """One reply record (a round of a turn): reasoning, body, its tools, the plan, error."""

    def __init__(
        self,
        record: ChatRecord,
        explain_fn: Callable[[Any], Explanation | None],
        on_render: Callable[[], None] | None = None,
    ) -> None:
        self.record = record
        self._explain = explain_fn
        self.turn: TurnView | None = None
        parts = mount(markup.reply_round(record.seq))
        self.el, self.trim, self.body, self.error = parts.el, parts.trim, parts.body, parts.error
        self.error_text, self.error_settings = parts.error_text, parts.error_settings
        self.reasoning, self.reasoning_text = parts.reasoning, parts.reasoning_text
        self.sources, self.tools = parts.sources, parts.tools
        self.tools_summary = parts.tools_summary
        self.plan, self.plan_body = parts.plan, parts.plan_body
        self.plan_actions = parts.plan_actions
        #: The plan as Chief writes it (a plan-writing call streaming).
        self._draft_md: StreamingMarkdown | None = None
        self.tool_els: dict[str, Any] = {}
        #: Each tool call's result line and output box, by call id.
        self._tool_parts: dict[str, Any] = {}
        self._md = StreamingMarkdown(self.body, on_render=on_render)
        #: Characters of the reply's text (and reasoning) already on screen.
        self._text_shown = 0
        self._reasoning_shown = 0
        self.renders = 0
        self.update(final=True)

    # -------------------------------------------------------------- streaming

    def _render_body(self) -> None:
        text = self.record.content
        if self.record.status == "streaming":
            self._md.update(text)
        else:
            self._md.finish(text)
        self._text_shown = len(text)
        self.renders = self._md.renders

    def delta(self) -> None:
        r = self.record
        if r.reasoning and len(r.reasoning) > self._reasoning_shown:
            self.reasoning.hidden = False
            self.reasoning_text.appendChild(
                js.document.createTextNode(r.reasoning[self._reasoning_shown :])
            )
            self._reasoning_shown = len(r.reasoning)
        text = r.content
        if len(text) <= self._text_shown:
            return
        self._md.feed(text)
        self._text_shown = len(text)

    def show_tool_calls(self) -> None:
        """One compact line per tool call; its result fills in when it arrives."""
        for call in self.record.tool_calls:
            if call.id in self.tool_els:
                continue
            parts = mount(markup.tool_call(call.name, turns.brief_args(call.args)))
            el = parts.el
            self._tool_parts[call.id] = parts
            self.tool_els[call.id] = el
            self.tools.appendChild(el)
            plan = turns.plan_text(call)
            if plan is not None:
                self._draft_md = None
                self.plan_body.replaceChildren(render_markdown(plan))
                self.plan.hidden = False
                self.plan.removeAttribute("data-drafting")
                self.plan_actions.hidden = False
        self.tools.hidden = not self.tool_els
        self.tools_summary.textContent = turns.round_summary(self.record.tool_calls)

    def show_draft(self, text: str) -> None:
        """The plan as it streams in a tool call's arguments (partial JSON, read
        by ``chief.drafting``); the finished call draws it whole."""
        if not text.strip():
            return
        if self._draft_md is None:
            self.plan_body.replaceChildren()
            self._draft_md = StreamingMarkdown(self.plan_body)
        self._draft_md.feed(text)
        self.plan.hidden = False
        self.plan.setAttribute("data-drafting", "true")

    def tool_result(self, record: ChatRecord) -> None:
        parts = self._tool_parts.get(record.tool_call_id or "")
        if parts is None:
            return
        parts.output.textContent = record.content
        parts.result.textContent = turns.result_brief(record.content)
        parts.el.setAttribute("data-error", "true" if record.is_error else "false")

    def update(self, *, final: bool = False) -> None:
        r = self.record
        if r.tool_calls:
            self.show_tool_calls()
        if r.reasoning:
            self.reasoning.hidden = False
            self.reasoning_text.textContent = r.reasoning
            self._reasoning_shown = len(r.reasoning)
        if final or r.status != "streaming":
            self._render_body()
            links = safe_sources(r.citations or [])  # a search's sources, as safe links
            self.sources.hidden = not links
            self.sources.replaceChildren(*mount_all(reply.sources(links) if links else []))
        self.el.setAttribute("data-status", r.status)
        # A round that only called tools has no words to show.
        self.body.hidden = not r.content.strip() and bool(r.tool_calls)
        if self.turn is not None:
            self.turn.refresh()
        if r.trimmed:
            say(self.trim, turns.trimmed_text(r.trimmed))
        explanation = self._explain(r.error) if r.error is not None else None
        if explanation is not None:
            words = markup.error_text(explanation.title, explanation.message)
            self.error_text.replaceChildren(*mount_all(words))
            self.error_settings.hidden = not explanation.settings
            self.error.hidden = False
        else:
            self.error.hidden = True
