"""docsearch-api: full-text search over the documentation archive."""

__version__ = "0.14.2"
