"""Groq: an OpenAI-compatible API serving open models."""

from __future__ import annotations

from .base import Answers, Vendor

VENDOR = Vendor(
    id="groq",
    base_url="https://api.groq.com/openai/v1",
    key_url="https://console.groq.com/keys",
    registry_id="groq",
    # Reasoning models put their reasoning text in ``reasoning``.
    answers=Answers(reasoning="reasoning"),
)
