"""Sample workspaces for tests/test_layouts.py (data, not tests of this project)."""
