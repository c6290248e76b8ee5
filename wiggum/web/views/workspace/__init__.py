"""Ralph's workspace: file tree, editor, preview, history."""
