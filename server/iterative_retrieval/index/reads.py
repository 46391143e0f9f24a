"""Reading the index: the file list, the fielded text search, document frequencies,
definitions, outlines and imports, each memoised until the next write.

`IndexReads` is the reading half of `store.Index` (one class over one connection and its lock):
a retrieval asks for the same task words, names and files in every cycle, and the server's next
retrieval mostly for the same again, so every read keeps what it found until a write (of this
connection, or of another process: `PRAGMA data_version`) empties the memos. Each memo has a
cap, past which it starts afresh.
"""

from __future__ import annotations

import marshal
import sqlite3
import threading
from collections.abc import Callable, Iterable
from operator import itemgetter
from pathlib import Path
from typing import Any, NamedTuple, TypeVar

from ..faults import diagnose, lock_timeout
from ..models import Symbol, SymbolRows

T = TypeVar("T")

# BM25F column weights: a name in the path or a definition says more than a mention in the body.
W_PATH, W_SYMBOLS, W_BODY = 4.0, 3.0, 1.0
SYMBOLS_MEMO_MAX = 200_000
"""Symbols that symbols_of_many keeps in memory (about 40 MB); past that it starts afresh."""
DEFINITIONS_MEMO_MAX = 50_000
"""Names whose definitions are kept in memory between calls."""
SEARCH_MEMO_MAX = 300_000
"""(file, score) pairs of search_term answers kept in memory (about 30 MB); past that, afresh."""
DOC_FREQS_MEMO_MAX = 100_000
"""Terms whose document frequency is kept in memory between calls."""


class FileRow(NamedTuple):
    """One indexed file (a tuple: every retrieval makes one per file of the tree)."""

    id: int
    path: str
    lang: str | None
    kind: str
    """source, test, doc, example, config, tool."""
    lines: int


def pack_outline(fid: int, symbols: list[tuple]) -> bytes:
    """A file's symbols as symbols_of_many returns them, (file id, name, kind, start, end,
    terms) in line order, in one value: reading a candidate's thousands of definitions is then
    one row and a C-level load, not a row and a tuple per definition (a third of a CLI run's
    reads on a 10k-file tree)."""
    rows = [(fid, name, kind, start, end, terms) for name, _, kind, start, end, terms in symbols]
    rows.sort(key=itemgetter(3))  # stable: definitions that start on one line keep their order
    return marshal.dumps(rows)


def unpack_outline(packed: bytes) -> list[tuple[int, str, str, int, int, str]]:
    rows = marshal.loads(packed)
    if not isinstance(rows, list):
        raise TypeError("not a list of symbol rows")
    return rows


class IndexReads:
    """The reads of one index, memoised (see the module's docstring); store.Index holds the
    connection, the lock and the memos they use."""

    conn: sqlite3.Connection
    db_path: Path
    in_memory: bool
    _lock: threading.RLock
    _reads: dict[Any, Any]
    _symbols: dict[int, SymbolRows]
    _symbols_held: int
    _data_version: int | None
    _reader: sqlite3.Connection | None
    _reader_lock: threading.Lock

    def file_count(self) -> int:
        with self._lock:
            self._check_version()
            n = self._reads.get("file_count")
            if n is None:
                n = self._reads["file_count"] = self.conn.execute(
                    "SELECT count(*) FROM files WHERE skipped IS NULL").fetchone()[0]
            return n

    def files(self, ids: Iterable[int]) -> dict[int, FileRow]:
        ids = list(ids)
        out: dict[int, FileRow] = {}
        with self._lock:
            for i in range(0, len(ids), 500):
                chunk = ids[i : i + 500]
                q = ",".join("?" * len(chunk))
                for fid, path, lang, kind, lines in self.conn.execute(
                    f"SELECT id, path, lang, kind, lines FROM files WHERE id IN ({q})", chunk
                ):
                    out[fid] = FileRow(fid, path, lang, kind, lines)
        return out

    def all_files(self) -> list[FileRow]:
        with self._lock:
            self._check_version()
            rows = self._reads.get("all_files")
            if rows is None:
                rows = self._reads["all_files"] = list(map(FileRow._make, self.conn.execute(
                    "SELECT id, path, lang, kind, lines FROM files WHERE skipped IS NULL")))
            return list(rows)

    def derived(self, name: str) -> dict:
        """A memo for what callers work out from the index (by their own keys), emptied like
        the index's own read memos by any write."""
        with self._lock:
            self._check_version()
            return self._reads.setdefault(("derived", name), {})

    def file_maps(self) -> tuple[dict[int, FileRow], dict[str, int], list[tuple[str, str, int]]]:
        """all_files as id → row, path → id and (path, lower-case path, id), in the same order;
        memoised until the next write. Shared: callers must not change them."""
        with self._lock:
            self._check_version()
            maps = self._reads.get("file_maps")
            if maps is None:
                by_id = {f.id: f for f in self.all_files()}
                by_path = {f.path: f.id for f in by_id.values()}
                lowered = [(rel, rel.lower(), fid) for rel, fid in by_path.items()]
                maps = self._reads["file_maps"] = (by_id, by_path, lowered)
            return maps

    def search_term(self, term: str, limit: int = 5000) -> dict[int, float]:
        """file id → fielded BM25 (positive, higher is better) for one index term.

        Memoised until the next write, like the other reads: a retrieval asks for the same
        task words in every cycle, and the server's next retrieval mostly for the same again.
        The answer is shared: callers must not change it.
        """
        if not term or '"' in term:
            return {}
        with self._lock:
            self._check_version()
            memo = self._reads.setdefault("search", {})
            hits = memo.get((term, limit))
            if hits is not None:
                return hits
            try:
                rows = self.conn.execute(
                    "SELECT rowid, -bm25(fts, ?, ?, ?) FROM fts WHERE fts MATCH ? LIMIT ?",
                    (W_PATH, W_SYMBOLS, W_BODY, f'"{term}"', limit),
                ).fetchall()
            except sqlite3.OperationalError as exc:
                if diagnose(exc) is not None:
                    raise  # a storage fault, not a query FTS5 cannot parse: never answer "none"
                return {}
            held = self._reads.get("search_held", 0) + len(rows)
            if held > SEARCH_MEMO_MAX:
                memo.clear()
                held = len(rows)
            self._reads["search_held"] = held
            hits = memo[(term, limit)] = dict(rows)
        return hits

    def doc_freqs(self, terms: Iterable[str]) -> dict[str, int]:
        """term → number of files containing it (0 when absent); indexed look-ups, no full scan.

        Memoised per term until the next write (feedback asks for the same pool every cycle);
        the new ones are asked for together (one statement per 500, not one per term).
        """
        wanted = list(dict.fromkeys(terms))
        with self._lock:
            self._check_version()
            memo = self._reads.setdefault("doc_freqs", {})
            todo = [t for t in wanted if t not in memo]
            if len(memo) + len(todo) > DOC_FREQS_MEMO_MAX:
                memo.clear()
                todo = wanted
            for i in range(0, len(todo), 500):
                chunk = todo[i : i + 500]
                memo.update(dict.fromkeys(chunk, 0))
                q = ",".join("?" * len(chunk))
                memo.update(self.conn.execute(
                    f"SELECT term, doc FROM vocab WHERE term IN ({q})", chunk).fetchall())
            return {t: memo[t] for t in wanted}

    def terms_with_prefix(self, prefix: str, limit: int = 5000) -> list[str]:
        """Index terms that start with prefix (candidates for close spellings)."""
        with self._lock:
            return [t for (t,) in self.conn.execute(
                "SELECT term FROM vocab WHERE term >= ? AND term < ? LIMIT ?",
                (prefix, prefix + "\uffff", limit),
            )]

    def definitions(self, lnames: Iterable[str]) -> dict[str, list[tuple[int, Symbol]]]:
        """Lower-case name → the files and symbols that define it.

        Names in order, per chunk of 500, as the lname index returns them (sorted); memoised
        per name until the next write (each cycle asks for mostly the same names).
        """
        return self._defined(
            lnames, "definitions", "file_id, name, lname, kind, start, end", 2,
            lambda r: (r[0], Symbol(r[1], r[3], r[4], r[5])),
        )

    def definers(self, lnames: Iterable[str]) -> dict[str, list[int]]:
        """definitions without the symbols: the ids of the files defining each name, in the
        same order. Dispatch and missing context need no more, and a common name (`String`)
        is defined in thousands of places."""
        return self._defined(lnames, "definers", "file_id, lname", 1, itemgetter(0))

    def named_definers(self, lnames: Iterable[str]) -> dict[str, list[tuple[int, str]]]:
        """definers with each definition's name as written: code names what it uses in the
        definition's own case, where a task may not."""
        return self._defined(lnames, "named_definers", "file_id, name, lname", 2,
                             itemgetter(0, 1))

    def _defined(
        self, lnames: Iterable[str], memo_key: str, columns: str, lname_at: int,
        make: Callable[[tuple], T],
    ) -> dict[str, list[T]]:
        names = list({n for n in lnames if n})
        out: dict[str, list[T]] = {}
        with self._lock:
            self._check_version()
            memo = self._reads.setdefault(memo_key, {})
            todo = [n for n in names if n not in memo]
            if len(memo) + len(todo) > DEFINITIONS_MEMO_MAX:
                memo.clear()
                todo = names
            for n in todo:
                memo[n] = []
            for i in range(0, len(todo), 500):
                chunk = todo[i : i + 500]
                q = ",".join("?" * len(chunk))
                for row in self.conn.execute(
                    f"SELECT {columns} FROM symbols WHERE lname IN ({q}) ORDER BY lname, rowid",
                    chunk,
                ):
                    memo[row[lname_at]].append(make(row))
            for i in range(0, len(names), 500):
                for n in sorted(names[i : i + 500]):
                    if memo[n]:
                        out[n] = list(memo[n])
        return out

    def symbols_of_many(self, fids: list[int]) -> dict[int, SymbolRows]:
        """file id → its symbols in line order (files without any are left out).

        Memoised per file: every cycle evaluates mostly the same candidates, and a generated file
        can define thousands of names. The memo forgets a file when this connection rewrites it,
        and everything when another connection (a CLI `index`) has written to the database.
        The sequences are the memo's own, one object per file version: read-only, but readers
        may keep what they derive from it in its `derived`.
        """
        out: dict[int, SymbolRows] = {}
        with self._lock:
            memo = self._symbols_memo()
            todo = []
            for fid in fids:
                hit = memo.get(fid)
                if hit is None:
                    todo.append(fid)
                elif hit:
                    out[fid] = hit
            fetched: dict[int, list[tuple[int, str, str, int, int, str]]] = {
                fid: [] for fid in todo}
            for k in range(0, len(todo), 500):
                chunk = todo[k : k + 500]
                q = ",".join("?" * len(chunk))
                for fid, packed in self.conn.execute(
                    f"SELECT file_id, rows FROM outlines WHERE file_id IN ({q})", chunk
                ).fetchall():
                    try:
                        fetched[fid] = unpack_outline(packed)
                    except (ValueError, EOFError, TypeError):  # another Python's marshal
                        fetched[fid] = self.conn.execute(
                            "SELECT file_id, name, kind, start, end, terms FROM symbols"
                            " WHERE file_id=? ORDER BY start", (fid,)).fetchall()
            added = sum(map(len, fetched.values()))
            if self._symbols_held + added > SYMBOLS_MEMO_MAX:
                memo.clear()
                self._symbols_held = 0
            self._symbols_held += added
            for fid, rows in fetched.items():
                memo[fid] = held = SymbolRows(rows)
                if rows:
                    out[fid] = held
        return out

    def _symbols_memo(self) -> dict[int, SymbolRows]:
        self._check_version()
        return self._symbols

    def _check_version(self) -> None:
        """Empty the read memos when another connection (a CLI `index`) changed the database."""
        version = self.conn.execute("PRAGMA data_version").fetchone()[0]
        if version != self._data_version:
            self._symbols.clear()
            self._symbols_held = 0
            self._reads.clear()
            self._data_version = version

    def imports_of(self, fid: int) -> list[str]:
        """What a file imports; memoised until the next write (the graph pass asks every cycle)."""
        return self.imports_of_many([fid])[fid]

    def imports_of_many(self, fids: Iterable[int]) -> dict[int, list[str]]:
        """imports_of for several files, under one lock and one check of the memo."""
        out: dict[int, list[str]] = {}
        with self._lock:
            self._check_version()
            memo = self._reads.setdefault("imports", {})
            for fid in fids:
                targets = memo.get(fid)
                if targets is None:
                    if len(memo) >= DEFINITIONS_MEMO_MAX:
                        memo.clear()
                    targets = memo[fid] = tuple(t for (t,) in self.conn.execute(
                        "SELECT target FROM imports WHERE file_id=?", (fid,)))
                out[fid] = list(targets)
        return out

    def overlay_paths(self) -> list[str]:
        with self._lock:
            return [p for (p,) in self.conn.execute("SELECT path FROM files WHERE overlay=1")]

    def skip_reason(self, rel: str) -> str | None:
        """Why a stored file is not indexed (binary, too_large, secret...); None if it is, or
        is not stored."""
        with self._lock:
            row = self.conn.execute("SELECT skipped FROM files WHERE path=?", (rel,)).fetchone()
        return row[0] if row else None

    def file_id(self, rel: str) -> int | None:
        with self._lock:
            row = self.conn.execute(
                "SELECT id FROM files WHERE path=? AND skipped IS NULL", (rel,)
            ).fetchone()
        return row[0] if row else None

    def counts(self) -> tuple[int, dict[str, int], int]:
        """(files indexed, files skipped by reason, open buffers) as last committed.

        Read on a connection of its own, without the index lock: WAL readers do not wait for a
        writer, so `status` answers at once while a first index holds the lock for a batch
        (hundreds of milliseconds with large files, or while SQLite merges FTS segments).
        """
        if not self.in_memory:
            with self._reader_lock:
                try:
                    if self._reader is None:
                        # mode=rw: a cache file deleted meanwhile is not made anew, empty
                        self._reader = sqlite3.connect(
                            f"{self.db_path.resolve().as_uri()}?mode=rw", uri=True,
                            check_same_thread=False, timeout=lock_timeout())
                        self._reader.execute("PRAGMA query_only=1")
                    return self._counts(self._reader)
                except sqlite3.Error:  # no file, or not this index's any more: ask the writer
                    if self._reader is not None:
                        self._reader.close()
                        self._reader = None
        with self._lock:
            return self._counts(self.conn)

    @staticmethod
    def _counts(conn: sqlite3.Connection) -> tuple[int, dict[str, int], int]:
        by_state = conn.execute(
            "SELECT skipped, count(*), sum(overlay) FROM files GROUP BY skipped").fetchall()
        files = sum(n for skipped, n, _ in by_state if skipped is None)
        skipped = {reason: n for reason, n, _ in by_state if reason is not None}
        return files, skipped, sum(b or 0 for _, _, b in by_state)

    def skipped_counts(self) -> dict[str, int]:
        """Files left out, by reason; memoised like file_count (every retrieval reports them,
        and counting scans the file table: 8 ms on 10k files)."""
        with self._lock:
            self._check_version()
            skipped = self._reads.get("skipped")
            if skipped is None:
                skipped = self._reads["skipped"] = self._counts(self.conn)[1]
            return dict(skipped)
