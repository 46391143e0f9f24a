"""The live index: open buffers, saved files, watched files, file operations.

An open buffer's text wins over the disk (also for a file that does not exist yet, as long as it
is inside a workspace folder); closing it brings the disk back. Saved, created, deleted and
renamed files are re-read one by one; a folder, or a burst of changes, triggers a refresh (a stat
of every file, re-reading only what changed). Every update runs on one ordered worker thread, and
buffer updates are coalesced: a burst of keystrokes costs one re-index of the latest text.
"""

from __future__ import annotations

import asyncio
import os
import threading
from typing import TYPE_CHECKING

from lsprotocol import types
from pygls.uris import to_fs_path
from pygls.workspace import TextDocument, Workspace

from ..engine import Engine
from ..lines import split_lines_keeping_ends

if TYPE_CHECKING:
    from .server import RetrievalServer

BULK_CHANGES = 300
"""More changes than this at once (a branch switch) re-scan the disk instead."""

_FILE_OPS = types.FileOperationRegistrationOptions(filters=[
    types.FileOperationFilter(scheme="file", pattern=types.FileOperationPattern(glob="**/*")),
])


class LineDocument(TextDocument):
    """pygls's buffer, cut into lines as lines.py cuts them.

    pygls cuts with str.splitlines(), which also breaks at form feeds, U+2028 and the like:
    an editor's incremental edit below one landed on another line than the editor meant.
    """

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


class Buffers:
    """The latest unsaved text per path, waiting for the ordered thread to index it."""

    def __init__(self) -> None:
        self._latest: dict[str, str] = {}
        self._lock = threading.Lock()

    def put(self, path: str, text: str) -> bool:
        """Store the text; True when no update for this path is queued yet."""
        with self._lock:
            first = path not in self._latest
            self._latest[path] = text
        return first

    def take(self, path: str) -> str | None:
        with self._lock:
            return self._latest.pop(path, None)

    def drop(self, path: str) -> None:
        with self._lock:
            self._latest.pop(path, None)


def set_buffer(ls: RetrievalServer, path: str, text: str) -> None:
    buffers: Buffers = ls.buffers
    if buffers.put(path, text):

        def apply(e: Engine) -> None:
            latest = buffers.take(path)
            if latest is not None:
                e.set_document(path, latest)

        ls.host.submit_update(apply)


def close_buffer(ls: RetrievalServer, path: str) -> None:
    ls.buffers.drop(path)
    ls.host.submit_update(lambda e: e.close_document(path))


def replay_documents(ls: RetrievalServer) -> None:
    """Index every open buffer again (a new engine, or a folder was added)."""
    try:
        docs = list(ls.workspace.text_documents.values())
    except RuntimeError:  # before initialize
        return
    for doc in docs:
        path = to_fs_path(doc.uri)
        if path is not None:
            set_buffer(ls, path, doc.source)


def files_changed(ls: RetrievalServer, paths: list[str], deleted: frozenset[str] = frozenset()):
    """Re-read these files; a folder among them, or too many, re-scans the disk instead."""
    if not paths:
        return
    if len(paths) > BULK_CHANGES:
        ls.schedule_refresh()
        return
    loop = asyncio.get_running_loop()

    def apply(e: Engine) -> None:
        folders = [p for p in paths if os.path.isdir(p)
                   or p in deleted and not os.path.splitext(p)[1]]
        e.files_changed([p for p in paths if p not in folders])
        if folders:
            loop.call_soon_threadsafe(ls.schedule_refresh)

    ls.host.submit_update(apply)


def _path(uri: str) -> str | None:
    return to_fs_path(uri)


def register(server: RetrievalServer) -> None:
    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: RetrievalServer, params: types.DidOpenTextDocumentParams) -> None:
        path = _path(params.text_document.uri)
        if path is not None:
            set_buffer(ls, path, params.text_document.text)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: RetrievalServer, params: types.DidChangeTextDocumentParams) -> None:
        path = _path(params.text_document.uri)
        if path is not None:
            doc = ls.workspace.get_text_document(params.text_document.uri)
            set_buffer(ls, path, doc.source)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: RetrievalServer, params: types.DidCloseTextDocumentParams) -> None:
        path = _path(params.text_document.uri)
        if path is not None:
            close_buffer(ls, path)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls: RetrievalServer, params: types.DidSaveTextDocumentParams) -> None:
        path = _path(params.text_document.uri)
        if path is not None:
            files_changed(ls, [path])

    @server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    def did_change_watched(ls: RetrievalServer, params: types.DidChangeWatchedFilesParams) -> None:
        paths, deleted = [], set()
        for change in params.changes:
            path = _path(change.uri)
            if path is None:
                continue
            paths.append(path)
            if change.type == types.FileChangeType.Deleted:
                deleted.add(path)
        files_changed(ls, paths, frozenset(deleted))

    @server.feature(types.WORKSPACE_DID_CREATE_FILES, _FILE_OPS)
    def did_create(ls: RetrievalServer, params: types.CreateFilesParams) -> None:
        files_changed(ls, [p for f in params.files if (p := _path(f.uri))])

    @server.feature(types.WORKSPACE_DID_DELETE_FILES, _FILE_OPS)
    def did_delete(ls: RetrievalServer, params: types.DeleteFilesParams) -> None:
        paths = [p for f in params.files if (p := _path(f.uri))]
        files_changed(ls, paths, frozenset(paths))

    @server.feature(types.WORKSPACE_DID_RENAME_FILES, _FILE_OPS)
    def did_rename(ls: RetrievalServer, params: types.RenameFilesParams) -> None:
        old = [p for f in params.files if (p := _path(f.old_uri))]
        new = [p for f in params.files if (p := _path(f.new_uri))]
        files_changed(ls, old + new, frozenset(old))
