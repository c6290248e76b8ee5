"""The page's static structure, checked under CPython: every control a person
uses is labelled, nothing runs inline, each view names what its code finds."""

from __future__ import annotations

import pytest

from wiggum.ralph import transcript as t
from wiggum.ralph.types import GateResult
from wiggum.ui.markdown import El
from wiggum.ui.markup import chat, ralph, shell
from wiggum.ui.runs import RunRow
from wiggum.ui.tree import REF, refs, walk


def a_row(files: tuple[str, ...] = ("index.html",)) -> RunRow:
    row = RunRow(started=1764200000.5)
    row.iterations, row.files, row.outcome = 2, list(files), "complete"
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

TREES: dict[str, El | list[El]] = {
    "chat.frame": chat.frame(),
    "chat.banners": chat.banners(),
    "chat.composer": chat.composer(chat.send_hint("Linux x86_64")),
    "chat.chats_bar": chat.chats_bar(),
    "chat.user_message": chat.user_message(3, "Hello", edit=True),
    "chat.note": chat.note("Ralph finished"),
    "chat.turn_block": chat.turn_block(),
    "chat.reply_round": chat.reply_round(4),
    "chat.tool_call": chat.tool_call("read_file", " path=index.html"),
    "chat.edit_box": chat.edit_box("Hello"),
    "chat.images_stripped": chat.images_stripped("Sent without your images."),
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
    "shell.header_controls": shell.header_controls(),
    "shell.chip": shell.chip("OpenAI", "gpt-4o-mini"),
    "shell.frame": shell.frame(),
    "shell.lock_banner": shell.lock_banner(),
    "shell.failure_line": shell.failure_line(),
    "shell.ready_marker": shell.ready_marker({"python": "3.12.7", "boot_path": "snapshot"}),
}


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
    assert len(ids) == len(set(ids)) or name in ("chat.frame",), ids
    for tree in TREES[name] if isinstance(TREES[name], list) else [TREES[name]]:
        refs(tree)  # raises on a name used twice


def test_the_ideas_are_the_only_repeated_test_id_of_the_frame():
    ids = [n.attrs.get("data-testid") for n in _nodes(TREES["chat.frame"])]
    assert ids.count("starter") == len(chat.STARTERS)
    assert len({i for i in ids if i and i != "starter"}) == len([i for i in ids if i]) - 3


def test_controls_have_an_accessible_name():
    for name, tree in TREES.items():
        for node in _nodes(tree):
            if node.tag in ("textarea", "select", "input"):
                assert "aria-label" in node.attrs or "id" in node.attrs, (name, node)


@pytest.mark.parametrize(
    ("tree", "names"),
    [
        (chat.frame(), {"setup", "empty", "list", "pill"}),
        (chat.turn_block(), {"box", "alts", "status", "usage", "retry", "cont", "regenerate"}),
        (chat.composer("hint"), {"input", "bar", "hint", "stop", "send"}),
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
                "transcript",
                "summary",
            },
        ),
        (ralph.card(2, None), {"title", "usage", "body"}),
        (shell.header_controls(), {"provider_chip", "debug_slot", "settings"}),
        (shell.frame(), {"tabs", "tab_chief", "tab_ralph", "panel_chief", "panel_ralph"}),
        (shell.lock_banner(), {"text", "button"}),
    ],
)
def test_each_view_finds_what_it_drives(tree, names):
    assert set(refs(tree)) >= names


def test_the_send_hint_names_this_machines_key_first():
    assert chat.send_hint("MacIntel").startswith("⌘+Enter")
    assert chat.send_hint("Linux x86_64").startswith("Ctrl+Enter")


def test_a_message_the_person_may_not_edit_hides_edit():
    edit = next(
        n
        for n in walk(chat.user_message(1, "x", edit=False))
        if n.attrs.get("data-action") == "edit"
    )
    assert "hidden" in edit.attrs
    assert REF not in edit.attrs


# ------------------------------------------------------------------ Ralph's tab


def _attr(tree: El, testid: str, name: str) -> str | None:
    node = next(n for n in walk(tree) if n.attrs.get("data-testid") == testid)
    return node.attrs.get(name)


def test_ralphs_tab_clicks_go_to_the_views_table():
    actions = {n.attrs["data-action"] for n in walk(ralph.tab()) if "data-action" in n.attrs}
    assert actions == {"ralph-stop", "ralph-resume", "ralph-dismiss", "ralph-start"}


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
    marker = shell.ready_marker({"python": "3.12.7", "boot_path": "snapshot"})
    assert marker.attrs == {
        "class": "app-ready",
        "data-testid": "app-ready",
        "data-python": "3.12.7",
        "data-boot-path": "snapshot",
    }
