"""The Publish panel's decisions (wiggum.session.publish) against the GitHub simulator."""

from __future__ import annotations

from dataclasses import dataclass, field

from pydantic import SecretStr

from tests.sim.github import TOKEN, Clock
from wiggum.deploy.limits import Pacer
from wiggum.deploy.publish import PublishResult, PublishState
from wiggum.fs import MemoryFileStore
from wiggum.persist import MemoryAppStorage
from wiggum.session.publish import (
    NO_TOKEN,
    PUBLISHED_BEFORE,
    PublishSession,
    ResultView,
    StepView,
    repo_hint,
    result_view,
    state_key,
    steps_view,
    summary_view,
    with_token,
)
from wiggum.ui.settings import Settings


@dataclass
class App:
    """The app as publishing sees it (a PublishSource)."""

    storage: MemoryAppStorage
    project_id: str | None
    files: MemoryFileStore | None
    settings: Settings = field(default_factory=Settings)
    saved: list[Settings] = field(default_factory=list)

    async def save_settings(self, settings: Settings) -> None:
        self.saved.append(settings)
        self.settings = settings

    def project_files(self) -> MemoryFileStore | None:
        return self.files


async def app_with(files: dict[str, bytes], name: str = "Tea shop") -> App:
    storage = MemoryAppStorage()
    project = await storage.create_project(name)
    fs = storage.files(project["id"])
    for path, data in files.items():
        await fs.write_bytes(path, data)
    return App(storage, project["id"], fs)


SITE = {"index.html": b"<h1>Tea</h1>", ".ralph/PROMPT.md": b"memory", ".git/HEAD": b"ref"}


def test_the_summary_lists_only_the_site_and_says_what_stays():
    head, rows = summary_view({"index.html": b"x" * 10, ".chief/a": b"plan"})
    assert head == (
        "2 files, 10 B. Wiggum's own notes (.ralph/, .chief/) and the history stay here."
    )
    assert [(r.path, r.added) for r in rows] == [(".nojekyll", True), ("index.html", False)]
    assert rows[0].text.startswith("added: GitHub Pages serves your files as they are")
    assert rows[1].text == "10 B"
    assert summary_view({}) == ("The project has no files yet: nothing to publish.", [])


def test_the_repository_hint():
    before = PublishState(owner="octo", repo="tea")
    assert repo_hint(" tea ", before) == "Updates github.com/octo/tea, published before."
    assert repo_hint("Tea shop", before) == (
        "A new public repository called Tea-shop is created in your account."
    )
    assert repo_hint("  ", PublishState()) == "Give the repository a name."


def test_the_steps_before_during_and_after():
    states = [s.state for s in steps_view("files", {"files": "Uploading a (1 of 2)"})]
    assert states == ["done", "done", "active", "pending", "pending", "pending", "pending"]
    shown = steps_view("files", {"files": "Uploading a (1 of 2)"})[2]
    assert shown == StepView("files", "active", "Uploading a (1 of 2)")
    failed = steps_view("commit", {}, failed=True)[3]
    assert failed == StepView("commit", "failed", "Write one commit")
    done = steps_view("build", {"build": "Waiting"}, done=True)
    assert {s.state for s in done} == {"done"} and done[-1].text == "Wait for the Pages build"


def test_each_build_outcome_says_what_to_do():
    built = result_view(PublishResult("https://o.github.io/t/", "c", "r", "built", files=["a"]))
    assert built == ResultView(
        "Live: 1 file published and built by GitHub Pages. GitHub may take a minute to show it.",
        "https://o.github.io/t/",
    )
    errored = result_view(PublishResult("u", "c", "r", "errored", "Bad config."))
    assert errored.failed and "could not build the site: Bad config. Fix" in errored.text
    assert "no reason given" in result_view(PublishResult("u", "c", "r", "errored")).text
    building = result_view(PublishResult("u", "c", "r", "building"))
    assert not building.failed and "still building" in building.text
    run = "https://github.com/o/t/actions/runs/7"
    workflow = result_view(
        PublishResult(
            "https://o.github.io/t/",
            "c",
            "r",
            "built",
            files=["a", "b"],
            link=run,
            build_type="workflow",
            branch="main",
        )
    )
    assert "built by the repository's Pages workflow" in workflow.text and workflow.run_url == run
    same = result_view(PublishResult("https://o.github.io/t/", "c", "r", "built", changed=False))
    assert same.text.startswith("Live: no file changed since the last publish")


def test_where_it_went_and_what_differs_is_said():
    moved = result_view(
        PublishResult(
            "https://o.github.io/t/",
            "c",
            "r",
            "built",
            files=["a"],
            branch="gh-pages",
            folder="/docs",
            renamed="o/new",
            differences=["a.html", "b.html"],
        )
    )
    assert "Published to the gh-pages branch, folder /docs" in moved.text
    assert "renamed on GitHub to o/new" in moved.text
    assert "differs from the project in 2 files (a.html, b.html)" in moved.text
    assert moved.failed and ".." not in moved.text


def test_an_address_that_is_not_https_is_never_a_link():
    from wiggum.ui.markup import publish as markup

    bad = result_view(
        PublishResult("javascript:alert(1)", "c", "r", "errored", "x", link="javascript:alert(2)")
    )
    assert bad.url == "" and bad.run_url == ""
    tags = [n.tag for n in markup.result(bad.text, bad.url, bad.run_url)]
    assert tags == ["p"]  # the status, and no link
    good = markup.result("Live", "https://o.github.io/t/", "https://github.com/o/t/actions/runs/1")
    assert [n.attrs.get("href") for n in good[1:]] == [
        "https://o.github.io/t/",
        "https://github.com/o/t/actions/runs/1",
    ]


def test_the_token_is_saved_only_when_it_or_the_address_changed():
    settings = Settings(github_token=SecretStr(TOKEN))
    assert with_token(settings, TOKEN, "https://api.github.com") is None
    kept = with_token(settings, "github_pat_other", "https://ghe.example/api/v3")
    assert kept.github_token.get_secret_value() == "github_pat_other"
    assert kept.github_api == "https://ghe.example/api/v3"
    assert settings.github_token.get_secret_value() == TOKEN  # a copy was changed


async def test_opening_reads_the_project_and_what_was_published_before():
    app = await app_with(SITE)
    app.settings = Settings(github_token=SecretStr(TOKEN))
    await app.storage.put_meta(
        state_key(app.project_id),
        PublishState(owner="o", repo="tea", url="https://u/").model_dump(),
    )
    session = PublishSession(app, lambda: None)
    form = await session.open()
    assert (form.token, form.api, form.repo) == (TOKEN, "https://api.github.com", "tea")
    assert sorted(session.files) == ["index.html"]  # Wiggum's folders never go
    view = session.view()
    assert view.result == ResultView(PUBLISHED_BEFORE, "https://u/")
    assert view.steps is None and view.go_enabled


async def test_a_project_never_published_is_named_after_the_project():
    app = await app_with({}, name="Tea shop!")
    session = PublishSession(app, lambda: None)
    form = await session.open()
    assert form.repo == "Tea-shop" and form.token == ""
    assert not session.view().go_enabled  # nothing to publish


async def opened(
    app: App, transport=None, clock: Clock | None = None
) -> tuple[PublishSession, list[str | None]]:
    """A session opened on ``app`` (its publishes on ``clock``), and what it revealed at
    each change."""
    clock = clock or Clock()
    session = PublishSession(app, lambda: transport, lambda: Pacer(clock=clock, sleep=clock.sleep))
    seen: list[str | None] = []
    session.on_change = seen.append
    await session.open()
    return session, seen


async def test_without_a_token_nothing_happens_but_being_told():
    app = await app_with(SITE)
    session, seen = await opened(app)
    assert session.start()
    assert not session.start()  # one publish at a time, from the click on
    assert await session.run("  ", "tea", "") is False
    view = session.view()
    assert view.error == NO_TOKEN and view.go_enabled and app.saved == []
    assert seen[-1] == "error"


async def test_a_publish_keeps_the_token_in_the_settings_and_the_rest_per_project(
    gh_sim, transport, gh_clock
):
    app = await app_with(SITE)
    session, said = await opened(app, transport, gh_clock)
    assert session.start()
    assert await session.run(f" {TOKEN} ", "Tea shop", gh_sim.base_url) is True
    view = session.view()
    assert view.error is None and view.result.text.startswith("Live: 2 files published")
    assert [s.state for s in view.steps] == ["done"] * 7
    assert view.go_label == "Publish again" and view.go_enabled and said[-1] == "result"
    assert app.settings.github_token.get_secret_value() == TOKEN
    assert app.settings.github_api == gh_sim.base_url
    record = await app.storage.get_meta(state_key(app.project_id))
    assert record["repo"] == "Tea-shop" and record["commit"]
    assert TOKEN not in repr(record)
    assert set(gh_sim.files("Tea-shop")) == {".nojekyll", "index.html"}
    assert len(app.saved) == 1
    session.start()
    await session.run(TOKEN, "Tea-shop", gh_sim.base_url)
    assert len(app.saved) == 1  # the same token is not saved again


async def test_a_refusal_is_said_at_its_step_and_what_was_chosen_is_kept(gh_sim, transport):
    session, _ = await opened(await app_with(SITE), transport)
    session.start()
    await session.run("github_pat_wrong", "tea", gh_sim.base_url)
    view = session.view()
    assert view.steps[0] == StepView("account", "failed", "Checking the token")
    assert view.error and "token" in view.error.lower() and view.result is None
    assert view.go_label == "Publish" and view.go_enabled


async def test_a_surprise_says_publishing_stopped(gh_sim):
    app = await app_with(SITE)

    def broken():
        raise RuntimeError("no transport")

    session = PublishSession(app, broken)
    await session.open()
    session.start()
    await session.run(TOKEN, "tea", gh_sim.base_url)
    assert session.view().error == (
        "Publishing stopped on an unexpected error (RuntimeError). Nothing was reported as "
        "published; publish again to continue."
    )
    assert not session.running


async def test_a_rate_limit_shows_a_countdown_at_its_step_then_carries_on(
    gh_sim, transport, gh_clock
):
    gh_sim.fail(
        "POST",
        "/user/repos",
        403,
        {"message": "You have exceeded a secondary rate limit."},
        {"retry-after": "30"},
    )
    app = await app_with(SITE)
    session, _ = await opened(app, transport, gh_clock)
    shown: list[str] = []
    lefts: list[int | None] = []

    def changed(reveal):
        view = session.view()
        shown.extend(s.text for s in view.steps or [] if s.state == "active")
        lefts.append(view.wait_left)

    session.on_change = changed
    session.start()
    await session.run(TOKEN, "tea", gh_sim.base_url)
    waits = [t for t in shown if "continuing in" in t]
    counted = [n for n in lefts if n is not None]
    assert counted[0] == 30 and counted[-1] == 1 and lefts[-1] is None
    assert waits[0].endswith("continuing in 30 s") and waits[-1].endswith("continuing in 1 s")
    assert len(waits) == 30 and all(t.startswith("GitHub asked to slow down") for t in waits)
    assert session.view().result.text.startswith("Live")


async def test_the_token_github_echoes_is_masked_in_the_panel(gh_sim, transport, gh_clock):
    gh_sim.fail("POST", "/user/repos", 400, {"message": f"Token {TOKEN} is malformed"})
    session, _ = await opened(await app_with(SITE), transport, gh_clock)
    session.start()
    await session.run(TOKEN, "tea", gh_sim.base_url)
    error = session.view().error
    assert error and TOKEN not in error and "****" in error


async def test_a_stored_address_that_is_not_https_is_not_shown_as_a_link():
    app = await app_with(SITE)
    await app.storage.put_meta(
        state_key(app.project_id),
        {"owner": "o", "repo": "t", "url": "javascript:alert(1)", "commit": "c"},
    )
    session, _ = await opened(app)
    assert session.view().result is None  # nothing to link to: no "published before" link
    assert session.state.url == ""
