"""Ralph's side of the run contract: the loop reports through
:class:`RalphCallbacks` and ends with a :class:`RalphResult`; it is started
with a :class:`RunRequest`.

The contract is defined in :mod:`wiggum.coordinator.contract`: the Coordinator
(a layer below Ralph) drives the loop through it, so it lives at the
Coordinator's layer.  Ralph's modules and the page import it from here.
"""

from __future__ import annotations

from wiggum.coordinator.contract import (
    CONTINUABLE,
    GateIssue,
    GateResult,
    IterationUsage,
    RalphCallbacks,
    RalphCompletion,
    RalphReflection,
    RalphResult,
    RalphRunner,
    RalphStatus,
    RunBudget,
    RunRequest,
)

__all__ = [
    "CONTINUABLE",
    "GateIssue",
    "GateResult",
    "IterationUsage",
    "RalphCallbacks",
    "RalphCompletion",
    "RalphReflection",
    "RalphResult",
    "RalphRunner",
    "RalphStatus",
    "RunBudget",
    "RunRequest",
]
