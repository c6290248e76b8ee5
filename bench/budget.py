"""Time budget_messages against the seed's O(n^2) trimming loop.

    python bench/budget.py

Histories are Ralph-shaped: user, assistant tool call, tool result, assistant
text, repeated; the budget is a third of the estimate, so about two thirds of
the history is dropped.  ``estimate_tokens`` alone is printed beside a plain
pass over the same messages that reads each one's text length (the least any
estimate reads).  No asserts: this prints figures (the tests check that each
message is estimated once; this is what that buys).
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable

from wiggum.llm.budget import budget_messages
from wiggum.llm.preflight import estimate_tokens
from wiggum.llm.types import Message, ParsedToolCall


def history(n: int) -> list[Message]:
    ms = [Message.system("You are Ralph, a careful build agent. " * 40)]
    i = 0
    while len(ms) < n:
        call_id = f"call_{i}"
        ms += [
            Message.user(f"Step {i}: make the tests pass. " * 6),
            Message.assistant(
                "",
                [ParsedToolCall(id=call_id, name="read_file", raw_args='{"path": "src/app.py"}')],
            ),
            Message.tool(call_id, "def handler(request):\n    return ok\n" * 12, name="read_file"),
            Message.assistant("Read it; the handler needs a guard. " * 4),
        ]
        i += 1
    return ms[:n]


def seed_budget(messages: list[Message], max_input_tokens: int, min_recent: int = 4):
    """The seed's budgetMessages, transliterated: re-estimates the candidate per drop."""
    if estimate_tokens(messages) <= max_input_tokens:
        return messages, 0
    protected = [messages[0]]
    recent_start = max(1, len(messages) - min_recent)
    recent = messages[recent_start:]
    middle = list(messages[1:recent_start])
    trimmed = 0
    while middle:
        if estimate_tokens([*protected, *middle, *recent]) <= max_input_tokens:
            break
        middle.pop(0)
        trimmed += 1
    return [*protected, *middle, *recent], trimmed


def best_of(fn: Callable[[], object], repeat: int) -> tuple[float, float]:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times), statistics.median(times)


def main() -> None:
    print(f"{'algorithm':<22}{'messages':>10}{'best ms':>12}{'median ms':>12}{'trimmed':>10}")
    for n in (1_000, 10_000, 20_000, 100_000):
        ms = history(n)
        budget = estimate_tokens(ms) // 3
        trimmed = budget_messages(ms, budget).trimmed
        best, med = best_of(lambda ms=ms, b=budget: budget_messages(ms, b), 5 if n < 100_000 else 3)
        print(f"{'budget_messages':<22}{n:>10}{best * 1e3:>12.1f}{med * 1e3:>12.1f}{trimmed:>10}")
        est_best, est_med = best_of(lambda ms=ms: estimate_tokens(ms), 5)
        print(f"{'  estimate_tokens':<22}{n:>10}{est_best * 1e3:>12.1f}{est_med * 1e3:>12.1f}")
        ref_best, ref_med = best_of(lambda ms=ms: sum(len(m.text or "") for m in ms), 5)
        print(f"{'  (len of each text)':<22}{n:>10}{ref_best * 1e3:>12.1f}{ref_med * 1e3:>12.1f}")
    for n in (1_000, 2_000):
        ms = history(n)
        budget = estimate_tokens(ms) // 3
        trimmed = seed_budget(ms, budget)[1]
        best, med = best_of(lambda ms=ms, b=budget: seed_budget(ms, b), 1)
        print(f"{'seed (O(n^2))':<22}{n:>10}{best * 1e3:>12.1f}{med * 1e3:>12.1f}{trimmed:>10}")


if __name__ == "__main__":
    main()
