"""Chief: the planner the person talks with (streaming conversation; tools come later)."""

from .chat import AGENT, SYSTEM_PROMPT, ChatRecord, ChiefChat, ErrorRecord, records_to_messages

__all__ = [
    "AGENT",
    "SYSTEM_PROMPT",
    "ChatRecord",
    "ChiefChat",
    "ErrorRecord",
    "records_to_messages",
]
