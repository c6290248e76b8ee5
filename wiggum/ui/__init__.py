"""Pure helpers of the page: settings, markdown, error explanations, model lists.

No browser imports here: everything runs and is tested under CPython.
"""
