"""Chief: the planner the person talks with, who reads the project, saves the
plan and hands it to Ralph (a streaming conversation with tools)."""

from .chat import AGENT, ChatRecord, ChiefChat, ErrorRecord, records_to_messages

__all__ = [
    "AGENT",
    "ChatRecord",
    "ChiefChat",
    "ErrorRecord",
    "records_to_messages",
]
