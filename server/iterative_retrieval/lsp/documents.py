"""pygls's buffers, cut into lines as lines.py cuts them.

pygls cuts with str.splitlines(), which also breaks at form feeds, U+2028 and the like: an
editor's incremental edit below one landed on another line than the editor meant.
"""

from __future__ import annotations

from pygls.workspace import TextDocument, Workspace

from ..lines import split_lines_keeping_ends


class LineDocument(TextDocument):
    """pygls's buffer, with lines ending at "\\n", "\\r\\n" or a lone "\\r" only."""

    @property
    def lines(self) -> tuple[str, ...]:
        return tuple(split_lines_keeping_ends(self.source))


class LineWorkspace(Workspace):
    """pygls's workspace, making LineDocuments (installed by the protocol at `initialize`)."""

    def _create_text_document(self, doc_uri: str, source: str | None = None,
                              version: int | None = None,
                              language_id: str | None = None) -> TextDocument:
        return LineDocument(doc_uri, source=source, version=version, language_id=language_id,
                            sync_kind=self._sync_kind, position_codec=self.position_codec)
