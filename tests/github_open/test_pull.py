"""Pull from GitHub: a change made there comes in as a checkpoint when it fast-forwards or
touches other files; a file both sides changed waits for the person's choice (keep mine,
take GitHub's, both), and nothing is ever overwritten without it."""

from __future__ import annotations

from dataclasses import dataclass, field

from tests.deploy.publishing import client
from tests.github_open.conftest import SITE, history
from wiggum.deploy.errors import GitHubError
from wiggum.deploy.publish import PublishState
from wiggum.deploy.pull import incoming
from wiggum.persist import MemoryAppStorage
from wiggum.session.publish import PublishSession
from wiggum.session.pulling import NOTHING_NEW, PullSession, both_name
from wiggum.ui.settings import Settings


@dataclass
class App:
    storage: MemoryAppStorage
    project_id: str
    fs: object
    settings: Settings = field(default_factory=Settings)

    async def save_settings(self, settings: Settings) -> None:
        self.settings = settings

    def project_files(self):
        return self.fs


async def _pulling(got, gh_sim, transport, gh_clock) -> tuple[PullSession, list[str]]:
    app = App(got.stored.storage, got.pid, got.files)
    publish = PublishSession(
        app, lambda: transport, lambda: client(gh_sim, transport, gh_clock).pacer
    )
    await publish.open()
    shown: list[str] = []
    return PullSession(publish, lambda: got.service, shown.append), shown


async def _pull(session: PullSession, gh_sim):
    # As the dialog's Pull button is read: its data attributes.
    return await session.act({"data-action": "pull"}.get, gh_sim.token, gh_sim.base_url)


async def test_a_change_on_github_fast_forwards_as_a_checkpoint(
    gh_sim, transport, gh_clock, open_project
) -> None:
    history(gh_sim, "site", 2)
    got = await open_project("octo/site")
    session, _ = await _pulling(got, gh_sim, transport, gh_clock)
    assert (await _pull(session, gh_sim)).text == NOTHING_NEW
    theirs = gh_sim.push("site", {**SITE, "index.html": b"<h1>theirs</h1>\n", "new.txt": b"n"},
                         message="Theirs\n\nbody")  # fmt: skip
    view = await _pull(session, gh_sim)
    assert not view.failed and view.conflicts == []
    assert view.text.startswith("Pulled from GitHub (fast-forward): 2 files changed: Theirs.")
    assert await got.files.read_bytes("index.html") == b"<h1>theirs</h1>\n"
    assert await got.files.read_bytes("new.txt") == b"n"
    top = (await (await got.service.history()).list())[0]
    assert top.message.startswith(f"Pull from GitHub: Theirs ({theirs[:7]})")
    assert top.author == "GitHub"
    assert (await got.record())["commit"] == theirs
    assert (await _pull(session, gh_sim)).text == NOTHING_NEW


async def test_changes_to_other_files_merge_without_asking(
    gh_sim, transport, gh_clock, open_project
) -> None:
    history(gh_sim, "site", 2)
    got = await open_project("octo/site")
    await got.files.write_bytes("style.css", b"h1{color:blue}\n")
    await got.service.saved(["style.css"])
    gh_sim.push("site", {**SITE, "index.html": b"<h1>theirs</h1>\n"})
    session, _ = await _pulling(got, gh_sim, transport, gh_clock)
    view = await _pull(session, gh_sim)
    assert "merged with this project's changes" in view.text and view.conflicts == []
    assert await got.files.read_bytes("style.css") == b"h1{color:blue}\n"
    assert await got.files.read_bytes("index.html") == b"<h1>theirs</h1>\n"


async def _conflict(gh_sim, transport, gh_clock, open_project):
    history(gh_sim, "site", 2)
    got = await open_project("octo/site")
    await got.files.write_bytes("index.html", b"<h1>mine</h1>\n")
    await got.service.saved(["index.html"])
    theirs = gh_sim.push("site", {**SITE, "index.html": b"<h1>theirs</h1>\n", "b.txt": b"b"})
    session, shown = await _pulling(got, gh_sim, transport, gh_clock)
    view = await _pull(session, gh_sim)
    assert view.conflicts == [("index.html", "")] and "both changed 1 file" in view.text
    # Nothing written yet, not even GitHub's other change.
    assert await got.files.read_bytes("index.html") == b"<h1>mine</h1>\n"
    assert not await got.files.exists("b.txt")
    assert (await got.record())["commit"] != theirs
    return got, session, shown, theirs


async def test_a_conflict_kept_mine(gh_sim, transport, gh_clock, open_project) -> None:
    got, session, _, theirs = await _conflict(gh_sim, transport, gh_clock, open_project)
    view = await session.choose("index.html", "mine")
    assert "Kept yours: index.html." in view.text
    assert await got.files.read_bytes("index.html") == b"<h1>mine</h1>\n"
    assert await got.files.read_bytes("b.txt") == b"b"
    assert (await got.record())["commit"] == theirs


async def test_a_conflict_taken_from_github(gh_sim, transport, gh_clock, open_project) -> None:
    got, session, _, _ = await _conflict(gh_sim, transport, gh_clock, open_project)
    # As the dialog's "Take GitHub's" button is read: the file and the choice.
    click = {"data-path": "index.html", "data-choice": "theirs"}
    await session.act(click.get, "", "")
    assert await got.files.read_bytes("index.html") == b"<h1>theirs</h1>\n"


async def test_a_conflict_opened_both(gh_sim, transport, gh_clock, open_project) -> None:
    got, session, shown, _ = await _conflict(gh_sim, transport, gh_clock, open_project)
    view = await session.choose("index.html", "both")
    assert await got.files.read_bytes("index.html") == b"<h1>mine</h1>\n"
    assert await got.files.read_bytes("index.github.html") == b"<h1>theirs</h1>\n"
    assert shown == ["index.github.html"] and "open in the editor" in view.text


def test_githubs_version_is_named_beside_the_file() -> None:
    assert both_name("index.html") == "index.github.html"
    assert both_name("a/b/README") == "a/b/README.github"
    assert both_name(".env") == ".env.github"


async def test_a_deletion_on_github_of_a_file_changed_here_is_a_conflict(gh, gh_sim) -> None:
    history(gh_sim, "site", 1)
    base = gh_sim.commits("site")[0]
    gh_sim.push("site", {"index.html": SITE["index.html"], "run.sh": SITE["run.sh"]})
    state = PublishState(owner="octo", repo="site", branch="main", commit=base, whole=True)
    found = await incoming(gh, state, {**SITE, "style.css": b"mine"})
    assert [(c.path, c.mine, c.theirs) for c in found.conflicts] == [("style.css", b"mine", None)]
    found = await incoming(gh, state, SITE)
    assert found.changes == {"style.css": None} and found.fast_forward


async def test_pull_without_a_repository_says_so(gh) -> None:
    try:
        await incoming(gh, PublishState(), {})
    except GitHubError as err:
        assert err.kind == "no_repository"
    else:
        raise AssertionError("no error")


async def test_nothing_is_written_until_every_conflict_has_a_choice(
    gh_sim, transport, gh_clock, open_project
) -> None:
    history(gh_sim, "site", 2)
    got = await open_project("octo/site")
    for path in ("index.html", "style.css"):
        await got.files.write_bytes(path, b"mine\n")
    await got.service.saved(["index.html", "style.css"])
    gh_sim.push("site", {**SITE, "index.html": b"theirs\n", "style.css": b"theirs\n"})
    session, _ = await _pulling(got, gh_sim, transport, gh_clock)
    await _pull(session, gh_sim)
    view = await session.choose("index.html", "theirs")
    assert view.conflicts == [("index.html", "theirs"), ("style.css", "")]
    assert await got.files.read_bytes("index.html") == b"mine\n"
    await session.choose("style.css", "mine")
    assert await got.files.read_bytes("index.html") == b"theirs\n"
    assert await got.files.read_bytes("style.css") == b"mine\n"


def test_the_summary_of_an_opened_repository_adds_nothing() -> None:
    from wiggum.session.publish import summary_view

    _, rows = summary_view({"index.html": b"x"}, whole=True)
    assert [r.path for r in rows] == ["index.html"]


async def test_a_site_published_into_docs_pulls_what_changed_there(gh, gh_sim) -> None:
    from wiggum.deploy.publish import publish

    gh_sim.add_repo("docs-site", files={"README.md": b"# project\n"})
    gh_sim.enable_pages("docs-site", path="/docs")
    site = {"index.html": b"<h1>Hi</h1>\n", "style.css": b"h1{}\n"}
    state = PublishState(owner="octo", repo="docs-site")
    await publish(gh, site, state, "docs-site")
    files = {**gh_sim.files("docs-site"), "docs/style.css": b"h1{color:red}\n",
             "README.md": b"# changed outside the site\n"}  # fmt: skip
    gh_sim.push("docs-site", files)
    found = await incoming(gh, state, site)
    assert found.changes == {"style.css": b"h1{color:red}\n"} and found.fast_forward


async def test_a_choice_after_another_project_opened_writes_nothing(
    gh_sim, transport, gh_clock, open_project
) -> None:
    from wiggum.session.pulling import ANOTHER_PROJECT

    got, session, _, _ = await _conflict(gh_sim, transport, gh_clock, open_project)
    session.publish.source.project_id = "another"
    view = await session.choose("index.html", "theirs")
    assert view.text == ANOTHER_PROJECT and view.failed
    assert await got.files.read_bytes("index.html") == b"<h1>mine</h1>\n"
