"""Ralph's run list read back, under the fake DOM: each iteration beside its
checkpoint (real checkpoints in git), its diff opened from the iteration, and a
revert to it through History's revert, which asks first."""

from __future__ import annotations

from typing import Any

from tests.web.test_views_build import RalphActions, put, shown
from wiggum.fs import MemoryFileStore
from wiggum.persist import MemoryAppStorage
from wiggum.project.service import HistoryService


async def a_reviewed_run() -> tuple[Any, HistoryService, list[str]]:
    """A run of two iterations, each checkpointed in a real history, in a transcript."""
    from wiggum.ralph import transcript as t
    from wiggum.ralph.transcript import RalphTranscript

    fs = MemoryFileStore()
    history = HistoryService(fs)
    transcript = RalphTranscript(MemoryAppStorage(), "p1", clock=lambda: 1764200000.0)
    transcript.run_started(False)
    ids = []
    pages = ["<h1>Bakery</h1>\n", "<h1>Bakery</h1>\n<p>Open 8–18</p>\n"]
    intents = ["Write the page.", "Add the hours."]
    for i, (page, intent) in enumerate(zip(pages, intents, strict=True), 1):
        transcript.append(t.IterationEvent(iteration=i, max_iterations=20))
        transcript.append(t.IntentEvent(iteration=i, text=intent))
        await fs.write_text("index.html", page)
        if i == 2:
            await fs.write_text("style.css", "p{margin:0}\n")
        cp = await history.ralph_iteration(i, intent)
        transcript.checkpointed(i, cp.id, [(f.path, f.kind) for f in cp.files])
        ids.append(cp.id)
    transcript.append(t.ResultEvent(status="complete", iterations=2))
    await transcript.flush()
    return transcript, history, ids


async def test_each_iteration_sits_beside_its_checkpoint_with_diff_and_revert(dom):
    from wiggum.web.views.ralph import RalphView

    transcript, history, ids = await a_reviewed_run()
    view = RalphView(RalphActions(), lambda: history)
    put(dom, view.el)
    view.bind(transcript)
    steps = view.el.querySelectorAll("[data-testid=ralph-step]")
    assert [s.getAttribute("data-checkpoint") for s in steps] == ids
    counts = [s.querySelector("[data-testid=ralph-step-counts]").textContent for s in steps]
    assert counts == ["1 added", "1 added · 1 changed"]

    steps[1].querySelector("[data-testid=ralph-step-diff]").click()
    await dom.flush()
    diff = view.parts.run_diff
    assert shown(diff) and ids[1][:7] in diff.textContent and "Add the hours." in diff.textContent
    files = diff.querySelectorAll("[data-testid=ralph-file-diff]")
    assert [(f.getAttribute("data-path"), f.getAttribute("data-kind")) for f in files] == [
        ("style.css", "added"),
        ("index.html", "modified"),
    ]
    assert "+<p>Open 8–18</p>" in files[1].textContent

    # The diff stays open while the list redraws (a run's next event).
    view._render_runs()
    assert shown(view.parts.run_diff)

    # Revert asks first, then makes the project what it was after iteration 1.
    restore = view.el.querySelectorAll("[data-testid=ralph-step-restore]")[0]
    restore.click()
    await dom.flush()
    assert restore.textContent == "Yes, revert the whole project"
    assert await history.fs.read_text("index.html") == "<h1>Bakery</h1>\n<p>Open 8–18</p>\n"
    restore.click()
    await dom.flush()
    assert await history.fs.read_text("index.html") == "<h1>Bakery</h1>\n"
    assert not await history.fs.exists("style.css")
    assert "Reverted" in view.parts.run_status.textContent
    assert not shown(view.parts.run_diff)
    view.close()


async def test_settings_refreshes_the_model_facts_and_says_what_came(dom):
    from types import SimpleNamespace

    from tests.session.fakes import sim_settings
    from wiggum.session.model_facts import FactsShown
    from wiggum.web.views.settings import SettingsDialog

    class Facts:
        def __init__(self) -> None:
            self.refreshed = 0

        def status(self) -> str:
            return f"Built-in facts from 2026-08-18 · refreshed {self.refreshed} times"

        async def refresh(self) -> FactsShown:
            self.refreshed += 1
            return FactsShown("Not refreshed — OpenRouter: it answered HTTP 503.", False)

    async def save(settings) -> None:
        pass

    changed = []
    facts = Facts()
    dialog = SettingsDialog(save, "", facts, lambda: changed.append(True))
    put(dom, dialog.el)
    dialog.open(sim_settings(SimpleNamespace(base_url="http://127.0.0.1:9")))
    assert dialog.parts.facts_status.textContent.endswith("refreshed 0 times")
    assert not shown(dialog.parts.facts_result)
    dialog.el.querySelector("[data-testid=refresh-facts]").click()
    assert dialog.parts.facts_button.disabled  # one refresh at a time
    await dom.flush()
    assert not dialog.parts.facts_button.disabled and changed == [True]
    result = dialog.parts.facts_result
    assert shown(result) and "HTTP 503" in result.textContent
    assert result.getAttribute("data-ok") == "false"
    assert dialog.parts.facts_status.textContent.endswith("refreshed 1 times")
