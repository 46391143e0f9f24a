"""The live index: open buffers, saved files, watched files, file operations.

An open buffer's text wins over the disk (also for a file that does not exist yet, as long as it
is inside a workspace folder); closing it brings the disk back. Saved, created, deleted and
renamed files are re-read one by one; a folder, or a burst of changes, triggers a refresh (a stat
of every file, re-reading only what changed). Every update runs on one ordered worker thread, and
buffer updates are coalesced: a burst of keystrokes costs one re-index of the latest text
(state.RetrievalServer.set_buffer and files_changed).
"""

from __future__ import annotations

from lsprotocol import types
from pygls.uris import to_fs_path

from .state import RetrievalServer

_FILE_OPS = types.FileOperationRegistrationOptions(filters=[
    types.FileOperationFilter(scheme="file", pattern=types.FileOperationPattern(glob="**/*")),
])


def did_open(ls: RetrievalServer, params: types.DidOpenTextDocumentParams) -> None:
    path = to_fs_path(params.text_document.uri)
    if path is not None:
        ls.set_buffer(path, params.text_document.text)


def did_change(ls: RetrievalServer, params: types.DidChangeTextDocumentParams) -> None:
    path = to_fs_path(params.text_document.uri)
    if path is not None:
        ls.set_buffer(path, ls.workspace.get_text_document(params.text_document.uri).source)


def did_close(ls: RetrievalServer, params: types.DidCloseTextDocumentParams) -> None:
    path = to_fs_path(params.text_document.uri)
    if path is not None:
        ls.close_buffer(path)


def did_save(ls: RetrievalServer, params: types.DidSaveTextDocumentParams) -> None:
    path = to_fs_path(params.text_document.uri)
    if path is not None:
        ls.files_changed([path])


def did_change_watched(ls: RetrievalServer, params: types.DidChangeWatchedFilesParams) -> None:
    paths, deleted = [], set()
    for change in params.changes:
        path = to_fs_path(change.uri)
        if path is None:
            continue
        paths.append(path)
        if change.type == types.FileChangeType.Deleted:
            deleted.add(path)
    ls.files_changed(paths, frozenset(deleted))


def did_create(ls: RetrievalServer, params: types.CreateFilesParams) -> None:
    ls.files_changed([p for f in params.files if (p := to_fs_path(f.uri))])


def did_delete(ls: RetrievalServer, params: types.DeleteFilesParams) -> None:
    paths = [p for f in params.files if (p := to_fs_path(f.uri))]
    ls.files_changed(paths, frozenset(paths))


def did_rename(ls: RetrievalServer, params: types.RenameFilesParams) -> None:
    old = [p for f in params.files if (p := to_fs_path(f.old_uri))]
    new = [p for f in params.files if (p := to_fs_path(f.new_uri))]
    ls.files_changed(old + new, frozenset(old))


def register(server: RetrievalServer) -> None:
    """Every buffer and file notification of the live index."""
    server.feature(types.TEXT_DOCUMENT_DID_OPEN)(did_open)
    server.feature(types.TEXT_DOCUMENT_DID_CHANGE)(did_change)
    server.feature(types.TEXT_DOCUMENT_DID_CLOSE)(did_close)
    server.feature(types.TEXT_DOCUMENT_DID_SAVE)(did_save)
    server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)(did_change_watched)
    server.feature(types.WORKSPACE_DID_CREATE_FILES, _FILE_OPS)(did_create)
    server.feature(types.WORKSPACE_DID_DELETE_FILES, _FILE_OPS)(did_delete)
    server.feature(types.WORKSPACE_DID_RENAME_FILES, _FILE_OPS)(did_rename)
