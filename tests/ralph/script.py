"""Scripted model replies for the loop tests: OpenAI Chat Completions JSON bodies."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from wiggum.llm import ProviderConfig
from wiggum.llm.transport import ReplayResponse, ReplayTransport
from wiggum.ralph import RalphCallbacks

PROVIDER = ProviderConfig(
    id="openai", kind="openai", base_url="https://api.openai.com/v1", model="gpt-4o", api_key="sk-t"
)
JSON = {"content-type": "application/json"}


class Script:
    """Builds replies with unique tool-call ids."""

    def __init__(self) -> None:
        self.n = 0

    def reply(
        self,
        text: str = "",
        *calls: tuple[str, Any],
        finish: str | None = None,
        usage: tuple[int, int] = (100, 20),
        reasoning: str | None = None,
    ) -> ReplayResponse:
        tool_calls = []
        for name, args in calls:
            self.n += 1
            raw = args if isinstance(args, str) else json.dumps(args)
            tool_calls.append(
                {
                    "id": f"call_{self.n}",
                    "type": "function",
                    "function": {"name": name, "arguments": raw},
                }
            )
        message: dict[str, Any] = {"role": "assistant", "content": text or None}
        if tool_calls:
            message["tool_calls"] = tool_calls
        if reasoning:
            message["reasoning_content"] = reasoning
        body = {
            "id": f"chatcmpl-{self.n}",
            "object": "chat.completion",
            "model": "gpt-4o",
            "choices": [
                {
                    "index": 0,
                    "message": message,
                    "finish_reason": finish or ("tool_calls" if tool_calls else "stop"),
                }
            ],
            "usage": {
                "prompt_tokens": usage[0],
                "completion_tokens": usage[1],
                "total_tokens": usage[0] + usage[1],
            },
        }
        return ReplayResponse(json.dumps(body).encode(), 200, JSON)


def completion(summary: str = "Built the site.", status: str = "complete", **extra: Any) -> str:
    return json.dumps({"status": status, "summary": summary, **extra})


def transport(*responses) -> ReplayTransport:
    return ReplayTransport(*responses)


def sent_messages(t: ReplayTransport, index: int) -> list[dict]:
    return json.loads(t.requests[index].body)["messages"]


@dataclass
class Recorder:
    """Callbacks that record (name, args) in order."""

    events: list[tuple[str, tuple]] = field(default_factory=list)

    def callbacks(self) -> RalphCallbacks:
        def rec(name):
            return lambda *args: self.events.append((name, args))

        names = [
            "on_budget",
            "on_iteration_start",
            "on_intent",
            "on_tool_call",
            "on_reasoning",
            "on_usage",
            "on_stall",
            "on_context_pressure",
            "on_gates",
            "on_status",
            "on_complete",
            "on_error",
        ]
        return RalphCallbacks(**{n: rec(n) for n in names})

    def of(self, name: str) -> list[tuple]:
        return [args for n, args in self.events if n == name]

    def names(self) -> list[str]:
        return [n for n, _ in self.events]
