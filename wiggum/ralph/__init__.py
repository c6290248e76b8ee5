"""Ralph: the autonomous build loop with files as memory.

Names load on first use (PEP 562): the page imports ``wiggum.ralph.types`` for
its first screen, which must not pull in the loop, the gates and the shell.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from wiggum._lazy import lazy_names

if TYPE_CHECKING:
    from .config import RalphConfig
    from .context import BuiltContext, ContextBuilder, StateSnapshot
    from .gates import (
        EntryPageGate,
        Gate,
        HtmlParsesGate,
        JsSyntaxChecker,
        JsSyntaxGate,
        LocalRefsGate,
        PreviewChecker,
        PreviewGate,
        default_gates,
        node_syntax_checker,
    )
    from .loop import RalphLoop, RalphStalledError, describe_error, make_runner
    from .state import RalphState, StatusRecord, UsageLedger, format_status, parse_status
    from .types import (
        GateIssue,
        GateResult,
        IterationUsage,
        RalphCallbacks,
        RalphCompletion,
        RalphResult,
        RalphRunner,
        RalphStatus,
        RunRequest,
    )

#: Public name -> the submodule that defines it.
_SOURCES = {
    "BuiltContext": "context",
    "ContextBuilder": "context",
    "EntryPageGate": "gates",
    "Gate": "gates",
    "GateIssue": "types",
    "GateResult": "types",
    "HtmlParsesGate": "gates",
    "IterationUsage": "types",
    "JsSyntaxChecker": "gates",
    "JsSyntaxGate": "gates",
    "LocalRefsGate": "gates",
    "PreviewChecker": "gates",
    "PreviewGate": "gates",
    "RalphCallbacks": "types",
    "RalphCompletion": "types",
    "RalphConfig": "config",
    "RalphLoop": "loop",
    "RalphResult": "types",
    "RalphRunner": "types",
    "RalphStalledError": "loop",
    "RalphState": "state",
    "RalphStatus": "types",
    "RunRequest": "types",
    "StateSnapshot": "context",
    "StatusRecord": "state",
    "UsageLedger": "state",
    "default_gates": "gates",
    "describe_error": "loop",
    "format_status": "state",
    "make_runner": "loop",
    "node_syntax_checker": "gates",
    "parse_status": "state",
}

__all__ = [
    "BuiltContext",
    "ContextBuilder",
    "EntryPageGate",
    "Gate",
    "GateIssue",
    "GateResult",
    "HtmlParsesGate",
    "IterationUsage",
    "JsSyntaxChecker",
    "JsSyntaxGate",
    "LocalRefsGate",
    "PreviewChecker",
    "PreviewGate",
    "RalphCallbacks",
    "RalphCompletion",
    "RalphConfig",
    "RalphLoop",
    "RalphResult",
    "RalphRunner",
    "RalphStalledError",
    "RalphState",
    "RalphStatus",
    "RunRequest",
    "StateSnapshot",
    "StatusRecord",
    "UsageLedger",
    "default_gates",
    "describe_error",
    "format_status",
    "make_runner",
    "node_syntax_checker",
    "parse_status",
]


__getattr__, __dir__ = lazy_names(__name__, _SOURCES)
