"""A request before its first attempt: the :class:`Call` the dialect builds from.

What it decides, once per request and before any network I/O:

- the model's facts (:func:`capability_for`): the registry's, with the
  provider's own overrides on top;
- images go out stripped when the model refused them earlier in this session
  (or its settings say it takes none);
- structured output uses the provider's native JSON-schema mode where that
  is known to work (the vendor's word, else the registry's, and not refused
  earlier in this session), else the schema goes into the prompt;
- the preflight: a request that cannot fit the context window raises
  :class:`ContextOverflowError` here (``llm:context-overflow``), one close to
  the edge is logged (``llm:context-pressure``).
"""

from __future__ import annotations

from collections.abc import Callable

from .call import Call
from .errors import ContextOverflowError
from .normalize import ProviderQuirks, quirk_key, strip_images
from .preflight import PreflightResult, preflight_check
from .registry import ModelCapability, get_model_capability
from .structured import inject_schema
from .types import Message, ProviderConfig, RequestOptions
from .vendors import registry_hint, vendor_for

__all__ = ["DEFAULT_REPLY_BUDGET", "capability_for", "prepare_call"]

#: The reply budget reserved by the preflight when the caller sets none.
DEFAULT_REPLY_BUDGET = 8192


def capability_for(provider: ProviderConfig) -> ModelCapability:
    """Registry facts for the provider's model, with the provider's overrides on top."""
    cap = get_model_capability(provider.model, registry_hint(provider))
    overrides = {
        k: v
        for k, v in (
            ("context_window", provider.context_window),
            ("max_output_tokens", provider.max_output_tokens),
            ("supports_streaming", provider.supports_streaming),
            ("supports_images", provider.supports_images),
        )
        if v is not None
    }
    return cap.model_copy(update=overrides) if overrides else cap


def _native_schema(provider: ProviderConfig, cap: ModelCapability) -> bool:
    """The vendor's JSON-schema mode works for this model (its own word, else the registry's)."""
    known = vendor_for(provider).native_schema
    return cap.supports_structured_output if known is None else known


def prepare_call(
    provider: ProviderConfig,
    messages: list[Message],
    options: RequestOptions,
    *,
    quirks: ProviderQuirks,
    log: Callable[..., None],
) -> tuple[Call, PreflightResult]:
    """The call as the first attempt sends it, and the preflight's estimate."""
    cap = capability_for(provider)
    if quirks.refuses_images(provider):
        messages = strip_images(messages)
    native = options.output_schema is not None and _native_schema(provider, cap)
    if native and quirk_key(provider) in quirks.no_native_schema:
        native = False
    if options.output_schema is not None and not native:
        messages = inject_schema(messages, options.output_schema)
    reserve = options.max_tokens or min(cap.max_output_tokens, DEFAULT_REPLY_BUDGET)
    pre = preflight_check(
        provider.model, messages, options.tools, capability=cap, max_tokens=reserve
    )
    if not pre.ok and not options.skip_preflight:
        log(
            "llm:context-overflow",
            estimated=pre.estimated_tokens,
            context_window=pre.context_window,
            over=-pre.budget_remaining,
        )
        raise ContextOverflowError(
            pre.estimated_tokens, pre.context_window, provider.id, provider.model
        )
    if pre.warning:
        log(
            "llm:context-pressure",
            estimated=pre.estimated_tokens,
            context_window=pre.context_window,
            headroom=f"{round(pre.budget_remaining / max(pre.context_window, 1) * 100)}%",
        )
    call = Call(
        provider=provider,
        messages=messages,
        options=options,
        capability=cap,
        max_tokens=options.max_tokens,
        native_schema=native,
        estimated_tokens=pre.estimated_tokens,
    )
    return call, pre
