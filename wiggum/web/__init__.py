"""Browser side of Wiggum (runs in Pyodide on the page's main thread)."""
