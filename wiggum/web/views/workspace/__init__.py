"""Ralph's workspace: layout (transcript | files | code | preview), file operations,
preview tools and history (browser only)."""
