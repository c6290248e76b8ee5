"""The app's views: chat, settings dialog, project switcher (browser only)."""
