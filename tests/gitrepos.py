"""Repositories made by the real ``git`` CLI, and zips of them made as people make them.

Built once per test session (``tests/project/conftest.py``; the e2e history
tests use them too): every shape the history must take in and give back.

- ``loose``: ``main``, three commits (CRLF, a > 5 MB file, unicode names, an
  executable script, a file deleted), a lightweight and an annotated tag, a
  ``.gitignore`` and a file it ignores;
- ``gc``: ``loose`` after ``git gc`` (objects in a pack, refs in ``packed-refs``);
- ``cloned``: ``git clone --no-local`` of ``loose`` (packs, packed-refs, a remote);
- ``master``: a repository whose branch is ``master``;
- ``submodule``: a repository with a submodule entry, the submodule checked out;
- ``shallow``: ``git clone --depth 1`` (its oldest commit's parent left out).

Zips: from inside the folder with Info-ZIP's ``zip`` (UTF-8 names without
the flag, as ``zip -r`` writes them), from outside it (one top folder with
``.git`` inside), and GitHub's "Download ZIP" (``git archive --prefix``).
"""

from __future__ import annotations

import os
import random
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

GIT = shutil.which("git") or "/usr/bin/git"
ZIP = shutil.which("zip") or "/usr/bin/zip"
UNZIP = shutil.which("unzip") or "/usr/bin/unzip"

BIG = 5 * 1024 * 1024 + 4321
UNICODE = "café/naïve résumé.html"


def env(home: Path) -> dict[str, str]:
    """git with no config but ours: no system or user file, fixed identities and times."""
    return {
        **{k: v for k, v in os.environ.items() if not k.startswith("GIT_")},
        "HOME": str(home),
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_AUTHOR_NAME": "Ada Lovelace",
        "GIT_AUTHOR_EMAIL": "ada@example.org",
        "GIT_COMMITTER_NAME": "Ada Lovelace",
        "GIT_COMMITTER_EMAIL": "ada@example.org",
        "GIT_AUTHOR_DATE": "2024-03-01T12:00:00Z",
        "GIT_COMMITTER_DATE": "2024-03-01T12:00:00Z",
        "LC_ALL": "C.UTF-8",
    }


@dataclass
class Git:
    home: Path

    def __call__(self, where: Path, *args: str, check: bool = True) -> str:
        run = subprocess.run(
            [GIT, "-C", str(where), *args], env=env(self.home), capture_output=True, text=True
        )
        if check and run.returncode != 0:
            raise AssertionError(f"git {' '.join(args)} failed:\n{run.stdout}\n{run.stderr}")
        return run.stdout


def _write(root: Path, files: dict[str, bytes]) -> None:
    for name, data in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)


def _loose(git: Git, root: Path) -> Path:
    repo = root / "loose"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    big = random.Random(26).randbytes(BIG)
    _write(
        repo,
        {
            "index.html": b"<h1>Tea</h1>\n",
            "css/style.css": b"h1 { color: teal; }\n",
            UNICODE: "<p>Déjà vu</p>\n".encode(),
            "win.txt": b"one\r\ntwo\r\n",
            "build.sh": b"#!/bin/sh\necho build\n",
            "media/big.bin": big,
            "empty.txt": b"",
            ".gitignore": b"secret.env\nbuild/\n",
        },
    )
    (repo / "build.sh").chmod(0o755)
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "First page")
    git(repo, "tag", "v1")
    _write(repo, {"index.html": b"<h1>Tea shop</h1>\n", "about.html": b"<p>About</p>\n"})
    (repo / "empty.txt").unlink()
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "About page")
    _write(repo, {"index.html": b"<h1>Tea shop</h1>\n<p>Open daily</p>\n"})
    git(repo, "commit", "-q", "-am", "Opening hours")
    git(repo, "tag", "-a", "v2", "-m", "Second release")
    # Ignored by .gitignore: in the folder, never in a commit.
    _write(repo, {"secret.env": b"KEY=sk-not-for-git\n", "build/out.js": b"x\n"})
    return repo


def _repo(git: Git, path: Path, branch: str, commits: list[tuple[dict[str, bytes], str]]) -> Path:
    """A repository at ``path`` on ``branch`` with a commit of each ``(files, message)``."""
    path.mkdir()
    git(path, "init", "-q", "-b", branch)
    for files, message in commits:
        _write(path, files)
        git(path, "add", "-A")
        git(path, "commit", "-q", "-m", message)
    return path


def _master(git: Git, root: Path) -> Path:
    return _repo(
        git,
        root / "master",
        "master",
        [
            ({"index.html": b"<h1>Old school</h1>\n"}, "On master"),
            ({"style.css": b"body {}\n"}, "Styles"),
        ],
    )


def _submodule(git: Git, root: Path) -> Path:
    lib = _repo(git, root / "lib-src", "main", [({"lib.js": b"export const x = 1;\n"}, "Library")])
    repo = root / "submodule"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    _write(repo, {"index.html": b"<script src=lib/lib.js></script>\n"})
    git(repo, "add", "-A")
    git(repo, "-c", "protocol.file.allow=always", "submodule", "add", "-q", str(lib), "lib")
    git(repo, "commit", "-q", "-m", "Page with a library")
    return repo


def build(root: Path) -> dict[str, Path]:
    """Every repository above, in ``root``."""
    home = root / "home"
    home.mkdir()
    git = Git(home)
    loose = _loose(git, root)
    gc = root / "gc"
    shutil.copytree(loose, gc, symlinks=True)
    git(gc, "gc", "-q")
    cloned = root / "cloned"
    git(root, "clone", "-q", "--no-local", str(loose), str(cloned))
    shallow = root / "shallow"
    git(root, "clone", "-q", "--depth", "1", f"file://{loose}", str(shallow))
    return {
        "loose": loose,
        "gc": gc,
        "cloned": cloned,
        "master": _master(git, root),
        "submodule": _submodule(git, root),
        "shallow": shallow,
    }


def zip_inside(repo: Path, out: Path) -> bytes:
    """``cd repo && zip -r ../out.zip .``: the folder's content at the zip's top."""
    subprocess.run([ZIP, "-qry", str(out), "."], cwd=repo, check=True)
    return out.read_bytes()


def zip_outside(repo: Path, out: Path, folder: str) -> bytes:
    """The folder zipped from its parent, renamed ``folder``: one top folder."""
    staged = out.parent / f"stage-{folder}"
    shutil.copytree(repo, staged / folder, symlinks=True)
    subprocess.run([ZIP, "-qry", str(out), folder], cwd=staged, check=True)
    return out.read_bytes()


def github_zip(git: Git, repo: Path, out: Path, folder: str) -> bytes:
    """GitHub's "Download ZIP": ``git archive`` of HEAD under ``<folder>/``, no ``.git``."""
    git(repo, "archive", "--format=zip", f"--prefix={folder}/", "-o", str(out), "HEAD")
    return out.read_bytes()


def unzip(data: bytes, where: Path) -> Path:
    """Unzip with Info-ZIP's ``unzip`` (modes and empty folders as the zip says)."""
    where.mkdir(parents=True)
    archive = where.with_suffix(".zip")
    archive.write_bytes(data)
    subprocess.run([UNZIP, "-q", str(archive), "-d", str(where)], check=True)
    return where


def clean_checks(git: Git, repo: Path) -> dict[str, str]:
    """What ``git`` says of an unzipped project: fsck, status, diff against HEAD."""
    fsck = subprocess.run(
        [GIT, "-C", str(repo), "fsck", "--full", "--strict"],
        env=env(git.home),
        capture_output=True,
        text=True,
    )
    return {
        "fsck": f"{fsck.returncode} {fsck.stdout}{fsck.stderr}".strip(),
        "status": git(repo, "status", "--porcelain"),
        "diff": git(repo, "diff", "HEAD"),
    }
