"""Ralph's tab (browser only): the panel with his state, the run list and the
"Start Ralph" form, and the transcript, each drawing what it is given.

His transcript itself (its events and their storage) is
:mod:`wiggum.ralph.transcript`; the words the tab shows are decided in
:mod:`wiggum.ui.ralph_tab`, :mod:`wiggum.ui.ralph_transcript` and
:mod:`wiggum.ui.runs`, its elements in :mod:`wiggum.ui.markup.ralph`.
"""

from .panel import RalphActions, RalphView

__all__ = ["RalphActions", "RalphView"]
