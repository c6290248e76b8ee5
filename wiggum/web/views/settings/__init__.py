"""The Settings dialog, in parts: ``dialog`` mounts ``wiggum.ui.markup.settings``
and drives it with ``provider_form``, ``model_picker`` and ``connection_test``;
what the dialog decides is ``wiggum.session.settings``."""

from .dialog import SettingsDialog

__all__ = ["SettingsDialog"]
