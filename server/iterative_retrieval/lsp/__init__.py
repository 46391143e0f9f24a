"""The language server: the retrieval loop as LSP commands.

With progress, cancellation and a live index of open buffers. Modules: `server` (state,
lifecycle, start-up), `commands`, `sync` (buffers and file events), `progress`, `host` (the
engine and its worker threads), `protocol` (command arguments and settings, checked).
See docs/lsp.md for the protocol.
"""
