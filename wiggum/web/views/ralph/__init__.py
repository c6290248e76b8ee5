"""Ralph's tab (browser only): the panel with his state, the transcript, the run
list and the "Start Ralph" form, each drawing what it is given.

His transcript itself (its events and their storage) is
:mod:`wiggum.ralph.transcript`; the words the tab shows are decided in
:mod:`wiggum.ui.ralph_tab`, :mod:`wiggum.ui.ralph_transcript` and
:mod:`wiggum.ui.runs`.
"""

from .panel import RalphActions, RalphView

__all__ = ["RalphActions", "RalphView"]
