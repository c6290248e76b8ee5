"""A small async IndexedDB wrapper for Pyodide (main thread).

IndexedDB commits a transaction as soon as no request of it is pending at the
end of a task.  A Python coroutine resumes from ``await`` in a later task, so
a transaction cannot span Python ``await``\\ s.  Instead a transaction's body
is a *generator*: it ``yield``\\ s an ``IDBRequest`` and is resumed with the
request's result synchronously inside the request's ``success`` event, while
the transaction is still active.  Everything a body does is one transaction,
all-or-nothing::

    def body(tx):
        files = tx.objectStore("files")
        record = yield files.get(key(["p1", "a.txt"]))
        if record is None:
            raise FileNotFoundError("a.txt")  # aborts the transaction
        files.put(...)  # fire-and-forget writes need no yield
        return record.size

    size = await db.run(["files"], "readwrite", body)

What follows each answer (the body runs on, a failure aborts, which error is
raised) is :class:`wiggum.persist.transaction.BodyRun`'s, tested without a
browser; this module wires it to the requests' events.

``run`` returns once the transaction's ``complete`` event fired, so an awaited
write is committed (write-through).  A body that raises aborts the
transaction and ``run`` re-raises that exception; a request error or an abort
is raised as :class:`IDBError` carrying the ``DOMException`` name.  A write the
browser refused for space (``QuotaExceededError``, whether thrown by ``put``
or reported by the abort) is raised as :class:`wiggum.fs.StorageFull`, the one
typed error every writer (editor, Ralph's tools, history, conversations,
import) reports in the person's words; the transaction was all-or-nothing, so
nothing already stored is touched.

Schemas are versioned from day one: :func:`open_database` takes the list of
migrations; migration ``i`` upgrades version ``i`` to ``i + 1`` and the
database version is ``len(migrations)``.  On ``upgradeneeded`` every
migration between the old version and the target runs in the upgrade
transaction, in order.  A migration is ``fn(db, tx)`` and may itself be a
generator body (to rewrite existing records).

A connection closes itself on ``versionchange`` (another tab wants to
upgrade); later calls raise ``IDBError("InvalidStateError")``.

A write may carry a :class:`Fence`: a record its transaction reads first, and
whose value must still be the one the writer was given, else the transaction
aborts with the fence's error and nothing of it is kept.  The tab that takes a
project over changes that record (:mod:`wiggum.web.tab_lock`), so a write by
a tab that has not yet heard it lost the project cannot land after the new
owner read it (IndexedDB runs overlapping transactions in creation order).
The fence's read is the transaction's first request and the body's requests
are issued after it in the same task, so its answer comes before theirs, and
the abort before anything commits; such a transaction is not ``commit()``-ed
early for that reason.

Proxies: each transaction creates a handful of callbacks with
``create_proxy`` and destroys them when it ends; values are converted with
``to_js(..., create_pyproxies=False)`` so no PyProxy leaks into a record.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import logging
from collections.abc import Callable, Iterable
from typing import Any

import js  # type: ignore[import-not-found]
from pyodide.ffi import (  # type: ignore[import-not-found]
    ConversionError,
    JsException,
    JsProxy,
    create_proxy,
    to_js,
)

from wiggum.fs.errors import is_quota_name, quota_in_text
from wiggum.persist.schema import Fence
from wiggum.persist.transaction import BodyRun

from .storage_manager import storage_full

__all__ = [
    "Database",
    "Fence",
    "IDBError",
    "Migration",
    "key",
    "open_database",
    "prefix_range",
    "to_record",
    "to_value",
]

log = logging.getLogger("wiggum.web")

#: ``fn(db, tx)`` run inside ``upgradeneeded``; may be a generator body.
Migration = Callable[[Any, Any], Any]


class IDBError(Exception):
    """An IndexedDB failure; ``name`` is the ``DOMException`` name
    (``QuotaExceededError``, ``ConstraintError``, ``VersionError``, ...)."""

    def __init__(self, name: str, message: str = "") -> None:
        self.name = name
        self.message = message
        super().__init__(f"{name}: {message}" if message else name)

    @classmethod
    def from_js(cls, err: Any, default: str = "UnknownError") -> IDBError:
        if err is None:
            return cls(default)
        return cls(str(getattr(err, "name", default) or default), str(getattr(err, "message", "")))


# -- conversions --------------------------------------------------------------


def to_record(value: Any) -> Any:
    """A Python value (dicts, lists, str, numbers, bytes) as a clonable JS value.

    ``bytes`` become a ``Uint8Array``.  Anything without a JS equivalent
    raises ``TypeError`` rather than storing a PyProxy.
    """
    try:
        return to_js(value, dict_converter=js.Object.fromEntries, create_pyproxies=False)
    except ConversionError as exc:
        raise TypeError(f"cannot store {type(value).__name__} in IndexedDB: {exc}") from None


def key(parts: Iterable[Any] | str | int | float) -> Any:
    """A JS key: a string or number as is, a tuple or list as a JS array."""
    if isinstance(parts, str | int | float):
        return parts
    return to_js(list(parts), create_pyproxies=False)


def to_value(value: Any) -> Any:
    """A JS value read from a store as plain Python (``None`` for undefined)."""
    if value is None:
        return None
    to_py = getattr(value, "to_py", None)
    return to_py() if to_py is not None else value


def prefix_range(*parts: Any) -> Any:
    """Every array key that starts with ``parts`` (and is longer).

    Arrays sort after every string and number, so ``[*parts, []]`` is above any
    ``[*parts, x]`` with a scalar ``x``; ``parts`` itself sorts below them.
    """
    return js.IDBKeyRange.bound(
        key(list(parts)), to_js([*parts, []], create_pyproxies=False), True, False
    )


# -- the generator driver -------------------------------------------------------


class _Driver(BodyRun):
    """Runs a body against ``tx`` (:class:`~wiggum.persist.transaction.BodyRun`
    decides each step): resumes it from its requests' ``success`` events."""

    def __init__(self, tx: Any) -> None:
        super().__init__(wire=self._listen, abort=self._abort)
        self.tx = tx
        self._success = create_proxy(lambda event: self.resume(event.target.result))
        self._failure = create_proxy(
            lambda event: self.request_failed(IDBError.from_js(event.target.error))
        )
        self._fenced: Any = None

    def fence(self, fence: Fence) -> None:
        """Read ``fence`` first; abort unless it holds (before the body's requests)."""
        self._fenced = create_proxy(
            lambda event: self.fence_read(fence, to_value(event.target.result))
        )
        request = self.tx.objectStore(fence.store).get(key(fence.key))
        request.onsuccess, request.onerror = self._fenced, self._failure

    def _listen(self, request: Any) -> None:
        # A failed request is not prevented: the transaction aborts, and ``abort`` reports it.
        request.onsuccess, request.onerror = self._success, self._failure

    def _abort(self) -> None:
        with contextlib.suppress(JsException):  # already finished or aborting
            self.tx.abort()

    def aborted(self) -> BaseException:
        return self.failure(IDBError.from_js(getattr(self.tx, "error", None), "AbortError"))

    def destroy(self) -> None:
        for proxy in (self._success, self._failure, self._fenced):
            if proxy is not None:
                proxy.destroy()


# -- connections ------------------------------------------------------------------


class Database:
    """An open IndexedDB connection."""

    def __init__(self, raw: Any, name: str) -> None:
        self.raw = raw
        self.name = name
        self.closed = False
        self.version = int(raw.version)
        #: ``durability`` of readwrite transactions: ``None`` (the browser's
        #: default, "relaxed" in current Chromium: committed to the OS, which
        #: survives a reload or a tab crash), or ``"strict"`` (flushed to disk
        #: before ``complete``: survives power loss, costs an fsync per write).
        self.durability: str | None = None
        #: Called (no arguments) after the connection closed itself because
        #: another tab upgrades the database or the browser closed it.
        self.on_close: list[Callable[[], Any]] = []
        self._on_versionchange = create_proxy(self._versionchange)
        self._on_abnormal_close = create_proxy(self._abnormal_close)
        raw.onversionchange = self._on_versionchange
        raw.onclose = self._on_abnormal_close

    def __repr__(self) -> str:
        state = "closed" if self.closed else "open"
        return f"<Database {self.name!r} v{self.version} {state}>"

    @property
    def store_names(self) -> list[str]:
        """The object stores' names (kept for ``tests/e2e/test_storage.py``, its only user:
        it checks what a migration created)."""
        names = self.raw.objectStoreNames
        return [names.item(i) for i in range(names.length)]

    def _versionchange(self, event: Any) -> None:
        log.warning(
            "IndexedDB %r: another tab upgrades it to version %s; closing this connection",
            self.name,
            getattr(event, "newVersion", None),
        )
        self._closed_by_browser()

    def _abnormal_close(self, event: Any) -> None:
        log.warning("IndexedDB %r was closed by the browser", self.name)
        self._closed_by_browser()

    def _closed_by_browser(self) -> None:
        self.close()
        for fn in list(self.on_close):
            try:
                fn()
            except Exception:
                log.exception("IndexedDB on_close callback failed")

    def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        self.raw.close()
        self.raw.onversionchange = None
        self.raw.onclose = None
        # Not from inside the handler that may be running right now.
        _later(self._on_versionchange.destroy, self._on_abnormal_close.destroy)

    async def run(
        self,
        stores: str | Iterable[str],
        mode: str,
        body: Callable[..., Any],
        *args: Any,
        fence: Fence | None = None,
    ) -> Any:
        """Run ``body(tx, *args)`` in one transaction; return what it returns once
        the transaction completed (committed, for ``readwrite``).  ``fence``:
        only if it holds (see the module docstring)."""
        if self.closed:
            raise IDBError("InvalidStateError", f"the connection to {self.name!r} is closed")
        names = [stores] if isinstance(stores, str) else list(stores)
        if fence is not None and fence.store not in names:
            names.append(fence.store)
        try:
            if mode == "readwrite" and self.durability:
                options = to_record({"durability": self.durability})
                tx = self.raw.transaction(key(names), mode, options)
            else:
                tx = self.raw.transaction(key(names), mode)
        except JsException as exc:
            raise IDBError.from_js(exc) from None
        try:
            return await _run(tx, body, *args, fence=fence)
        except (IDBError, JsException) as exc:
            if not _is_quota(exc):
                raise
            full = await storage_full()
        raise full

    # -- one-request conveniences ----------------------------------------------

    async def get(self, store: str, k: Any) -> Any:
        """The record at ``k`` as Python, or ``None``."""

        def body(tx: Any) -> Any:
            return to_value((yield tx.objectStore(store).get(key(k))))

        return await self.run(store, "readonly", body)

    async def get_all(self, store: str, query: Any = None) -> list[Any]:
        def body(tx: Any) -> Any:
            found = yield tx.objectStore(store).getAll(query)
            return [to_value(v) for v in found]

        return await self.run(store, "readonly", body)

    async def put(
        self, store: str, value: Any, k: Any = None, *, fence: Fence | None = None
    ) -> None:
        """Insert or replace (a committed write when it returns)."""
        record = to_record(value)

        def body(tx: Any) -> None:
            if k is None:
                tx.objectStore(store).put(record)
            else:
                tx.objectStore(store).put(record, key(k))
            # Nothing else comes in this transaction: commit it now, rather than
            # once the request's result is back here.  A page being unloaded (a
            # reply's last words written on ``pagehide``) is not there any more
            # by then, and its transaction would be aborted.  (A fenced write
            # may still be aborted by its fence: the page writes unfenced then.)
            commit = getattr(tx, "commit", None)
            if commit is not None and fence is None:
                with contextlib.suppress(JsException):
                    commit()

        await self.run(store, "readwrite", body, fence=fence)

    async def delete(self, store: str, query: Any, *, fence: Fence | None = None) -> None:
        """Delete a key, or every key in a key range."""
        q = query if isinstance(query, JsProxy) else key(query)  # a key range as it is

        def body(tx: Any) -> None:
            tx.objectStore(store).delete(q)

        await self.run(store, "readwrite", body, fence=fence)


def _is_quota(exc: BaseException) -> bool:
    if is_quota_name(getattr(exc, "name", "")):
        return True
    return isinstance(exc, JsException) and quota_in_text(str(exc))


def _later(*fns: Callable[[], Any]) -> None:
    loop = asyncio.get_event_loop()
    for fn in fns:
        loop.call_soon(fn)


def _handle(target: Any, **handlers: Callable[[Any], Any]) -> Callable[[], None]:
    """Set ``target.on<event>`` to a proxy of each handler; returns the release
    (handlers unset, proxies destroyed once the running handler is done)."""
    proxies = {f"on{event}": create_proxy(fn) for event, fn in handlers.items()}
    for attr, proxy in proxies.items():
        setattr(target, attr, proxy)
    released: list[bool] = []

    def release() -> None:
        if not released:
            released.append(True)
            for attr in proxies:
                setattr(target, attr, None)
            _later(*(p.destroy for p in proxies.values()))

    return release


async def _run(tx: Any, body: Callable[..., Any], *args: Any, fence: Fence | None = None) -> Any:
    done: asyncio.Future = asyncio.get_event_loop().create_future()
    driver = _Driver(tx)

    def finish() -> None:
        release()
        _later(driver.destroy)

    def complete(event: Any) -> None:
        finish()
        if done.done():
            return
        if driver.error is not None:  # raised after its last request; nothing to abort
            done.set_exception(driver.error)
        else:
            done.set_result(driver.result)

    def abort(event: Any) -> None:
        finish()
        if not done.done():
            done.set_exception(driver.aborted())

    release = _handle(tx, complete=complete, abort=abort)
    if fence is not None:
        driver.fence(fence)
    driver.start(lambda: body(tx, *args))
    return await done


# -- opening --------------------------------------------------------------------


async def open_database(
    name: str,
    migrations: list[Migration],
    *,
    timeout: float | None = None,
) -> Database:
    """Open ``name`` at version ``len(migrations)``, migrating from any older one.

    ``blocked`` (another tab holds an older version open and does not close
    it) is logged and waited for, up to ``timeout`` seconds if given
    (then ``IDBError("BlockedError")``).  A newer database than the code knows
    raises ``IDBError("VersionError")``; a failing migration aborts the upgrade
    (nothing of it is kept) and its exception is raised.
    """
    if not migrations:
        raise ValueError("a database needs at least one migration (the initial schema)")
    factory = getattr(js, "indexedDB", None)
    if factory is None:
        raise IDBError("NotSupportedError", "IndexedDB is not available")
    target = len(migrations)
    done: asyncio.Future = asyncio.get_event_loop().create_future()
    upgrade_error: list[BaseException] = []
    try:
        request = factory.open(name, target)
    except JsException as exc:
        raise IDBError.from_js(exc) from None

    def upgradeneeded(event: Any) -> None:
        old, new = int(event.oldVersion), int(event.newVersion)
        log.info("IndexedDB %r: upgrading from version %d to %d", name, old, new)
        db, tx = request.result, request.transaction

        def body(tx: Any) -> Any:
            for i in range(old, new):
                out = migrations[i](db, tx)
                if inspect.isgenerator(out):
                    yield from out

        driver = _Driver(tx)

        def ended(event: Any) -> None:
            if driver.error is not None:
                upgrade_error.append(driver.error)
            end()
            _later(driver.destroy)

        end = _handle(tx, complete=ended, abort=ended)
        driver.start(lambda: body(tx))

    def success(event: Any) -> None:
        raw = request.result
        if done.done():  # timed out while blocked; nobody wants it any more
            raw.close()
            release()
        else:
            done.set_result(Database(raw, name))

    def error(event: Any) -> None:
        event.preventDefault()
        if done.done():
            release()
        else:
            done.set_exception(
                upgrade_error[0] if upgrade_error else IDBError.from_js(request.error)
            )

    def blocked(event: Any) -> None:
        log.warning(
            "IndexedDB %r: upgrade to version %d is blocked by another open tab", name, target
        )

    release = _handle(
        request, upgradeneeded=upgradeneeded, success=success, error=error, blocked=blocked
    )
    try:
        if timeout is None:
            return await done
        try:
            return await asyncio.wait_for(asyncio.shield(done), timeout)
        except TimeoutError:
            if not done.done():
                done.cancel()
                msg = f"opening {name!r} took over {timeout:g} s"
                raise IDBError("BlockedError", msg) from None
            return done.result()
    finally:
        # Still pending after a timeout: ``success`` closes the late connection
        # and releases the handlers when the request settles.
        if done.done() and not done.cancelled():
            release()


async def delete_database(name: str) -> None:
    """Delete a whole database (kept for ``tests/e2e/test_storage.py``, its only user:
    it starts its checks from an empty database)."""
    done: asyncio.Future = asyncio.get_event_loop().create_future()
    request = js.indexedDB.deleteDatabase(name)

    def success(event: Any) -> None:
        if not done.done():
            done.set_result(None)

    def error(event: Any) -> None:
        if not done.done():
            done.set_exception(IDBError.from_js(request.error))

    def blocked(event: Any) -> None:
        log.warning("IndexedDB %r: deletion waits for other connections to close", name)

    release = _handle(request, success=success, error=error, blocked=blocked)
    try:
        await done
    finally:
        release()
