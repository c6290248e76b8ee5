"""Generated data files of the LLM client (``models.json``: see ``scripts/gen_registry.py``)."""
