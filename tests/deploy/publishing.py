"""What publishing's tests share: a site, a token, a recorder of what each step said, a client
on the test's clock."""

from __future__ import annotations

from dataclasses import dataclass, field

from tests.sim.github import TOKEN, Clock, GitHubSim
from wiggum.deploy.github import GitHub
from wiggum.deploy.limits import Pacer

PNG = bytes(range(256)) * 4 + b"\x89PNG\r\n\x1a\n\x00\xff"

SITE = {
    "index.html": b"<!doctype html><h1>Hi</h1>",
    "style.css": b"h1{color:red}",
    "img/logo.png": PNG,
    ".ralph/PROMPT.md": b"memory",
    ".chief/notes.md": b"plan",
    ".git/HEAD": b"ref: refs/heads/main",
}


@dataclass
class Said:
    """What a publish said, step by step."""

    steps: list[tuple[str, str]] = field(default_factory=list)

    def __call__(self, step: str, text: str) -> None:
        self.steps.append((step, text))

    def texts(self, step: str | None = None) -> list[str]:
        return [t for s, t in self.steps if step is None or s == step]


def client(sim: GitHubSim, transport, clock: Clock, token: str = TOKEN, **pacing) -> GitHub:
    return GitHub(transport, token, sim.base_url, Pacer(clock=clock, sleep=clock.sleep, **pacing))
