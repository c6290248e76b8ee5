"""A finished attempt's reply, made into the :class:`LLMResponse` the caller gets.

:func:`build_response` finalizes the accumulator (tool calls parsed and
repaired), scrubs ``raw`` of the key and the extra header values (a proxy or
a provider may echo the request), fills the cost (provider-reported, else
the registry's) and the tool-call signature.  It serves a failed attempt too:
an error's ``partial`` is built the same way.

:func:`check_response` is what only a complete reply goes through: the
structured output parsed, the reply classified (empty, malformed tool calls,
filtered: raised with the reply as ``partial``) and the outcome logged.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .accumulator import ResponseAccumulator
from .call import Call
from .cost import resolve_cost
from .errors import ContentFilterError, EmptyResponseError, LLMError, MalformedToolCallError
from .finish import compute_tool_call_signature
from .structured import parse_output
from .types import FinishReason, LLMResponse
from .validation import classify_response
from .vendors import registry_hint

__all__ = ["build_response", "check_response", "scrub"]

MASK = "**********"


def scrub(value: Any, secrets: tuple[str, ...]) -> Any:
    """``value`` (parsed JSON) with every occurrence of ``secrets`` masked."""
    if not secrets:
        return value
    if isinstance(value, str):
        for secret in secrets:
            if secret in value:
                value = value.replace(secret, MASK)
        return value
    if isinstance(value, dict):
        return {scrub(k, secrets): scrub(v, secrets) for k, v in value.items()}
    if isinstance(value, list):
        return [scrub(v, secrets) for v in value]
    return value


def build_response(acc: ResponseAccumulator, call: Call, secrets: tuple[str, ...]) -> LLMResponse:
    """The reply ``acc`` holds, as far as it got."""
    response = acc.finalize(raw=scrub(acc.raw(), secrets))
    response.provider, response.model = call.label
    if response.usage is not None:
        provider = call.provider
        response.usage = resolve_cost(response.usage, provider.model, registry_hint(provider))
    response.tool_call_signature = compute_tool_call_signature(response.tool_calls)
    return response


def check_response(
    response: LLMResponse, call: Call, *, mode: str, log: Callable[..., None]
) -> LLMResponse:
    """``response`` with its structured output, once it is classified as a
    usable reply; raises the classification's error otherwise."""
    schema = call.options.output_schema
    if schema is not None:
        if response.refusal:
            response.output_error = f"The model refused to answer: {response.refusal}"
        else:
            response.output, response.output_error = parse_output(response.content, schema)
    repaired = [tc.name for tc in response.tool_calls if tc.repaired]
    if repaired:
        log("llm:json-repair", tools=",".join(repaired))
    broken = [tc.name or "?" for tc in response.tool_calls if tc.truncated or tc.parse_error]
    if broken or any(not tc.name for tc in response.tool_calls):
        log("llm:malformed-toolcall", tools=",".join(broken), count=len(broken))
    try:
        classify_response(response, *call.label)
    except (EmptyResponseError, MalformedToolCallError, ContentFilterError) as err:
        log("llm:empty-response" if isinstance(err, EmptyResponseError) else "llm:error")
        err.partial = response
        raise
    except LLMError as err:
        err.partial = response
        raise
    usage = response.usage
    if response.finish_reason is FinishReason.LENGTH:
        log("llm:token-limit", completion_tokens=usage and usage.completion_tokens)
    log(
        "llm:response",
        mode=mode,
        finish_reason=str(response.finish_reason),
        content_length=len(response.content),
        tool_call_count=len(response.tool_calls),
        tool_call_signature=response.tool_call_signature,
        reasoning_length=len(response.reasoning or ""),
        prompt_tokens=usage and usage.prompt_tokens,
        completion_tokens=usage and usage.completion_tokens,
        cost=usage and usage.cost,
    )
    return response
