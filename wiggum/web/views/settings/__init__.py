"""The Settings dialog, in parts: ``dialog`` composes ``provider_form``,
``model_picker``, ``connection_test`` and ``proxy_panel`` (``fields`` builds
their fields); what the dialog decides is ``wiggum.session.settings``."""

from .dialog import SettingsDialog

__all__ = ["SettingsDialog"]
