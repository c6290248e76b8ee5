"""Ralph's workspace: the layout of transcript | files | code | preview (browser only)."""
