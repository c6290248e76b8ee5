"""The Coordinator: the seam between Chief (planner) and Ralph (build loop).

It owns three things, and nothing else:

- **Ralph's run** (``runs``): starts the runner as an asyncio task
  (:meth:`~Coordinator.send_to_ralph`, :meth:`~Coordinator.resume_ralph`),
  cancels it (:meth:`~Coordinator.stop_ralph`), and keeps a
  :class:`CoordinatorState` snapshot that subscribers receive on every change
  (``state``).  The runner is passed in, typed by the run contract
  (``contract``: ``RunRequest``, ``RalphCallbacks``, ``RalphResult``), so the
  Coordinator never imports Ralph.
- **``.chief/`` files** (``files``), written through the FileStore as things
  happen, so a reload finds them (``recovery``): ``prompt.md``, ``plan.md``,
  ``status.txt``, ``last_result.json`` and ``notice.json`` (a finished run
  Chief has not been told about yet: ``notice``).  ``report`` says the run in
  words for Chief's ``check_ralph_status``.  Their paths are named in
  ``files`` (``PLAN_PATH``…), not on this face: only the Coordinator writes them.
- **One LLM caller at a time per provider** (``locks``; :meth:`~Coordinator.llm_lock`).
  Wiring (one ``ProviderLocks`` per page, shared)::

      locks = ProviderLocks()
      runner = make_runner(provider, fs, llm_lock=locks.hold(provider.id, "ralph"))
      coordinator = Coordinator(fs, ralph_runner=runner, locks=locks)
      async with coordinator.llm_lock(chief_provider.id, "chief"):
          ...  # one stream() call, read to its end

A run interrupted by a reload is never silently lost nor silently restarted:
:meth:`~Coordinator.recover_state` reports it as *interrupted* and
``resumable``; only :meth:`~Coordinator.resume_ralph` continues it
(``RunRequest(task=None, resume=True)``).

:class:`Coordinator` (``facade``) composes these parts behind the one face Chief
and the page use.
"""

from __future__ import annotations

from .facade import Coordinator
from .locks import ProviderLease, ProviderLocks
from .state import (
    INTERRUPTED,
    CoordinatorEvent,
    CoordinatorState,
    EventKind,
    HandoffRefused,
    Recovery,
    Subscriber,
)

__all__ = [
    "INTERRUPTED",
    "Coordinator",
    "CoordinatorEvent",
    "CoordinatorState",
    "EventKind",
    "HandoffRefused",
    "ProviderLease",
    "ProviderLocks",
    "Recovery",
    "Subscriber",
]
