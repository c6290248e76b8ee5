"""Putting a project somewhere else: GitHub Pages through the REST API (no backend)."""
