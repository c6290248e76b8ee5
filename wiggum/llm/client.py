"""``chat()`` and ``stream()``: one pipeline for batch and stream alike.

preflight -> dialect builds the request (normalization, cache markers,
proxy URL) -> log -> transport -> decode (SSE or NDJSON, incremental) ->
dialect turns events into accumulator calls -> finalize only after the
stream's real end -> tool calls parsed and repaired -> usage + cost ->
classify (empty / malformed / filter) -> signature -> log -> LLMResponse.

A batch call is the same loop as a stream whose deltas nobody reads: one
loop of attempts (:meth:`_Run.deltas`) serves both.  This module holds the
public entry and that loop; the steps live beside it: the call before its
first attempt in :mod:`.prepare`, the retry policy (when, how and after how
long to try again) in :mod:`.retry`, the chunk loop with its idle watch and
broken-connection rule in :mod:`.stream_reader`, the abort wiring in
:class:`~.abort.AbortGuard`, and the finished reply's checks in :mod:`.outcome`.

Every wait is bounded here, whatever the transport does: the answer's head
by ``timeout`` (:func:`_send_within`), a whole body's reads by ``timeout``
and a stream's next event by ``idle_timeout`` (else ``timeout``); what a 200
answer to a stream request is, the stream, one JSON body or a web page, is
told by its first bytes (:mod:`.answer_kind`).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Sequence
from contextlib import aclosing

from .abort import AbortGuard
from .accumulator import PartialReply, ResponseAccumulator
from .answer_kind import AnswerParser, is_web_page, web_page_error
from .dialects import get_dialect
from .errors import (
    AbortError,
    LLMError,
    NetworkError,
    RequestTimeoutError,
    StreamIncompleteError,
)
from .normalize import DEFAULT_QUIRKS, has_images, quirk_key, strip_images
from .observability import get_logger, log_event
from .outcome import build_response, check_response
from .prepare import DEFAULT_REPLY_BUDGET, capability_for, prepare_call
from .proxy import apply_proxy
from .retry import Fallback, Stage, next_attempt, wait
from .stream_reader import read_body, read_chunks
from .structured import inject_schema
from .transport import HttpRequest, HttpResponse, Transport, get_default_transport
from .types import (
    ErrorDelta,
    FinishDelta,
    LLMResponse,
    Message,
    ProviderConfig,
    RequestOptions,
    StreamDelta,
    UsageDelta,
)

__all__ = ["DEFAULT_REPLY_BUDGET", "StreamResult", "capability_for", "chat", "stream"]


async def chat(
    provider: ProviderConfig,
    messages: Sequence[Message],
    options: RequestOptions | None = None,
    *,
    transport: Transport | None = None,
) -> LLMResponse:
    """Send ``messages`` and return the complete, parsed reply (batch)."""
    return await StreamResult(_Run(provider, messages, options, transport, mode="batch")).response


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


class StreamResult:
    """What :func:`stream` returns: ``deltas`` to iterate, ``response`` to await.

    Awaiting ``response`` without iterating ``deltas`` drains the stream
    itself.  When the stream fails, ``deltas`` ends with an ``error`` delta
    and ``response`` raises the error, whose ``partial`` keeps what arrived.

    A delta follows the network, not the wire's event count: the text (or one
    call's arguments) of consecutive events that arrived in one read may come
    as one delta.  Joined, the deltas are always the reply, and ``partial``
    has it joined already: read ``partial.content`` after a delta rather than
    summing the deltas again.
    """

    def __init__(self, run: _Run) -> None:
        self._run = run
        #: The reply so far, read from the current attempt's accumulator.
        self.partial = PartialReply()
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


class _Run:
    """One logical request: its preparation, attempts, retries and result."""

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
        self.call, self.preflight = prepare_call(
            provider, list(messages), options, quirks=self.quirks, log=self._log
        )
        self.batch_only = (
            mode == "batch"
            or not self.call.capability.supports_streaming
            or self.key in self.quirks.no_streaming
        )
        self._stripped_images = False
        self.guard = AbortGuard(options.signal, self.call.label)

    # ------------------------------------------------------------- the loop

    async def deltas(self, result: StreamResult) -> AsyncIterator[StreamDelta]:
        """Attempts until one succeeds or the retry policy gives up; settles ``result``."""
        attempt = 0
        acc: ResponseAccumulator | None = None
        try:
            while True:
                self._log_request(attempt)
                acc = self._accumulator()
                result.partial.read_from(acc)
                try:
                    async with aclosing(self._attempt(acc)) as reads:
                        async for out in reads:
                            for delta in out:
                                yield delta
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
                    if not await self._again(err, attempt, acc.delivered):
                        raise
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
            self.guard.close()

    async def _attempt(self, acc: ResponseAccumulator) -> AsyncIterator[list[StreamDelta]]:
        """Send the request once and read the answer into ``acc``, yielding the
        deltas of each read (none for a whole body: ``closing_deltas`` has them)."""
        if self.batch_only:
            response = await self._open(stream=False)
            body = await self._read_body(response)
            if is_web_page(response.headers.get("content-type"), body[:64]):
                raise web_page_error(self.call.label)
            self.dialect.parse_body(body, acc, self.call)
            return
        response = await self._open(stream=True)
        try:
            self._log("llm:stream-start", status=response.status)
            options = self.options
            # What the body is, is told by its first bytes (answer_kind.py).
            parser = AnswerParser(
                self.dialect.stream_parser(acc, self.call),
                lambda body: self.dialect.parse_body(body, acc, self.call),
                content_type=response.headers.get("content-type"),
                ndjson=self.dialect.stream_format == "ndjson",
                label=self.call.label,
            )
            reads = read_chunks(
                response.aiter_bytes().__aiter__(),
                parser,
                acc,
                guard=self.guard,
                idle_timeout=options.timeout
                if options.idle_timeout is None
                else options.idle_timeout,
                label=self.call.label,
                log=self._log,
            )
            async with aclosing(reads):
                async for out in reads:
                    yield out
            self._log("llm:stream-end", ended=acc.ended)
        finally:
            await response.aclose()

    # ------------------------------------------------------------- one attempt

    def _accumulator(self) -> ResponseAccumulator:
        native = self.dialect.name == "anthropic"
        return ResponseAccumulator(
            emit=self.mode == "stream", think_tags=not native, canonical_args=native
        )

    def _log(self, category: str, **fields) -> None:
        log_event(
            self.logger, category, provider=self.provider.id, model=self.provider.model, **fields
        )

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

    async def _open(self, *, stream: bool) -> HttpResponse:
        request = self.dialect.build_request(self.call, stream=stream)
        request.url = apply_proxy(request.url, self.provider, self.options.proxy_template)
        timeout = request.timeout = self.options.timeout
        try:
            response = await self.guard(_send_within(self.transport, request, timeout))
        except NetworkError as err:
            err.provider, err.model = self.call.label
            raise
        if response.status >= 400:
            body = await self._read_body(response)
            raise self.dialect.parse_error(response.status, body, response.headers, self.call)
        return response

    async def _read_body(self, response: HttpResponse) -> bytes:
        return await read_body(
            response, guard=self.guard, timeout=self.options.timeout, label=self.call.label
        )

    # ------------------------------------------------------------- recovery

    async def _again(self, err: LLMError, attempt: int, delivered: bool) -> bool:
        """Ready the next attempt after ``err`` (the call changed, the wait
        waited); ``False`` when the policy gives up."""
        stage = Stage(
            streaming=not self.batch_only,
            native_schema=self.call.native_schema,
            images=not self._stripped_images and has_images(self.call.messages),
        )
        retry = next_attempt(
            err, attempt, delivered=delivered, stage=stage, max_retries=self.options.max_retries
        )
        if retry is None:
            return False
        if retry.fallback is not None:
            self._fall_back(retry.fallback, getattr(err, "status", None))
        self._log(
            "llm:retry",
            attempt=attempt + 1,
            delay=round(retry.delay, 3),
            error=err.name,
            status=getattr(err, "status", None),
        )
        await wait(
            retry,
            err,
            sleep=lambda seconds: self.guard(self.sleep(seconds)),
            on_retry=self.options.on_retry,
            on_retry_failed=lambda: self.logger.exception("llm: on_retry callback failed"),
        )
        return True

    def _fall_back(self, fallback: Fallback, status: int | None) -> None:
        """Change the call as ``fallback`` says, and remember the model's refusal
        for the rest of the session."""
        if fallback is Fallback.BATCH:
            self.batch_only = True
            self.quirks.no_streaming.add(self.key)
            self._log("llm:fallback", to="batch", reason="streaming unsupported")
        elif fallback is Fallback.PROMPT_SCHEMA:
            self.call.native_schema = False
            self.call.messages = inject_schema(self.call.messages, self.options.output_schema)
            self.quirks.no_native_schema.add(self.key)
            self._log("llm:fallback", to="prompt-schema", status=status)
        else:
            self._stripped_images = True
            self.call.messages = strip_images(self.call.messages)
            self._log("llm:fallback", to="no-images", status=status)

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
        return build_response(acc, self.call, self._secrets)

    def _finish(self, acc: ResponseAccumulator) -> LLMResponse:
        if acc.error is not None:
            raise acc.error
        if not acc.complete:
            raise StreamIncompleteError(*self.call.label, delivered=acc.delivered)
        response = self._response(acc)
        if self._stripped_images:
            self.quirks.no_images.add(self.key)
        return check_response(response, self.call, mode=self.mode, log=self._log)


async def _send_within(
    transport: Transport, request: HttpRequest, seconds: float | None
) -> HttpResponse:
    """Sending ``request`` (connecting, sending, the answer's head) bounded by
    ``seconds`` whatever the transport does with the same bound: a transport
    that ignores it must not hang the call."""
    if seconds is None:
        return await transport.send(request)
    try:
        return await asyncio.wait_for(transport.send(request), seconds)
    except TimeoutError:
        raise RequestTimeoutError(f"No answer within {seconds:g} s", seconds=seconds) from None
