"""A repository opened from GitHub becomes a project whose history is GitHub's, continued
by checkpoints and downloaded as a repository ``git fsck --strict`` accepts."""

from __future__ import annotations

from tests import gitrepos
from tests.github_open.conftest import history
from wiggum.session.github_open import NOT_AN_ADDRESS


async def test_opened_history_is_githubs_and_checkpoints_continue_it(
    gh_sim, open_project, git_cli, tmp_path
) -> None:
    ids = history(gh_sim, "site", 4, timezone=-300)
    got = await open_project("https://github.com/octo/site")
    assert got.opened.error is None, got.opened.error
    assert "Opened octo/site from GitHub: 3 files and the last 4 commits" in got.opened.text
    listed = await (await got.service.history()).list()
    assert [cp.id for cp in listed][:4] == ids
    assert await got.files.read_bytes("index.html") == b"<h1>3</h1>\n"
    record = await got.record()
    assert (record["owner"], record["repo"], record["commit"]) == ("octo", "site", ids[0])
    assert record["whole"] is True and record["branch"] == "main"

    await got.files.write_text("index.html", "<h1>Mine</h1>\n")
    mine = await got.service.saved(["index.html"])
    assert mine.parent == ids[0]
    out = await got.download(tmp_path / "out")
    assert gitrepos.clean_checks(git_cli, out) == {"fsck": "0", "status": "", "diff": ""}
    assert git_cli(out, "rev-list", "HEAD").split() == [mine.id, *ids]
    assert "origin\thttps://github.com/octo/site.git" in git_cli(out, "remote", "-v")


async def test_a_shallow_opening_downloads_as_a_shallow_clone(
    gh_sim, open_project, git_cli, tmp_path
) -> None:
    ids = history(gh_sim, "site", 5)
    got = await open_project("octo/site", depth=2)
    assert "(the older ones stay on GitHub)" in got.opened.text
    listed = await (await got.service.history()).list()
    assert [cp.id for cp in listed] == ids[:2]
    out = await got.download(tmp_path / "out")
    assert gitrepos.clean_checks(git_cli, out) == {"fsck": "0", "status": "", "diff": ""}
    assert git_cli(out, "rev-parse", "--is-shallow-repository").strip() == "true"


async def test_what_is_not_an_address_asks_nothing_of_github(gh_sim, open_project) -> None:
    got = await open_project("not a repository")
    assert got.opened.error == NOT_AN_ADDRESS and got.opened.project is None
    assert gh_sim.log == []


async def test_a_private_repository_opens_with_a_token_only(gh_sim, open_project) -> None:
    gh_sim.add_repo("secret", private=True, files={"index.html": b"<p>private</p>"})
    refused = await open_project("octo/secret")
    assert refused.opened.project is None
    assert refused.opened.error.startswith("Nothing was opened. GitHub shows no repository")
    got = await open_project("octo/secret", token=gh_sim.token)
    assert got.opened.error is None
    assert await got.files.read_bytes("index.html") == b"<p>private</p>"


async def test_githubs_limit_without_a_token_says_what_helps(gh_sim, open_project) -> None:
    from tests.github_open.conftest import history

    history(gh_sim, "site", 40)  # 40 commits and their trees: over 60 requests
    got = await open_project("octo/site")
    assert got.opened.project is None
    said = got.opened.error
    assert said.startswith("Nothing was opened. GitHub answers only 60 requests an hour")
    assert "open it again after" in said and "(in 60 minutes)" in said and "ublish" not in said
    assert gh_sim.anonymous_limits.used == 60 and gh_sim.limits.used == 0  # none wasted
    fewer = await open_project("octo/site", token=gh_sim.token, depth=5)
    assert fewer.opened.error is None


def test_the_opened_line_counts_in_words() -> None:
    from wiggum.deploy.github import Repo
    from wiggum.deploy.opening import Opened
    from wiggum.session.github_open import opened_text

    repo = Repo("octo", "one", "main", "https://github.com/octo/one")
    one = Opened(repo, "main", "a" * 40, {"index.html": b""}, {}, ["b" * 40], "a" * 40,
                 site_root="docs/", commits=1)  # fmt: skip
    assert opened_text("one", one) == (
        "Opened octo/one from GitHub: 1 file and the last commit of its main branch (the "
        "older ones stay on GitHub), as the new project “one”. The site is in docs/, where "
        "its index.html is."
    )


async def test_the_dialog_opens_with_the_saved_token_when_none_is_typed(gh_sim, transport):
    from types import SimpleNamespace

    from pydantic import SecretStr

    from tests.github_open.conftest import no_browser
    from wiggum.persist import MemoryAppStorage
    from wiggum.session.stored_projects import StoredProjects
    from wiggum.ui.settings import Settings

    gh_sim.add_repo("secret", private=True, files={"index.html": b"<p>private</p>"})
    saved = Settings(github_api=gh_sim.base_url, github_token=SecretStr(gh_sim.token))
    stored = StoredProjects(MemoryAppStorage(), no_browser, None, lambda: (transport, saved))
    said: list[str] = []
    fields = [SimpleNamespace(value=v) for v in ("octo/secret", "not a number", "")]
    done = await stored.open_github(*fields, progress=said.append)
    assert done.error is None and done.text.startswith("Opened octo/secret from GitHub")
    assert said[0] == "Finding octo/secret" and "of up to 50" in said[-1]  # the default depth
