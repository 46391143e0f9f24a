"""Shared building blocks: login sessions and access tokens."""
