"""Community hub."""
