"""The loop's words for the person: a failed call, a context that no longer fits,
the note the person left on "Continue".

Apart from the loop so that its file stays a loop; the page may replace
:func:`describe_error` with its own explanations (``RalphConfig.describe_error``).
"""

from __future__ import annotations

from wiggum.llm import AuthenticationError, ContextOverflowError, LLMError, ProviderError

__all__ = ["continue_note", "describe_error", "overflow_message"]


def continue_note(note: str, iteration: int) -> str:
    """The person's note on "Continue", as his task file keeps it."""
    return f"## A note from the person (before iteration {iteration})\n\n{note.strip()}\n"


def overflow_message(err: ContextOverflowError) -> str:
    return (
        f"Ralph's context (~{err.estimated_tokens} tokens) no longer fits the model's window "
        f"({err.context_window} tokens), even with old tool outputs and written file contents "
        "elided and the memory files shortened. Choose a model with a larger context window or "
        "shorten the task."
    )


def describe_error(err: LLMError) -> str:
    """A sentence for the person; never the prompt, never a key."""
    if isinstance(err, AuthenticationError):
        return f"The provider refused the API key ({err.message}). Check the key in Settings."
    if isinstance(err, ProviderError):
        detail = f": {err.detail}" if err.detail else ""
        return f"The provider answered with an error{detail} ({err.message})."
    return f"{err.message}."
