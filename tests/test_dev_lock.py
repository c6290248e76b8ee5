"""The test/lint lock (requirements/test.txt) covers what pyproject.toml asks for.

scripts/test.sh installs from the lock with ``--require-hashes``; a dependency added
to pyproject.toml but not to the lock would only surface as an ImportError somewhere
else, so this says which one and how to fix it.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parent.parent
FIX = "run scripts/lock_dev.sh and commit requirements/test.txt"


def _locked() -> dict[str, str]:
    text = (ROOT / "requirements" / "test.txt").read_text()
    pins = re.findall(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s;\\]+)", text, re.M)
    return {canonicalize_name(name): version for name, version in pins}


def _wanted() -> list[Requirement]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    specs = [*project["dependencies"], *project["optional-dependencies"]["test"]]
    return [Requirement(s) for s in specs]


def test_every_dependency_is_pinned_in_the_lock_at_a_version_pyproject_accepts():
    locked = _locked()
    for req in _wanted():
        name = canonicalize_name(req.name)
        assert name in locked, f"{req.name} is not in requirements/test.txt: {FIX}"
        assert req.specifier.contains(locked[name], prereleases=True), (
            f"requirements/test.txt pins {req.name}=={locked[name]}, "
            f"pyproject.toml asks for {req.specifier}: {FIX}"
        )


def test_every_pin_carries_a_hash():
    blocks = re.split(r"\n(?=[A-Za-z0-9])", (ROOT / "requirements" / "test.txt").read_text())
    for block in blocks:
        if "==" in block.split("\n", 1)[0]:
            assert "--hash=sha256:" in block, block.split("\n", 1)[0]
