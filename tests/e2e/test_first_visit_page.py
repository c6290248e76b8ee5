"""The first visit without a key to paste, in Chromium with every non-localhost
request blocked: the model servers on this computer found by the first screen
(the provider simulator with its models, one that refuses this page's origin
with its fix), and Connect with OpenRouter's round trip against the simulator
of OpenRouter's sign-in, from the first screen and from Settings.

One page for the module, opened with no provider.  The sign-in server and the
extra ports to look at are the page's own switches in ``localStorage``
(``wiggum.openrouter.auth``, ``wiggum.local.ports``), set before the app runs.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from wiggum_e2e import (
    MOUNTED,
    booted_page,
    in_preview,
    on_top,
    open_settings,
    run_async,
    run_python,
    set_size,
    tid,
    wait_app_ready,
)

from tests.sim import Simulator
from tests.sim.openrouter_auth import OpenRouterAuth
from wiggum.session.demo import END_TITLE, LABEL, PLAYING
from wiggum.session.openrouter_oauth import CONNECTED

pytestmark = pytest.mark.e2e

SHOTS = Path(__file__).resolve().parents[2] / ".cache" / "screenshots"


@pytest.fixture(scope="module")
def auth():
    with OpenRouterAuth() as a:
        yield a


@pytest.fixture(scope="module")
def servers():
    """A model server that answers this page, and one that refuses its origin."""
    with Simulator(models=["llama3.2", "qwen2.5-coder"]) as good, Simulator(cors=False) as bad:
        yield good, bad


@pytest.fixture(scope="module")
def page(browser, base_url, auth, servers):
    good, bad = servers
    switches = {
        "wiggum.openrouter.auth": auth.base_url,
        "wiggum.local.ports": f"{good.port},{bad.port}",
    }
    init = "".join(
        f"localStorage.setItem({json.dumps(k)}, {json.dumps(v)});" for k, v in switches.items()
    )
    with booted_page(browser, base_url, init_script=init, mounted=True) as p:
        p.base_url = base_url
        yield p


def _row(page, port: int):
    return page.locator(tid("onb-local-row")).filter(has_text=f"Server on port {port}")


def test_the_first_screen_lists_the_model_servers_on_this_computer(page, servers):
    good, bad = servers
    found, refusing = _row(page, good.port), _row(page, bad.port)
    found.wait_for(state="attached", timeout=30_000)
    refusing.wait_for(state="attached", timeout=30_000)
    assert found.locator(tid("onb-local-models")).text_content() == "llama3.2, qwen2.5-coder"
    origin = page.evaluate("location.origin")
    fix = refusing.locator(tid("onb-local-fix")).text_content()
    assert origin in fix, fix
    assert refusing.locator(tid("onb-use-local")).count() == 0
    if page.locator(tid("onboarding")).is_visible():  # not once a provider is kept
        SHOTS.mkdir(parents=True, exist_ok=True)
        for width, height in ((1280, 800), (390, 844)):
            set_size(page, width, height)
            found.locator(tid("onb-use-local")).scroll_into_view_if_needed()
            assert on_top(page, found.locator(tid("onb-use-local")))
            assert on_top(page, tid("onb-openrouter"), scroll=True)
            page.screenshot(path=str(SHOTS / f"first-visit-{width}.png"))
        set_size(page, 1280, 800)


def test_the_demo_plays_a_recorded_session_to_its_end_labelled_as_a_replay(page):
    mine = run_python(page, "from wiggum.web.app import APP\nAPP.project_id")
    if page.locator(tid("onboarding")).is_visible():
        page.click(tid("onb-demo"))
    else:  # a provider is kept already: the demo is the same from Python
        run_python(page, "from wiggum.web.app import APP\nAPP.start_demo()")
    page.get_by_text(PLAYING).wait_for(timeout=30_000)
    switcher = tid("project-switcher")
    assert page.eval_on_selector(switcher, "s => s.options[s.selectedIndex].textContent") == LABEL
    assert LABEL in page.text_content(tid("active-provider"))
    page.get_by_text(END_TITLE).wait_for(timeout=120_000)
    replies = page.locator(tid("reply"))
    assert "A warm one-pager" in replies.first.text_content()
    assert replies.filter(has_text="Ralph finished your page").count() == 1
    assert on_top(page, f"{tid('error-banner')} [data-action=banner-settings]")
    page.click(tid("tab-ralph"))
    badge = page.text_content(tid("ralph-badge"))
    assert badge == "✓ DONE", badge
    frame = page.frame_locator(f"{tid('ralph-workspace')} {tid('preview-frame')}")
    in_preview(lambda: frame.locator("h1").text_content(timeout=2_000) == "Crumb & Co", "the site")
    assert LABEL in page.text_content(tid("active-provider"))  # on Ralph's tab too
    SHOTS.mkdir(parents=True, exist_ok=True)
    for width, height in ((1280, 800), (390, 844)):
        set_size(page, width, height)
        page.screenshot(path=str(SHOTS / f"demo-ralph-{width}.png"))
    page.click(tid("tab-chief"))
    page.screenshot(path=str(SHOTS / "demo-end-390.png"))
    set_size(page, 1280, 800)
    page.screenshot(path=str(SHOTS / "demo-end-1280.png"))
    # Back in the person's own project the replay is gone: the first screen again.
    back = f"from wiggum.web.app import APP\nawait APP.switch_project({mine!r})\nAPP.project_id"
    assert run_async(page, back) == mine
    page.locator(tid("active-provider")).filter(has_not_text=LABEL).wait_for(timeout=30_000)


def _sign_in(page, button: str) -> None:
    """Off to the simulated sign-in, which allows at once: the page comes back to
    itself with ``?code=`` and boots again."""
    with page.expect_navigation(url=re.compile(r"[?&]code="), timeout=30_000):
        page.click(tid(button))
    wait_app_ready(page)
    page.wait_for_selector(MOUNTED, timeout=30_000)


def _active_key(page) -> list:
    return run_python(
        page,
        "from wiggum.web.app import APP\n"
        "p = APP.settings.active()\n"
        "[p.preset, p.key, len(APP.settings.providers)]",
    )


def test_connect_with_openrouter_comes_back_with_a_key_kept_like_a_pasted_one(page, auth):
    if page.locator(tid("onboarding")).is_visible():  # no provider kept yet
        _sign_in(page, "onb-openrouter")
        banner = page.get_by_text(CONNECTED)
        banner.wait_for(timeout=30_000)
        assert "code=" not in page.url  # a reload does not spend the code again
        preset, key, count = _active_key(page)
        assert preset == "openrouter" and key == auth.issued[-1] and count == 1
        assert page.locator(tid("onboarding")).is_hidden()

    # From Settings: another key, the new provider active.
    before = len(auth.issued)
    open_settings(page)
    _sign_in(page, "settings-openrouter")
    page.get_by_text(CONNECTED).wait_for(timeout=30_000)
    assert len(auth.issued) == before + 1
    preset, key, _ = _active_key(page)
    assert preset == "openrouter" and key == auth.issued[-1]
    # The key never shows in the page's text.
    assert auth.issued[-1] not in page.evaluate("document.body.innerText")
