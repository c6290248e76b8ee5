"""Tool-call validation and response classification."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel

from .accumulator import RUN_TOGETHER_ERROR
from .errors import ContentFilterError, EmptyResponseError, MalformedToolCallError
from .finish import is_empty_response
from .types import FinishReason, LLMResponse, ParsedToolCall

MalformedReason = Literal[
    "missing_name", "unparseable_arguments", "truncated_arguments", "run_together_arguments"
]


class MalformedToolCall(BaseModel):
    call: ParsedToolCall
    reason: MalformedReason
    message: str


class ToolCallValidation(BaseModel):
    valid: list[ParsedToolCall]
    malformed: list[MalformedToolCall]


def validate_tool_calls(tool_calls: list[ParsedToolCall]) -> ToolCallValidation:
    """Split calls into the ones safe to dispatch and the ones to answer with an error.

    A call whose arguments were cut off is malformed even if repair produced
    an object: running a half-written ``write_file`` would corrupt a file.
    """
    valid: list[ParsedToolCall] = []
    malformed: list[MalformedToolCall] = []
    for tc in tool_calls:
        if not tc.name or not tc.name.strip():
            malformed.append(
                MalformedToolCall(
                    call=tc,
                    reason="missing_name",
                    message=f"Malformed tool call {tc.id}: missing function name. Please retry.",
                )
            )
        elif tc.truncated:
            malformed.append(
                MalformedToolCall(
                    call=tc,
                    reason="truncated_arguments",
                    message=(
                        f"The arguments of {tc.name} ({tc.id}) were cut off before they were "
                        "complete, so the call was not run. Send it again, smaller if needed."
                    ),
                )
            )
        elif tc.parse_error == RUN_TOGETHER_ERROR:
            malformed.append(
                MalformedToolCall(
                    call=tc,
                    reason="run_together_arguments",
                    message=(
                        f"The arguments of call {tc.id} arrived run together with another "
                        f"{tc.name} call's, with no tool name of their own, so it was not run. "
                        "Send it again as a separate tool call, with its name."
                    ),
                )
            )
        elif tc.parse_error:
            malformed.append(
                MalformedToolCall(
                    call=tc,
                    reason="unparseable_arguments",
                    message=(
                        f"The arguments of {tc.name} ({tc.id}) are not valid JSON "
                        f"({tc.parse_error}). Send them again as a JSON object."
                    ),
                )
            )
        else:
            valid.append(tc)
    return ToolCallValidation(valid=valid, malformed=malformed)


def classify_response(response: LLMResponse, provider: str, model: str) -> None:
    """Raise for replies that are errors in disguise (empty, malformed, filtered)."""
    if response.finish_reason is FinishReason.CONTENT_FILTER:
        raise ContentFilterError(provider, model, refusal=response.refusal)
    if is_empty_response(response) and response.finish_reason is not FinishReason.STOP:
        raise EmptyResponseError(response.finish_reason, provider, model)
    if response.tool_calls and all(not (tc.name or "").strip() for tc in response.tool_calls):
        raise MalformedToolCallError([tc.id for tc in response.tool_calls], provider, model)
