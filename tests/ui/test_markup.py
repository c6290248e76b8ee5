"""The page's static structure, checked under CPython: every control a person
uses is labelled, nothing runs inline, each view names what its code finds."""

from __future__ import annotations

import pytest

from wiggum.project.archive import ImportResult, Refused
from wiggum.ui.markdown import El
from wiggum.ui.markup import chat, forms, onboarding, projects, publish, settings
from wiggum.ui.models import ModelOption
from wiggum.ui.tree import REF, refs, walk

ONE_REFUSED = ImportResult(
    files={"index.html": b"<h1>Hi</h1>"}, refused=[Refused("a.exe", "not allowed")]
)

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
    "settings.dialog": settings.dialog(),
    "settings.diagnosis": settings.diagnosis("No key", "Paste your key."),
    "settings.model_options": settings.model_options([ModelOption("gpt-4o-mini")]),
    "settings.provider_options": settings.provider_options([("sim", "Sim")]),
    "onboarding.form": onboarding.form(),
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
}
#: The trees that are on the page at once (their ids must not meet).
ONE_PAGE = (
    "chat.frame",
    "chat.composer",
    "settings.dialog",
    "onboarding.form",
    "projects.switcher",
    "projects.name_dialog",
    "projects.projects_dialog",
    "publish.open_button",
    "publish.dialog",
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
            # A hidden file input is the browser's picker, opened by a labelled button.
            if node.tag in ("textarea", "select", "input") and "hidden" not in node.attrs:
                assert "aria-label" in node.attrs or "id" in node.attrs, (name, node)


@pytest.mark.parametrize("name", TREES)
def test_every_reference_names_an_element_of_the_tree(name):
    ids = {n.attrs["id"] for n in _nodes(TREES[name]) if "id" in n.attrs}
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
        (chat.frame(), {"setup", "empty", "list", "pill"}),
        (chat.turn_block(), {"box", "alts", "status", "usage", "retry", "cont", "regenerate"}),
        (chat.composer("hint"), {"input", "bar", "hint", "stop", "send"}),
        (
            settings.dialog(),
            words(
                "form elsewhere provider_select add_select remove name kind base_url key_field "
                "key_label api_key key_link model models models_btn models_status model_info "
                "test test_result proxy web_search web_search_hint proxy_template idle_seconds "
                "worker_url worker_error deploy_cmd"
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
            words(
                "usage persist warning error result confirm rows include hint file_input dir_input"
            ),
        ),
        (
            publish.dialog(),
            words("form token repo repo_hint api summary_head summary steps error result close go"),
        ),
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


def _find(tree: El, **attrs: str) -> El:
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
    assert "disabled" in _find(row, **{"data-action": "open"}).attrs
    other = projects.project_row("b", "Quiz", "1 file", current=False)
    assert "disabled" not in _find(other, **{"data-action": "open"}).attrs


def test_delete_asks_about_the_project_it_deletes():
    question, foot = projects.delete_confirm("b", "Quiz")
    assert "Quiz" in _text(question)
    assert _find(foot, **{"data-testid": "project-delete-confirm"}).attrs["data-id"] == "b"


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
