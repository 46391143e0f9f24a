"""The workspaces here are data for tests/test_layouts.py: each is copied into a temporary folder
and retrieved over. Their own test files (tests/test_*.py of the Python ones) are part of that
data, so pytest must never collect them as tests of this project."""

collect_ignore_glob = ["*/**"]
