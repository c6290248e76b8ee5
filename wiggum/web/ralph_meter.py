"""Ralph's context meter in his model bar, fed from his run's usage.

Chief's meter is an estimate of the conversation the next request carries;
Ralph's context is rebuilt every iteration, so his meter shows what his latest
call filled (the provider's own count) and his run's cost so far.  The figures
are :func:`wiggum.ui.model_choice.run_meter`'s; this only hooks it to the loop,
and shows it again from ``.ralph/usage.json`` when a project opens (a reload).
"""

from __future__ import annotations

import dataclasses
import logging
from typing import Any

from wiggum.llm import UsageData
from wiggum.ui.model_choice import ledger_meter, run_meter

__all__ = ["restore_ralph_meter", "with_ralph_meter"]

log = logging.getLogger("wiggum.web")


def with_ralph_meter(callbacks: Any, bar: Any, model: str, kind: str) -> Any:
    """``callbacks`` whose ``on_usage`` also updates ``bar`` (a ModelBar)."""
    inner = callbacks.on_usage

    def on_usage(iteration: int, call: UsageData, total: UsageData) -> None:
        inner(iteration, call, total)
        try:
            bar.set_meter(run_meter(call, total, model, kind))
        except Exception:  # a view's trouble must not stop Ralph's loop
            log.exception("Ralph's context meter could not be updated")

    return dataclasses.replace(callbacks, on_usage=on_usage)


async def restore_ralph_meter(fs: Any, bar: Any, kind: str) -> None:
    """Show the meter of Ralph's latest run in ``fs`` on ``bar``, if it has one."""
    from wiggum.ralph.state import RalphState

    try:
        shown = ledger_meter(await RalphState(fs).usage(), kind)
        if shown is not None:
            bar.set_meter(shown)
    except Exception:  # the meter is a nicety; opening the project must go on
        log.exception("Ralph's context meter could not be restored")
