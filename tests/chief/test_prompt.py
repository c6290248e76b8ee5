"""Chief's system prompt: compact, and it says the things Chief must do."""

from __future__ import annotations

from wiggum.chief.prompt import CHIEF_SYSTEM_PROMPT, chief_system_prompt
from wiggum.llm import Message, estimate_tokens


def test_compact():
    assert estimate_tokens([Message.system(CHIEF_SYSTEM_PROMPT)]) < 1200
    assert len(CHIEF_SYSTEM_PROMPT.split()) < 800


def test_names_every_tool():
    for tool in (
        "read_file",
        "list_files",
        "search_skills",
        "write_plan",
        "send_to_ralph",
        "check_ralph_status",
    ):
        assert tool in CHIEF_SYSTEM_PROMPT, tool


def test_key_rules():
    p = CHIEF_SYSTEM_PROMPT
    assert "ONE question at a time" in p
    assert "Never write the project's code yourself" in p
    assert "ONLY when the person clearly says to build" in p
    assert '"go"' in p and '"build it"' in p
    assert "self-contained" in p
    assert ".ralph/" in p and "feedback.md" in p


def test_project_name():
    assert chief_system_prompt() == CHIEF_SYSTEM_PROMPT
    assert chief_system_prompt("Bakery").endswith("The current project is called 'Bakery'.")


def test_knows_publishing_needs_the_persons_click():
    p = CHIEF_SYSTEM_PROMPT
    assert "Publish button" in p and "GitHub Pages" in p
    assert "cannot publish yourself" in p
