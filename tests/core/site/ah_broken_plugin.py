"""A plugin that cannot be imported."""

raise ImportError("No module named 'frobnicate' (this test plugin is broken on purpose)")
