"""Ralph's tab: status badge, resume banner, workspace slot, transcript, Stop.

Everything the loop reports (:class:`~wiggum.ralph.types.RalphCallbacks`)
becomes an *event record* (a plain dict with ``kind``), saved write-through
with ``AppStorage.put_message(project, "ralph", seq, record)`` and rendered
into the transcript; a reload reads them back and renders the same thing.

Event kinds: ``run`` (a run began or resumed), ``iteration``, ``intent``,
``tool``, ``reasoning``, ``usage``, ``stall``, ``pressure`` (the context was
nearly full: token counts only, once per iteration), ``gates``, ``status``,
``result`` (the run's end: status, summary, usage, error).
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable
from typing import Any

from wiggum.ralph.types import GateResult, RalphCallbacks, RalphResult, RalphStatus
from wiggum.ui.format import format_cost, format_tokens, usage_line
from wiggum.ui.runs import run_rows

from ..dom import Listeners, closest_action, h, spawn


def _is_storage_full(exc: BaseException) -> bool:
    from wiggum.fs import StorageFull

    return isinstance(exc, StorageFull)


__all__ = ["AGENT", "RalphView", "badge_text", "pressure_note"]

log = logging.getLogger("wiggum.web.ralph")

AGENT = "ralph"

#: How much of a tool's output the one-line summary shows.
SHORT_OUTPUT = 80
#: The most of a tool's output a transcript keeps (the rest is in the files).
KEEP_OUTPUT = 4000

_END_LABEL = {
    RalphStatus.COMPLETE: "Ralph finished",
    RalphStatus.BLOCKED: "Ralph needs your input",
    RalphStatus.MAX_ITERATIONS: "Ralph ran out of iterations",
    RalphStatus.STALLED: "Ralph stalled",
    RalphStatus.ERROR: "Ralph stopped with an error",
    RalphStatus.CANCELLED: "Ralph was stopped",
}


_OUTCOME = {
    "running": "Running",
    "interrupted": "Interrupted",
    RalphStatus.COMPLETE: "Finished",
    RalphStatus.BLOCKED: "Needs input",
    RalphStatus.MAX_ITERATIONS: "Out of iterations",
    RalphStatus.STALLED: "Stalled",
    RalphStatus.ERROR: "Failed",
    RalphStatus.CANCELLED: "Stopped",
}


def js_time(stamp: float) -> str:
    """``14:05`` today, else ``25 Nov 14:05`` (local time)."""
    t = time.localtime(stamp)
    if time.localtime()[:3] == t[:3]:
        return time.strftime("%H:%M", t)
    return time.strftime("%d %b %H:%M", t)


def badge_text(status: str, iteration: int, max_iterations: int, interrupted: bool = False) -> str:
    """The tab badge: ``● [3/20]``, ``✓ DONE``, ``● ERROR``…; ``""`` when idle."""
    of = f"{iteration}/{max_iterations or 20}"
    if interrupted:
        return f"⏸ [{of}]"
    return {
        RalphStatus.RUNNING: f"● [{of}]",
        RalphStatus.COMPLETE: "✓ DONE",
        RalphStatus.ERROR: "● ERROR",
        RalphStatus.STALLED: "● STALLED",
        RalphStatus.MAX_ITERATIONS: "● MAX",
        RalphStatus.CANCELLED: "■ STOPPED",
        RalphStatus.BLOCKED: "? BLOCKED",
    }.get(status, "")


def _short(text: str, limit: int = SHORT_OUTPUT) -> str:
    line = " ".join(str(text).split())
    return line if len(line) <= limit else line[: limit - 1] + "…"


def pressure_note(record: dict[str, Any]) -> str:
    """The transcript's line for a ``pressure`` event."""
    estimated = int(record.get("estimated") or 0)
    window = int(record.get("window") or 0)
    left = max(0.0, float(record.get("headroom") or 0.0)) * 100
    return (
        f"Context nearly full: about {estimated:,} of {window:,} tokens ({left:.0f}% left). "
        "Older tool output may be shortened."
    )


def _key_args(name: str, args: dict[str, Any]) -> str:
    """The arguments that say what a call did (path, command…), briefly."""
    if not isinstance(args, dict):
        return _short(str(args), 60)
    for key in ("command", "path", "pattern", "query"):
        if key in args:
            value = str(args[key])
            first = value.splitlines()[0] if value else ""
            more = " …" if "\n" in value.strip() else ""
            return _short(first, 60) + more
    return _short(json.dumps(args, ensure_ascii=False), 60)


class RalphView:
    """Ralph's tab for the active project (rebound on project switch)."""

    def __init__(
        self,
        app: Any,
        *,
        on_resume: Callable[[], Any] | None = None,
        on_stop: Callable[[], Any] | None = None,
        on_start: Callable[[str], Any] | None = None,
    ) -> None:
        self.app = app
        self.on_resume = on_resume
        self.on_stop = on_stop
        #: Start a run on a task the person typed here (not through Chief).
        self.on_start = on_start
        self._running = False
        self.project_id: str | None = None
        self.events: list[dict[str, Any]] = []
        #: Events whose write was refused, by (project, seq); and whether the
        #: refusal was said (once until a write succeeds again).
        self._unsaved: dict[tuple[str, int], dict[str, Any]] = {}
        self._said_full = False
        self.listeners = Listeners()
        self._iter_els: dict[int, dict[str, Any]] = {}
        self._run_usage: str = ""
        #: Another tab owns the project: a run shown as going is going there.
        self.elsewhere = False
        self._state: Any = None

        self.badge = h(
            "span", {"class": "ralph-badge", "data-testid": "ralph-badge", "hidden": True}
        )
        self.status_line = h("span", {"class": "ralph-status", "data-testid": "ralph-status"})
        self.total = h("span", {"class": "usage ralph-total", "data-testid": "ralph-total"})
        self.stop_btn = h(
            "button",
            {
                "type": "button",
                "class": "btn btn-stop",
                "data-testid": "ralph-stop",
                "data-action": "ralph-stop",
                "hidden": True,
            },
            "Stop",
        )
        self.resume_text = h("span", {"class": "banner-text", "data-testid": "ralph-resume-text"})
        self.resume = h(
            "div",
            {
                "class": "ralph-resume",
                "data-testid": "ralph-resume",
                "role": "alert",
                "hidden": True,
            },
            self.resume_text,
            h(
                "div",
                {"class": "banner-actions"},
                h(
                    "button",
                    {
                        "type": "button",
                        "class": "btn btn-primary btn-small",
                        "data-testid": "ralph-resume-button",
                        "data-action": "ralph-resume",
                    },
                    "Resume",
                ),
                h(
                    "button",
                    {
                        "type": "button",
                        "class": "btn btn-small",
                        "data-testid": "ralph-dismiss",
                        "data-action": "ralph-dismiss",
                    },
                    "Dismiss",
                ),
            ),
        )
        #: The project's files / preview go here (views.files, views.preview).
        self.workspace = h("div", {"class": "ralph-workspace", "data-testid": "ralph-workspace"})
        self.empty = h(
            "div",
            {"class": "chat-empty ralph-empty"},
            h("h2", {"text": "Ralph builds here"}),
            h(
                "p",
                {
                    "text": "Ralph is the builder: he takes a plan and writes the project's "
                    "files, one iteration at a time, checking his work after each step. "
                    "Everything he does shows up here as he does it."
                },
            ),
            h(
                "p",
                {
                    "text": "To start, agree on a plan with Chief and tell him to hand it "
                    "over (say “go”), or type a task for Ralph below."
                },
            ),
            self._task_form(),
        )
        self.runs_list = h("ol", {"class": "ralph-runs-list"})
        self.runs = h(
            "details",
            {"class": "ralph-runs", "data-testid": "ralph-runs", "hidden": True},
            h("summary", {"class": "ralph-runs-title", "text": "Runs"}),
            self.runs_list,
        )
        self.transcript = h(
            "div",
            {
                "class": "ralph-transcript",
                "data-testid": "ralph-transcript",
                "role": "log",
                "aria-label": "Ralph's work",
                "aria-live": "polite",
                "tabindex": "0",
            },
        )
        self.summary = h(
            "div", {"class": "ralph-summary", "data-testid": "ralph-summary", "hidden": True}
        )
        self.scroller = h(
            "div",
            {"class": "ralph-scroll"},
            self.empty,
            self.runs,
            self.transcript,
            self.summary,
        )
        bar = h(
            "div",
            {"class": "ralph-bar"},
            self.status_line,
            h("span", {"class": "header-spacer"}),
            self.total,
            self.stop_btn,
        )
        self.el = h("div", {"class": "ralph"}, bar, self.resume, self.workspace, self.scroller)
        self.listeners.on(self.el, "click", self._on_click)

    def _task_form(self) -> Any:
        self.task_note = h(
            "p",
            {
                "class": "ralph-task-note file-error",
                "data-testid": "ralph-task-note",
                "role": "status",
                "hidden": True,
            },
        )
        self.task_input = h(
            "textarea",
            {
                "class": "chat-input",
                "data-testid": "ralph-task-input",
                "rows": "3",
                "aria-label": "A task for Ralph",
                "placeholder": "e.g. A one-page site for my bakery: menu, opening hours, map.",
            },
        )
        return h(
            "div",
            {"class": "ralph-task"},
            self.task_input,
            h(
                "div",
                {"class": "composer-bar"},
                h(
                    "button",
                    {
                        "type": "button",
                        "class": "btn btn-primary",
                        "data-action": "ralph-start",
                        "data-testid": "ralph-start",
                    },
                    "Start Ralph",
                ),
            ),
            self.task_note,
        )

    # ------------------------------------------------------------ binding

    async def bind(self, project_id: str) -> None:
        """Show ``project_id``'s saved transcript."""
        self.project_id = project_id
        self.events = []
        # Events of this project that storage refused are not written later: what
        # is read back now is the transcript (another tab may have written it since).
        for key in [k for k in self._unsaved if k[0] == project_id]:
            del self._unsaved[key]
        self._iter_els = {}
        self.transcript.replaceChildren()
        self.summary.hidden = True
        self.summary.replaceChildren()
        self.total.textContent = ""
        self.resume.hidden = True
        try:
            rows = await self.app.storage.load_messages(project_id, AGENT)
        except Exception:
            log.exception("ralph: could not read the transcript")
            rows = []
        for row in rows:
            if isinstance(row, dict) and "kind" in row:
                self.events.append(row)
                self._render(row)
        self._sync_empty()
        self._render_runs()
        self._scroll_to_end()

    def close(self) -> None:
        self.listeners.close()

    # ------------------------------------------------------------ events in

    def callbacks(self) -> RalphCallbacks:
        """The loop's callbacks for the Coordinator (chained after its own)."""
        return RalphCallbacks(
            on_iteration_start=lambda i, m: self.add({"kind": "iteration", "i": i, "max": m}),
            on_intent=lambda i, text: self.add({"kind": "intent", "i": i, "text": text}),
            on_tool_call=self._on_tool_call,
            on_reasoning=lambda i, text: self.add({"kind": "reasoning", "i": i, "text": text}),
            on_usage=lambda i, call, total: self.add(
                {
                    "kind": "usage",
                    "i": i,
                    "call": call.model_dump(mode="json"),
                    "total": total.model_dump(mode="json"),
                }
            ),
            on_stall=lambda n, sig: self.add({"kind": "stall", "count": n}),
            on_context_pressure=self._on_context_pressure,
            on_gates=lambda i, results: self.add(
                {"kind": "gates", "i": i, "results": [r.model_dump(mode="json") for r in results]}
            ),
            on_complete=lambda result: None,
        )

    def _on_tool_call(self, i: int, name: str, args: dict, output: str, is_error: bool) -> None:
        out = str(output)
        if len(out) > KEEP_OUTPUT:
            out = out[:KEEP_OUTPUT] + f"\n… ({len(output) - KEEP_OUTPUT} more characters)"
        try:
            json.dumps(args)
        except (TypeError, ValueError):
            args = {"args": str(args)}
        self.add(
            {"kind": "tool", "i": i, "name": name, "args": args, "output": out, "error": is_error}
        )
        refresh = getattr(self.app, "refresh_workspace", None)
        if refresh is not None:
            refresh()

    def _on_context_pressure(self, estimated: int, window: int, headroom: float) -> None:
        """One note per iteration (the loop reports every call built under pressure)."""
        iteration = 0
        for r in reversed(self.events):
            kind = r.get("kind")
            if kind == "pressure":
                return  # already noted in this iteration
            if kind == "iteration":
                iteration = int(r.get("i") or 0)
                break
            if kind == "run":
                break
        self.add(
            {
                "kind": "pressure",
                "i": iteration,
                "estimated": int(estimated),
                "window": int(window),
                "headroom": round(float(headroom), 4),
            }
        )

    def run_started(self, resumed: bool) -> None:
        self.add({"kind": "run", "resumed": resumed, "t": time.time()})

    def run_finished(self, result: RalphResult | None, status: str, error: str | None) -> None:
        record: dict[str, Any] = {"kind": "result", "status": str(status), "error": error}
        if result is not None:
            record["summary"] = result.summary
            record["iterations"] = result.iterations
            if result.usage is not None:
                record["usage"] = result.usage.model_dump(mode="json")
            if result.completion is not None:
                record["files"] = sorted(
                    set(result.completion.files_created + result.completion.files_modified)
                )
        self.add(record)

    def add(self, record: dict[str, Any]) -> None:
        if self.project_id is None:
            return
        seq = len(self.events)
        self.events.append(record)
        try:
            self._render(record)
        except Exception:
            log.exception("ralph: could not render a %s event", record.get("kind"))
        self._sync_empty()
        if record.get("kind") in ("run", "iteration", "result", "usage"):
            self._render_runs()
        self._scroll_to_end()
        spawn(self._save(self.project_id, seq, record), what="save ralph event")

    async def _save(self, project_id: str, seq: int, record: dict[str, Any]) -> None:
        # Issue 12: an event refused for a full quota stays on screen, is written
        # again after the next write that succeeds, and the refusal is said once.
        unsaved = self._unsaved
        try:
            await self.app.storage.put_message(project_id, AGENT, seq, record)
        except Exception as exc:
            log.warning("ralph: could not save event %d: %s", seq, type(exc).__name__)
            unsaved[(project_id, seq)] = record
            if _is_storage_full(exc) and not self._said_full:
                self._said_full = True
                self.storage_refused(f"Ralph's transcript is not saved. {exc}")
            return
        for (pid, n), earlier in list(unsaved.items()):
            try:
                await self.app.storage.put_message(pid, AGENT, n, earlier)
            except Exception:
                return
            unsaved.pop((pid, n), None)
        self._said_full = False

    def storage_refused(self, text: str) -> None:
        """A write refused for space (a history checkpoint, the transcript): said
        in the transcript, not stored (storing it would be refused too)."""
        self._line(text, "ralph-storage file-error", "ralph-storage")
        self._scroll_to_end()

    # ------------------------------------------------------------ state

    def set_elsewhere(self, elsewhere: bool) -> None:
        """Whether another tab owns the project (this one is paused on it)."""
        if elsewhere != self.elsewhere:
            self.elsewhere = elsewhere
            if self._state is not None:
                self.show_state(self._state)

    def show_state(self, state: Any) -> None:
        """Badge, status line, Stop and the resume banner from a CoordinatorState.

        While another tab owns the project (:attr:`elsewhere`) a running state
        is that tab's run: it is said so, and Stop is not offered here ("Use
        here" takes the project, and stops the run there, first)."""
        self._state = state
        status = str(state.status)
        text = badge_text(status, state.iteration, state.max_iterations, state.interrupted)
        self.badge.textContent = text
        self.badge.hidden = not text
        self.badge.setAttribute("data-status", "interrupted" if state.interrupted else status)
        running = state.running and not state.interrupted
        self.stop_btn.hidden = not running or self.elsewhere
        of = f"{state.iteration}/{state.max_iterations or 20}"
        if state.interrupted:
            line = f"Interrupted at iteration {of}"
        elif running and self.elsewhere:
            line = f"Working in another tab — iteration {of}"
        elif running:
            line = f"Working — iteration {of}" if state.iteration else "Starting…"
        elif status in _END_LABEL:
            line = _END_LABEL[status]
        else:
            line = "Idle"
        self.status_line.textContent = line
        if state.usage is not None:
            self.total.textContent = "Total " + usage_line(state.usage)
        self._running = running
        button = self.resume.querySelector("[data-action=ralph-resume]")
        if state.resumable and not running:
            if state.interrupted:
                text = f"Ralph was interrupted at iteration {of} — his work so far is saved."
                label = "Resume"
            elif status == "error":
                text = (
                    f"Ralph's iteration {of} failed — his work so far is saved. "
                    "Retry runs that iteration again."
                )
                label = "Retry"
            else:
                text = f"Ralph was stopped at iteration {of} — his work so far is saved."
                label = "Resume"
            self.resume_text.textContent = text
            button.textContent = label
            self.resume.hidden = False
        else:
            self.resume.hidden = True
        self._render_runs()

    # ------------------------------------------------------------ rendering

    def _sync_empty(self) -> None:
        self.empty.hidden = bool(self.events)

    def _scroll_to_end(self) -> None:
        s = self.scroller
        s.scrollTop = s.scrollHeight

    def _iteration(self, i: int, max_iterations: int | None = None) -> dict[str, Any]:
        found = self._iter_els.get(i)
        if found is not None:
            return found
        title = h(
            "span", {"class": "ralph-iter-title", "text": f"Iteration {i}/{max_iterations or 20}"}
        )
        usage = h("span", {"class": "usage", "data-testid": "ralph-iteration-usage"})
        body = h("div", {"class": "ralph-iter-body"})
        el = h(
            "section",
            {"class": "ralph-iter", "data-testid": "ralph-iteration", "data-iteration": str(i)},
            h("header", {"class": "ralph-iter-head"}, title, usage),
            body,
        )
        self.transcript.appendChild(el)
        found = {"el": el, "body": body, "usage": usage, "title": title, "calls": None}
        self._iter_els[i] = found
        return found

    def _render(self, r: dict[str, Any]) -> None:
        kind = r.get("kind")
        if kind == "run":
            text = "Resumed the run." if r.get("resumed") else "Started a new run."
            self.transcript.appendChild(
                h("p", {"class": "ralph-line ralph-run", "data-testid": "ralph-line", "text": text})
            )
            self.summary.hidden = True
            self._iter_els = {}
        elif kind == "iteration":
            it = self._iteration(int(r["i"]), r.get("max"))
            it["title"].textContent = f"Iteration {r['i']}/{r.get('max') or 20}"
        elif kind == "intent":
            self._iteration(int(r["i"]))["body"].appendChild(
                h("p", {"class": "ralph-intent", "data-testid": "ralph-intent", "text": r["text"]})
            )
        elif kind == "reasoning":
            self._iteration(int(r["i"]))["body"].appendChild(
                h(
                    "details",
                    {"class": "reasoning", "data-testid": "ralph-reasoning"},
                    h("summary", {"text": "Reasoning"}),
                    h("div", {"class": "reasoning-text", "text": r["text"]}),
                )
            )
        elif kind == "tool":
            self._render_tool(r)
        elif kind == "usage":
            it = self._iteration(int(r["i"]))
            it.setdefault("sum", {"prompt_tokens": 0, "completion_tokens": 0, "cost": None})
            s, c = it["sum"], r.get("call") or {}
            s["prompt_tokens"] += c.get("prompt_tokens") or 0
            s["completion_tokens"] += c.get("completion_tokens") or 0
            if c.get("cost") is not None:
                s["cost"] = (s["cost"] or 0.0) + c["cost"]
            it["usage"].textContent = usage_line(s)
            self.total.textContent = "Total " + usage_line(r.get("total"))
        elif kind == "stall":
            n = r.get("count", 0)
            self._line(
                f"Stall: the same tool calls {n} times in a row.", "ralph-stall", "ralph-stall"
            )
        elif kind == "pressure":
            i = int(r.get("i") or 0)
            host = self._iteration(i)["body"] if i else self.transcript
            host.appendChild(
                h(
                    "p",
                    {
                        "class": "ralph-line ralph-pressure",
                        "data-testid": "ralph-pressure",
                        "text": pressure_note(r),
                    },
                )
            )
        elif kind == "gates":
            self._render_gates(r)
        elif kind == "result":
            self._render_result(r)

    def _line(self, text: str, cls: str, testid: str = "ralph-line") -> None:
        host = self.transcript
        if self._iter_els:
            host = self._iter_els[max(self._iter_els)]["body"]
        host.appendChild(
            h("p", {"class": f"ralph-line {cls}", "data-testid": testid, "text": text})
        )

    def _render_tool(self, r: dict[str, Any]) -> None:
        it = self._iteration(int(r["i"]))
        # In the order it happened: after the text and calls before it.
        name = str(r.get("name") or "?")
        args = r.get("args") or {}
        output = str(r.get("output") or "")
        error = bool(r.get("error"))
        full_args = json.dumps(args, ensure_ascii=False, indent=2) if args else ""
        if isinstance(args, dict) and set(args) <= {"command"} and "command" in args:
            full_args = str(args["command"])
        it["body"].appendChild(
            h(
                "details",
                {
                    "class": "ralph-action" + (" is-error" if error else ""),
                    "data-testid": "ralph-action",
                    "data-tool": name,
                    "data-error": "true" if error else "false",
                },
                h(
                    "summary",
                    {},
                    h("code", {"class": "action-name", "text": name}),
                    " ",
                    h("code", {"class": "action-args", "text": _key_args(name, args)}),
                    h(
                        "span",
                        {
                            "class": "action-out",
                            "data-testid": "ralph-action-result",
                            "text": "→ " + _short(output),
                        },
                    ),
                ),
                h("pre", {"class": "action-detail", "text": full_args}) if full_args else None,
                h("pre", {"class": "action-detail action-output", "text": output}),
            )
        )

    def _render_gates(self, r: dict[str, Any]) -> None:
        it = self._iteration(int(r["i"]))
        items = []
        results = [GateResult.model_validate(x) for x in r.get("results") or []]
        for g in results:
            mark = "✓" if g.passed else "✗"
            text = f"{mark} {g.gate}" + ("" if g.passed else f": {g.message}")
            items.append(
                h(
                    "li",
                    {
                        "class": "gate " + ("gate-pass" if g.passed else "gate-fail"),
                        "data-gate": g.gate,
                        "data-passed": "true" if g.passed else "false",
                        "text": text,
                    },
                )
            )
        passed = all(g.passed for g in results)
        it["body"].appendChild(
            h(
                "div",
                {
                    "class": "ralph-gates",
                    "data-testid": "ralph-gates",
                    "data-passed": str(passed).lower(),
                },
                h(
                    "div",
                    {
                        "class": "ralph-gates-title",
                        "text": "Checks passed" if passed else "Checks failed",
                    },
                ),
                h("ul", {}, items),
            )
        )

    def _render_result(self, r: dict[str, Any]) -> None:
        status = str(r.get("status") or "")
        label = _END_LABEL.get(status, f"Ralph ended ({status})")
        parts: list[Any] = [h("h3", {"class": "ralph-summary-title", "text": label})]
        if r.get("summary"):
            parts.append(h("p", {"class": "ralph-summary-text", "text": r["summary"]}))
        if r.get("error") and r.get("error") != r.get("summary"):
            parts.append(
                h(
                    "p",
                    {
                        "class": "ralph-summary-error",
                        "data-testid": "ralph-error",
                        "text": r["error"],
                    },
                )
            )
        if r.get("files"):
            parts.append(
                h("p", {"class": "ralph-summary-files", "text": "Files: " + ", ".join(r["files"])})
            )
        line = usage_line(r.get("usage"))
        n = r.get("iterations")
        count = f"{n} iteration{'' if n == 1 else 's'}" if isinstance(n, int) else "iterations: ?"
        meta = count + (f" · {line}" if line else "")
        parts.append(h("p", {"class": "usage", "data-testid": "ralph-summary-usage", "text": meta}))
        if line:
            self.total.textContent = "Total " + line
        self.summary.replaceChildren(*parts)
        self.summary.setAttribute("data-status", status)
        self.summary.hidden = False
        self.transcript.appendChild(
            h(
                "p",
                {
                    "class": "ralph-line ralph-run-end",
                    "data-testid": "ralph-run-end",
                    "data-status": status,
                    "text": label + (f": {r['summary']}" if r.get("summary") else "."),
                },
            )
        )

    def _render_runs(self) -> None:
        """Every run, newest on top: start, iterations, files changed, cost, outcome."""
        rows = run_rows(self.events, running=self._running)
        self.runs.hidden = not rows
        self.runs.open = True
        items = []
        for n, row in enumerate(rows):
            when = js_time(row.started) if row.started is not None else "earlier"
            outcome = _OUTCOME.get(row.outcome, row.outcome)
            cost = format_cost(row.cost) if row.tokens or row.cost is not None else "no usage"
            bits = [
                f"{row.iterations} iteration" + ("" if row.iterations == 1 else "s"),
                f"{len(row.files)} file" + ("" if len(row.files) == 1 else "s") + " changed",
                (format_tokens(row.tokens) + " · " + cost) if row.tokens else cost,
            ]
            items.append(
                h(
                    "li",
                    {
                        "class": "ralph-run-row" + (" is-current" if n == 0 else ""),
                        "data-testid": "ralph-run",
                        "data-outcome": row.outcome,
                    },
                    h("span", {"class": "ralph-run-when", "text": when}),
                    h("span", {"class": "ralph-run-outcome", "text": outcome}),
                    h("span", {"class": "ralph-run-meta usage", "text": " · ".join(bits)}),
                    h(
                        "span",
                        {
                            "class": "ralph-run-files",
                            "text": ", ".join(row.files[:6])
                            + (f" +{len(row.files) - 6}" if len(row.files) > 6 else ""),
                        },
                    )
                    if row.files
                    else None,
                )
            )
        self.runs_list.replaceChildren(*items)
        title = self.runs.querySelector(".ralph-runs-title")
        title.textContent = f"Runs ({len(rows)})"

    # ------------------------------------------------------------ clicks

    def _on_click(self, event: Any) -> None:
        target = closest_action(event)
        if target is None:
            return
        action = target.getAttribute("data-action")
        if action == "ralph-stop" and self.on_stop is not None:
            self.stop_btn.disabled = True
            spawn(self._call(self.on_stop), what="stop ralph")
        elif action == "ralph-resume" and self.on_resume is not None:
            if self._refused():
                return
            self.resume.hidden = True
            spawn(self._call(self.on_resume), what="resume ralph")
        elif action == "ralph-dismiss":
            self.resume.hidden = True
        elif action == "ralph-start" and self.on_start is not None:
            task = str(self.task_input.value).strip()
            if not task:
                self.task_input.focus()
                return
            if self._refused():  # another tab owns the project: the task stays typed
                return
            self.task_note.hidden = True
            self.task_input.value = ""
            spawn(self._call(lambda: self.on_start(task)), what="start ralph")

    def _refused(self) -> bool:
        refuse = getattr(self.app, "refuse_write", None)
        return bool(refuse is not None and refuse("ralph"))

    def refused(self, text: str) -> None:
        """A start refused (another tab owns the project): said under the task box."""
        self.task_note.textContent = text
        self.task_note.hidden = False

    async def _call(self, fn: Callable[[], Any]) -> None:
        try:
            out = fn()
            if hasattr(out, "__await__"):
                await out
        finally:
            self.stop_btn.disabled = False
