"""Ralph's context meter in his model bar, fed from his run's usage.

Chief's meter is an estimate of the conversation the next request carries;
Ralph's context is rebuilt every iteration, so his meter shows what his latest
call filled (the provider's own count) and his run's cost so far.  The figures
are :func:`wiggum.ui.model_choice.run_meter`'s; this only hooks it to the loop.
"""

from __future__ import annotations

import dataclasses
import logging
from typing import Any

from wiggum.llm import UsageData
from wiggum.ui.model_choice import run_meter

__all__ = ["with_ralph_meter"]

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
