"""Each GitHub error a publish meets, said in the person's words, against the simulator:
cause and fix, the permission that is missing, one full stop, "try again" only where it
helps, and the token never shown."""

from __future__ import annotations

import pytest

from tests.deploy.publishing import SITE, TOKEN, Said, client
from wiggum.deploy.errors import GitHubError, explain, mask, sentence
from wiggum.deploy.links import pages_url, safe_url
from wiggum.deploy.publish import PublishState, site_files


async def refused(go, **kw) -> GitHubError:
    with pytest.raises(GitHubError) as err:
        await go(**kw)
    message = err.value.message
    assert ".." not in message and TOKEN not in message
    return err.value


async def test_a_wrong_token(gh_sim, go) -> None:
    err = await refused(go, token="github_pat_wrong")
    assert err.kind == "bad_token" and "new fine-grained token" in err.message
    assert "try again" not in err.message.lower() and not gh_sim.repos


@pytest.mark.parametrize(
    ("permission", "named"),
    [
        ("administration", "Administration: Read and write"),
        ("contents", "Contents: Read and write"),
        ("pages", "Pages: Read and write"),
    ],
)
async def test_a_missing_permission_is_named(gh_sim, go, permission, named) -> None:
    del gh_sim.permissions[permission]
    err = await refused(go)
    assert err.kind == "scope" and err.permission == named and named in err.message
    assert "Fine-grained tokens" in err.message and "try again" not in err.message.lower()


async def test_without_githubs_header_the_request_names_the_permission(gh_sim, go) -> None:
    """A page cannot read x-accepted-github-permissions (GitHub does not expose it)."""
    gh_sim.fail(
        "POST",
        "/repos/octo/my-site/git/blobs",
        403,
        {"message": "Resource not accessible by personal access token"},
    )
    err = await refused(go)
    assert err.permission == "Contents: Read and write"


async def test_a_name_taken_by_another_repository(gh_sim, go) -> None:
    gh_sim.add_repo("my-site")
    err = await refused(go)
    assert err.kind == "name_taken" and "another name" in err.message
    assert gh_sim.files("my-site") == {"README.md": b"# my-site\n"}  # untouched


async def test_a_refused_name_does_not_forget_the_repository_chosen_before(gh_sim, go) -> None:
    _, state = await go()
    gh_sim.add_repo("taken")
    err = await refused(go, state=state, name="taken")
    assert err.kind == "name_taken"
    assert (state.owner, state.repo) == ("octo", "my-site")


async def test_a_renamed_repository_is_followed(gh_sim, go) -> None:
    """Publishing to the old name finds the renamed repository through GitHub's 301."""
    _, state = await go()
    gh_sim.rename("my-site", "new-home")
    edited = dict(SITE, **{"style.css": b"h1{color:green}"})
    result, state = await go(edited, state=state, name="my-site")
    assert result.renamed == "octo/new-home" and (state.repo, state.owner) == ("new-home", "octo")
    assert gh_sim.files("new-home") == site_files(edited) and len(gh_sim.repos) == 1
    assert any(a.status == 301 for a in gh_sim.answers)
    # Typing the new name is the same repository (GitHub's id), not "a name taken".
    result, _ = await go(state=state, name="new-home")
    assert result.status == "built" and not result.renamed


async def test_a_deleted_repository_is_made_again(gh_sim, go) -> None:
    _, state = await go()
    del gh_sim.repos[("octo", "my-site")]
    result, state = await go(state=state)
    assert gh_sim.files("my-site") == site_files(SITE) and result.status == "built"


async def test_a_plan_without_pages(gh_sim, go) -> None:
    gh_sim.add_repo("private-site", private=True)
    gh_sim.plan_has_pages = False
    state = PublishState(owner="octo", repo="private-site")
    said = Said()
    err = await refused(go, state=state, name="private-site", said=said)
    assert err.kind == "no_pages_plan" and said.steps[-1][0] == "pages"
    assert "Make the repository public" in err.message and "try again" not in err.message
    assert state.commit == gh_sim.commits("private-site")[0]  # the files did land


async def test_an_archived_repository(gh_sim, go) -> None:
    _, state = await go()
    gh_sim.repo("my-site").archived = True
    err = await refused(go, files=dict(SITE, **{"a.html": b"a"}), state=state)
    assert err.kind == "archived" and "Unarchive" in err.message


async def test_single_sign_on(gh_sim, go) -> None:
    gh_sim.fail(
        "GET",
        "/user",
        403,
        {"message": "Resource protected by organization SAML enforcement."},
        {"x-github-sso": "required; url=https://github.com/orgs/acme/sso?authorization_request=1"},
    )
    err = await refused(go)
    assert err.kind == "sso" and "Configure SSO" in err.message


async def test_someone_pushed_while_publishing(gh_sim, go) -> None:
    _, state = await go()
    gh_sim.fail(
        "PATCH",
        "/repos/octo/my-site/git/refs/heads/main",
        422,
        {"message": "Update is not a fast forward", "documentation_url": "https://docs"},
    )
    err = await refused(go, files=dict(SITE, **{"a.html": b"a"}), state=state)
    assert err.kind == "moved" and "Nothing was overwritten" in err.message


async def test_githubs_own_trouble_is_the_one_place_to_try_again(gh_sim, go) -> None:
    gh_sim.fail("GET", "/user", 502, {"message": "Server Error"})
    err = await refused(go)
    assert err.kind == "server" and "try again in a few minutes" in err.message


def test_githubs_words_end_with_one_full_stop_and_no_try_again() -> None:
    err = explain(400, {}, {"message": "Problems parsing JSON."}, "writing the commit")
    assert err.message == (
        "GitHub refused writing the commit (400). GitHub said: Problems parsing JSON."
    )
    assert sentence("done.") == "done." and sentence("done") == "done."


async def test_the_token_echoed_by_github_is_masked(gh_sim, go) -> None:
    gh_sim.fail("POST", "/user/repos", 400, {"message": f"Bad header: Bearer {TOKEN}."})
    err = await refused(go)
    assert "****" in err.message and TOKEN not in err.message
    assert mask(f"x ghp_{'a' * 36} y github_pat_{'B' * 30}") == "x **** y ****"


async def test_a_pages_build_error_echoing_the_token_is_masked(gh_sim, go) -> None:
    gh_sim.pages_error = f"Page build failed: could not fetch with {TOKEN}"
    result, state = await go()
    assert result.status == "errored" and "****" in result.message
    assert TOKEN not in result.message and state.commit


async def test_a_javascript_address_from_github_is_never_the_link(gh_sim, go) -> None:
    _, state = await go()
    gh_sim.repo("my-site").pages["html_url"] = "javascript:alert(document.cookie)"
    result, state = await go(files=dict(SITE, **{"a.html": b"a"}), state=state)
    assert result.url == "https://octo.github.io/my-site/" == state.url
    stored = PublishState.model_validate({"url": "javascript:alert(1)", "repo": "x"})
    assert stored.url == ""
    for bad in ("javascript:alert(1)", "http://x.github.io/", "data:text/html,x", "//x",
                "https://user:pw@x.io/", " https://x.io/\n"):  # fmt: skip
        assert safe_url(bad) == "", bad
    assert safe_url("https://octo.github.io/a/") == "https://octo.github.io/a/"
    assert pages_url("octo", "octo.github.io", "javascript:x") == "https://octo.github.io/"


async def test_a_redirect_elsewhere_is_not_followed_with_the_token(gh_sim, transport, gh_clock):
    gh_sim.fail("GET", "/user", 301, {"message": "Moved"}, {"Location": "https://evil.example/u"})
    gh = client(gh_sim, transport, gh_clock)
    with pytest.raises(GitHubError) as err:
        await gh.user()
    assert "token stayed here" in err.value.message
    assert len(gh_sim.log) == 1  # nothing sent anywhere else (the simulator saw one request)


async def test_the_token_is_never_in_a_message_or_a_repr(gh_sim, transport, gh_clock) -> None:
    gh = client(gh_sim, transport, gh_clock)
    assert TOKEN not in repr(gh)
    gh_sim.drop("GET", "/user")
    with pytest.raises(GitHubError) as err:
        await gh.user()
    assert TOKEN not in str(err.value) and TOKEN not in repr(err.value.__cause__)


async def test_a_tree_github_wrote_otherwise_leaves_the_site_as_it_was(gh_sim, go) -> None:
    _, state = await go()
    head = gh_sim.commits("my-site")[0]
    wrong = {"sha": "0" * 40, "url": "https://x", "tree": [], "truncated": False}
    gh_sim.fail("POST", "/repos/octo/my-site/git/trees", 201, wrong, {"Location": "https://x"})
    err = await refused(go, files=dict(SITE, **{"a.html": b"a"}), state=state)
    assert err.kind == "corrupt" and "left as it was" in err.message
    assert gh_sim.commits("my-site")[0] == head


class _JsNull:
    """What a page's fetch gives for a header the answer lacks: JS null, not None."""


class _PageResponse:
    status = 403

    def __init__(self) -> None:
        self.headers = type("H", (), {"get": lambda self, k, d=None: _JsNull()})()

    async def aread(self) -> bytes:
        return b'{"message": "Resource not accessible by personal access token"}'


async def test_a_header_the_page_cannot_read_is_not_taken_for_one(gh_clock) -> None:
    from wiggum.deploy.github import GitHub
    from wiggum.deploy.limits import Pacer

    class Transport:
        async def send(self, request):
            return _PageResponse()

    gh = GitHub(Transport(), TOKEN, "https://api.github.com", Pacer(clock=gh_clock))
    with pytest.raises(GitHubError) as err:
        await gh.call("POST", "/repos/o/r/git/trees", "writing the file list", {}, need="contents")
    assert err.value.kind == "scope" and err.value.permission == "Contents: Read and write"
