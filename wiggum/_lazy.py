"""Package names that load on first use (PEP 562).

The page pays for every module imported before its first screen (Pyodide runs
imports about five times slower than CPython), so packages whose submodules are
heavy export their names lazily: ``import wiggum.llm.errors`` must not pull in
the client stack, yet ``from wiggum.llm import chat`` keeps working.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["lazy_names"]


def lazy_names(
    package: str, sources: Mapping[str, str]
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """``(__getattr__, __dir__)`` for ``package``, whose public names are defined
    in its submodules as ``sources`` says (name -> submodule)."""

    def __getattr__(name: str) -> Any:
        module = sources.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f".{module}", package), name)
        setattr(sys.modules[package], name, value)  # the next lookup is a plain one
        return value

    def __dir__() -> list[str]:
        return sorted({*vars(sys.modules[package]), *sources})

    return __getattr__, __dir__
