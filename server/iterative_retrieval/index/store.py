"""The persistent index of one root: files, symbols, imports and a fielded FTS5 text index.

SQLite from the standard library keeps it in one file in the cache folder: transactions make a
killed process harmless, FTS5 does BM25 in C, and an update re-reads only files whose size or
modification time changed. A cache that is corrupt or of another schema version is rebuilt.
Only the holder of the index's build lock creates, deletes or fills it (buildlock.py).

This module opens, creates and writes the database; reads.py reads it, workers.py parses the
files to store, parse.py makes their rows.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import re
import sqlite3
import threading
import time
from collections.abc import Callable, Container, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..buildlock import BuildLock, WaitStopped
from ..config import default_cache_dir
from ..faults import REBUILD, IndexUnavailable, diagnose, lock_timeout
from ..models import IndexStats, SymbolRows
from ..workspace import Scope, is_inside
from . import versions, workers
from .classify import CLASSIFIER_VERSION, classify
from .parse import (
    Parsed,
    Row,
    bad_name_row,
    language_for,
    name_key,
    parse_text,
    read_and_parse,
    to_row,
)
from .reads import IndexReads, pack_outline

log = logging.getLogger("iterative_retrieval.index")

SCHEMA_VERSION = 17
"""The index format: each has a file of its own (index/versions.py), and a file that holds another
is rebuilt. 17: a word that ends in -er stems without it after any other suffix (`renderers`,
`rendered` and `render` meet; were `render`, `render`, `rend`); 16: an API reference's HTML page
(jazzy, javadoc, Doxygen, rustdoc, Sphinx) is skipped as `generated`; 15: a file whose header says
a tool wrote it (Bison, flex, `Code generated … DO NOT EDIT`) is skipped as `generated`; 14: an
acronym's plural in a name is the acronym (`allowedURLs`: allowed, url; was UR, Ls); 13: a
browserify or webpack bundle is skipped as `generated` (by its prelude), which an earlier index
outlines as source, and an object literal's one-line arrow members (`onData: (c) => { push(c) },`)
are definitions; 12: an anonymous JavaScript class (`export default class extends Controller`) is
the module's `default`, not a class named `extends`, and an object literal's one-line methods
(`onError(err) { log(err) },`) are definitions; 11: a JavaScript template literal nested in
another's `${…}` no longer ends the outer one (the rest of the file was misread); 10: JavaScript
object literals' functions are definitions; 9: JavaScript's function declarations inside function
bodies are definitions; 8: JavaScript's assignments of functions (`Reply.prototype.hijack =
function`) are definitions, which an earlier index lacks; 7: credential files are recognised by
content and by link target (skipped `secret`), which an earlier index may hold."""
STORE_BATCH = 64
"""Files written per hold of the index lock (and per progress report): a small batch keeps
buffer updates quick during a first index."""
COMMIT_ROWS = 1024
"""Files per transaction of a refresh in a process with one thread (the command line). Each
commit flushes FTS5's pending terms into a new segment that later merges redo: committing every
1024 files instead of every 64 took a fifth less of the instructions of storing a first index.
A host with threads (the language and MCP servers) commits every batch, so that what it has
indexed is visible at once to other readers and kept if it is killed; there a buffer update
between batches commits what was stored so far (complete rows only) before its own write."""

Progress = Callable[[int, int], None]


def index_path_for(root: Path, cache_dir: str | os.PathLike[str] | None) -> Path:
    """One database per root, keyed by its real path, outside the workspace."""
    base = Path(cache_dir) if cache_dir else default_cache_dir()
    key = hashlib.sha1(str(root).encode("utf-8", "surrogateescape")).hexdigest()[:16]
    name = re.sub(r"[^A-Za-z0-9_.-]", "_", root.name)[:40] or "root"
    return base / versions.file_name(f"{name}-{key}", SCHEMA_VERSION)


def _set_wal(conn: sqlite3.Connection) -> None:
    """Put the database in WAL mode. Several processes opening a new file at once race to
    switch its journal mode, and SQLite answers the losers SQLITE_BUSY at once, without its
    busy handler: they try again, briefly backing off, for up to the busy timeout."""
    deadline = time.monotonic() + lock_timeout()
    delay = 0.01
    while True:
        try:
            conn.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as exc:
            fault = diagnose(exc)
            if fault is None or "locked" not in fault.problem or time.monotonic() >= deadline:
                raise
        time.sleep(delay)
        delay = min(delay * 2, 0.25)


@dataclass
class _Plan:
    """What one refresh must do, worked out from the files' listing and the table."""

    known: dict[str, tuple[int, int, int, str | None]]
    """path → (size, mtime_ns, overlay, skipped) of the rows in the table."""
    todo: list[tuple[str, str, int, int, int]] = field(default_factory=list)
    """(rel, abs, size, mtime_ns, max bytes) of each file to read."""
    removed: list[str] = field(default_factory=list)
    skipped: list[Row] = field(default_factory=list)
    """Rows of files counted and never read: secret files, names that are not UTF-8."""
    unchanged: int = 0

    @property
    def work(self) -> bool:
        return bool(self.todo or self.removed or self.skipped)


def _listing(scope: Scope) -> list[tuple[str, str, os.stat_result, bool]]:
    """(rel, abs, stat, secret) of every file in scope that can be stat'ed, secret files too
    (the index counts them, reads none)."""
    out = []
    for wf in scope.files(with_secrets=True):
        try:
            out.append((wf.rel, wf.abs, wf.stat or os.stat(wf.abs), wf.secret))
        except OSError:
            continue
    return out


_SCHEMA = (
    "CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT)",
    """CREATE TABLE files(
        id INTEGER PRIMARY KEY, path TEXT UNIQUE NOT NULL, size INTEGER, mtime_ns INTEGER,
        hash TEXT, lang TEXT, kind TEXT, lines INTEGER, skipped TEXT, overlay INTEGER DEFAULT 0)""",
    """CREATE TABLE symbols(
        file_id INTEGER, name TEXT, lname TEXT, kind TEXT, start INTEGER, end INTEGER,
        terms TEXT)""",
    "CREATE INDEX symbols_lname ON symbols(lname)",
    "CREATE INDEX symbols_file ON symbols(file_id)",
    "CREATE TABLE outlines(file_id INTEGER PRIMARY KEY, rows BLOB)",
    "CREATE TABLE imports(file_id INTEGER, target TEXT)",
    "CREATE INDEX imports_file ON imports(file_id)",
    """CREATE VIRTUAL TABLE fts USING fts5(
        path, symbols, body, tokenize="unicode61 remove_diacritics 0")""",
    "CREATE VIRTUAL TABLE vocab USING fts5vocab(fts, 'row')",
)


class Index(IndexReads):
    """The index of one root. Thread-safe: one connection behind a lock."""

    def __init__(self, root: Path, db_path: Path | None, discard: bool = False):
        """Open (or create) the database at db_path; None: a private in-memory database.

        A damaged database, or one of another schema, is rebuilt (`discard` forces that); one
        that cannot be used now (locked, read-only, full disk) raises IndexUnavailable and is
        left as it is.
        """
        self.root = root
        self.db_path = db_path if db_path is not None else Path(":memory:")
        self.in_memory = db_path is None
        self.problem: str | None = None
        """Why this index is in memory instead of in the cache folder (None when it is not)."""
        self.needs_refresh = self.in_memory or discard
        """True until a full refresh has filled a new database: it must not answer before."""
        self._lock = threading.RLock()
        self.commit_rows: int | None = None
        """Files per transaction of a refresh; None: by the host (see COMMIT_ROWS)."""
        self._symbols: dict[int, SymbolRows] = {}
        """Memo of symbols_of_many: file id → its symbols."""
        self._data_version: int | None = None
        self._symbols_held = 0
        self._bulk_on = False
        self._reader: sqlite3.Connection | None = None
        """A second connection, for `counts` (opened on first use)."""
        self._reader_lock = threading.Lock()
        self._reads: dict[str, Any] = {}
        """Memos of all_files, definitions, search_term, doc_freqs, file_count and imports_of;
        any write empties them."""
        self.build_lock = None if self.in_memory else BuildLock(self.db_path)
        """Held by whoever creates, deletes or fills the database (buildlock.py)."""
        self._said_waiting = False
        conn: sqlite3.Connection | None = None
        try:
            conn = self.conn = self._open(discard)
            self._ensure_indexes(when_free=True)
            self._clear_overlays()
            self._reclassify()
        except (sqlite3.DatabaseError, OSError) as exc:
            if conn is not None:
                conn.close()
            raise (diagnose(exc) or exc) from exc

    # -- opening -----------------------------------------------------------------------------

    @classmethod
    def open(
        cls, root: Path, cache_dir: str | os.PathLike[str] | None = None, discard: bool = False
    ) -> Index:
        path = index_path_for(root, cache_dir)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise (diagnose(exc) or exc) from exc
        new = not path.exists()
        try:
            index = cls(root, path, discard)
        except IndexUnavailable as fault:
            if fault.remedy != REBUILD or discard:
                raise
            # Damage that the schema check did not reach (random writes into the pages): it
            # used to send every later run to an in-memory index, for ever.
            log.warning("index at %s unusable (%s): rebuilding", path, fault.problem)
            index = cls(root, path, discard=True)
        versions.opened(path, SCHEMA_VERSION, new)
        return index

    @classmethod
    def memory(cls, root: Path, problem: str) -> Index:
        """A private, empty in-memory index, used when the cache folder's cannot be."""
        idx = cls(root, None)
        idx.problem = problem
        return idx

    def _open(self, discard: bool = False) -> sqlite3.Connection:
        conn: sqlite3.Connection | None
        if self.in_memory:
            conn = self._connect()
            self._create(conn)
            return conn
        if not discard:
            conn = self._connect()
            try:
                if self._schema_ok(conn):
                    return conn  # the usual case: no lock
            except BaseException:
                conn.close()
                raise
            conn.close()
        # Creating the schema, or deleting a damaged file: only while holding the lock, and
        # only if it still needs it then (another process may have just built it).
        assert self.build_lock is not None
        with self.build_lock.held(on_wait=self._say_waiting):
            conn, state = (None, "bad") if discard else self._state()
            if state == "ok":
                assert conn is not None
                return conn
            if conn is None:  # damaged: the file goes, with its journal
                for suffix in ("", "-wal", "-shm"):
                    with contextlib.suppress(FileNotFoundError):
                        os.unlink(str(self.db_path) + suffix)
                conn = self._connect()
            try:
                self._create(conn)
            except BaseException:
                conn.close()
                raise
            self.needs_refresh = True
            return conn

    def _state(self) -> tuple[sqlite3.Connection | None, str]:
        """A connection and "ok" (this schema) or "empty" (no table yet); (None, "bad") for a
        damaged file, or one of another schema. Locked, read-only, full: raised as it is."""
        conn = None
        try:
            conn = self._connect()
            if self._schema_ok(conn):
                return conn, "ok"
            if not conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]:
                return conn, "empty"
            stored = _stored_version(conn)
            if stored is not None and stored != SCHEMA_VERSION:
                # an upgrade, not a fault: say so plainly, once
                log.warning("index at %s was made by %s version of iterative-retrieval "
                            "(index format %d, now %d): rebuilding it", self.db_path,
                            "an earlier" if stored < SCHEMA_VERSION else "a later", stored,
                            SCHEMA_VERSION)
            else:
                log.warning("index at %s is damaged: rebuilding", self.db_path)
        except sqlite3.DatabaseError as exc:
            fault = diagnose(exc)
            if fault is not None and fault.remedy != REBUILD:
                if conn is not None:
                    conn.close()
                raise fault from exc  # not ours to delete
            log.warning("index at %s unusable (%s): rebuilding", self.db_path, exc)
        if conn is not None:
            conn.close()
        return None, "bad"

    def _say_waiting(self) -> None:
        if not self._said_waiting:
            self._said_waiting = True
            log.warning("%s: another process is indexing it; waiting for it to finish",
                        self.root)

    def _connect(self) -> sqlite3.Connection:
        conn = sqlite3.connect(self.db_path, check_same_thread=False, timeout=lock_timeout())
        try:
            _set_wal(conn)
        except BaseException:
            conn.close()
            raise
        conn.execute("PRAGMA synchronous=NORMAL")
        conn.execute("PRAGMA temp_store=MEMORY")
        return conn

    def _schema_ok(self, conn: sqlite3.Connection) -> bool:
        try:
            if _stored_version(conn) != SCHEMA_VERSION:
                return False
            conn.execute("SELECT count(*) FROM files").fetchone()
            conn.execute("SELECT rowid FROM fts WHERE fts MATCH 'x' LIMIT 1").fetchall()
            return True
        except sqlite3.DatabaseError as exc:
            fault = diagnose(exc)
            if fault is not None and fault.remedy != REBUILD:
                raise  # locked or unreadable now: not a reason to delete it
            return False

    def _create(self, conn: sqlite3.Connection) -> None:
        """The schema, in one transaction: a reader sees all of it or none."""
        conn.commit()
        conn.execute("BEGIN IMMEDIATE")
        try:
            for statement in _SCHEMA:
                conn.execute(statement)
            conn.execute(
                "INSERT INTO meta VALUES('schema_version', ?), ('root', ?)",
                (str(SCHEMA_VERSION),
                 os.fsencode(self.root).decode("utf-8", "backslashreplace")),
            )
        except BaseException:
            conn.rollback()
            raise
        conn.commit()

    def _clear_overlays(self) -> None:
        """Buffers of an earlier process are gone: their rows are forgotten, the disk re-read."""
        with self._writing():
            for (rel,) in self.conn.execute("SELECT path FROM files WHERE overlay=1").fetchall():
                self._delete(rel)

    def _reclassify(self) -> None:
        """Store every file's kind by today's classify() if another version stored them."""
        with self._lock:
            row = self.conn.execute("SELECT value FROM meta WHERE key='classifier'").fetchone()
            if row and row[0] == CLASSIFIER_VERSION:
                return
            rows = self.conn.execute("SELECT id, path, lang FROM files").fetchall()
            with self.conn:
                self.conn.executemany("UPDATE files SET kind=? WHERE id=?",
                                      [(classify(path, lang), fid) for fid, path, lang in rows])
                self.conn.execute("INSERT OR REPLACE INTO meta VALUES('classifier', ?)",
                                  (CLASSIFIER_VERSION,))

    def close(self) -> None:
        with self._lock:
            self.conn.close()
        with self._reader_lock:
            if self._reader is not None:
                self._reader.close()
                self._reader = None

    # -- updating ----------------------------------------------------------------------------

    def refresh(
        self,
        scope: Scope,
        max_file_bytes: int,
        progress: Progress | None = None,
        should_stop: Callable[[], bool] | None = None,
    ) -> IndexStats:
        """Bring the index up to date with the files on disk; re-read only what changed.

        Only the holder of the build lock writes: a refresh with something to do waits while
        another process builds, then plans again from the table (that one has usually done the
        work). Stopped while it waits, it writes nothing.
        """
        t0 = time.perf_counter()
        listing = _listing(scope)
        plan = self._plan(listing, max_file_bytes)
        done = 0
        if plan.work or self.needs_refresh:
            try:
                with self._building(should_stop):
                    plan = self._plan(listing, max_file_bytes)
                    done = self._apply(plan, progress, should_stop)
            except WaitStopped:
                pass
        with self._lock:
            self._check_version()  # then count: the memos below hold as of this version
            files, skipped, _ = self._counts(self.conn)
            # the retrieval that follows a refresh reports them: one scan of the file table
            self._reads["file_count"], self._reads["skipped"] = files, dict(skipped)
        return IndexStats(
            files=files + sum(skipped.values()), indexed=done, unchanged=plan.unchanged,
            removed=len(plan.removed), skipped=skipped, seconds=round(time.perf_counter() - t0, 3),
        )

    @contextlib.contextmanager
    def _building(self, should_stop: Callable[[], bool] | None = None) -> Iterator[None]:
        """The build lock (none in memory), touched while SQLite works for long (an index
        built over a million symbols), so that waiters see this process is alive."""
        if self.build_lock is None:
            yield
            return
        with self.build_lock.held(should_stop, self._say_waiting):
            with self._lock:
                self.conn.set_progress_handler(self.build_lock.beat, 100_000)
            try:
                yield
            finally:
                with self._lock:
                    self.conn.set_progress_handler(None, 0)

    def _plan(self, listing: list[tuple[str, str, os.stat_result, bool]],
              max_file_bytes: int) -> _Plan:
        """What a refresh must read, remove and record, against the table as it is now."""
        with self._lock:
            known = {
                path: (size, mtime, overlay, skipped)
                for path, size, mtime, overlay, skipped in self.conn.execute(
                    "SELECT path, size, mtime_ns, overlay, skipped FROM files"
                )
            }
        plan = _Plan(known)
        present: set[str] = set()
        for rel, ab, st, secret in listing:
            key = name_key(rel)
            if key is not None:
                present.add(key)
                prev = known.get(key)
                if prev and prev[0] == st.st_size and prev[1] == st.st_mtime_ns:
                    plan.unchanged += 1
                else:
                    plan.skipped.append(bad_name_row(key, st))
                continue
            present.add(rel)
            prev = known.get(rel)
            if prev and prev[2]:
                plan.unchanged += 1  # an open buffer wins over the disk
                continue
            if prev and prev[0] == st.st_size and prev[1] == st.st_mtime_ns \
                    and (prev[3] == "secret") >= secret:
                plan.unchanged += 1
                continue
            if secret:  # counted, never read
                plan.skipped.append(to_row(Parsed(rel, st.st_size, st.st_mtime_ns, "",
                                                  language_for(rel), 0, "secret")))
                continue
            plan.todo.append((rel, ab, st.st_size, st.st_mtime_ns, max_file_bytes))
        plan.removed = [p for p, v in known.items() if p not in present and not v[2]]
        return plan

    def _apply(self, plan: _Plan, progress: Progress | None,
               should_stop: Callable[[], bool] | None) -> int:
        """Carry out a plan (under the build lock); the number of files read."""
        todo, known = plan.todo, plan.known
        with self._writing():
            for p in plan.removed:
                self._delete(p)
        rows = workers.parse_all(todo)
        done = committed = 0
        every = self.commit_rows or (
            COMMIT_ROWS if threading.active_count() == 1 else STORE_BATCH)
        batch: list[Row] = []
        try:
            # before any row is stored: SQLite refuses to change `synchronous` in a transaction
            self._bulk(len(todo) >= workers.PARALLEL_THRESHOLD, fresh=not known)
            if plan.skipped:
                self._store(plan.skipped, known, commit=False)
            for row in rows:
                batch.append(row)
                done += 1
                if len(batch) >= STORE_BATCH:
                    commit = done - committed >= every
                    self._store(batch, known, commit)
                    committed = done if commit else committed
                    batch = []
                    if progress:
                        progress(done, len(todo))
                    if should_stop and should_stop():
                        break
            if batch:
                self._store(batch, known, commit=False)
        finally:
            with self._lock:
                self.conn.commit()  # what was stored, also when stopped or failed on a later row
            close = getattr(rows, "close", None)
            if close is not None:
                close()  # a stopped refresh ends its worker processes now
            self._bulk(False)
        self._ensure_indexes()
        if done == len(todo):
            self.needs_refresh = False
        if progress and todo:
            progress(done, len(todo))
        return done

    def _bulk(self, on: bool, fresh: bool = False) -> None:
        """Many files to store (a first index): no fsync per checkpoint until they are in.

        The checkpoints' fsyncs were a third of a first index's storing time on Go, time the
        parse workers spent waiting. A crash of the process loses nothing written; a power cut
        before the system has written its cache back can leave the file damaged, and a damaged
        index is rebuilt from the files. The last checkpoint runs before synchronous is back to
        NORMAL too: with it, its fsync of the whole new file (0.3-0.5 s of waiting for the disk
        after a 10k-file index) was the last thing a cold index waited for.

        Into an empty index (`fresh`), the symbols' name index is built once at the end: kept
        up to date row by row, its random inserts cost a quarter of the symbol rows' time on
        Go and half on 1.4M symbols, growing faster than the tree. Nothing reads symbols by
        name before a first index is complete; if the process dies before the end, the
        next open builds the index (`_ensure_indexes`).
        """
        if self.in_memory or on == self._bulk_on:
            return
        self._bulk_on = on  # first: a failure half-way still ends in the normal state
        with self._lock:
            if on and fresh:
                self.conn.execute("DROP INDEX IF EXISTS symbols_lname")
            if not on:
                self._ensure_indexes()
                self.conn.execute("PRAGMA wal_checkpoint(PASSIVE)")
            self.conn.execute(f"PRAGMA synchronous={'OFF' if on else 'NORMAL'}")

    def _ensure_indexes(self, when_free: bool = False) -> None:
        """The symbols' name index, if a first index stopped before building it (_bulk).

        With `when_free` (opening), only if no one holds the build lock: a builder makes it at
        its end, and making it meanwhile would slow every insert of that builder."""
        if self.conn.execute("SELECT 1 FROM sqlite_master WHERE type='index' AND"
                             " name='symbols_lname'").fetchone():
            return
        if when_free and self.build_lock is not None:
            with self.build_lock.attempt() as got:
                if got:
                    self._ensure_indexes()
            return
        with self.conn:
            self.conn.execute("CREATE INDEX IF NOT EXISTS symbols_lname ON symbols(lname)")

    @contextlib.contextmanager
    def _writing(self) -> Iterator[None]:
        """The lock and a transaction of one's own. Rows a refresh stored without committing
        (COMMIT_ROWS) are committed first, so that a failure here rolls back only this."""
        with self._lock:
            self.conn.commit()
            with self.conn:
                yield

    def _store(self, batch: list[Row], known: Container[str] | None = None,
               commit: bool = True) -> None:
        """Write rows read from disk; an open buffer that got in meanwhile wins over them.

        `known` holds the paths that were in the index when the refresh began: any other path is
        inserted straight away (no look-up), unless a buffer of that path arrived since. Without
        `commit` the rows wait in the open transaction (COMMIT_ROWS); a failure rolls it back.
        """
        with self._lock:
            try:
                for row in batch:
                    if (known is not None and row[0] not in known
                            and self._insert(row, False, True)):
                        continue
                    hit = self.conn.execute(
                        "SELECT overlay FROM files WHERE path=?", (row[0],)).fetchone()
                    if hit and hit[0]:
                        continue  # the open buffer wins
                    self._delete(row[0])
                    self._insert(row, overlay=False)
            except BaseException:
                self.conn.rollback()
                raise
            if commit:
                self.conn.commit()

    def _insert(self, row: Row, overlay: bool, if_new: bool = False) -> bool:
        """Insert one file's rows; with `if_new`, nothing happens (False) if the path is there."""
        (rel, size, mtime_ns, digest, lang, kind, lines, skipped, path_text, symbol_text,
         body_text, symbols, imports) = row
        cur = self.conn.execute(
            f"INSERT {'OR IGNORE ' if if_new else ''}INTO files(path, size, mtime_ns, hash, lang,"
            " kind, lines, skipped, overlay) VALUES(?,?,?,?,?,?,?,?,?)",
            (rel, size, mtime_ns, digest, lang, kind, lines, skipped, int(overlay)),
        )
        if not cur.rowcount or cur.lastrowid is None:
            return False
        fid = cur.lastrowid
        self._symbols.pop(fid, None)
        self._reads.clear()
        if skipped:
            return True
        self.conn.execute(
            "INSERT INTO fts(rowid, path, symbols, body) VALUES(?,?,?,?)",
            (fid, path_text, symbol_text, body_text),
        )
        if symbols:
            self.conn.executemany(
                "INSERT INTO symbols VALUES(?,?,?,?,?,?,?)", [(fid, *s) for s in symbols]
            )
            self.conn.execute("INSERT INTO outlines VALUES(?,?)", (fid, pack_outline(fid, symbols)))
        if imports:
            self.conn.executemany("INSERT INTO imports VALUES(?,?)", [(fid, t) for t in imports])
        return True

    def _delete(self, rel: str) -> None:
        row = self.conn.execute("SELECT id FROM files WHERE path=?", (rel,)).fetchone()
        if not row:
            return
        fid = row[0]
        self._symbols.pop(fid, None)
        self._reads.clear()
        self.conn.execute("DELETE FROM fts WHERE rowid=?", (fid,))
        self.conn.execute("DELETE FROM symbols WHERE file_id=?", (fid,))
        self.conn.execute("DELETE FROM outlines WHERE file_id=?", (fid,))
        self.conn.execute("DELETE FROM imports WHERE file_id=?", (fid,))
        self.conn.execute("DELETE FROM files WHERE id=?", (fid,))

    def put_text(self, rel: str, text: str) -> None:
        """Index an open buffer's text; it wins over the disk until `drop_overlay`."""
        digest = hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()
        row = to_row(parse_text(rel, text, len(text), 0, digest))
        with self._writing():
            self._delete(rel)
            self._insert(row, overlay=True)

    def drop_overlay(self, rel: str, scope: Scope, max_file_bytes: int) -> None:
        """Forget a closed buffer: the file on disk (if any, and in scope) is indexed again."""
        with self._writing():
            self._delete(rel)
        ab = os.path.join(self.root, rel)
        if scope.admits(rel) and os.path.isfile(ab):
            self.update_paths([rel], max_file_bytes)

    def update_paths(self, rels: Iterable[str], max_file_bytes: int) -> None:
        """Re-read the given files from disk (saved, created, deleted, renamed)."""
        batch = []
        with self._lock:
            for rel in rels:
                row = self.conn.execute(
                    "SELECT overlay FROM files WHERE path=?", (rel,)
                ).fetchone()
                if row and row[0]:
                    continue  # the open buffer wins
                ab = os.path.join(self.root, rel)
                try:
                    if not is_inside(self.root, ab):
                        raise FileNotFoundError(ab)  # through a symlink out of the root
                    st = os.stat(ab)
                except OSError:
                    with self.conn:
                        self._delete(rel)
                    continue
                batch.append(to_row(
                    read_and_parse((rel, ab, st.st_size, st.st_mtime_ns, max_file_bytes))))
        if batch:
            self._store(batch)


def _stored_version(conn: sqlite3.Connection) -> int | None:
    """The index format an index file says it has; None when it says none, or nonsense. An
    SQLite error is the caller's to diagnose (a locked index is no reason to rebuild it)."""
    row = conn.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()
    try:
        return int(row[0]) if row else None
    except (ValueError, TypeError):
        return None
