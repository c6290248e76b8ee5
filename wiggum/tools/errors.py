"""Errors a tool or command reports to the model instead of crashing."""

from __future__ import annotations

__all__ = ["ToolError"]


class ToolError(Exception):
    """A failure reported to the model as an error result, never a crash."""
