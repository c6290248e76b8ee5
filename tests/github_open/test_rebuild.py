"""Commits rebuilt from what the Git Data API says: the time zone it leaves out found
again (the same for both people, or each their own), a signed commit put back from its
signed text and signature, and a commit that cannot be rebuilt refused."""

from __future__ import annotations

import time

import pytest
from dulwich.objects import Commit

from wiggum.deploy.rebuild import Mismatch, commit

TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"  # git's empty tree


def _made(author_tz: int, commit_tz: int, message: bytes = b"A change\n", sig: bytes = b""):
    c = Commit()
    c.tree = TREE.encode()
    c.parents = []
    c.author = c.committer = b"Ada <ada@example.com>"
    c.author_time, c.commit_time = 1_700_000_000, 1_700_000_360
    c.author_timezone, c.commit_timezone = author_tz, commit_tz
    c.message = message
    if sig:
        c.gpgsig = sig
    return c


def _api(c: Commit, *, signed: bool = False) -> dict:
    """What ``GET /git/commits/{sha}`` says of ``c``: dates in UTC, no zone."""

    def person(who: bytes, ts: int) -> dict:
        name, _, email = who.decode().partition(" <")
        return {"name": name, "email": email.rstrip(">"),
                "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(ts))}  # fmt: skip

    payload = signature = None
    if signed:
        raw = c.as_raw_string().decode()
        head, _, message = raw.partition("\n\n")
        lines = head.split("\n")
        start = next(i for i, line in enumerate(lines) if line.startswith("gpgsig "))
        end = start + 1
        while end < len(lines) and lines[end].startswith(" "):
            end += 1
        payload = "\n".join(lines[:start] + lines[end:]) + "\n\n" + message
        signature = c.gpgsig.decode() + "\n"  # as GitHub gives it, ending in a newline
    return {
        "sha": c.id.decode(),
        "tree": {"sha": TREE},
        "parents": [],
        "author": person(c.author, c.author_time),
        "committer": person(c.committer, c.commit_time),
        # GitHub's message: as git keeps it, a final newline left off.
        "message": c.message.decode().removesuffix("\n"),
        "verification": {"payload": payload, "signature": signature},
    }


@pytest.mark.parametrize(("author", "committer"), [(0, 0), (7200, 7200), (-16200, 19800)])
def test_the_zones_left_out_are_found(author, committer) -> None:
    made = _made(author, committer)
    got = commit(_api(made))
    assert got.id == made.id
    assert (got.author_timezone, got.commit_timezone) == (author, committer)


def test_a_signed_commit_is_its_signed_text_and_signature() -> None:
    # As git writes a signature header: no continuation line after its last line.
    sig = b"-----BEGIN PGP SIGNATURE-----\n\nabc\ndef\n-----END PGP SIGNATURE-----"
    made = _made(3600, 3600, sig=sig)
    assert commit(_api(made, signed=True)).id == made.id


def test_a_commit_that_cannot_be_rebuilt_is_refused() -> None:
    data = _api(_made(0, 0))
    data["sha"] = "0" * 40
    with pytest.raises(Mismatch):
        commit(data)
