"""The Settings dialog, in parts: ``dialog`` mounts ``wiggum.ui.markup.settings``
and drives it with ``provider_form`` (one provider's fields, its model's
suggestions, Test connection); what the dialog decides is
``wiggum.session.settings``."""

from .dialog import SettingsDialog

__all__ = ["SettingsDialog"]
