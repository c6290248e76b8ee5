"""Ralph: the autonomous build loop with files as memory."""

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
