"""The language server: the retrieval loop as LSP commands.

With progress, cancellation and a live index of open buffers. Modules: `server` (lifecycle,
start-up), `state` (the server's state and operations), `commands`, `sync` (buffers and file
events), `progress`, `rpc` (pygls's protocol with our hooks, typed command arguments),
`protocol` (command names, configuration and argument checks), `documents` (buffers cut into
lines as lines.py cuts them). See docs/lsp.md for the protocol.
"""
