"""The page's static structure, one module per view (see ``wiggum.ui.tree``)."""
