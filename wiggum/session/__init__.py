"""The session layer: every decision the page makes, in pure Python.

Between ``wiggum.web`` (which only draws and forwards events) and the agents.
Each module here decides and returns what to do (effects, typed events); the
browser's services come in through :class:`~wiggum.session.host.Host`, which
``wiggum.web.host`` implements in the page and a fake implements in the
CPython tests (``tests/session/``).  See docs/DESIGN.md, "The session layer".
"""
