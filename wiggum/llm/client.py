"""``chat()`` and ``stream()``: one pipeline for batch and stream alike.

preflight -> dialect builds the request (normalization, cache markers,
proxy URL) -> log -> transport -> decode (SSE or NDJSON, incremental) ->
dialect turns events into accumulator calls -> finalize only after the
stream's real end -> tool calls parsed and repaired -> usage + cost ->
classify (empty / malformed / filter) -> signature -> log -> LLMResponse.

Retries (429, 5xx, network errors, retryable errors inside a stream) back
off through an injectable sleep and honour ``Retry-After``; a stream is
retried only while nothing has been handed to the consumer yet.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator, Sequence
from typing import Any

from .abort import AbortSignal
from .accumulator import ResponseAccumulator
from .call import Call
from .cost import resolve_cost
from .dialects import get_dialect
from .errors import (
    AbortError,
    ContentFilterError,
    ContextOverflowError,
    EmptyResponseError,
    LLMError,
    MalformedToolCallError,
    NetworkError,
    ProviderError,
    RequestTimeoutError,
    StreamIdleError,
    StreamIncompleteError,
    StreamingUnsupportedError,
)
from .finish import compute_tool_call_signature
from .idle import IdleWatch
from .normalize import (
    DEFAULT_QUIRKS,
    has_images,
    host_of,
    is_openai_direct,
    quirk_key,
    strip_images,
)
from .observability import get_logger, log_event
from .preflight import preflight_check
from .proxy import apply_proxy
from .registry import ModelCapability, get_model_capability
from .structured import inject_schema, parse_output
from .transport import HttpResponse, Transport, get_default_transport
from .types import (
    ErrorDelta,
    FinishDelta,
    FinishReason,
    LLMResponse,
    Message,
    ProviderConfig,
    RequestOptions,
    StreamDelta,
    UsageDelta,
)
from .validation import classify_response

#: A provider asking us to wait longer than this gets its error surfaced instead.
MAX_RETRY_WAIT = 60.0
#: The reply budget reserved by the preflight when the caller sets none.
DEFAULT_REPLY_BUDGET = 8192


def capability_for(provider: ProviderConfig) -> ModelCapability:
    """Registry facts for the provider's model, with the provider's overrides on top."""
    hint = "openrouter" if "openrouter" in host_of(provider.base_url) else provider.kind
    cap = get_model_capability(provider.model, hint)
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
    if provider.kind == "ollama":
        return True
    if provider.kind == "anthropic":
        return False
    return is_openai_direct(provider) or cap.supports_structured_output


async def _close_iterator(iterator) -> None:
    # Leaving the body early (end marker, error) must not leave a pending generator.
    aclose = getattr(iterator, "aclose", None)
    if aclose is not None:
        await aclose()


def _scrub(value: Any, secrets: tuple[str, ...]) -> Any:
    """``value`` (parsed JSON) with every occurrence of ``secrets`` masked."""
    if not secrets:
        return value
    if isinstance(value, str):
        for secret in secrets:
            if secret in value:
                value = value.replace(secret, "**********")
        return value
    if isinstance(value, dict):
        return {_scrub(k, secrets): _scrub(v, secrets) for k, v in value.items()}
    if isinstance(value, list):
        return [_scrub(v, secrets) for v in value]
    return value


def backoff(attempt: int) -> float:
    """Exponential backoff with jitter: ~1 s, 2 s, 4 s … capped at 30 s."""
    return min(30.0, 2.0**attempt) * random.uniform(0.8, 1.2)


class _Run:
    """One logical request: its attempts, retries, abort wiring and result."""

    def __init__(
        self,
        provider: ProviderConfig,
        messages: Sequence[Message],
        options: RequestOptions | None,
        transport: Transport | None,
        *,
        mode: str,
    ) -> None:
        self.options = options = options or RequestOptions()
        self.provider = provider
        self.mode = mode
        self.logger = get_logger() if options.logger is None else options.logger
        self.transport = transport or get_default_transport()
        self.dialect = get_dialect(provider.kind)
        self.quirks = DEFAULT_QUIRKS
        self.key = quirk_key(provider)
        self.sleep = asyncio.sleep if options.sleep is None else options.sleep
        #: Strings that must never appear in ``LLMResponse.raw`` (a proxy or a
        #: provider echoing the request): the key and the extra header values.
        self._secrets = tuple(
            s for s in (provider.secret(), *provider.headers.values()) if len(s) >= 8
        )
        cap = capability_for(provider)
        msgs = list(messages)
        if self.quirks.refuses_images(provider):
            msgs = strip_images(msgs)
        native = options.output_schema is not None and _native_schema(provider, cap)
        if native and self.key in self.quirks.no_native_schema:
            native = False
        if options.output_schema is not None and not native:
            msgs = inject_schema(msgs, options.output_schema)
        reserve = options.max_tokens or min(cap.max_output_tokens, DEFAULT_REPLY_BUDGET)
        pre = preflight_check(
            provider.model, msgs, options.tools, capability=cap, max_tokens=reserve
        )
        self.preflight = pre
        if not pre.ok and not options.skip_preflight:
            self._log(
                "llm:context-overflow",
                estimated=pre.estimated_tokens,
                context_window=pre.context_window,
                over=-pre.budget_remaining,
            )
            raise ContextOverflowError(
                pre.estimated_tokens, pre.context_window, provider.id, provider.model
            )
        if pre.warning:
            self._log(
                "llm:context-pressure",
                estimated=pre.estimated_tokens,
                context_window=pre.context_window,
                headroom=f"{round(pre.budget_remaining / max(pre.context_window, 1) * 100)}%",
            )
        self.call = Call(
            provider=provider,
            messages=msgs,
            options=options,
            capability=cap,
            max_tokens=options.max_tokens,
            native_schema=native,
            estimated_tokens=pre.estimated_tokens,
        )
        self.batch_only = (
            mode == "batch" or not cap.supports_streaming or self.key in self.quirks.no_streaming
        )
        self._stripped_images = False
        self._task: asyncio.Task | None = None
        self._waiting = False
        self._remove_listener = None
        signal = options.signal
        if signal is not None:
            self._remove_listener = signal.add_listener(self._on_abort)

    # ------------------------------------------------------------- plumbing

    def _accumulator(self, *, emit: bool) -> ResponseAccumulator:
        native = self.dialect.name == "anthropic"
        return ResponseAccumulator(emit=emit, think_tags=not native, canonical_args=native)

    def _log(self, category: str, **fields) -> None:
        log_event(
            self.logger, category, provider=self.provider.id, model=self.provider.model, **fields
        )

    def _on_abort(self) -> None:
        # Cancel only an await of ours; the consumer's own awaits stay untouched.
        if self._waiting and self._task is not None:
            self._task.cancel()

    def _check_abort(self) -> None:
        signal: AbortSignal | None = self.options.signal
        if signal is not None and signal.aborted:
            raise AbortError(self.provider.id, self.provider.model, signal.reason)

    async def _guard(self, awaitable):
        """Await ``awaitable`` so that an abort interrupts exactly this await."""
        if self.options.signal is None:
            return await awaitable
        if self.options.signal.aborted:
            if asyncio.iscoroutine(awaitable):
                awaitable.close()
            self._check_abort()
        self._task = asyncio.current_task()
        self._waiting = True
        try:
            return await awaitable
        except asyncio.CancelledError:
            if self.options.signal.aborted:
                if self._task is not None:
                    self._task.uncancel()
                raise AbortError(
                    self.provider.id, self.provider.model, self.options.signal.reason
                ) from None
            raise
        finally:
            self._waiting = False

    def close(self) -> None:
        if self._remove_listener is not None:
            self._remove_listener()
            self._remove_listener = None

    def _request(self, *, stream: bool):
        request = self.dialect.build_request(self.call, stream=stream)
        request.url = apply_proxy(request.url, self.provider, self.options.proxy_template)
        request.timeout = self.options.timeout
        return request

    async def _open(self, *, stream: bool) -> HttpResponse:
        request = self._request(stream=stream)
        try:
            response = await self._guard(self.transport.send(request))
        except NetworkError as err:
            err.provider, err.model = self.call.label
            raise
        if response.status >= 400:
            try:
                body = await self._guard(response.aread())
            finally:
                await response.aclose()
            raise self.dialect.parse_error(response.status, body, response.headers, self.call)
        return response

    async def _read_body(self, response: HttpResponse) -> bytes:
        try:
            return await self._guard(response.aread())
        finally:
            await response.aclose()

    # ------------------------------------------------------------- recovery

    def _recover(self, err: LLMError, attempt: int, delivered: bool) -> float | None:
        """Seconds to wait before the next attempt, or ``None`` to give up.

        Adjusts the call in place for the recoveries that change the request:
        images stripped, batch instead of stream, schema in the prompt.
        """
        if delivered or isinstance(err, AbortError):
            return None
        if isinstance(err, StreamingUnsupportedError) and not self.batch_only:
            self.batch_only = True
            self.quirks.no_streaming.add(self.key)
            self._log("llm:fallback", to="batch", reason="streaming unsupported")
            return 0.0
        if (
            isinstance(err, ProviderError)
            and 400 <= err.status < 500
            and err.status not in (401, 403, 408, 429)
        ):
            detail = (err.detail or "").lower()
            if self.call.native_schema and ("response_format" in detail or "schema" in detail):
                self.call.native_schema = False
                self.call.messages = inject_schema(self.call.messages, self.options.output_schema)
                self.quirks.no_native_schema.add(self.key)
                self._log("llm:fallback", to="prompt-schema", status=err.status)
                return 0.0
            if not self._stripped_images and has_images(self.call.messages):
                self._stripped_images = True
                self.call.messages = strip_images(self.call.messages)
                self._log("llm:fallback", to="no-images", status=err.status)
                return 0.0
        if not err.retryable or attempt >= self.options.max_retries:
            return None
        if isinstance(err, (EmptyResponseError, MalformedToolCallError)) and attempt >= 1:
            # Seed 000 §12: both are retried once; a second bad reply goes to the caller.
            return None
        if isinstance(err, NetworkError) and err.maybe_cors:
            # A browser refusing a cross-origin call looks like a dropped connection.
            # One quick retry covers a real blip; more would only delay the advice
            # to turn on the proxy.
            return None if attempt >= 1 else 0.5
        retry_after = getattr(err, "retry_after", None)
        delay = retry_after if retry_after is not None else backoff(attempt)
        return None if delay > MAX_RETRY_WAIT else delay

    async def _wait(self, err: LLMError, attempt: int, delay: float) -> None:
        self._log(
            "llm:retry",
            attempt=attempt + 1,
            delay=round(delay, 3),
            error=err.name,
            status=getattr(err, "status", None),
        )
        if self.options.on_retry is not None and delay > 0:
            try:
                self.options.on_retry(delay, err)
            except Exception:  # the caller's display must not break the call
                self.logger.exception("llm: on_retry callback failed")
        if delay > 0:
            await self._guard(self.sleep(delay))

    def _fail(self, err: BaseException, acc: ResponseAccumulator | None) -> None:
        if isinstance(err, LLMError):
            if not err.provider:  # transports raise before they know whose request it was
                err.provider, err.model = self.call.label
            if err.partial is None and acc is not None and (acc.delivered or acc.out is None):
                try:
                    err.partial = self._response(acc)
                except Exception:  # a partial is a courtesy; never mask the real error
                    err.partial = None
            self._log(
                # Stopping is the person's choice, not a failure to report.
                "llm:aborted" if isinstance(err, AbortError) else "llm:error",
                error=err.name,
                status=getattr(err, "status", None),
                retryable=err.retryable,
                delivered=bool(acc and acc.delivered),
            )

    # ------------------------------------------------------------- finishing

    def _response(self, acc: ResponseAccumulator) -> LLMResponse:
        response = acc.finalize(raw=_scrub(acc.raw(), self._secrets))
        response.provider, response.model = self.call.label
        if response.usage is not None:
            hint = "openrouter" if "openrouter" in host_of(self.provider.base_url) else None
            response.usage = resolve_cost(
                response.usage, self.provider.model, hint or self.provider.kind
            )
        response.tool_call_signature = compute_tool_call_signature(response.tool_calls)
        return response

    def _finish(self, acc: ResponseAccumulator) -> LLMResponse:
        if acc.error is not None:
            raise acc.error
        if not acc.complete:
            raise StreamIncompleteError(*self.call.label, delivered=acc.delivered)
        response = self._response(acc)
        if self._stripped_images:
            self.quirks.no_images.add(self.key)
        schema = self.options.output_schema
        if schema is not None:
            if response.refusal:
                response.output_error = f"The model refused to answer: {response.refusal}"
            else:
                response.output, response.output_error = parse_output(response.content, schema)
        repaired = [tc.name for tc in response.tool_calls if tc.repaired]
        if repaired:
            self._log("llm:json-repair", tools=",".join(repaired))
        broken = [tc.name or "?" for tc in response.tool_calls if tc.truncated or tc.parse_error]
        if broken or any(not tc.name for tc in response.tool_calls):
            self._log("llm:malformed-toolcall", tools=",".join(broken), count=len(broken))
        try:
            classify_response(response, *self.call.label)
        except (EmptyResponseError, MalformedToolCallError, ContentFilterError) as err:
            self._log("llm:empty-response" if isinstance(err, EmptyResponseError) else "llm:error")
            err.partial = response
            raise
        except LLMError as err:
            err.partial = response
            raise
        if response.finish_reason is FinishReason.LENGTH:
            self._log(
                "llm:token-limit",
                completion_tokens=response.usage and response.usage.completion_tokens,
            )
        usage = response.usage
        self._log(
            "llm:response",
            mode=self.mode,
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

    def _log_request(self, attempt: int) -> None:
        tools = self.options.tools or []
        self._log(
            "llm:request",
            mode=self.mode,
            attempt=attempt + 1,
            message_count=len(self.call.messages),
            estimated_tokens=self.preflight.estimated_tokens,
            context_window=self.preflight.context_window,
            tool_count=len(tools),
            proxied=bool(self.provider.proxy and self.options.proxy_template),
        )

    # ------------------------------------------------------------- batch

    async def batch(self) -> LLMResponse:
        attempt = 0
        acc: ResponseAccumulator | None = None
        try:
            while True:
                self._log_request(attempt)
                acc = self._accumulator(emit=False)
                try:
                    response = await self._open(stream=False)
                    body = await self._read_body(response)
                    self.dialect.parse_body(body, acc, self.call)
                    return self._finish(acc)
                except LLMError as err:
                    delay = self._recover(err, attempt, delivered=False)
                    if delay is None:
                        raise
                    await self._wait(err, attempt, delay)
                    attempt += 1
        except BaseException as err:
            self._fail(err, acc)
            raise
        finally:
            self.close()

    # ------------------------------------------------------------- stream

    async def deltas(self, result: StreamResult) -> AsyncIterator[StreamDelta]:
        attempt = 0
        acc: ResponseAccumulator | None = None
        try:
            while True:
                self._log_request(attempt)
                acc = self._accumulator(emit=True)
                try:
                    if self.batch_only:
                        body = await self._read_body(await self._open(stream=False))
                        self.dialect.parse_body(body, acc, self.call)
                    else:
                        response = await self._open(stream=True)
                        chunks = watch = None
                        try:
                            ctype = (response.headers.get("content-type") or "").lower()
                            if "application/json" in ctype:
                                # The server answered a stream request with one body.
                                body = await self._guard(response.aread())
                                self.dialect.parse_body(body, acc, self.call)
                            else:
                                self._log("llm:stream-start", status=response.status)
                                parser = self.dialect.stream_parser(acc, self.call)
                                chunks = response.aiter_bytes().__aiter__()
                                guard = self._guard
                                idle = self.options.idle_timeout
                                if idle is not None:
                                    watch = IdleWatch(idle)
                                while True:
                                    try:
                                        if watch is not None:
                                            watch.start()
                                        chunk = await guard(chunks.__anext__())
                                        if watch is not None:
                                            watch.waiting = False
                                    except StopAsyncIteration:
                                        parser.close()
                                        break
                                    except RequestTimeoutError:  # a NetworkError, not lost
                                        raise
                                    except asyncio.CancelledError:
                                        if watch is None or not watch.fired:
                                            raise
                                        watch.absorb()
                                        parser.close()
                                        self._log("llm:stream-idle", seconds=idle)
                                        raise StreamIdleError(
                                            *self.call.label,
                                            seconds=idle or 0.0,
                                            delivered=acc.delivered,
                                        ) from None
                                    except NetworkError as lost:
                                        # The connection broke mid-body: what arrived is
                                        # kept, and the reply is reported as incomplete.
                                        parser.close()
                                        if acc.ended or acc.error is not None:
                                            break
                                        raise StreamIncompleteError(
                                            *self.call.label, delivered=acc.delivered
                                        ) from lost
                                    parser.feed(chunk)
                                    out = acc.out
                                    if out:
                                        acc.out = []
                                        for delta in out:
                                            yield delta
                                    if acc.ended or acc.error is not None:
                                        break
                                self._log("llm:stream-end", ended=acc.ended)
                        finally:
                            if watch is not None:
                                watch.stop()
                            await _close_iterator(chunks)
                            await response.aclose()
                    for delta in acc.closing_deltas():
                        yield delta
                    final = self._finish(acc)
                    if final.usage is not None:
                        yield UsageDelta(final.usage)
                    yield FinishDelta(final.finish_reason)
                    result._settle(final, None)
                    return
                except LLMError as err:
                    for delta in acc.closing_deltas() if acc.error is None else ():
                        yield delta
                    delay = self._recover(err, attempt, acc.delivered)
                    if delay is None:
                        raise
                    await self._wait(err, attempt, delay)
                    attempt += 1
        except LLMError as err:
            self._fail(err, acc)
            result._settle(None, err)
            yield ErrorDelta(err)
        except GeneratorExit:
            err = AbortError(self.provider.id, self.provider.model, "the consumer stopped reading")
            self._fail(err, acc)
            result._settle(None, err)
            raise
        except BaseException as err:
            self._fail(err, acc)
            result._settle(None, err)
            raise
        finally:
            self.close()


class StreamResult:
    """What :func:`stream` returns: ``deltas`` to iterate, ``response`` to await.

    Awaiting ``response`` without iterating ``deltas`` drains the stream
    itself.  When the stream fails, ``deltas`` ends with an ``error`` delta
    and ``response`` raises the error, whose ``partial`` keeps what arrived.

    A delta follows the network, not the wire's event count: the text (or one
    call's arguments) of consecutive events that arrived in one read may come
    as one delta.  Joined, the deltas are always the reply.
    """

    def __init__(self, run: _Run) -> None:
        self._run = run
        self._deltas: AsyncIterator[StreamDelta] | None = None
        self._done: asyncio.Event | None = None
        self._result: LLMResponse | None = None
        self._error: BaseException | None = None
        self._settled = False

    @property
    def deltas(self) -> AsyncIterator[StreamDelta]:
        if self._deltas is None:
            self._deltas = self._run.deltas(self)
        return self._deltas

    def __aiter__(self) -> AsyncIterator[StreamDelta]:
        return self.deltas

    @property
    def response(self):
        return self._response()

    async def _response(self) -> LLMResponse:
        if not self._settled:
            if self._deltas is None:
                async for _ in self.deltas:
                    pass
            else:
                if self._done is None:
                    self._done = asyncio.Event()
                await self._done.wait()
        if self._error is not None:
            raise self._error
        assert self._result is not None
        return self._result

    def _settle(self, result: LLMResponse | None, error: BaseException | None) -> None:
        if self._settled:
            return
        self._settled = True
        self._result, self._error = result, error
        if self._done is not None:
            self._done.set()


async def chat(
    provider: ProviderConfig,
    messages: Sequence[Message],
    options: RequestOptions | None = None,
    *,
    transport: Transport | None = None,
) -> LLMResponse:
    """Send ``messages`` and return the complete, parsed reply (batch)."""
    run = _Run(provider, messages, options, transport, mode="batch")
    return await run.batch()


async def stream(
    provider: ProviderConfig,
    messages: Sequence[Message],
    options: RequestOptions | None = None,
    *,
    transport: Transport | None = None,
) -> StreamResult:
    """Start a streamed reply.  Raises only what fails before any network I/O
    (``ContextOverflowError`` from the preflight, a bad provider kind)."""
    return StreamResult(_Run(provider, messages, options, transport, mode="stream"))
