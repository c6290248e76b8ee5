"""Wiggum: a browser-native planner (Chief) and build loop (Ralph)."""

__version__ = "0.1.0"
