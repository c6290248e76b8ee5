"""The page's static structure, checked under CPython: every control a person
uses is labelled, nothing runs inline, each view names what its code finds."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from wiggum.preview.console import ConsoleEntry
from wiggum.project.history import Checkpoint, FileChange
from wiggum.project.importing import ImportResult, Refused
from wiggum.ralph import transcript as t
from wiggum.ralph.probes import ProbeResult
from wiggum.ralph.site_graph import PageNode
from wiggum.ralph.types import GateIssue, GateResult
from wiggum.ui.debuglog import DebugEntry, format_time
from wiggum.ui.files import Shown, file_tree, show_as
from wiggum.ui.layout import PANES, SPLITTERS, STAGE
from wiggum.ui.markdown import El, render
from wiggum.ui.markup import (
    attach,
    chat,
    checks,
    console,
    debug,
    editor,
    files,
    forms,
    history,
    inspector,
    model_bar,
    onboarding,
    point,
    preview,
    probes,
    projects,
    publish,
    ralph,
    ralph_budget,
    reply,
    settings,
    shell,
    workspace,
)
from wiggum.ui.models import ModelOption
from wiggum.ui.runs import IterationStep, RunRow
from wiggum.ui.tree import REF, refs, walk

PNG = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
    "1f15c4890000000d49444154789c63f8cfc0f01f0005000201a5f8ab3e0000000049454e44ae426082"
)
SVG = b'<svg xmlns="http://www.w3.org/2000/svg"/>'
#: One checkpoint: the person's edit of a page and a new image.
CHECKPOINT = Checkpoint(
    "b" * 40,
    "a" * 40,
    "you",
    1764200000.0,
    "Edit index.html",
    [
        FileChange("index.html", "modified", 2, 1),
        FileChange("logo.png", "added", 0, 0, True),
        FileChange("lib", "modified", submodule=True),
        FileChange("about.html", "added"),
    ],
)
ERROR = DebugEntry(
    time=1764200000.25,
    level="ERROR",
    logger="wiggum.llm",
    message="boom",
    fields={"status": 500},
    exception="Traceback\n  line",
)
CONSOLE_ERROR = ConsoleEntry(
    "TypeError: x is null",
    "js/app.js",
    12,
    "at add (js/app.js:12)",
    level="error",
    kind="error",
    count=3,
)
ALT_ISSUE = GateIssue(path="index.html", line=3, message="no alt", hint="add one")
IMAGE = SimpleNamespace(media_type="image/png", data="iVBORw0KGgo=", name="logo.png")
MARKDOWN = "text\n\n```python\nx = 1\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n"


def a_row(files: tuple[str, ...] = ("index.html",)) -> RunRow:
    row = RunRow(started=1764200000.5)
    row.iterations, row.files, row.outcome = 2, list(files), "complete"
    return row


STEP = IterationStep(2, "Style it.\nThen check.", "c" * 40, ["a.css"], ["index.html"], [])


def a_row_with_steps() -> RunRow:
    row = a_row()
    row.steps = {2: STEP}
    return row


RUN = t.RunEvent(started=1764200000.5)
INTENT = t.IntentEvent(iteration=1, text="Writing the page.")
REASONING = t.ReasoningEvent(iteration=1, text="One page.")
TOOL = t.ToolEvent(iteration=1, name="write_file", args={"path": "index.html"}, output="Made.")
FAILED = t.ToolEvent(iteration=1, name="run", output="no such command", is_error=True)
GATES = t.GatesEvent(
    iteration=1,
    results=[GateResult(gate="entry_page", passed=True), GateResult(gate="links", passed=False)],
)
DONE = t.ResultEvent(status="complete", summary="Built it.", iterations=1, files=["index.html"])
BROKE = t.ResultEvent(status="error", error="The provider failed.", iterations=1)

ONE_REFUSED = ImportResult(
    files={"index.html": b"<h1>Hi</h1>"}, refused=[Refused("a.exe", "not allowed")]
)

TREES: dict[str, El | list[El]] = {
    "chat.view": chat.view(chat.send_hint("Linux x86_64")),
    "chat.frame": chat.frame(),
    "chat.banners": chat.banners(),
    "chat.composer": chat.composer(chat.send_hint("Linux x86_64")),
    "chat.chats_bar": chat.chats_bar(),
    "chat.chat_options": chat.chat_options([("main", "Bakery"), ("b2", "Quiz")]),
    "chat.error_text": [t for t in chat.error_text("No key.", "Add one.") if isinstance(t, El)],
    "chat.user_message": chat.user_message(3, "Hello", edit=True),
    "chat.note": chat.note("Ralph finished"),
    "chat.turn_block": chat.turn_block(),
    "chat.reply_round": chat.reply_round(4),
    "chat.tool_call": chat.tool_call("read_file", " path=index.html"),
    "chat.edit_box": chat.edit_box("Hello"),
    "files.frame": files.frame(),
    "files.empty": files.empty(),
    "files.tree": files.tree(file_tree(["src/app.js"]), current="src/app.js"),
    "files.viewer_head": files.viewer_head("index.html", "12 lines"),
    "files.body.image": files.body(show_as("logo.png", PNG), "logo.png", PNG),
    "files.body.svg": files.body(show_as("logo.svg", SVG), "logo.svg", SVG),
    "files.body.binary": files.body(show_as("a.bin", b"\x00\xff"), "a.bin", b"\x00\xff"),
    "files.body.text": files.body(show_as("a.txt", b"hi"), "a.txt", b"hi"),
    "files.error_body": files.error_body("no such file"),
    "editor.editor": editor.editor("index.html", "Ctrl+S"),
    "editor.script": editor.script(),
    "workspace.box": workspace.box("files"),
    "workspace.tabs": workspace.tabs(),
    "workspace.panes": workspace.panes(),
    "workspace.code_hint": workspace.code_hint(),
    "workspace.file_ops": workspace.file_ops(),
    "workspace.download_link": workspace.download_link("blob:x", "a.html"),
    "history.panel": history.panel(),
    "history.checkpoint": history.checkpoint(
        Checkpoint("a" * 40, None, "Ralph iteration 1", 1764100000.0, "Ralph iteration 1"),
        latest=False,
    ),
    "history.diff_head": history.diff_head("b" * 40, "index.html"),
    "history.diff_lines": history.diff_lines("@@ -1 +1 @@\n-old\n+new\n"),
    "preview.panel": preview.panel(),
    "preview.frame": preview.frame("static/preview.html"),
    "preview.checker_frame": preview.checker_frame("static/preview.html"),
    "console.panel": console.panel(),
    "console.empty": console.empty(),
    "checks.panel": checks.panel(),
    "checks.issue": checks.issue("page_basics", ALT_ISSUE, 0),
    "console.entry": console.entry(CONSOLE_ERROR, 0),
    "console.log": console.entry(ConsoleEntry("hello"), 1),
    "probes.panel": probes.panel(),
    "probes.pass": probes.result(ProbeResult(file="a.json", criterion="Adds", passed=True), 0),
    "probes.fail": probes.result(
        ProbeResult(file="a.json", criterion="Adds", passed=False, step=2, step_text="click x"),
        1,
    ),
    "probes.waived": probes.waived("Pays", "needs a server"),
    "probes.map_panel": probes.map_panel(),
    "probes.probe_frame": probes.probe_frame("static/preview.html"),
    "probes.map_page": probes.map_page(
        PageNode("index.html", (("style.css", False), ("a.png", True)), (("about.html", False),))
    ),
    "probes.map_unused": probes.map_unused(["old.css"]),
    "preview.path_form": preview.path_form(),
    "preview.widths": preview.widths(),
    "preview.open_tab": preview.open_tab(),
    "debug.button": debug.button(),
    "debug.dialog": debug.dialog(),
    "debug.entry": debug.entry(ERROR),
    "attach.picker": attach.picker(),
    "attach.attach_button": attach.attach_button(),
    "attach.tray": attach.tray(),
    "attach.message": attach.message(),
    "attach.thumbnails": attach.thumbnails([IMAGE], removable=True),
    "model_bar.bar": model_bar.bar("chief", "Chief"),
    "model_bar.options": model_bar.options([ModelOption("gpt-4o")], "gpt-4o-mini", "openai"),
    "reply.dressed": [n for n in map(reply.dressed, render(MARKDOWN)) if isinstance(n, El)],
    "reply.sources": reply.sources([("https://example.org/a", "A page")]),
    "chat.images_stripped": chat.images_stripped("Sent without your images."),
    "chat.mode_switch": chat.mode_switch(),
    "ralph.tab": ralph.tab(),
    "ralph.badge": ralph.badge(),
    "ralph.run_row": ralph.run_row(a_row(), current=True),
    "ralph.card": ralph.card(1, 20),
    "ralph.run_start": ralph.run_start(RUN),
    "ralph.stall": ralph.stall(t.StallEvent(count=3)),
    "ralph.pressure": ralph.pressure(
        t.PressureEvent(iteration=1, estimated=120_000, window=128_000, headroom=0.06)
    ),
    "ralph.line": ralph.line("Not saved.", "ralph-storage file-error", "ralph-storage"),
    "ralph.intent": ralph.block(INTENT),
    "ralph.reasoning": ralph.block(REASONING),
    "ralph.action": ralph.block(TOOL),
    "ralph.gates": ralph.block(GATES),
    "ralph.summary": ralph.summary(BROKE),
    "ralph.run_end": ralph.run_end(DONE),
    "ralph.approval": ralph.approval(),
    "ralph.approval_files": ralph.approval_files(["index.html", "style.css"]),
    "shell.header_controls": shell.header_controls(),
    "shell.chip": shell.chip("OpenAI", "gpt-4o-mini"),
    "shell.frame": shell.frame(),
    "shell.lock_banner": shell.lock_banner(),
    "shell.update_banner": shell.update_banner(),
    "shell.failure_line": shell.failure_line(),
    "shell.ready_marker": shell.ready_marker({"python": "3.12.7", "wiggum": "0.1.0"}),
    "settings.dialog": settings.dialog(),
    "settings.diagnosis": settings.diagnosis("No key", "Paste your key."),
    "settings.model_options": settings.model_options([ModelOption("gpt-4o-mini")]),
    "settings.provider_options": settings.provider_options([("sim", "Sim")]),
    "onboarding.form": onboarding.form(),
    "onboarding.local_row": onboarding.local_rows(
        [onboarding.LocalRow(0, "Ollama", "http://localhost:11434", "llama3.2", None)]
    )[0],
    "onboarding.local_fix_row": onboarding.local_rows(
        [onboarding.LocalRow(1, "vLLM", "http://localhost:8000/v1", "", "Start it so.")]
    )[0],
    "projects.switcher": projects.switcher(),
    "projects.project_options": projects.project_options([("a", "Bakery")]),
    "projects.name_dialog": projects.name_dialog(),
    "projects.projects_dialog": projects.projects_dialog(),
    "projects.project_row": projects.project_row("a", "Bakery", "1 file", current=True),
    "projects.delete_confirm": projects.delete_confirm("a", "Bakery"),
    "projects.import_result": projects.import_result("Bakery", ONE_REFUSED),
    "publish.open_button": publish.open_button(),
    "publish.dialog": publish.dialog(),
    "publish.file_row": publish.file_row("index.html", "12 B", added=False),
    "publish.step": publish.step("files", "pending", "Upload the files"),
    "publish.result": publish.result("Live", "https://me.github.io/site/"),
    "ralph.step": ralph.step(STEP),
    "ralph.step_diff_head": ralph.step_diff_head("Iteration 2 · checkpoint ccccccc", "Style it."),
    "ralph.file_diff": ralph.file_diff("a.css", "modified", "@@ -1 +1 @@\n-a\n+b\n", 1, 1),
    "ralph.run_row.steps": ralph.run_row(a_row_with_steps(), current=False, open_steps=True),
    "checks.issue.bisect": checks.issue("page_basics", ALT_ISSUE, 0, bisect=True),
    "checks.bisect_answer": checks.bisect_answer("Broken by Ralph's iteration 2", "found", "x"),
    "ralph_budget.forecast": ralph_budget.forecast(),
    "ralph_budget.continue_panel": ralph_budget.continue_panel(),
    "ralph_budget.fresh": ralph_budget.fresh(),
    "point.select_button": point.select_button(),
    "point.panel": point.panel(),
    "point.chip": point.chip("h1.hero", "index.html:4", "The element `h1.hero`"),
    "inspector.panel": inspector.panel(),
    "inspector.field_row.colour": inspector.field_row("color", "Text colour", "colour", "#333333"),
    "inspector.field_row.choice": inspector.field_row(
        "text-align", "Alignment", "choice", "center", ("start", "center")
    ),
    "inspector.field_row.size": inspector.field_row("width", "Width", "size", "57.5px"),
    "inspector.choice_options": inspector.choice_options(["site.css · .cta", "base.css · .btn"]),
}
#: The trees that are on the page at once (their ids must not meet).
ONE_PAGE = (
    "chat.view",
    "settings.dialog",
    "onboarding.form",
    "projects.switcher",
    "projects.name_dialog",
    "projects.projects_dialog",
    "publish.open_button",
    "publish.dialog",
    "inspector.panel",
)
#: Attributes that name other elements by id.
REFERENCES = ("for", "list", "aria-labelledby", "aria-describedby", "aria-controls")


def _nodes(tree: El | list[El]) -> list[El]:
    return [n for t in (tree if isinstance(tree, list) else [tree]) for n in walk(t)]


def _text(node: El) -> str:
    return "".join(c if isinstance(c, str) else _text(c) for c in node.children).strip()


@pytest.mark.parametrize("name", TREES)
def test_every_button_says_what_it_does(name):
    for node in _nodes(TREES[name]):
        if node.tag == "button":
            label = node.attrs.get("aria-label") or _text(node)
            assert label and (len(label) > 1 or "aria-label" in node.attrs), node
            assert node.attrs.get("type") in ("button", "submit"), node


@pytest.mark.parametrize("name", TREES)
def test_nothing_runs_inline_and_no_style_attribute(name):
    for node in _nodes(TREES[name]):
        assert not any(k.startswith("on") for k in node.attrs), node
        assert "style" not in node.attrs  # the page's CSP refuses inline style


@pytest.mark.parametrize("name", TREES)
def test_test_ids_and_refs_are_each_used_once(name):
    nodes = _nodes(TREES[name])
    ids = [n.attrs["data-testid"] for n in nodes if "data-testid" in n.attrs]
    assert len(ids) == len(set(ids)) or name in ("chat.view", "chat.frame"), ids
    for tree in TREES[name] if isinstance(TREES[name], list) else [TREES[name]]:
        refs(tree)  # raises on a name used twice


def test_the_ideas_are_the_only_repeated_test_id_of_the_frame():
    ids = [n.attrs.get("data-testid") for n in _nodes(TREES["chat.frame"])]
    assert ids.count("starter") == len(chat.STARTERS)
    assert len({i for i in ids if i and i != "starter"}) == len([i for i in ids if i]) - 3


def test_controls_have_an_accessible_name():
    for name, tree in TREES.items():
        for node in _nodes(tree):
            # A hidden control (a file picker its button opens) is never reached itself.
            if node.tag in ("textarea", "select", "input") and "hidden" not in node.attrs:
                assert "aria-label" in node.attrs or "id" in node.attrs, (name, node)


#: Trees that are mounted together and refer to each other's elements.
TOGETHER = {"workspace.tabs": ("workspace.panes",)}


@pytest.mark.parametrize("name", TREES)
def test_every_reference_names_an_element_of_the_tree(name):
    shown = [name, *TOGETHER.get(name, ())]
    ids = {n.attrs["id"] for other in shown for n in _nodes(TREES[other]) if "id" in n.attrs}
    for node in _nodes(TREES[name]):
        for attr in REFERENCES:
            for ref in node.attrs.get(attr, "").split():
                assert ref in ids, (name, node, attr)


def test_the_trees_on_one_page_use_each_id_once():
    ids = [n.attrs["id"] for name in ONE_PAGE for n in _nodes(TREES[name]) if "id" in n.attrs]
    assert len(ids) == len(set(ids)), sorted(i for i in ids if ids.count(i) > 1)


def words(text: str) -> set[str]:
    return set(text.split())


@pytest.mark.parametrize(
    ("tree", "names"),
    [
        (
            chat.view("hint"),
            words(
                "chats select scroller setup empty list pill activity wait wait_text notice"
                " notice_text banner banner_text settings composer input stop send tray attach"
                " attach_message picker"
            ),
        ),
        (chat.turn_block(), {"box", "alts", "status", "usage", "retry", "cont", "regenerate"}),
        (files.frame(), {"tree", "viewer", "head", "body"}),
        (
            editor.editor("a.html", "Ctrl+S"),
            {"save", "state", "message", "conflict", "theirs", "host", "loading"},
        ),
        (workspace.tabs(), {f"tab_{n}" for n in PANES}),
        (
            workspace.panes(),
            {f"pane_{n}" for n in PANES}
            | {f"split_{n}" for n in SPLITTERS}
            | {f"show_{n}" for n in STAGE}
            | {"stage", "stage_tabs"},
        ),
        (workspace.file_ops(), {"picker", "form", "label", "input", "ok", "message"}),
        (history.panel(), {"status", "list", "diff", "diff_head", "diff_body"}),
        (preview.panel(), {"refresh", "path", "status"}),
        (console.panel(), {"summary", "list"}),
        (checks.panel(), {"summary", "list"}),
        (probes.panel(), {"summary", "list"}),
        (probes.map_panel(), {"summary", "list"}),
        (preview.path_form(), {"input"}),
        (debug.button(), {"badge"}),
        (debug.dialog(), {"empty", "list", "status"}),
        (model_bar.bar("ralph", "Ralph"), {"select", "meter", "meter_text"}),
        (
            ralph.tab(),
            {
                "status_line",
                "total",
                "stop",
                "resume",
                "resume_text",
                "resume_button",
                "workspace",
                "scroller",
                "task_form",
                "task_input",
                "task_note",
                "runs",
                "runs_title",
                "runs_list",
                "run_status",
                "run_diff",
                "run_diff_head",
                "run_diff_body",
                "transcript",
                "summary",
            },
        ),
        (ralph.card(2, None), {"title", "usage", "body"}),
        (shell.header_controls(), {"provider_chip", "debug_slot", "settings"}),
        (shell.frame(), {"tabs", "tab_chief", "tab_ralph", "panel_chief", "panel_ralph"}),
        (shell.lock_banner(), {"text", "button"}),
        (shell.update_banner(), {"text", "button"}),
        (
            settings.dialog(),
            words(
                "form elsewhere provider_select add_select remove name kind base_url key_field "
                "key_label api_key key_link model models models_btn models_status model_info "
                "test test_result proxy web_search web_search_hint proxy_template idle_seconds "
                "request_seconds "
                "worker_url worker_error deploy_cmd facts_status facts_button facts_result "
                "ralph_iterations cap_usd cap_tokens reflect"
            ),
        ),
        (
            onboarding.form(),
            words(
                "provider base_url key_field key_label api_key key_link proxy proxy_row "
                "proxy_url test test_result model models model_row"
            ),
        ),
        (projects.switcher(), {"select"}),
        (projects.name_dialog(), {"form", "title", "name", "ok"}),
        (
            projects.projects_dialog(),
            words("storage error result confirm rows include hint file_input dir_input"),
        ),
        (
            publish.dialog(),
            words("form token repo repo_hint api summary_head summary steps error result close go"),
        ),
        (ralph_budget.continue_panel(), {"text", "more", "cap_usd", "cap_tokens", "note", "error"}),
        (ralph_budget.fresh(), {"button", "confirm"}),
        (
            point.panel(),
            words(
                "hint selected selector where size edit link image image_input undo ask_chief "
                "ask_ralph note link_form link_text link_href ralph_form ralph_chip ralph_task "
                "inspector"
            ),
        ),
    ],
)
def test_each_view_finds_what_it_drives(tree, names):
    assert set(refs(tree)) >= names


def test_the_send_hint_names_this_machines_key_first():
    assert chat.send_hint("MacIntel").startswith("⌘+Enter")
    assert chat.send_hint("Linux x86_64").startswith("Ctrl+Enter")


def test_the_chats_bar_lists_each_conversation_by_id_and_title():
    options = chat.chat_options([("main", "Bakery"), ("b2", "Quiz")])
    assert [(o.attrs["value"], _text(o)) for o in options] == [("main", "Bakery"), ("b2", "Quiz")]


def test_the_error_banner_says_what_went_wrong_in_bold_then_what_to_do():
    strong, space, message = chat.error_text("No key.", "Add one in Settings.")
    assert (strong.tag, _text(strong), space, message) == (
        "strong",
        "No key.",
        " ",
        "Add one in Settings.",
    )


def test_a_checks_frame_runs_scripts_and_nothing_else_out_of_reach():
    frame = preview.checker_frame("static/preview.html")
    assert frame.attrs["sandbox"] == "allow-scripts"
    assert (frame.attrs["aria-hidden"], frame.attrs["tabindex"]) == ("true", "-1")
    assert "visibility: hidden" in preview.CHECKER_STYLE


def test_a_probes_frame_runs_scripts_and_forms_and_stays_out_of_reach():
    frame = probes.probe_frame("static/preview.html")
    assert frame.attrs["sandbox"].split() == ["allow-scripts", "allow-forms"]
    assert (frame.attrs["aria-hidden"], frame.attrs["tabindex"]) == ("true", "-1")


def test_a_messages_images_come_after_its_words_and_before_its_buttons():
    message = chat.user_message(2, "Like this", edit=True, images=attach.thumbnails([IMAGE]))
    assert [c.attrs.get("class") for c in message.children] == [
        "msg-author",
        "msg-body",
        "attach-thumbs",
        "msg-meta",
    ]
    composer = chat.composer("hint")
    assert composer.children[0].attrs["class"] == "attach-tray"  # over the box
    assert [c.attrs.get("data-testid") for c in composer.children[-2:]] == [
        "attach-message",
        "attach-input",
    ]


def test_a_message_the_person_may_not_edit_hides_edit():
    edit = next(
        n
        for n in walk(chat.user_message(1, "x", edit=False))
        if n.attrs.get("data-action") == "edit"
    )
    assert "hidden" in edit.attrs
    assert REF not in edit.attrs


def _has(node: El, name: str, value: str) -> bool:
    if name == "class":
        return value in node.attrs.get("class", "").split()
    return node.attrs.get(name) == value


def _find(tree: El | list[El], **attrs: str) -> list[El]:
    """The elements of ``tree`` with these attributes (as ``tree.e`` spells them:
    ``class_`` is ``class``; a class is one of the element's)."""
    want = {k.rstrip("_").replace("_", "-"): v for k, v in attrs.items()}
    return [n for n in _nodes(tree) if all(_has(n, k, v) for k, v in want.items())]


# ------------------------------------------------------------------ the files


def test_the_file_tree_keeps_closed_folders_closed_and_marks_the_open_and_unsaved_files():
    nodes = file_tree(["index.html", "src/app.js", "src/lib/x.js"])
    tree = files.tree(nodes, collapsed={"src/lib"}, current="src/app.js", unsaved={"index.html"})
    folders = {n.attrs["data-path"]: n for n in _find(tree, data_testid="file-folder")}
    assert "open" in folders["src"].attrs and "open" not in folders["src/lib"].attrs
    entries = {n.attrs["data-path"]: n for n in _find(tree, data_testid="file-entry")}
    assert set(entries) == {"index.html", "src/app.js", "src/lib/x.js"}
    assert [p for p, n in entries.items() if "aria-current" in n.attrs] == ["src/app.js"]
    assert [p for p, n in entries.items() if "data-unsaved" in n.attrs] == ["index.html"]
    assert all(n.attrs["data-action"] == "open-file" for n in entries.values())
    assert _text(files.empty()) == files.EMPTY


def test_the_viewer_shows_an_image_a_binary_file_and_the_frame_of_the_editor():
    image = files.body(show_as("img/logo.png", PNG), "img/logo.png", PNG)
    (img,) = _find(image, data_testid="file-image")
    assert img.attrs["src"].startswith("data:image/png;base64,") and img.attrs["alt"]
    binary = files.body(show_as("docs/a.pdf", b"\x00\xff"), "docs/a.pdf", b"\x00\xff")
    (link,) = _find(binary, data_testid="file-download")
    assert link.attrs["download"] == "a.pdf"
    assert link.attrs["href"].startswith("data:application/octet-stream;base64,")
    assert _text(_find(binary, data_testid="file-binary")[0])
    text = files.body(show_as("a.txt", b"hi"), "a.txt", b"hi")
    assert (text.attrs["data-kind"], text.children) == ("text", [])


def test_an_svg_switches_between_its_image_and_its_source():
    def pressed(shown: Shown) -> dict[str, str]:
        tree = files.body(shown, "logo.svg", SVG)
        return {_text(b): b.attrs["aria-pressed"] for b in _nodes(tree) if b.tag == "button"}

    assert pressed(show_as("logo.svg", SVG)) == {"Image": "true", "Source": "false"}
    source = show_as("logo.svg", SVG, svg_source=True)
    assert pressed(source) == {"Image": "false", "Source": "true"}
    assert pressed(show_as("a.png", PNG)) == {}  # only an SVG has two ways


def test_the_viewers_head_adds_no_empty_text():
    path, note = files.viewer_head("a.html", "")
    assert _text(path) == "a.html" and note.children == []
    assert files.error_body("gone").children == ["Cannot open: gone"]


# ------------------------------------------------------------------ editor, workspace


def test_the_editor_names_its_file_the_key_that_saves_and_its_way_out_of_a_conflict():
    tree = editor.editor("pages/a.html", "⌘+S")
    assert tree.attrs["data-path"] == "pages/a.html"
    save = refs(tree)["save"]
    assert save.attrs["title"] == "Save this file (⌘+S)"
    choices = {b.attrs["data-conflict"]: _text(b) for b in _find(tree, type="button")[1:]}
    assert choices == {"show": "Show his version", "mine": "Keep mine", "his": "Take his"}
    assert "hidden" in refs(tree)["conflict"].attrs
    assert _text(refs(tree)["loading"]) == editor.LOADING


def test_the_file_operations_offer_each_operation_and_name_the_box_by_its_label():
    from wiggum.ui.workspace import FILE_OPS

    tree = workspace.file_ops()
    bar = tree.children[0]
    assert [b.attrs["data-action"] for b in bar.children if b.tag == "button"] == [
        f"op-{action}" for action, _, _ in FILE_OPS
    ]
    named = refs(tree)
    assert named["label"].attrs["for"] == named["input"].attrs["id"]
    assert named["ok"].attrs["type"] == "submit"


def test_the_panes_are_in_the_rows_order_with_a_splitter_between():
    row = workspace.panes()
    order = [
        c.attrs.get("data-pane", "stage") + ("|" if c.attrs.get("role") == "separator" else "")
        for c in row.children
    ]
    assert order == ["transcript", "transcript|", "files", "files|", "stage"]
    # The stage: its switch over the panes it shows one at a time.
    switch, *shown = row.children[-1].children
    assert [_text(t) for t in switch.children] == ["Preview", "Code", "History"]
    assert [t.attrs["aria-controls"] for t in switch.children] == [
        "ws-pane-preview",
        "ws-pane-code",
        "ws-pane-history",
    ]
    assert [p.attrs["data-pane"] for p in shown] == ["preview", "code", "history"]
    tabs = workspace.tabs()
    assert [_text(t) for t in tabs.children] == [
        "Transcript",
        "Files",
        "Preview",
        "Code",
        "History",
    ]


# ------------------------------------------------------------------ history


def test_a_checkpoint_shows_its_files_and_offers_revert_unless_it_is_the_newest():
    tree = history.checkpoint(CHECKPOINT, latest=False)
    buttons = _find(tree, data_testid="history-file")
    assert [b.attrs["data-path"] for b in buttons] == [
        "index.html",
        "logo.png",
        "lib",
        "about.html",
    ]
    # Counts once known (made with the diff), a submodule said as such, else the path alone.
    assert [_text(b) for b in buttons] == [
        "index.html+2−1",
        "logo.pngbinary",
        "libsubmodule",
        "about.html",
    ]
    assert buttons[0].attrs["data-id"] == CHECKPOINT.id
    assert _find(tree, data_testid="history-revert")
    assert not _find(history.checkpoint(CHECKPOINT, latest=True), data_testid="history-revert")
    message = _find(tree, class_="history-message")[0]
    assert "hidden" not in message.attrs
    # who, when in words (the exact time in its tooltip), how many files
    later = CHECKPOINT.time + 120
    meta = _find(history.checkpoint(CHECKPOINT, latest=True, now=later), class_="history-meta")[0]
    assert [_text(c) for c in meta.children][1:] == ["2 min ago", "4 files changed"]
    from wiggum.ui.history import checkpoint_time

    assert meta.children[1].attrs["title"] == checkpoint_time(CHECKPOINT.time)
    ralph = Checkpoint("c" * 40, None, "Ralph iteration 2", 1.0, "Ralph iteration 2")
    quiet = _find(history.checkpoint(ralph, latest=True), class_="history-message")[0]
    assert "hidden" in quiet.attrs  # named by its author alone


def test_a_diff_colours_each_line_and_its_head_names_the_checkpoint():
    lines = history.diff_lines("@@ -1 +1 @@\n-old\n+new\n same\n")
    assert [(n.attrs["class"], _text(n)) for n in lines][1:3] == [
        ("diff-del", "-old"),
        ("diff-add", "+new"),
    ]
    head = history.diff_head("0123456789" * 4, "a.html", "you", "5 min ago")
    # Named by whose checkpoint it is and when, never by its hash.
    assert _text(head[0]) == "a.htmlas you changed it, 5 min ago"
    assert "0123456" not in _text(head[0])
    assert head[1].attrs["data-path"] == "a.html"


# ------------------------------------------------------------------ preview, debug, attach


def test_the_preview_frame_runs_scripts_but_never_at_wiggums_origin():
    frame = preview.frame("static/preview.html")
    assert "allow-scripts" in frame.attrs["sandbox"]
    assert "allow-same-origin" not in frame.attrs["sandbox"]
    assert frame.attrs["referrerpolicy"] == "no-referrer"


def test_the_preview_frame_lets_a_site_work_as_on_the_web():
    sandbox = set(preview.frame("static/preview.html").attrs["sandbox"].split())
    assert {"allow-forms", "allow-modals", "allow-popups", "allow-downloads"} <= sandbox
    assert not {"allow-same-origin", "allow-top-navigation"} & sandbox


def _buttons(tree: El) -> list[El]:
    return [n for n in walk(tree) if n.tag == "button"]


def test_a_console_error_has_fix_ask_chief_its_place_count_and_stack_and_a_log_has_none():
    tree = console.entry(CONSOLE_ERROR, 4)
    assert [b.attrs["data-action"] for b in _buttons(tree)] == [
        "console-fix",
        "console-ask",
    ]
    assert all(b.attrs["data-index"] == "4" for b in _buttons(tree))
    assert _text(_find(tree, class_="console-where")[0]) == "js/app.js:12"
    assert _text(_find(tree, class_="console-count")[0]) == "×3"
    assert _find(tree, class_="console-stack")
    log = console.entry(ConsoleEntry("hello"), 0)
    assert not _buttons(log) and not _find(log, class_="console-stack")
    assert not _find(log, class_="console-where") and not _find(log, class_="console-count")


def test_the_preview_widths_start_at_the_desktop():
    pressed = {b.attrs["data-width"]: b.attrs["aria-pressed"] for b in preview.widths().children}
    assert pressed == {"phone": "false", "tablet": "false", "desktop": "true"}


def test_a_log_entry_shows_its_fields_and_folds_its_traceback_only_when_it_has_them():
    tree = debug.entry(ERROR)
    assert tree.attrs["class"] == "debug-entry level-error"
    assert _text(_find(tree, class_="debug-fields")[0]) == "status=500"
    assert _find(tree, class_="debug-exc")
    bare = debug.entry(DebugEntry(time=1.0, level="INFO", logger="wiggum", message="ok"))
    assert not _find(bare, class_="debug-fields") and not _find(bare, class_="debug-exc")
    time = _find(tree, class_="debug-time")[0]
    assert time.attrs["title"] == format_time(ERROR.time, utc=True)
    assert _text(time) == format_time(ERROR.time)


def test_thumbnails_are_the_images_own_bytes_and_each_can_be_removed_from_the_tray():
    unnamed = SimpleNamespace(media_type="image/gif", data="R0lG", name="")
    tray = attach.thumbnails([IMAGE, unnamed], removable=True)
    imgs = _find(tray, data_testid="attach-thumb")
    assert [i.attrs["src"] for i in imgs] == [
        "data:image/png;base64,iVBORw0KGgo=",
        "data:image/gif;base64,R0lG",
    ]
    assert imgs[1].attrs["alt"] == "attached image"
    removes = _find(tray, data_testid="attach-remove")
    assert [(r.attrs["data-attach-remove"], r.attrs["aria-label"]) for r in removes] == [
        ("0", "Remove logo.png"),
        ("1", "Remove image"),
    ]
    assert not _find(attach.thumbnails([IMAGE]), data_testid="attach-remove")


def test_the_model_list_puts_the_current_model_first_when_the_provider_lacks_it():
    options = model_bar.options([ModelOption("gpt-4o")], "gpt-4o-mini", "openai")
    assert [o.attrs["value"] for o in options] == ["gpt-4o-mini", "gpt-4o"]
    bar = model_bar.bar("ralph", "Ralph")
    label = _find(bar, for_="model-ralph")
    assert label and _text(label[0]) == "Ralph's model"


# ------------------------------------------------------------------ a reply's own parts


def test_a_code_block_says_its_language_and_is_coloured_only_when_finished():
    from wiggum.ui.highlight import load_lexer
    from wiggum.ui.markdown_stream import STREAMING

    load_lexer("python")
    (pre,) = [n for n in render("```python\nx = 1\n```\n") if isinstance(n, El)]
    block = reply.framed_code(pre)
    assert (block.attrs["data-lang"], _text(_find(block, class_="codeblock-lang")[0])) == (
        "python",
        "python",
    )
    assert _find(block, class_="hl") and _find(block, aria_label="Copy python code")
    assert not _find(reply.framed_code(pre, colour=False), class_="hl")
    streaming = El("pre", {STREAMING: ""}, pre.children)  # its fence not closed yet
    assert not _find(reply.framed_code(streaming), class_="hl")
    (plain,) = [n for n in render("```\nplain\n```\n") if isinstance(n, El)]
    untyped = reply.framed_code(plain)
    assert "data-lang" not in untyped.attrs
    assert _text(_find(untyped, class_="codeblock-lang")[0]) == "text"
    assert _find(untyped, aria_label="Copy code")


def test_the_page_wraps_tables_and_frames_code_at_any_depth():
    (item,) = [n for n in render("- a\n\n  ```\n  y\n  ```\n\n  | q |\n  |---|\n  | 1 |\n")]
    shown = reply.dressed(item)
    (block,) = _find(shown, class_="codeblock")
    assert [n.tag for n in walk(shown) if n.tag == "pre"] == ["pre"]  # the frame's own
    assert _text(block) == "textCopyy"
    (wrap,) = _find(shown, class_="table-wrap")
    assert [c.tag for c in wrap.children] == ["table"]
    assert reply.dressed("text") == "text"


def test_sources_open_in_a_new_tab_told_nothing_of_wiggum():
    title, listed = reply.sources([("https://example.org/a", "A page")])
    assert _text(title) == "Sources"
    (link,) = _find(listed, href="https://example.org/a")
    assert (link.attrs["target"], link.attrs["rel"]) == ("_blank", "noopener noreferrer")
    assert link.attrs["referrerpolicy"] == "no-referrer" and _text(link) == "A page"


# ------------------------------------------------------------------ Ralph's tab


def _attr(tree: El, testid: str, name: str) -> str | None:
    node = next(n for n in walk(tree) if n.attrs.get("data-testid") == testid)
    return node.attrs.get(name)


def test_ralphs_tab_clicks_go_to_the_views_table():
    actions = {n.attrs["data-action"] for n in walk(ralph.tab()) if "data-action" in n.attrs}
    assert actions == {
        "ralph-stop",
        "ralph-resume",
        "ralph-dismiss",
        "ralph-start",
        "ralph-approve",
        "ralph-refuse",
    }


def test_the_run_list_marks_the_current_run_and_names_files_only_when_there_are_some():
    current = ralph.run_row(a_row(), current=True)
    assert current.attrs["class"] == "ralph-run-row is-current"
    assert current.attrs["data-outcome"] == "complete"
    assert "ralph-run-files" in {n.attrs.get("class") for n in walk(current)}
    earlier = ralph.run_row(a_row(files=()), current=False)
    assert earlier.attrs["class"] == "ralph-run-row"
    assert "ralph-run-files" not in {n.attrs.get("class") for n in walk(earlier)}


def test_each_event_of_a_card_has_its_tree():
    assert [ralph.block(ev).attrs["data-testid"] for ev in (INTENT, REASONING, TOOL, GATES)] == [
        "ralph-intent",
        "ralph-reasoning",
        "ralph-action",
        "ralph-gates",
    ]
    assert set(ralph.CardEvent.__args__) == set(ralph.CARD_EVENTS)


def test_a_tool_call_says_whether_it_failed_and_shows_arguments_only_when_it_had_some():
    ok, failed = ralph.block(TOOL), ralph.block(FAILED)
    assert (ok.attrs["class"], ok.attrs["data-error"]) == ("ralph-action", "false")
    assert (failed.attrs["class"], failed.attrs["data-error"]) == ("ralph-action is-error", "true")
    assert [n.attrs["class"] for n in walk(ok) if n.tag == "pre"] == [
        "action-detail",
        "action-detail action-output",
    ]
    assert [n.attrs["class"] for n in walk(failed) if n.tag == "pre"] == [
        "action-detail action-output"
    ]


def test_the_checks_say_each_result_and_the_whole():
    gates = ralph.block(GATES)
    assert gates.attrs["data-passed"] == "false"
    items = [(n.attrs["class"], n.attrs["data-passed"]) for n in walk(gates) if n.tag == "li"]
    assert items == [("gate gate-pass", "true"), ("gate gate-fail", "false")]


def test_the_summary_leaves_out_what_the_run_did_not_say():
    done = [n.attrs["class"] for n in ralph.summary(DONE)]
    assert done == ["ralph-summary-title", "ralph-summary-text", "ralph-summary-files", "usage"]
    broke = [n.attrs.get("data-testid") for n in ralph.summary(BROKE)]
    assert broke == [None, "ralph-error", "ralph-summary-usage"]
    assert ralph.run_end(BROKE).attrs["data-status"] == "error"


def test_an_iteration_card_is_numbered():
    card = ralph.card(3, 20)
    assert card.attrs["data-iteration"] == "3"
    assert refs(card)["title"].children == ["Iteration 3/20"]


# ------------------------------------------------------------------ the frame


def test_only_the_first_tab_is_selected_and_in_the_tab_order():
    frame = shell.frame()
    tabs = [n for n in walk(frame) if n.attrs.get("role") == "tab"]
    assert [n.attrs["aria-selected"] for n in tabs] == ["true", "false"]
    assert [n.attrs.get("tabindex") for n in tabs] == [None, "-1"]
    assert [n.attrs["aria-controls"] for n in tabs] == [f"panel-{n}" for n, _ in shell.TABS]
    ralph_panel = refs(frame)["panel_ralph"]
    assert "hidden" in ralph_panel.attrs and ralph_panel.attrs["aria-busy"] == "true"


def test_the_gear_is_drawn_in_the_text_colour_and_hidden_from_screen_readers():
    gear = shell.gear()
    assert gear.tag == "svg" and [c.tag for c in gear.children] == ["circle", "path"]
    assert gear.attrs["viewBox"] == "0 0 24 24" and gear.attrs["stroke"] == "currentColor"
    assert (gear.attrs["aria-hidden"], gear.attrs["focusable"]) == ("true", "false")
    settings = refs(shell.header_controls())["settings"]
    assert settings.children == [gear] and settings.attrs["aria-label"] == "Settings"


def test_the_ready_marker_carries_what_it_is_told():
    marker = shell.ready_marker({"python": "3.12.7", "wiggum": "0.1.0"})
    assert marker.attrs == {
        "class": "app-ready",
        "data-testid": "app-ready",
        "data-python": "3.12.7",
        "data-wiggum": "0.1.0",
    }


def _one(tree: El, **attrs: str) -> El:
    """The first element of ``tree`` with exactly these attribute values."""
    return next(n for n in walk(tree) if all(n.attrs.get(k) == v for k, v in attrs.items()))


def test_each_field_save_can_blame_has_a_control_and_a_hidden_alert():
    found = refs(settings.dialog())
    for name in settings.BLAMED:
        line = found[f"{name}_error"]
        assert name in found and line.attrs["role"] == "alert" and "hidden" in line.attrs


def test_web_search_says_who_can_search_where_the_provider_cannot():
    assert settings.web_search_text(True) == settings.WEB_SEARCH_ON
    assert settings.web_search_text(False).startswith("Only ")


def test_the_key_field_links_out_safely_and_settings_adds_its_error_line():
    dialog = refs(settings.dialog())
    assert dialog["key_link"].attrs["rel"] == "noopener noreferrer"
    assert dialog["api_key"].attrs["type"] == "password"
    first_run = refs(onboarding.form())
    assert first_run["api_key"].attrs["id"] == "onb-key"

    def errors(field: El) -> list[El]:
        return [n for n in walk(field) if n.attrs.get("class") == "field-error"]

    assert not errors(first_run["key_field"]) and len(errors(dialog["key_field"])) == 1


def test_the_first_run_form_opens_the_proxy_and_model_rows_only_later():
    found = refs(onboarding.form())
    assert "hidden" in found["proxy_row"].attrs and "hidden" in found["model_row"].attrs
    assert found["model"].attrs["list"] == found["models"].attrs["id"]


def test_inputs_are_not_filled_in_nor_spell_checked_unless_asked():
    plain = forms.text_input("x", "x")
    assert plain.attrs["autocomplete"] == "off" and plain.attrs["spellcheck"] == "false"
    assert "spellcheck" not in forms.text_input("x", "x", spellcheck=None).attrs


def test_the_switcher_offers_a_new_project_last():
    options = projects.project_options([("a", "Bakery"), ("b", "Quiz")])
    assert [o.attrs["value"] for o in options] == ["a", "b", projects.NEW]
    assert not any("selected" in o.attrs for o in options)  # the view selects by value


def test_the_name_dialog_says_whether_it_renames():
    assert projects.name_words(True) == ("Rename project", "Rename")
    tree = refs(projects.name_dialog())
    assert (tree["title"].children, tree["ok"].children) == (["New project"], ["Create"])


def test_the_open_projects_row_is_marked_and_cannot_be_opened_again():
    row = projects.project_row("a", "Bakery", "1 file", current=True)
    assert row.attrs["class"] == "project-row current" and row.attrs["data-project-id"] == "a"
    assert "disabled" in _one(row, **{"data-action": "open"}).attrs
    other = projects.project_row("b", "Quiz", "1 file", current=False)
    assert "disabled" not in _one(other, **{"data-action": "open"}).attrs


def test_delete_asks_about_the_project_it_deletes():
    question, foot = projects.delete_confirm("b", "Quiz")
    assert "Quiz" in _text(question)
    assert _one(foot, **{"data-testid": "project-delete-confirm"}).attrs["data-id"] == "b"


def test_an_import_lists_what_it_refused_even_when_it_made_nothing():
    made = projects.import_result("Bakery", ONE_REFUSED)
    assert "Bakery" in _text(made[0]) and len(made) == 3
    refused = ImportResult(refused=[Refused("a.exe", "not allowed"), Refused("b", "too big")])
    lines = projects.import_result(None, refused)
    entries = [n for n in walk(lines[-1]) if n.attrs.get("data-testid") == "refused-entry"]
    assert _text(lines[0]).startswith("2 entries") and len(entries) == 2
    assert projects.import_result(None, ImportResult()) == []


def test_publish_marks_added_files_failed_results_and_each_steps_state():
    assert publish.file_row("a", "1 B", added=True).children[1].attrs["class"] == (
        "publish-size publish-added"
    )
    assert publish.result_class(True) == "publish-result publish-result-failed"
    assert publish.result_class(False) == "publish-result"
    step = publish.step("files", "failed", "Upload")
    assert step.attrs == {"class": "step step-failed", "data-state": "failed", "data-step": "files"}


def test_the_folded_note_to_chief_says_what_it_is_and_who_wrote_it():
    note = chat.note("Ralph finished the build.")
    summary = next(n for n in walk(note) if n.tag == "summary")
    assert summary.children == ["Ralph's report, passed to Chief by the page (open to read it)"]
