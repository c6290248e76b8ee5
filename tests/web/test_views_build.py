"""Every view of ``wiggum.web`` builds under the fake DOM, draws what it is
given, and holds to what a person (and a screen reader, and the page's CSP)
relies on.

A view that cannot build (a keyword clash, a name that moved, a selector the
browser would refuse, a dialog opened outside the document) fails here in
CPython, not when the page boots in Chromium.  The structure checks, on each
view as built and again with content drawn:

- every button says what it does: its text, or an ``aria-label`` when the
  text is a symbol (``✕``, ``‹``) or there is none;
- a button inside a form says its ``type`` (without one it submits the form);
- no inline handler (``onclick=``…) and no ``style`` attribute (the CSP
  refuses both; the views bind listeners and style through the CSSOM);
- ids are unique, and every ``for``, ``list``, ``aria-labelledby``,
  ``aria-describedby`` and ``aria-controls`` names an element that exists;
- in a view as built, a ``data-testid`` is on one element, or on siblings of
  one list (the ideas under an empty chat); rows drawn from content repeat
  theirs (one Copy per message), so content is checked for the rest only.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from types import SimpleNamespace
from typing import Any

import pytest

from tests.session.fakes import FakeHost, sim_settings
from wiggum.persist import MemoryAppStorage

#: Attributes that name other elements by id.
REFERENCES = ("for", "list", "aria-labelledby", "aria-describedby", "aria-controls")
#: Text that says something (a word or a number), not only a symbol.
WORDS = re.compile(r"[^\W_]", re.UNICODE)


def structure_problems(root: Any, *, built: bool = True) -> list[str]:
    """What is wrong with the tree under ``root`` (see the module's docstring);
    ``built``: the view as built, before content (test ids are checked too)."""
    problems: list[str] = []
    elements = [root, *root.querySelectorAll("*")]
    document = root.ownerDocument
    ids = Counter(el.id for el in elements if el.id)
    problems += [f"the id {id_!r} is on {n} elements" for id_, n in ids.items() if n > 1]
    for el in elements:
        for name in el.getAttributeNames():
            if name.startswith("on"):
                problems.append(f"{el!r}: an inline handler ({name})")
            if name == "style":
                problems.append(f"{el!r}: a style attribute (the CSP refuses it)")
        for attr in REFERENCES:
            for ref in (el.getAttribute(attr) or "").split():
                if not document.getElementById(ref):
                    problems.append(f"{el!r}: {attr} names {ref!r}, which is not there")
        if el.localName == "button":
            text = " ".join(el.textContent.split())
            label = (el.getAttribute("aria-label") or "").strip()
            if not label and not WORDS.search(text):
                problems.append(f"{el!r}: a button that says nothing ({text!r}, no aria-label)")
            if el.closest("form") and not el.hasAttribute("type"):
                problems.append(f"{el!r}: a button in a form without a type (it submits)")
    if built:
        where: dict[str, list[Any]] = defaultdict(list)
        for el in elements:
            if el.hasAttribute("data-testid"):
                where[el.getAttribute("data-testid")].append(el)
        for testid, found in where.items():
            if len(found) > 1 and len({id(el._parent) for el in found}) > 1:
                problems.append(f"the data-testid {testid!r} is on {len(found)} elements")
    return problems


def shown(el: Any) -> bool:
    from tests.web.fake_dom import is_shown

    return is_shown(el)


def put(dom: Any, *elements: Any) -> Any:
    """``elements`` in a box of the page's body (ids resolve, dialogs can open)."""
    box = dom.document.createElement("div")
    box.append(*elements)
    dom.document.body.appendChild(box)
    return box


# ------------------------------------------------------------------ the first screen


async def stored_project() -> tuple[MemoryAppStorage, str]:
    from wiggum.persist import ACTIVE_PROJECT

    storage = MemoryAppStorage()
    project = await storage.create_project("Bakery")
    await storage.put_meta(ACTIVE_PROJECT, project["id"])
    rows = [
        {"seq": 0, "role": "user", "content": "A page for my bakery"},
        {
            "seq": 1,
            "role": "assistant",
            "content": "Sure:\n\n```html\n<h1>Bakery</h1>\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |",
            "usage": {"prompt_tokens": 10, "completion_tokens": 20, "total_tokens": 30},
        },
    ]
    for row in rows:
        await storage.put_message(project["id"], "chief", row["seq"], row)
    return storage, project["id"]


async def test_the_first_screen_builds_and_shows_the_stored_conversation(dom, monkeypatch):
    from wiggum.web import shell as shell_module

    storage, project_id = await stored_project()

    async def open_storage() -> MemoryAppStorage:
        return storage

    monkeypatch.setattr(shell_module, "open_storage", open_storage)
    shell = await shell_module.open_shell(dom.document.getElementById("app-root"))
    page = dom.document.getElementById("app")
    assert shell.switcher.select.value == project_id
    assert shell.chat_view.chat is None
    users = page.querySelectorAll("[data-testid=message-user]")
    assert [u.textContent for u in users] == ["A page for my bakery"]
    reply = page.querySelector("[data-testid=message-assistant]")
    assert reply.querySelector("pre > code").textContent.strip() == "<h1>Bakery</h1>"
    assert reply.querySelector(".table-wrap table")
    assert not structure_problems(page, built=False)

    # The tabs switch with a click and with the arrow keys.
    shell.tab_ralph.click()
    assert shell.panel_chief.hidden and not shell.panel_ralph.hidden
    shell.tab_ralph.dispatch("keydown", key="ArrowLeft")
    assert not shell.panel_chief.hidden
    assert dom.document.activeElement is shell.tab_chief
    shell.close()


async def test_the_frame_as_built_holds_to_the_rules(dom):
    from wiggum.web.shell import Shell

    Shell(dom.document.getElementById("app-root"))
    assert not structure_problems(dom.document.getElementById("app"))


# ------------------------------------------------------------------ Chief's tab


async def test_the_chat_view_builds(dom):
    from wiggum.session.chief import ChiefSession
    from wiggum.ui.markup.chat import STARTERS
    from wiggum.web.views.chat import ChatView

    view = ChatView(ChiefSession(FakeHost()), open_settings=lambda: None)
    put(dom, view.el)
    assert not structure_problems(view.el)
    starters = view.el.querySelectorAll("[data-testid=starter]")
    assert [s.textContent for s in starters] == list(STARTERS)
    starters[1].click()
    assert view.composer.input.value == STARTERS[1]
    assert dom.document.activeElement is view.composer.input
    assert shown(view.composer.send_btn) and not shown(view.composer.stop_btn)
    view.close()


async def test_the_model_bars_show_the_models_and_say_a_pick(dom):
    from wiggum.ui.model_choice import Meter
    from wiggum.ui.models import ModelOption
    from wiggum.web.views.model_bar import ModelBars

    picked: list[tuple[str, str]] = []
    bars = ModelBars(lambda role, model: picked.append((role, model)))
    assert not structure_problems(put(dom, *(bar.el for bar in bars.bars.values())))
    models = [ModelOption("gpt-4o-mini", context_window=128_000), ModelOption("gpt-4o")]
    bars.show({"chief": "gpt-4o-mini", "ralph": "gpt-4o"}, models, "openai")
    chief = bars.bars["chief"]
    assert shown(chief.el) and chief.value == "gpt-4o-mini"
    # the whole label is the list's title: a phone's closed list may show only its start
    assert chief.select.getAttribute("title") == "gpt-4o-mini · 128k context"
    chief.select.value = "gpt-4o"
    chief.select.dispatch("change")
    assert picked == [("chief", "gpt-4o")]
    bars.set_meter("chief", Meter(tokens=64_000, window=128_000, cost=0.01))
    assert chief.meter_bar.value == 0.5 and chief.meter_text.textContent
    for bar in bars.bars.values():
        assert not structure_problems(bar.el)
    bars.show({}, models, "openai")
    assert not shown(chief.el)
    bars.close()


async def test_the_lock_banner_says_who_owns_the_project_and_offers_use_here(dom):
    from wiggum.ui.tab_lock import TabLock
    from wiggum.web.views.lock_banner import LockBanner

    used: list[bool] = []
    banner = LockBanner(lambda: used.append(True))
    root = put(dom, banner.el)
    machine = TabLock()
    machine.open("p1")
    machine.unavailable("p1")
    banner.show(machine, root)
    assert shown(banner.el) and banner.text.textContent
    assert root.getAttribute("data-tab-lock") == str(machine.state)
    banner.button.click()
    assert used == [True]
    assert not structure_problems(banner.el)
    banner.flash()
    assert banner.el.classList.contains("is-flash")
    banner.close()


async def test_onboarding_builds_and_follows_the_chosen_provider(dom):
    from wiggum.ui.presets import PRESETS
    from wiggum.web.views.onboarding import Onboarding

    opened: list[bool] = []

    async def done(provider: Any, template: str) -> None:
        raise AssertionError("nothing was tested")

    from tests.web.test_onboarding_view import Quick

    view = Onboarding(
        done,
        origin="http://127.0.0.1:8000",
        open_settings=lambda: opened.append(1),
        quick=Quick(),
    )
    put(dom, view.el)
    assert not structure_problems(view.el)
    assert view.provider.value == PRESETS[0].id
    other = PRESETS[-1]
    view.provider.value = other.id
    view.provider.dispatch("change")
    assert view.base_url.value == other.base_url
    assert shown(view.proxy_row) == other.proxy
    view.proxy.click()  # the box toggles and says so
    assert shown(view.proxy_row) == (not other.proxy)
    view.el.querySelector("[data-action=onb-settings]").click()
    assert opened == [1]
    view.close()


# ------------------------------------------------------------------ dialogs


async def test_settings_builds_opens_and_saves_what_was_typed(dom):
    from wiggum.ui.settings import Settings
    from wiggum.web.views.settings import SettingsDialog

    saved: list[Settings] = []

    async def save(settings: Settings) -> None:
        saved.append(settings)

    dialog = SettingsDialog(save, "http://127.0.0.1:8000")
    put(dom, dialog.el)
    assert not structure_problems(dialog.el)
    dialog.open(sim_settings(SimpleNamespace(base_url="http://127.0.0.1:9")))  # nothing listens
    assert dialog.el.open and dialog.parts.name.value == "Sim"
    assert "127.0.0.1:8000" in dialog.parts.deploy_cmd.textContent
    assert not structure_problems(dialog.el, built=False)
    dialog.parts.name.value = "Renamed"
    dialog.el.querySelector("[data-testid=settings-save]").click()
    await dom.flush()
    assert not dialog.el.open
    assert [s.providers[0].name for s in saved] == ["Renamed"]


async def test_the_debug_panel_lists_entries_and_copies_them(dom):
    from wiggum.ui.debuglog import DebugEntry
    from wiggum.web.views.debug import DebugPanel

    cleared: list[bool] = []

    async def clear() -> None:
        cleared.append(True)

    panel = DebugPanel(on_clear=clear, on_drain=lambda: 0)
    assert not structure_problems(put(dom, panel.button, panel.el))
    panel.add(DebugEntry(time=1.0, level="ERROR", logger="wiggum.llm", message="boom"))
    assert shown(panel.badge)
    panel.button.click()
    assert panel.el.open and not shown(panel.badge)
    assert [e.textContent for e in panel.el.querySelectorAll("[data-testid=debug-message]")] == [
        "boom"
    ]
    panel.el.querySelector("[data-testid=debug-copy]").click()
    await dom.flush()
    assert "boom" in dom.clipboard.written[0]
    panel.el.querySelector("[data-testid=debug-clear]").click()
    await dom.flush()
    assert cleared == [True] and not panel.el.querySelectorAll("[data-testid=debug-entry]")
    assert not structure_problems(panel.el, built=False)
    panel.el.querySelector("[data-action=close]").click()
    assert not panel.el.open
    panel.close_listeners()


class Projects:
    """The app's side of the projects dialog, over memory storage."""

    def __init__(self, storage: MemoryAppStorage, project_id: str) -> None:
        self.storage = storage
        self.project_id: str | None = project_id
        self.switched: list[str] = []

    async def switch_project(self, project_id: str) -> None:
        self.switched.append(project_id)
        self.project_id = project_id

    async def create_project(self, name: str) -> None:
        self.project_id = (await self.storage.create_project(name))["id"]

    async def refresh_projects(self) -> None:
        pass

    async def open_elsewhere(self, project_id: str) -> bool:
        return False


async def test_the_project_switcher_and_the_projects_dialog_build_and_list(dom):
    from wiggum.web.project_ops import ProjectOps
    from wiggum.web.views.project_switcher import ProjectSwitcher

    storage, first = await stored_project()
    second = (await storage.create_project("Quiz"))["id"]
    created: list[str] = []

    async def create(name: str) -> None:
        created.append(name)

    async def nothing(*_: Any) -> None:
        pass

    switcher = ProjectSwitcher(on_switch=nothing, on_create=create, on_rename=nothing)
    assert not structure_problems(put(dom, switcher.el, switcher.dialog))
    switcher.render(await storage.list_projects(), first)
    assert switcher.select.value == first
    # the open project's whole name is the list's title (a phone's header may cut it)
    assert switcher.select.getAttribute("title") == "Bakery"
    switcher.select.value = "__new__"  # "+ New project…"
    switcher.select.dispatch("change")
    assert switcher.dialog.open and switcher.select.value == first
    switcher.name.value = "  Cake shop "
    switcher.ok.click()
    await dom.flush()
    assert created == ["Cake shop"] and not switcher.dialog.open

    projects = Projects(storage, first)
    switcher.attach(projects, ProjectOps(storage))
    switcher.el.querySelector("[data-testid=project-manage]").click()
    await dom.flush()
    manager = switcher.manager
    assert manager.dialog.open
    rows = manager.parts.rows.querySelectorAll("[data-testid=project-row]")
    assert {r.getAttribute("data-project-id") for r in rows} == {first, second}
    assert not structure_problems(manager.dialog, built=False)
    row = manager.parts.rows.querySelector(f'[data-project-id="{second}"]')
    row.querySelector("[data-testid=project-open]").click()
    await dom.flush()
    assert projects.switched == [second]


async def test_the_projects_dialog_opened_during_a_switch_marks_the_project_it_ends_on(dom):
    from wiggum.web.project_ops import ProjectOps
    from wiggum.web.views.project_switcher import ProjectSwitcher

    storage, first = await stored_project()
    second = (await storage.create_project("Quiz"))["id"]

    async def nothing(*_: Any) -> None:
        pass

    switcher = ProjectSwitcher(on_switch=nothing, on_create=nothing, on_rename=nothing)
    put(dom, switcher.el, switcher.dialog)
    projects = Projects(storage, first)
    switcher.attach(projects, ProjectOps(storage))
    switcher.render(await storage.list_projects(), first)
    switcher.el.querySelector("[data-testid=project-manage]").click()  # the switch still going
    await dom.flush()

    def current() -> list[str]:
        rows = switcher.manager.parts.rows.querySelectorAll("[data-testid=project-row]")
        return [r.getAttribute("data-project-id") for r in rows if "current" in r.classList]

    assert current() == [first]
    projects.project_id = second  # the switch completes: the header's list is drawn again
    switcher.render(await storage.list_projects(), second)
    await dom.flush()
    assert current() == [second]


class Publishing:
    """The app's side of Publish: settings and a project's files in memory."""

    def __init__(self, storage: MemoryAppStorage, project_id: str) -> None:
        from wiggum.ui.settings import Settings

        self.storage = storage
        self.project_id = project_id
        self.settings = Settings()

    async def save_settings(self, settings: Any) -> None:
        self.settings = settings

    def project_files(self) -> Any:
        return self.storage.files(self.project_id)


async def test_publish_opens_with_the_files_to_publish(dom):
    from wiggum.web.views.publish import PublishPanel

    storage, project_id = await stored_project()
    await storage.files(project_id).write_text("index.html", "<h1>Bakery</h1>")
    panel = PublishPanel(Publishing(storage, project_id))
    assert not structure_problems(put(dom, panel.button, panel.el))
    panel.button.click()
    await dom.flush()
    assert panel.el.open
    assert "index.html" in panel.parts.summary.textContent
    assert dom.document.activeElement is panel.parts.token  # no token yet: typed first
    assert not structure_problems(panel.el, built=False)
    panel.parts.close.click()
    assert not panel.el.open


# ------------------------------------------------------------------ Ralph's tab


class RalphActions:
    def __init__(self) -> None:
        self.started: list[str] = []
        self.refusing = False

    async def start_task(self, task: str) -> None:
        self.started.append(task)

    async def resume(self) -> None:
        pass

    async def stop(self) -> None:
        pass

    def refuse(self) -> bool:
        return self.refusing


def a_run() -> list[Any]:
    """One run of Ralph's, as his loop reports it: every kind of event."""
    from wiggum.llm import UsageData
    from wiggum.ralph import transcript as t
    from wiggum.ralph.types import GateResult

    call = UsageData(prompt_tokens=100, completion_tokens=20, cost=0.001)
    return [
        t.RunEvent(started=1764200000.5),
        t.IterationEvent(iteration=1, max_iterations=20),
        t.UsageEvent(iteration=1, call=call, total=call),
        t.IntentEvent(iteration=1, text="Writing the page."),
        t.ReasoningEvent(iteration=1, text="The plan asks for one page."),
        t.ToolEvent(iteration=1, name="write_file", args={"path": "index.html"}, output="Made."),
        t.StallEvent(count=3),
        t.PressureEvent(iteration=1, estimated=120_000, window=128_000, headroom=0.06),
        t.GatesEvent(iteration=1, results=[GateResult(gate="entry_page", passed=True)]),
        t.UsageEvent(iteration=1, call=call, total=call),
        t.ResultEvent(status="complete", summary="Built it.", iterations=1),
    ]


async def test_ralphs_tab_builds_draws_a_run_and_starts_a_task(dom):
    from wiggum.coordinator.state import CoordinatorState
    from wiggum.ralph.transcript import RalphTranscript
    from wiggum.ralph.types import RalphStatus
    from wiggum.web.views.ralph import RalphView

    actions = RalphActions()
    view = RalphView(actions)
    put(dom, view.el)
    assert not structure_problems(view.el)
    assert shown(view.task_form)
    view.parts.task_input.value = "  A quiz game "
    view.el.querySelector("[data-testid=ralph-start]").click()
    await dom.flush()
    assert actions.started == ["A quiz game"] and view.parts.task_input.value == ""

    transcript = RalphTranscript(MemoryAppStorage(), "p1")
    view.bind(transcript)
    for event in a_run():  # as they happen
        transcript.append(event)
    await transcript.flush()
    drawn = view.transcript.el.textContent
    view.bind(transcript)  # read again: drawn the same, at once
    assert view.transcript.el.textContent == drawn
    assert not shown(view.task_form)
    assert len(view.el.querySelectorAll("[data-testid=ralph-iteration]")) == 1
    # The iteration's calls add up on its card (a run read again counts them once).
    usage = view.el.querySelector("[data-testid=ralph-iteration-usage]").textContent
    assert usage == "240 tokens · $0.0020"
    assert view.el.querySelector("[data-testid=ralph-action]").getAttribute("data-tool") == (
        "write_file"
    )
    assert shown(view.transcript.summary) and "Built it." in view.transcript.summary.textContent
    assert view.el.querySelector("[data-testid=ralph-run]")
    view.show_state(CoordinatorState(status=RalphStatus.RUNNING, iteration=2, max_iterations=20))
    assert shown(view.stop_btn) and shown(view.badge)
    assert not structure_problems(view.el, built=False)
    view.close()


class CodeMirror:
    """``globalThis.wiggumEditor`` (``static/editor.mjs``'s glue) without CodeMirror:
    an editor is its text."""

    class Handle:
        def __init__(self, text: str, opts: Any) -> None:
            self.text, self.opts, self.destroyed = text, opts, False

        def getText(self) -> str:
            return self.text

        def takeText(self) -> str:
            return self.text

        def setText(self, text: str) -> None:
            self.text = text

        def markSaved(self) -> None:
            pass

        def destroy(self) -> None:
            self.destroyed = True

    def __init__(self) -> None:
        self.editors: list[CodeMirror.Handle] = []

    async def create(self, host: Any, text: str, language: str, opts: Any) -> Handle:
        handle = self.Handle(text, opts)
        self.editors.append(handle)
        return handle


async def test_the_workspace_mounts_its_views_into_ralphs_tab(dom):
    from wiggum.fs import MemoryFileStore
    from wiggum.web.views.ralph import RalphView
    from wiggum.web.workspace_mount import Workspace

    dom.window.wiggumEditor = codemirror = CodeMirror()
    fs = MemoryFileStore()
    await fs.write_text("index.html", "<h1>Hi</h1>")
    await fs.write_text("src/app.js", "console.log(1)")
    ralph = RalphView(RalphActions())
    put(dom, ralph.el)
    changed: list[list[str]] = []
    workspace = Workspace(ralph.workspace, ralph, lambda: None, changed.append)
    workspace.show(fs, "p1")
    await dom.flush()
    assert set(workspace.views) == {"files", "preview", "history"}
    assert workspace.layout is not None and workspace.file_ops and workspace.preview_tools
    entries = ralph.el.querySelectorAll("[data-testid=file-entry]")
    assert sorted(e.getAttribute("data-path") for e in entries) == ["index.html", "src/app.js"]
    assert ralph.el.querySelector("[data-testid=preview-frame]").getAttribute("sandbox")
    assert not structure_problems(ralph.el, built=False)
    tabs = ralph.el.querySelectorAll(".ws-tab")
    tabs[-1].click()
    assert workspace.layout.active == tabs[-1].getAttribute("data-pane")
    ralph.el.querySelector("[data-testid=file-op-new-file]").click()
    form = ralph.el.querySelector("[data-testid=file-op-form]")
    assert shown(form)
    ralph.el.querySelector("[data-testid=file-op-input]").value = "about.html"
    ralph.el.querySelector("[data-testid=file-op-ok]").click()
    for _ in range(20):
        await dom.flush()
        if changed:
            break
    assert changed == [["about.html"]] and await fs.exists("about.html")
    viewer = ralph.el.querySelector("[data-testid=file-viewer]")
    assert shown(viewer) and viewer.getAttribute("data-path") == "about.html"
    assert [e.text for e in codemirror.editors] == [""]
    workspace.close()


@pytest.mark.parametrize("width", [1280, 500])
async def test_the_workspace_layout_follows_the_window_width(dom, width):
    from wiggum.web.views.ralph import RalphView
    from wiggum.web.views.workspace.layout import mount_layout

    dom.window.innerWidth = width
    ralph = RalphView(RalphActions())
    put(dom, ralph.el)
    layout = mount_layout(ralph, {}, "p1")
    narrow = width < 700
    assert ralph.workspace.getAttribute("data-narrow") == ("true" if narrow else "false")
    assert not structure_problems(ralph.workspace)
    # The sub-tabs are a tab list: the arrows move between them, and the focus with them.
    assert layout.tabs["transcript"].dispatch("keydown", key="ArrowRight").defaultPrevented
    assert layout.active == "files" and dom.document.activeElement is layout.tabs["files"]
    assert layout.tabs["files"].getAttribute("aria-selected") == "true"
    assert layout.panes["files"].getAttribute("data-active") == "true"
    layout.close()


# ------------------------------------------------------------------ the whole page


async def test_the_app_mounts_on_the_first_screen_and_its_buttons_open_their_dialogs(
    dom, monkeypatch
):
    """The composition root (``wiggum.web.app``) builds every view into the
    shell's frame and wires them: a name moved, a view's signature changed or
    a message without its handler fails here."""
    import wiggum.llm.transport as transport_module
    from wiggum.web import shell as shell_module
    from wiggum.web.app import mount

    # The app makes fetch the default transport: put back what was there after.
    monkeypatch.setattr(transport_module, "_default", None)
    storage, project_id = await stored_project()

    async def open_storage() -> MemoryAppStorage:
        return storage

    monkeypatch.setattr(shell_module, "open_storage", open_storage)
    shell = await shell_module.open_shell(dom.document.getElementById("app-root"))
    app = await mount(shell)
    await dom.flush()
    root = dom.document.getElementById("app-root")
    assert root.getAttribute("data-mounted") == "true"
    assert app.project_id == project_id and shell.chat_view.chat is app.chat
    page = dom.document.getElementById("app")
    assert [m.textContent for m in page.querySelectorAll("[data-testid=message-user]")] == [
        "A page for my bakery"
    ]
    # No provider yet: the first-run form is there (under the empty chat).
    setup = page.querySelector("[data-testid=setup-hint]")
    assert not setup.hidden and setup.querySelector("[data-testid=onboarding]")
    # The project opened: its files in Ralph's workspace, the model bars, the Log button.
    assert page.querySelector("#panel-ralph [data-testid=ralph-workspace] [data-testid=file-tree]")
    assert page.querySelector("#panel-chief [data-testid=model-bar-chief]")
    assert page.querySelector(".header-controls [data-testid=debug-button]")
    assert not structure_problems(page, built=False)

    for button, dialog in (
        ("settings-button", "settings-dialog"),
        ("debug-button", "debug-dialog"),
        ("publish-button", "publish-dialog"),
    ):
        page.querySelector(f"[data-testid={button}]").click()
        await dom.flush()
        opened = page.querySelector(f"[data-testid={dialog}]")
        assert opened.open, f"{button} did not open {dialog}"
        opened.dispatch("cancel")  # Escape
        opened.close()
    app.close()
