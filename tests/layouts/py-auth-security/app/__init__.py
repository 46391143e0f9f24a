"""clinic-portal backend."""
