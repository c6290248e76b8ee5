"""The page's frame under the fake DOM: the settings gear is an SVG in its own
namespace, the error line a failed handler shows, and the app-ready marker."""

from __future__ import annotations

from types import SimpleNamespace

SVG = "http://www.w3.org/2000/svg"


async def test_the_gear_is_made_in_the_svg_namespace(dom):
    from wiggum.web.shell import Shell

    shell = Shell(dom.document.getElementById("app-root"))
    gear = shell.settings_btn.firstElementChild
    assert gear.localName == "svg" and gear.namespaceURI == SVG
    assert [(c.localName, c.namespaceURI) for c in gear.children] == [
        ("circle", SVG),
        ("path", SVG),
    ]
    assert gear.getAttribute("stroke") == "currentColor"
    # The frame's own elements stay HTML.
    assert shell.settings_btn.namespaceURI != SVG and shell.tab_ralph.namespaceURI != SVG
    shell.close()


async def test_a_failure_shows_one_line_that_leads_to_the_log(dom):
    from wiggum.web.guard import show_failure

    opened: list[bool] = []
    log_button = dom.document.createElement("button")
    log_button.setAttribute("data-testid", "debug-button")
    log_button.addEventListener("click", lambda e: opened.append(True))
    dom.document.body.appendChild(log_button)

    show_failure("a click", ValueError("boom"))
    show_failure("a task", ValueError("again"))
    lines = dom.document.querySelectorAll("[data-testid=view-error]")
    assert len(lines) == 1 and lines[0].id == "view-error" and not lines[0].hidden
    assert "a task failed" in lines[0].querySelector(".view-error-text").textContent
    assert lines[0].parentElement is dom.document.getElementById("app")
    lines[0].querySelector("[data-testid=view-error-log]").click()
    assert opened == [True] and lines[0].hidden
    show_failure("a click", ValueError("boom"))
    lines[0].querySelector("[data-testid=view-error-close]").click()
    assert lines[0].hidden
    dom.forgive()


async def test_app_ready_is_marked_then_loaded(dom):
    from wiggum.web import boot

    told: list[str] = []
    dom.js.wiggumBoot = SimpleNamespace(ready=lambda info: told.append("ready"), mark=told.append)
    boot._mark_ready({"python": "3.12.7", "wiggum": "0.1.0"})
    status = dom.document.getElementById("app-status")
    marker = status.querySelector("[data-testid=app-ready]")
    assert status.textContent == "v0.1.0" and marker.className == "app-ready"
    assert marker.getAttribute("data-python") == "3.12.7"
    assert not marker.hasAttribute("data-loaded")
    boot._mark_loaded({"pydantic": "2.9.2"})
    assert marker.getAttribute("data-loaded") == "true"
    assert marker.getAttribute("data-pydantic") == "2.9.2"
    assert told == ["ready", "loaded"]


async def test_the_tabs_are_chosen_by_click_and_by_the_arrow_keys(dom):
    from wiggum.web.shell import Shell

    shell = Shell(dom.document.getElementById("app-root"))
    shown: list[str] = []
    shell.on_tab_shown = shown.append
    shell.tab_ralph.click()
    assert shell.selected == "ralph" and shell.panel_chief.hidden and not shell.panel_ralph.hidden
    assert shell.tab_ralph.getAttribute("aria-selected") == "true"
    assert [t.getAttribute("tabindex") for t in (shell.tab_chief, shell.tab_ralph)] == ["-1", "0"]
    event = shell.tab_ralph.dispatch("keydown", key="ArrowRight")
    assert event.defaultPrevented and shell.selected == "chief"
    assert dom.document.activeElement is shell.tab_chief and not shell.panel_chief.hidden
    assert not shell.tab_ralph.dispatch("keydown", key="Enter").defaultPrevented
    assert shown == ["ralph", "chief"]
    shell.close()
