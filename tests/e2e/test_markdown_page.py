"""Markdown in Chief's replies: a 36 KB reply streamed in 200-byte chunks (one shared page).

The page talks to ``tests.sim.Simulator``.  What the render does per task is
counted in the page (render slices, the steps each took, the posted tasks that
ran them), never timed: how long those tasks take on this machine is
``bench/browser_markdown_stream.py``'s.  Screenshots go to /tmp/shots-markdown/.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from markdown_reply import markdown_reply
from wiggum_e2e import (
    booted_page,
    configure,
    run_async,
    run_python,
    send,
    set_size,
    tid,
    wait_reply,
)

from tests.sim import Gate, Turn

SHOTS = Path("/tmp/shots-markdown")
REPLY = markdown_reply()
CHUNK = 200
KEY = "sk-e2e-SECRET-markdown"
PREFETCHED = """() => wiggumBoot.pyodide.runPython(
    "import sys; m = sys.modules.get('wiggum.web.markdown_view'); bool(m) and m.prefetched")"""

#: In the page: each render slice's clock advances a millisecond per reading (a
#: step), so a slice's time budget is a count of steps (``STEPS``), whatever the
#: machine's speed; and what the streaming markdown view does is recorded, per view.
WATCH = """
import wiggum.web.markdown_view as mv
from wiggum.ui.slices import BUDGET

STEP = 0.001  # seconds a step counts for
STEPS = round(BUDGET / STEP)
WATCH = {"posted": 0, "slices": {}, "updates": {}}

class StepClock:
    def __init__(self):
        self.readings = 0
    def __call__(self):
        self.readings += 1
        return self.readings * STEP

_init, _slice, _update, _post = (
    mv.StreamingMarkdown.__init__, mv.StreamingMarkdown._slice,
    mv.StreamingMarkdown.update, mv.post_task)

def init(self, *args, **kwargs):
    _init(self, *args, **kwargs)
    self._slices.clock = StepClock()

def post_task(fn, **kwargs):
    WATCH["posted"] += 1
    return _post(fn, **kwargs)

def slice_(self):
    _slice(self)
    WATCH["slices"].setdefault(id(self), []).append([self._slices.steps, self.renders])

def update(self, text, *, final=False):
    WATCH["updates"].setdefault(id(self), []).append([len(text), final, self.renders])
    return _update(self, text, final=final)

mv.StreamingMarkdown.__init__ = init
mv.StreamingMarkdown._slice = slice_
mv.StreamingMarkdown.update = update
mv.post_task = post_task
mv.WATCH = WATCH
STEPS
"""
READ_WATCH = """
import wiggum.web.markdown_view as mv
w = mv.WATCH
slices = {str(k): v for k, v in w["slices"].items()}
updates = {str(k): v for k, v in w["updates"].items()}
{"posted": w["posted"], "slices": slices, "updates": updates}
"""


@pytest.fixture(scope="module")
def streamed(browser, base_url, sim):
    """The page after the long reply streamed in: (page, what the markdown view
    did, the reply's element).  The stream is held half-way until the page shows
    the text that arrived: it is drawn while the reply streams, not at its end."""
    with booted_page(
        browser,
        base_url,
        mounted=True,
        permissions=["clipboard-read", "clipboard-write"],
        viewport={"width": 1280, "height": 800},
    ) as page:
        configure(page, sim, KEY)
        # Pygments and the common lexers load while the page is idle after boot
        # (then what the app has built is frozen out of the garbage collector's way).
        page.wait_for_function(PREFETCHED, timeout=60_000, polling=500)
        steps = run_python(page, WATCH)
        gate = Gate()
        chunks = len(REPLY) // CHUNK
        sim.script([Turn(REPLY, chunks=chunks, delay=0.01, gate=gate)])
        send(page, "Write the long plan.")
        gate.allow_until(1 + chunks // 2)  # the role chunk, then half the text
        page.wait_for_function(
            """() => { const b = document.querySelector('[data-testid=message-assistant]');
                       return !!b && b.textContent.includes('Step 4: the views module'); }""",
            timeout=60_000,
        )
        held = page.get_attribute(tid("reply"), "data-status")
        gate.open()
        reply = wait_reply(page, timeout=120_000)
        page.wait_for_selector(f"{tid('message-assistant')}:not([data-rendering])", timeout=30_000)
        watch = run_async(page, READ_WATCH)
        watch["steps"], watch["held"] = steps, held
        yield page, watch, reply


def test_a_streaming_reply_is_drawn_in_slices_of_bounded_work(streamed):
    """While the reply streams in (and its last code blocks are coloured), the
    page's main thread does the render in posted tasks of a few steps each
    (``wiggum.web.markdown_view``): never a long task of its own."""
    _, watch, _ = streamed
    # The reply's view: the one that rendered the whole reply at its end.
    (view,) = [
        key
        for key, updates in watch["updates"].items()
        if any(final and n == len(REPLY) for n, final, _ in updates)
    ]
    slices, updates = watch["slices"][view], watch["updates"][view]
    steps = [n for n, _ in slices]
    print(f"\n{len(slices)} render slices, steps each: max {max(steps)}, {sorted(steps)[-10:]}")
    # Drawn while it streamed: the text that had come shows before the rest came.
    assert watch["held"] == "streaming"
    # In many slices, each a task the view posted, each of at most its budget in
    # steps (one step: an element built, a few tokens coloured, a parse of the open block).
    assert len(slices) > 20
    assert watch["posted"] == sum(map(len, watch["slices"].values()))
    assert watch["steps"] <= 10  # a budget far below a long task's 50 ms, even at 5 ms a step
    assert max(steps) <= watch["steps"] + 1
    assert steps.count(max(steps)) > 1  # the budget, not the work, ended slices
    # No render at once while it streamed: the view's only whole render is the end's.
    streaming = [n for n, final, _ in updates if not final]
    assert all(n == 0 for n in streaming), updates
    assert [final for _, final, _ in updates].count(True) >= 1
    assert slices[-1][1] > 2  # many renders of the text as it grew


def test_streamed_dom_equals_dom_rendered_at_once(streamed):
    page, _, reply = streamed
    body = reply.locator(tid("message-assistant"))
    # The last code blocks are coloured in slices after the end: until then, data-rendering.
    page.wait_for_selector(f"{tid('message-assistant')}:not([data-rendering])", timeout=10_000)
    streamed_html = body.evaluate("el => el.innerHTML")  # read only, to compare
    page.evaluate("t => { window.__reply = t; }", REPLY)
    at_once = run_python(
        page,
        "import js\nfrom wiggum.web.dom import render_markdown\n"
        "d = js.document.createElement('div')\n"
        "d.appendChild(render_markdown(js.window.__reply))\nd.innerHTML",
    )
    assert streamed_html == at_once
    assert body.locator(".codeblock code.hl span").count() > 0  # highlighted
    assert body.locator("table").count() >= 8
    assert body.locator("input[type=checkbox][disabled]").count() >= 16


def test_no_lexer_is_looked_up_for_a_fence_still_arriving(streamed):
    """A fence's info string arrives in pieces (```` ```pytho ````): looking up a
    name that is no lexer walks all of Pygments' lexers (~25 ms, in the stream)."""
    page, _, _ = streamed
    looked_up = run_python(
        page, "import wiggum.ui.highlight as hl\n','.join(sorted(hl._LEXERS))"
    ).split(",")
    assert set(looked_up) == {"python", "javascript", "typescript", "html", "css", "json", "sh"}


def test_copy_puts_the_code_on_the_clipboard(streamed):
    page, _, reply = streamed
    block = reply.locator(".codeblock").first
    button = block.locator(".codeblock-copy")
    button.scroll_into_view_if_needed()
    box = button.bounding_box()
    on_top = page.evaluate(
        "([x, y]) => document.elementFromPoint(x, y)?.closest('.codeblock-copy') !== null",
        [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2],
    )
    assert on_top
    button.click()
    page.wait_for_function("() => document.querySelector('.codeblock-copy').textContent !== 'Copy'")
    assert button.text_content() == "Copied"
    copied = page.evaluate("() => navigator.clipboard.readText()")
    assert copied == block.locator("code").text_content()
    assert copied.startswith("def step_1(items")


def test_long_lines_scroll_inside_the_block_and_screenshots(streamed):
    page, _, reply = streamed
    pre = reply.locator(".codeblock pre").first
    widths = pre.evaluate("el => [el.scrollWidth, el.clientWidth]")
    assert widths[0] > widths[1]  # the long comment line scrolls inside the block
    page_width = page.evaluate("() => document.documentElement.scrollWidth")
    assert page_width <= 1280
    SHOTS.mkdir(exist_ok=True)
    for w, h in [(1280, 800), (1920, 1080), (390, 844)]:
        set_size(page, w, h)
        reply.locator("table").first.scroll_into_view_if_needed()
        page.screenshot(path=str(SHOTS / f"reply-{w}x{h}.png"))
        assert page.evaluate("() => document.documentElement.scrollWidth") <= w
