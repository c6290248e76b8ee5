"""Publishing follows each Pages configuration: the source branch and folder, a workflow
build, the build of this very commit waited for, and the published tree checked."""

from __future__ import annotations

from tests.deploy.publishing import SITE, Said
from wiggum.deploy.publish import PublishState, site_files

SHORT = {"index.html": b"<h1>Hi</h1>", "style.css": b"h1{}"}


async def test_pages_on_a_gh_pages_branch_gets_the_files_there(gh_sim, go, gh_clock) -> None:
    r = gh_sim.add_repo("site")
    gh_sim.push("site", {"index.html": b"old"}, branch="gh-pages")
    gh_sim.enable_pages("site", branch="gh-pages")
    main_before = r.refs["main"]
    gh_clock.now += 60  # the old build is done: "built", for the old commit
    result, state = await go(SHORT, PublishState(owner="octo", repo="site"), name="site")
    assert r.refs["main"] == main_before  # main untouched
    assert gh_sim.files("site", "gh-pages") == site_files(SHORT)
    assert (result.branch, state.branch) == ("gh-pages", "gh-pages")
    build = r.builds[-1]
    assert build.commit == result.commit and build.status(gh_clock()) == "built"
    assert result.status == "built"


async def test_pages_from_docs_publishes_into_docs_and_keeps_the_rest(gh_sim, go) -> None:
    gh_sim.add_repo(
        "docs-site",
        files={"README.md": b"# project\n", "src/app.py": b"print()\n", "docs/old.html": b"o"},
    )
    gh_sim.enable_pages("docs-site", path="/docs")
    result, _ = await go(SHORT, PublishState(owner="octo", repo="docs-site"), name="docs-site")
    files = gh_sim.files("docs-site")
    assert {p: b for p, b in files.items() if p.startswith("docs/")} == {
        "docs/" + p: b for p, b in site_files(SHORT).items()
    }
    assert files["README.md"] == b"# project\n" and files["src/app.py"] == b"print()\n"
    assert result.folder == "/docs" and result.differences == [] and result.status == "built"


async def test_a_workflow_site_is_pushed_to_the_default_branch_and_its_run_followed(
    gh_sim, go
) -> None:
    r = gh_sim.add_repo("wf", files={"README.md": b"r", ".github/workflows/pages.yml": b"on"})
    gh_sim.enable_pages("wf", build_type="workflow")
    said = Said()
    result, _ = await go(SHORT, PublishState(owner="octo", repo="wf"), name="wf", said=said)
    assert result.build_type == "workflow" and result.status == "built"
    assert result.link == f"https://github.com/octo/wf/actions/runs/{r.runs[-1].id}"
    assert r.runs[-1].commit == result.commit
    assert gh_sim.files("wf")[".github/workflows/pages.yml"] == b"on"  # the workflow stays
    building = said.texts("build")
    assert any("Pages workflow is building" in t for t in building)
    assert not any("/pages/builds" in p for _, p, _ in gh_sim.log)


async def test_another_workflow_failing_on_the_same_commit_is_not_the_build(gh_sim, go) -> None:
    r = gh_sim.add_repo("wf")
    r.ci_fails = True
    gh_sim.enable_pages("wf", build_type="workflow")
    result, _ = await go(SHORT, PublishState(owner="octo", repo="wf"), name="wf")
    pages_run = next(x for x in r.runs if x.name != "CI")
    assert result.status == "built" and result.link.endswith(f"/runs/{pages_run.id}")


async def test_a_failed_workflow_run_is_an_errored_build_with_its_link(gh_sim, go) -> None:
    gh_sim.add_repo("wf")
    gh_sim.enable_pages("wf", build_type="workflow")
    gh_sim.pages_error = "failed"
    result, _ = await go(SHORT, PublishState(owner="octo", repo="wf"), name="wf")
    assert result.status == "errored" and "ended with failure" in result.message
    assert result.link.startswith("https://github.com/octo/wf/actions/runs/")


async def test_a_workflow_the_token_may_not_follow(gh_sim, go) -> None:
    gh_sim.add_repo("wf")
    gh_sim.enable_pages("wf", build_type="workflow")
    del gh_sim.permissions["actions"]
    result, _ = await go(SHORT, PublishState(owner="octo", repo="wf"), name="wf")
    assert result.status == "building" and "Actions: Read" in result.message


async def test_the_old_build_is_never_reported_as_this_ones(gh_sim, go, gh_clock) -> None:
    """Right after a push GitHub still shows the last build ("built"): wait for ours."""
    _, state = await go()
    gh_sim.build_delay = 20.0
    said = Said()
    start = gh_clock()
    result, _ = await go(dict(SITE, **{"a.html": b"a"}), state, said=said)
    assert result.status == "built" and gh_clock() - start >= 20 + 10
    assert any("start building this commit" in t for t in said.texts("build"))


async def test_the_first_build_answering_404_is_waited_for(gh_sim, go) -> None:
    said = Said()
    result, _ = await go(said=said)
    assert result.status == "built"
    assert "Waiting for GitHub Pages to start the build" in said.texts("build")


async def test_a_build_longer_than_the_wait_is_building_not_built(gh_sim, go) -> None:
    gh_sim.build_seconds = (5.0, 10_000.0)
    result, state = await go()
    assert result.status == "building" and state.commit


async def test_a_pages_branch_that_is_gone_is_made_again(gh_sim, go) -> None:
    r = gh_sim.add_repo("gone")
    gh_sim.enable_pages("gone", branch="gh-pages")  # gh-pages does not exist (deleted)
    result, _ = await go(SHORT, PublishState(owner="octo", repo="gone"), name="gone")
    assert gh_sim.files("gone", "gh-pages") == site_files(SHORT)
    assert "main" in r.refs and result.branch == "gh-pages"


async def test_what_github_holds_is_read_back_and_a_difference_said(gh_sim, go) -> None:
    _, state = await go()

    def someone_pushes(repo, branch):
        gh_sim.push(repo.name, dict(site_files(SITE), **{"index.html": b"theirs"}), branch)

    gh_sim.on_push = someone_pushes
    result, _ = await go(dict(SITE, **{"a.html": b"a"}), state)
    assert result.moved_on and result.differences == ["a.html", "index.html"]
    clean, _ = await go(dict(SITE, **{"a.html": b"a"}), state)
    assert clean.differences == [] and not clean.moved_on
