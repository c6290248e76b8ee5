"""A project beside its files: history (checkpoints)."""
