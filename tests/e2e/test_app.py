"""The app in Chromium: settings, Chief's streaming conversation, errors, safety, reload.

The page talks to ``tests.sim.Simulator`` on 127.0.0.1 with ``fetch`` (a
different port from the site, so CORS applies exactly as with a real provider).
"""

from __future__ import annotations

import time

import pytest
from wiggum_e2e import (
    APP_LOADED,
    APP_READY,
    MODELS,
    MOUNTED,
    configure,
    last_reply,
    open_app,
    poll,
    run_async,
    run_python,
    save_settings,
    send,
    set_size,
    tid,
    wait_app_ready,
    wait_reply,
    wait_streaming,
)

from tests.sim import Gate, Reasoning, Simulator, Turn, http_error, rate_limited

pytestmark = pytest.mark.e2e

KEY = "sk-e2e-SECRET-7d1f0c"


@pytest.fixture
def sim():
    """A simulator per test: each test opens a page of its own."""
    with Simulator() as s:
        yield s


# ----------------------------------------------------------------------- shell


def test_shell_tabs_and_hooks(app, sim):
    page = app
    for name in (
        "tab-chief",
        "tab-ralph",
        "chat-input",
        "send-button",
        "settings-button",
        "project-switcher",
    ):
        assert page.locator(tid(name)).count() == 1, name
    assert page.locator(tid("tab-chief")).get_attribute("aria-selected") == "true"
    assert page.locator(tid("settings-button")).get_attribute("aria-label") == "Settings"
    assert page.locator(tid("stop-button")).is_hidden()
    assert page.locator(tid("error-banner")).is_hidden()
    # first visit: OpenAI without a key -> a clear way to set up a provider
    assert page.locator(tid("setup-hint")).is_visible()
    page.click(tid("tab-ralph"))
    assert page.get_by_text("Ralph builds here").is_visible()
    assert page.locator(tid("chat-input")).is_hidden()
    # a fresh project's preview says there is no page yet and how one comes, not "Not found"
    status = page.locator(f"#panel-ralph {tid('preview-status')}")
    page.wait_for_function(
        "el => el.textContent === 'No page yet'", arg=status.element_handle(), timeout=20_000
    )
    frame = page.frame_locator(f"#panel-ralph {tid('preview-frame')}")
    assert "hand it to Ralph" in frame.locator("body").text_content()
    page.keyboard.press("ArrowLeft")
    assert page.locator(tid("tab-chief")).get_attribute("aria-selected") == "true"
    assert page.locator(tid("chat-input")).is_visible()
    # the keyboard shortcut is named where there is a keyboard (once the box is live), not on a phone
    configure(page, sim, KEY)
    hint = page.locator(".composer .composer-hint")
    assert hint.is_visible() and "Enter to send" in hint.text_content()
    set_size(page, 390, 844)
    assert not hint.is_visible()
    set_size(page, 1280, 800)


def test_settings_dialog_defaults_and_focus(app):
    page = app
    page.click(tid("settings-button"))
    dialog = page.locator(tid("settings-dialog"))
    dialog.wait_for(state="visible")
    assert page.evaluate("document.querySelector('[data-testid=settings-dialog]').open")
    # focus moved into the dialog
    assert page.evaluate(
        "document.querySelector('[data-testid=settings-dialog]').contains(document.activeElement)"
    )
    assert page.locator(tid("provider-api-key")).get_attribute("type") == "password"
    assert page.input_value(tid("provider-base-url")) == "https://api.openai.com/v1"
    # OpenAI answers web pages (its preset cites the source): proxy off by default
    assert not page.locator(tid("provider-proxy")).is_checked()
    # presets
    page.select_option(tid("add-provider"), "anthropic")
    assert page.input_value(tid("provider-base-url")) == "https://api.anthropic.com"
    assert page.input_value(tid("provider-kind")) == "anthropic"
    assert not page.locator(tid("provider-proxy")).is_checked()
    # a bad proxy template is refused with a message
    page.fill(tid("proxy-template"), "https://proxy.example/?url=")
    page.click(tid("settings-save"))
    assert dialog.is_visible()
    assert "{href}" in dialog.text_content()
    page.keyboard.press("Escape")
    dialog.wait_for(state="hidden")
    # focus returns to the settings button
    assert page.evaluate("document.activeElement.dataset.testid") == "settings-button"


def test_send_without_a_usable_provider_explains(app):
    page = app
    page.click(tid("settings-button"))
    # Save refuses a cloud provider without its key; a local address needs none
    page.fill(tid("provider-base-url"), "http://127.0.0.1:9/v1")
    page.fill(tid("provider-model"), "")
    save_settings(page)
    # the first-run card is back in front, and the message box waits for it, saying why
    page.locator(tid("onboarding")).wait_for(state="visible")
    box = page.locator(tid("chat-input"))
    assert box.is_disabled() and "Connect a provider above" in box.get_attribute("placeholder")
    # a message that still comes (queued before the app had loaded) is refused on the card
    run_python(page, "from wiggum.web.app import APP\nAPP.shell.chief.send('hello', [])")
    notice = page.locator(tid("onb-notice"))
    notice.wait_for(state="visible")
    assert "Connect a provider with this form" in notice.text_content()
    assert page.locator(tid("error-banner")).is_hidden()


# ----------------------------------------------------------------------- streaming


def test_streamed_reply_grows_in_the_dom(app, sim):
    page = app
    configure(page, sim, KEY)
    words = [f"word{i:02d} " for i in range(10)]
    # Each word is let out once the page shows the one before (how long the page
    # goes without painting meanwhile: bench/browser_markdown_stream.py).
    gate = Gate()
    sim.script([Turn("".join(words).strip(), chunks=10, usage=(1200, 34), gate=gate)])
    send(page, "Tell me about words")
    samples: list[str] = []
    for n in range(1, len(words) + 1):
        gate.allow_until(1 + n)  # the role chunk, then a word each
        page.wait_for_function(
            """t => { const r = [...document.querySelectorAll('[data-testid=message-assistant]')].pop();
                      return !!r && r.textContent.trim() === t; }""",
            arg="".join(words[:n]).strip(),
            timeout=15_000,
        )
        samples.append(page.locator(tid("message-assistant")).last.text_content())
    gate.open()
    reply = wait_reply(page)
    final = reply.locator(tid("message-assistant")).text_content()
    assert final == "".join(words).strip()
    growing = [s for s in samples if final.startswith(s.strip())]
    assert len(set(growing)) >= 3, samples
    lengths = [len(s) for s in growing]
    assert lengths == sorted(lengths)
    assert reply.locator(tid("usage")).text_content() == "1,234 tokens · $0.0002"
    assert page.locator(tid("message-user")).last.text_content() == "Tell me about words"
    # the key never reaches the console
    assert not any(KEY in line for line in page.console_lines)
    # it went to the simulator, not through a proxy, with the key as a bearer token
    req = sim.chat_requests[-1]
    assert req.path == "/v1/chat/completions"
    assert req.header("authorization") == f"Bearer {KEY}"


def test_stop_keeps_the_partial_reply(app, sim):
    page = app
    configure(page, sim, KEY)
    gate = Gate(1 + 5)  # the role chunk and five ticks; the rest waits for the stop
    sim.script([Turn("tick " * 60, chunks=60, gate=gate)])
    send(page, "count slowly")
    wait_streaming(page, 10, timeout=10_000)
    page.click(tid("stop-button"))
    reply = wait_reply(page, "stopped")
    assert reply.locator(tid("message-status")).text_content() == "stopped"
    text = reply.locator(tid("message-assistant")).text_content()
    assert 10 < len(text) < len("tick " * 60)
    # the stream ended before its usage: the line says so rather than vanishing
    assert reply.locator(tid("usage")).text_content() == "tokens not reported · cost unknown"
    assert sim.chat_requests[-1].wait(5) == "client_disconnected"
    assert page.locator(tid("error-banner")).is_hidden()
    assert page.locator(tid("send-button")).is_visible()


def test_reasoning_is_collapsed_above_the_reply(app, sim):
    page = app
    configure(page, sim, KEY, kind="anthropic")
    sim.script([Turn(Reasoning("I am pondering the question."), "The answer is 42.")])
    send(page, "What is the answer?")
    reply = wait_reply(page)
    details = reply.locator(tid("reasoning"))
    assert details.is_visible()
    assert details.evaluate("d => d.tagName") == "DETAILS"
    assert details.get_attribute("open") is None
    assert "I am pondering the question." in details.text_content()
    assert reply.locator(tid("message-assistant")).text_content() == "The answer is 42."
    # reasoning comes before the reply text
    assert details.evaluate(
        "(d) => !!(d.compareDocumentPosition(d.parentElement.querySelector("
        "'[data-testid=message-assistant]')) & Node.DOCUMENT_POSITION_FOLLOWING)"
    )


def test_rate_limit_then_success(app, sim):
    page = app
    configure(page, sim, KEY)
    sim.script([rate_limited(1), Turn("Recovered after waiting.")])
    send(page, "hi")
    reply = wait_reply(page, timeout=20_000)
    assert reply.locator(tid("message-assistant")).text_content() == "Recovered after waiting."
    assert len(sim.chat_requests) == 2
    assert page.locator(tid("error-banner")).is_hidden()


def test_bad_key_shows_a_clear_message(app, sim):
    page = app
    configure(page, sim, KEY)
    sim.script([http_error(401)])
    send(page, "hi")
    reply = wait_reply(page, "error")
    said = reply.locator(tid("message-error"))
    said.wait_for(state="visible")
    assert "The provider rejected the API key" in said.text_content()
    assert KEY not in said.text_content()
    # said once: no banner repeats it
    assert page.locator(tid("error-banner")).is_hidden()
    # the reply offers the way out
    reply.get_by_role("button", name="Open Settings").click()
    page.locator(tid("settings-dialog")).wait_for(state="visible")


def test_debug_log_shows_the_trail_of_a_failure_and_keeps_it(app, sim):
    page = app
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    configure(page, sim, KEY)
    badge = page.locator(tid("debug-badge"))
    assert badge.is_hidden()

    # A reply that works leaves the log quiet: its trail stays in the buffer ...
    sim.script([Turn("Fine."), http_error(401)])
    send(page, "first")
    wait_reply(page)
    assert badge.is_hidden()

    # ... until a request fails: then the whole trail is written, scrubbed.
    send(page, "second")
    wait_reply(page, "error")
    badge.wait_for(state="visible")
    page.click(tid("debug-button"))
    dialog = page.locator(tid("debug-dialog"))
    dialog.wait_for(state="visible")
    assert badge.is_hidden()  # seen
    messages = page.locator(tid("debug-message")).all_text_contents()
    assert messages.count("llm:request") == 2  # the good call's and the failed one's
    assert "llm:stream-end" in messages
    assert messages[-1] == "llm:error"
    error = page.locator(f'{tid("debug-entry")}[data-level="ERROR"]').last
    assert "status=401" in error.text_content()
    assert "AuthenticationError" in error.text_content()
    assert KEY not in dialog.text_content()

    page.click(tid("debug-copy"))
    page.wait_for_function("navigator.clipboard.readText().then(t => t.includes('llm:error'))")
    copied = page.evaluate("navigator.clipboard.readText()")
    assert len(copied.splitlines()) >= len(messages) and KEY not in copied

    # Nothing new is buffered; after another good reply "Show recent activity" adds its trail.
    page.keyboard.press("Escape")
    sim.script([Turn("Back again.")])
    send(page, "third")
    page.wait_for_function(
        "document.querySelectorAll('[data-testid=reply][data-status=complete]').length === 2"
    )
    page.click(tid("debug-button"))
    before = page.locator(tid("debug-entry")).count()
    page.click(tid("debug-drain"))
    page.wait_for_function(
        f"document.querySelectorAll('[data-testid=debug-entry]').length > {before}"
    )
    shown = page.locator(tid("debug-message")).all_text_contents()
    page.keyboard.press("Escape")
    # Entries are shown at once and stored in the background; reload once they are.
    wait_stored_debug_entries(page, len(shown))

    # The log belongs to the project and survives a reload.
    open_app(page, page.base_url, reload=True)
    page.wait_for_selector(MOUNTED, timeout=30_000)
    page.click(tid("debug-button"))
    page.locator(tid("debug-dialog")).wait_for(state="visible")
    assert page.locator(tid("debug-message")).all_text_contents() == shown

    # Clear empties it, for good.
    page.click(tid("debug-clear"))
    page.locator(tid("debug-empty")).wait_for(state="visible")
    assert page.locator(tid("debug-entry")).count() == 0
    open_app(page, page.base_url, reload=True)
    page.wait_for_selector(MOUNTED, timeout=30_000)
    page.click(tid("debug-button"))
    page.locator(tid("debug-empty")).wait_for(state="visible")
    assert page.locator(tid("debug-entry")).count() == 0


def wait_stored_debug_entries(page, count: int, timeout: float = 10.0) -> None:
    poll(
        lambda: run_async(
            page,
            """
            from wiggum.web import app as wapp
            from wiggum.ui.debuglog import LOG_AGENT
            app = wapp.APP
            len(await app.storage.load_messages(app.project_id, LOG_AGENT))
            """,
        ),
        lambda stored: stored >= count,
        f"fewer than {count} debug entries stored",
        timeout,
        interval=0.05,
    )


@pytest.mark.parametrize("kind", ["openai", "anthropic", "ollama"])
def test_all_three_dialects(app, sim, kind):
    page = app
    configure(page, sim, KEY, kind=kind)
    sim.script([Turn(f"Hello from {kind}!", chunks=4, usage=(20, 5))])
    send(page, "hello")
    reply = wait_reply(page)
    assert reply.locator(tid("message-assistant")).text_content() == f"Hello from {kind}!"
    assert reply.locator(tid("usage")).text_content().startswith("25 tokens · ")
    path = sim.chat_requests[-1].path
    assert (
        path
        == {"openai": "/v1/chat/completions", "anthropic": "/v1/messages", "ollama": "/api/chat"}[
            kind
        ]
    )
    if kind == "anthropic":
        assert sim.chat_requests[-1].header("x-api-key") == KEY


def test_model_list_fills_the_datalist(app, sim):
    page = app
    sim.set_models(["gpt-4o", "gpt-4o-mini", "o3-mini"], dialect="openai")
    configure(page, sim, KEY)
    page.click(tid("settings-button"))
    page.click(tid("models-refresh"))
    page.wait_for_function(
        "document.querySelector('[data-testid=models-status]').textContent"
        ".includes('3 models available')",
        timeout=10_000,
    )
    assert page.locator("#set-models option").count() == 3
    page.fill(tid("provider-model"), "gpt-4o")
    assert "128,000 tokens of context" in page.locator(tid("model-info")).text_content()
    model_reqs = [r for r in sim.requests if r.path == "/v1/models"]
    assert model_reqs and model_reqs[-1].header("authorization") == f"Bearer {KEY}"


def test_reload_restores_conversation_and_settings(app, sim):
    page = app
    configure(page, sim, KEY, kind="ollama")
    sim.script([Turn("Kept across reloads.")])
    send(page, "remember this")
    wait_reply(page)
    open_app(page, page.base_url, reload=True)
    page.wait_for_selector(MOUNTED, timeout=30_000)
    assert page.locator(tid("message-user")).last.text_content() == "remember this"
    assert page.locator(tid("message-assistant")).last.text_content() == "Kept across reloads."
    assert last_reply(page).get_attribute("data-status") == "complete"
    page.click(tid("settings-button"))
    assert page.input_value(tid("provider-kind")) == "ollama"
    assert page.input_value(tid("provider-base-url")) == sim.base_url
    assert page.input_value(tid("provider-model")) == MODELS["ollama"]
    assert page.input_value(tid("provider-api-key")) == KEY
    page.keyboard.press("Escape")
    # and the conversation goes on from the restored history
    sim.script([Turn("Still here.")])
    send(page, "and now?")
    page.wait_for_function(
        "document.querySelectorAll('[data-testid=reply][data-status=complete]').length === 2"
    )
    roles = [m["role"] for m in sim.chat_requests[-1].json["messages"]]
    assert roles == ["system", "user", "assistant", "user"]


#: pydantic_core's wheel, wherever the build keeps it (wheels/, or app/<hash>/).
WHEEL = "**/pydantic_core-*.whl"


def reload_to_first_screen(page):
    """Reload and stay on the first screen (the pydantic_core wheel is held back);
    returns ``release()``, which lets it through and waits for the whole app."""
    held = []
    released = []

    def hold(route) -> None:
        if released:
            route.fallback()
        else:
            held.append(route)

    page.route(WHEEL, hold)
    page.reload(wait_until="commit")
    wait_app_ready(page, loaded=False)
    deadline = time.monotonic() + 30
    while not held and time.monotonic() < deadline:
        page.wait_for_timeout(50)
    assert held, "the page never asked for pydantic_core"
    assert page.get_attribute(APP_READY, "data-loaded") is None

    def release() -> None:
        # The wheel may be asked for more than once (the early request, the install's).
        released.append(True)
        for route in held:
            route.fallback()  # on to the offline guard, which lets localhost through
        page.wait_for_selector(APP_LOADED, state="attached", timeout=30_000)

    return release


def test_first_screen_works_before_the_app_behind_it_has_loaded(app, sim):
    """app-ready comes before pydantic is installed: the stored conversation is
    there, and what needs the app (sending, settings) waits for it and then runs."""
    page = app
    configure(page, sim, KEY, kind="ollama")
    sim.script([Turn("Kept **across** reloads.", usage=(12, 3))])
    send(page, "remember this")
    wait_reply(page)
    release = reload_to_first_screen(page)
    assert run_async(page, "'pydantic' in __import__('sys').modules") is False
    assert page.locator(tid("message-user")).last.text_content() == "remember this"
    body = page.locator(tid("message-assistant")).last
    assert body.inner_html() == "<p>Kept <strong>across</strong> reloads.</p>"
    assert last_reply(page).get_attribute("data-status") == "complete"
    assert page.locator(tid("usage")).last.text_content().startswith("15 tokens")

    sim.script([Turn("Sent once the app was there.")])
    send(page, "sent early")
    activity = page.locator(tid("chief-activity"))
    activity.wait_for(state="visible")
    assert "starting" in activity.text_content()
    assert page.input_value(tid("chat-input")) == "sent early"
    page.click(tid("settings-button"))
    page.click(tid("active-provider"))  # a second ask while loading: still one dialog
    assert page.locator(tid("settings-dialog")).is_hidden()
    assert len(sim.chat_requests) == 1
    errors_before = len(page.console_lines)

    release()
    page.wait_for_function(
        "document.querySelectorAll('[data-testid=reply][data-status=complete]').length === 2"
    )
    assert last_reply(page).locator(tid("message-assistant")).text_content() == (
        "Sent once the app was there."
    )
    assert [m["role"] for m in sim.chat_requests[-1].json["messages"]] == [
        "system",
        "user",
        "assistant",
        "user",
    ]
    assert page.input_value(tid("chat-input")) == ""
    page.locator(tid("settings-dialog")).wait_for(state="visible")
    assert not [line for line in page.console_lines[errors_before:] if "settings" in line]


def test_the_app_arriving_keeps_the_reading_position(app, sim):
    page = app
    configure(page, sim, KEY, kind="ollama")
    sim.script([Turn("\n\n".join(f"Paragraph {i} of a long answer." for i in range(80)))])
    send(page, "a long one please")
    wait_reply(page)
    release = reload_to_first_screen(page)
    scroller = ".messages-scroll"
    assert page.eval_on_selector(scroller, "e => e.scrollHeight > 2 * e.clientHeight")
    page.eval_on_selector(scroller, "e => { e.scrollTop = 40; }")
    page.eval_on_selector(tid("reply"), "e => { e.dataset.firstScreen = '1'; }")
    release()
    # the conversation was rendered again from the app's records, in the same place
    assert page.get_attribute(tid("reply"), "data-first-screen") is None
    assert page.eval_on_selector(scroller, "e => e.scrollTop") == 40


def test_projects_have_their_own_conversations(app, sim):
    page = app
    configure(page, sim, KEY)
    sim.script([Turn("First project's answer.")])
    send(page, "first")
    wait_reply(page)
    page.select_option(tid("project-switcher"), "__new__")
    page.locator(tid("project-dialog")).wait_for(state="visible")
    page.fill(tid("project-name"), "Second")
    page.click(tid("project-save"))
    page.wait_for_function(
        "document.querySelector('[data-testid=project-switcher]').selectedOptions[0].text === 'Second'"
    )
    assert page.locator(tid("message-user")).count() == 0
    page.click(tid("project-rename"))
    page.fill(tid("project-name"), "Second, renamed")
    page.click(tid("project-save"))
    page.wait_for_function(
        "document.querySelector('[data-testid=project-switcher]').selectedOptions[0].text"
        " === 'Second, renamed'"
    )
    first = page.locator(f"{tid('project-switcher')} option", has_text="My first project")
    page.select_option(tid("project-switcher"), first.get_attribute("value"))
    page.wait_for_function("document.querySelectorAll('[data-testid=message-user]').length === 1")
    assert page.locator(tid("message-assistant")).last.text_content() == "First project's answer."


# ----------------------------------------------------------------------- safety


HOSTILE = (
    "Here you go:\n\n"
    "<script>window.__pwned=1</script>\n\n"
    '<img src=x onerror="window.__pwned=2">\n\n'
    "[click](javascript:window.__pwned=3) and [also](JAVASCRIPT:window.__pwned=4) and "
    "[enc](&#106;avascript:window.__pwned=5)\n\n"
    "```html\n<script>window.__pwned=6</script>\n```\n"
)


def test_a_script_bearing_reply_runs_nothing(app, sim):
    page = app
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    configure(page, sim, KEY)
    scripts_before = page.evaluate("document.scripts.length")
    sim.script([Turn(HOSTILE, chunks=7)])
    send(page, "show me")
    reply = wait_reply(page)
    body = reply.locator(tid("message-assistant"))
    page.get_by_text("click", exact=True).click()
    page.get_by_text("also", exact=True).click()
    page.get_by_text("enc", exact=True).click()
    page.wait_for_timeout(300)
    assert page.evaluate("typeof window.__pwned") == "undefined"
    assert dialogs == []
    assert page.evaluate("document.scripts.length") == scripts_before
    assert body.locator("script, img, iframe").count() == 0
    assert body.locator("a").count() == 0
    text = body.text_content()
    assert "<script>window.__pwned=1</script>" in text
    assert '<img src=x onerror="window.__pwned=2">' in text
    assert body.locator(".codeblock code").text_content() == "<script>window.__pwned=6</script>\n"
    assert len(page.context.pages) == 1


def test_links_open_safely(app, sim):
    page = app
    configure(page, sim, KEY)
    sim.script(
        [Turn("See [the docs](https://example.com/docs), [home](/) or [mail](mailto:a@b.example).")]
    )
    send(page, "links?")
    reply = wait_reply(page)
    links = reply.locator(f"{tid('message-assistant')} a")
    assert links.count() == 2
    for i in range(2):
        assert links.nth(i).get_attribute("rel") == "noopener noreferrer"
        assert links.nth(i).get_attribute("target") == "_blank"
    assert links.nth(0).get_attribute("href") == "https://example.com/docs"
    assert links.nth(1).get_attribute("href") == "mailto:a@b.example"
    # A path on Wiggum's own origin is no place a reply may send the person: text only.
    assert "home" in reply.locator(f"{tid('message-assistant')} .unsafe-link").inner_text()


def test_copy_button_copies_the_code(app, sim):
    page = app
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    configure(page, sim, KEY)
    sim.script([Turn("Run this:\n\n```sh\nnpm test\n```\n")])
    send(page, "how?")
    reply = wait_reply(page)
    assert reply.locator(".codeblock-lang").text_content() == "sh"
    button = reply.get_by_role("button", name="Copy sh code")
    button.click()
    page.wait_for_function(
        "document.querySelector('.codeblock-copy').textContent === 'Copied'", timeout=5_000
    )
    assert page.evaluate("navigator.clipboard.readText()") == "npm test\n"


# ----------------------------------------------------------------------- CORS


def test_proxy_toggle_routes_through_the_template(app, sim):
    page = app
    page.click(tid("settings-button"))
    # Save refuses a cloud provider without its key; a local address needs none
    page.fill(tid("provider-base-url"), "http://127.0.0.1:9/v1")
    page.fill(tid("proxy-template"), sim.base_url + "/proxy/{href}")
    save_settings(page)
    configure(page, sim, KEY, proxy=True)
    sim.script([Turn("unused")])
    send(page, "via proxy")
    reply = wait_reply(page, "error")
    (req,) = [r for r in sim.all_requests if r.method == "POST"]
    assert req.path.startswith("/proxy/http%3A%2F%2F127.0.0.1")
    assert req.path.endswith("%2Fv1%2Fchat%2Fcompletions")
    # the simulator is no proxy: its 404 is explained as a wrong URL or model
    assert "not found" in reply.locator(tid("message-error")).text_content()


def test_no_cors_provider_with_proxy_off_says_turn_on_the_proxy(app):
    page = app
    with Simulator(cors=False) as sim:
        configure(page, sim, KEY, proxy=False)
        sim.script([Turn("never seen"), Turn("never seen"), Turn("never seen"), Turn("x")])
        send(page, "hello")
        reply = wait_reply(page, "error", timeout=30_000)
        said = reply.locator(tid("message-error"))
        said.wait_for(state="visible")
        assert (
            "It may not allow calls from web pages (CORS): turn on the proxy for this provider "
            "in Settings." in said.text_content()
        )
