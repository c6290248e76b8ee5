"""Fresh model facts: prices and context windows fetched when the person asks.

The registry built into the page (``wiggum/llm/data/models.json``) is as old
as the build.  "Refresh model facts" (Settings) fetches models.dev's
``api.json`` and OpenRouter's public model list from the browser (both need
no key), builds each into the registry's format with the parsers the build
uses (:mod:`wiggum.llm.registry_sources`), keeps each source's facts in the
app's storage (IndexedDB in the page) and lays them over the built-in
registry (:func:`wiggum.llm.registry.use_fresh_facts`) for every lookup.

Each source stands alone: one that fails (offline, refused, an answer of
another shape) is said in words, and its facts stay what they were, stored
or built in; nothing kept is replaced by less.  On the next visit
:meth:`ModelFacts.load` lays the stored facts over the built-in ones again.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from wiggum.llm import registry
from wiggum.llm.http_types import HttpRequest
from wiggum.llm.registry_sources import (
    MODELS_DEV_URL,
    OPENROUTER_URL,
    build_registry,
    merge_registries,
    parse_models_dev,
    parse_openrouter,
)

__all__ = ["FACTS_KEY", "FactsShown", "ModelFacts", "Source", "default_sources", "facts_status"]

log = logging.getLogger("wiggum.session")

#: The app storage's meta record holding the fetched facts, per source.
FACTS_KEY = "model-facts"
#: Seconds a source may take to answer.
TIMEOUT = 30.0


class MetaStorage(Protocol):
    """The app's storage as this needs it (``wiggum.persist.AppStorage``)."""

    async def get_meta(self, key: str) -> Any: ...

    async def put_meta(self, key: str, value: Any) -> None: ...


@dataclass(frozen=True, slots=True)
class Source:
    """Where one source's facts come from, and how its answer becomes rows."""

    name: str
    url: str
    parse: Callable[[Any], list[Any]]


def default_sources() -> tuple[Source, ...]:
    """models.dev first, then OpenRouter laid over it (its own prices for its models)."""
    return (
        Source("models.dev", MODELS_DEV_URL, parse_models_dev),
        Source("OpenRouter", OPENROUTER_URL, parse_openrouter),
    )


@dataclass(frozen=True, slots=True)
class FactsShown:
    """What Settings shows after a refresh: the line, and whether all went well."""

    text: str
    ok: bool
    #: Models each source that answered gave.
    counts: Mapping[str, int] = field(default_factory=dict)


def _day(stamp: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(stamp))


def facts_status(stored: Mapping[str, Any] | None, built: str = "") -> str:
    """The line under the button: where the facts in use come from."""
    parts = [
        f"{name} fetched {_day(float(entry.get('fetched') or 0))}"
        for name, entry in (stored or {}).items()
        if isinstance(entry, Mapping)
    ]
    base = f"Built-in facts from {built[:10]}" if built else "Built-in facts"
    return base + (" · " + " · ".join(parts) if parts else ". Not refreshed in this browser yet.")


class _Failed(Exception):
    """A source could not be had; the message is in the person's words."""


def _reason(exc: BaseException) -> str:
    from wiggum.llm.errors import LLMError, NetworkError

    if isinstance(exc, _Failed):
        return str(exc)
    if isinstance(exc, NetworkError):
        return "it did not answer (offline, or it refuses calls from web pages)"
    if isinstance(exc, LLMError):
        return "the request failed"
    log.error("model facts: a source failed", exc_info=exc)
    return "something went wrong (the details are in the Log)"


class ModelFacts:
    """``storage``: the app's; ``transport``: the HTTP transport (``None``: the
    page's fetch); ``sources``: where to fetch (tests point them at a local server)."""

    def __init__(
        self,
        storage: MetaStorage,
        transport: Any = None,
        *,
        sources: tuple[Source, ...] | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.storage = storage
        self.transport = transport
        self.sources = sources or default_sources()
        self.clock = clock
        #: Each source's stored entry: ``{"fetched": t, "registry": "<json>"}``.
        self.stored: dict[str, Any] = {}

    def status(self) -> str:
        built = str(registry.registry_info().get("generated") or "")
        return facts_status(self.stored, built)

    async def load(self) -> None:
        """The facts fetched on an earlier visit, laid over the built-in ones."""
        try:
            stored = await self.storage.get_meta(FACTS_KEY)
        except Exception:  # the built-in facts still answer
            log.exception("model facts: the stored facts could not be read")
            return
        self.stored = dict(stored) if isinstance(stored, Mapping) else {}
        self._apply()

    def _apply(self) -> None:
        fresh: dict[str, Any] | None = None
        for source in self.sources:
            entry = self.stored.get(source.name)
            if not isinstance(entry, Mapping):
                continue
            try:
                one = json.loads(entry["registry"])
            except (KeyError, TypeError, ValueError):
                log.warning("model facts: the stored %s facts are unreadable", source.name)
                continue
            fresh = one if fresh is None else merge_registries(fresh, one)
        registry.use_fresh_facts(fresh)

    async def _fetch(self, source: Source) -> Any:
        from wiggum.llm.transport import get_default_transport

        transport = self.transport or get_default_transport()
        request = HttpRequest("GET", source.url, {"accept": "application/json"}, timeout=TIMEOUT)
        response = await transport.send(request)
        try:
            body = await response.aread()
        finally:
            await response.aclose()
        if response.status >= 400:
            raise _Failed(f"it answered HTTP {response.status}")
        try:
            return json.loads(body)
        except ValueError:
            raise _Failed("its answer was not JSON") from None

    async def refresh(self) -> FactsShown:
        """Fetch every source; keep and use what answered; say what did not."""
        got: dict[str, Any] = {}
        failed: list[str] = []
        counts: dict[str, int] = {}
        for source in self.sources:
            try:
                rows = source.parse(await self._fetch(source))
                if not rows:
                    raise _Failed("its answer held no models")
            except Exception as exc:
                failed.append(f"{source.name}: {_reason(exc)}")
                continue
            now = self.clock()
            built = build_registry(
                rows,
                generated=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(now)),
                sources=[{"name": source.name, "url": source.url}],
            )
            got[source.name] = {"fetched": now, "registry": json.dumps(built)}
            counts[source.name] = built["counts"]["models"]
        if got:
            stored = {**self.stored, **got}
            try:
                await self.storage.put_meta(FACTS_KEY, stored)
            except Exception:
                log.exception("model facts: the fetched facts could not be stored")
                failed.append("storing them: this browser refused (they apply until you leave)")
            self.stored = stored
            self._apply()
        return FactsShown(_outcome(counts, failed), not failed, counts)


def _outcome(counts: Mapping[str, int], failed: list[str]) -> str:
    done = " and ".join(f"{n:,} models from {name}" for name, n in counts.items())
    if not counts:
        return (
            "Nothing was refreshed — " + "; ".join(failed) + ". The facts you had stay in use; "
            "try again when you are online."
        )
    text = f"Refreshed: {done} (prices and context windows)."
    if failed:
        text += " Not refreshed — " + "; ".join(failed) + "; its facts stay as they were."
    return text
