"""The persistent index of one root: files, symbols, imports and a fielded FTS5 text index.

SQLite from the standard library keeps it in one file in the cache folder: transactions make a
killed process harmless, FTS5 does BM25 in C, and an update re-reads only files whose size or
modification time changed. A cache that is corrupt or of another schema version is rebuilt.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import itertools
import logging
import marshal
import os
import re
import sqlite3
import threading
import time
from collections import deque
from collections.abc import Callable, Container, Iterable, Iterator
from dataclasses import dataclass, field
from operator import itemgetter
from pathlib import Path
from types import ModuleType
from typing import Any, NamedTuple, TypeVar

from . import heap
from .buildlock import BuildLock, WaitStopped
from .config import SNIFF_BYTES, default_cache_dir
from .credential_files import credential_format
from .faults import REBUILD, IndexUnavailable, diagnose, lock_timeout
from .lines import count_lines
from .models import IndexStats, Symbol, SymbolRows
from .tokenize import (
    MAX_NAME,
    capped_text,
    identifier_terms,
    path_terms,
    stem,
    stemmed_terms,
    term_counts_upto,
)
from .workspace import Scope, is_inside

log = logging.getLogger(__name__)

SCHEMA_VERSION = 7
"""7: credential files are recognised by content and by link target (skipped `secret`): an
index of an earlier version may hold them, so it is rebuilt."""
# BM25F column weights: a name in the path or a definition says more than a mention in the body.
W_PATH, W_SYMBOLS, W_BODY = 4.0, 3.0, 1.0
PARALLEL_THRESHOLD = 400
"""Fewer files to read than this are parsed in-process: starting workers would cost more."""
MAX_WORKERS = 8
PARSE_CHUNK = 64
"""Files per task sent to a worker."""
IN_FLIGHT = 4
"""Chunks in flight per worker."""
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
SYMBOLS_MEMO_MAX = 200_000
"""Symbols that symbols_of_many keeps in memory (about 40 MB); past that it starts afresh."""
DEFINITIONS_MEMO_MAX = 50_000
"""Names whose definitions are kept in memory between calls."""
SEARCH_MEMO_MAX = 300_000
"""(file, score) pairs of search_term answers kept in memory (about 30 MB); past that, afresh."""
DOC_FREQS_MEMO_MAX = 100_000
"""Terms whose document frequency is kept in memory between calls."""

Progress = Callable[[int, int], None]
T = TypeVar("T")


class FileRow(NamedTuple):
    """One indexed file (a tuple: every retrieval makes one per file of the tree)."""

    id: int
    path: str
    lang: str | None
    kind: str
    """source, test, doc, example, config, tool."""
    lines: int


@dataclass(frozen=True)
class Parsed:
    """What reading one file yields, ready to store."""

    rel: str
    size: int
    mtime_ns: int
    digest: str
    lang: str | None
    lines: int
    skipped: str | None
    path_text: str = ""
    symbol_text: str = ""
    body_text: str = ""
    symbols: tuple[tuple[str, str, str, int, int, str], ...] = ()
    """The outline's definitions as stored: (name, lower-case name, kind, first line, last line,
    stemmed terms joined by spaces)."""
    imports: tuple[str, ...] = ()


_TEST_DIR_RE = re.compile(
    r"(^|/)(tests?|testing|testsuite|test_?suites?|__tests__|__mocks__|spec|specs|testdata|test_utils|e2e)(/|$)"
)
_DOC_NAME_RE = re.compile(
    r"(^|/)(changes|changelog|history|news|authors|contributors|license|licence|copying|notice|readme|todo)([._-][^/]*)?$"
)
_TEST_FILE_RE = re.compile(
    r"(^|/)(test_[^/]*|[^/]*_test\.[a-z]+|[^/]*\.(test|spec)\.[a-z]+|conftest\.py|[^/]*Tests?\.(java|cs|kt))$"
)
_DOC_DIR_RE = re.compile(r"(^|/)(docs?|documentation|man)(/|$)")
_EXAMPLE_DIR_RE = re.compile(
    r"(^|/)(examples?|samples?|demos?|fixtures?|benchmarks?|bench|sandbox(es)?|playgrounds?)(/|$)")
_EXAMPLE_WORDS = ("example", "sample", "demo", "fixture", "bench", "sandbox", "playground")
"""Every match of _EXAMPLE_DIR_RE contains one of these."""
_TOOL_CONFIG_RE = re.compile(
    r"(^|/)([^/]+\.(config|conf)\.[cm]?[jt]s|\.[^/]+rc\.[cm]?[jt]s|(gruntfile|gulpfile)\.[cm]?[jt]s"
    r"|[^/]+\.(gemspec|podspec)|(rake|gem|pod|vagrant|guard|cap|brew|jenkins)file"
    r"|(setup|noxfile|fabfile|conanfile)\.py|(build|settings)\.gradle(\.kts)?"
    r"|(gnu)?makefile|dockerfile|justfile|cmakelists\.txt)$"
)
"""Build, lint, test-runner and package settings written as scripts (rollup.config.js,
karma.conf.js, .eslintrc.cjs, Gruntfile.js, x.gemspec, Rakefile, setup.py, build.gradle,
Makefile, Dockerfile): code by language, configuration by purpose."""
_TOOL_DIR_RE = re.compile(r"^(scripts?|tools?|devtools?|contrib|hack|ci|\.github|\.circleci)/")
"""The project's own tooling at its top level (release scripts, code generators, CI helpers):
code, but rarely where a change to the project's behaviour goes."""
_DOC_LANGS = {"markdown", "rst", "text", "asciidoc"}
_CONFIG_LANGS = {"yaml", "toml", "json", "ini", "xml"}


CLASSIFIER_VERSION = "5"
"""Bump with any change to classify(): an index stored by another version is re-classified when
it is opened (a kind is stored with its file so that reading the file list classifies nothing)."""


def classify(rel: str, lang: str | None) -> str:
    """Whether a path is source, test, doc, example, config or tool: tests and docs rarely need edits.

    It runs on every file of every retrieval's file list: each pattern is tried only when the
    path holds a word that any of its matches must contain (a substring test costs far less).
    """
    low = rel.lower()
    if ("test" in low or "spec" in low or "mock" in low or "e2e" in low) and (
        _TEST_FILE_RE.search(low) or _TEST_DIR_RE.search(low)
    ):
        return "test"
    if lang in _DOC_LANGS or (("doc" in low or "man" in low) and _DOC_DIR_RE.search(low)) or (
        (lang is None or lang in _DOC_LANGS) and _DOC_NAME_RE.search(low)
    ):
        return "doc"
    if any(w in low for w in _EXAMPLE_WORDS) and _EXAMPLE_DIR_RE.search(low):
        return "example"
    if lang in _CONFIG_LANGS or lang is None or (
        ("conf" in low or "rc." in low or "file" in low or "spec" in low or "setup" in low
         or "gradle" in low or "cmake" in low) and _TOOL_CONFIG_RE.search(low)
    ):
        return "config"
    if _TOOL_DIR_RE.match(low):
        return "tool"
    return "source"


def language_for(rel: str) -> str | None:
    """languages.language_for, imported on first use: a warm retrieval parses nothing, and the
    language tables are a fifth of its imports."""
    return _languages().language_for(rel)


@functools.cache
def _languages() -> ModuleType:
    """The languages module, imported once (an import statement per call cost 5 us, three
    calls per file indexed)."""
    from . import languages

    return languages


def outline_rows(text: str, lang: str | None) -> tuple[list[tuple[str, str, int, int]],
                                                      tuple[str, ...]]:
    """languages.outline_rows, imported on first use (see language_for)."""
    return _languages().outline_rows(text, lang)


def index_path_for(root: Path, cache_dir: str | os.PathLike[str] | None) -> Path:
    """One database per root, keyed by its real path, outside the workspace."""
    base = Path(cache_dir) if cache_dir else default_cache_dir()
    key = hashlib.sha1(str(root).encode("utf-8", "surrogateescape")).hexdigest()[:16]
    name = re.sub(r"[^A-Za-z0-9_.-]", "_", root.name)[:40] or "root"
    return base / f"{name}-{key}.sqlite3"


def parse_bytes(rel: str, data: bytes, size: int, mtime_ns: int) -> Parsed:
    """Decode and analyse one file's bytes; binary or undecodable content is marked skipped."""
    digest = hashlib.blake2b(data, digest_size=16).hexdigest()
    lang = language_for(rel)
    if b"\0" in data[:SNIFF_BYTES]:
        return Parsed(rel, size, mtime_ns, digest, lang, 0, "binary")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        try:
            text = data.decode("latin-1") if _mostly_text(data) else None
        except UnicodeDecodeError:  # pragma: no cover - latin-1 decodes anything
            text = None
        if text is None:
            return Parsed(rel, size, mtime_ns, digest, lang, 0, "undecodable")
    return parse_text(rel, text, size, mtime_ns, digest)


def _mostly_text(data: bytes) -> bool:
    """Legacy 8-bit text is mostly ASCII with a few accented letters; anything else is not text."""
    sample = data[:SNIFF_BYTES]
    ascii_text = sum(1 for b in sample if 32 <= b < 127 or b in (9, 10, 13))
    return ascii_text >= 0.9 * len(sample)


def parse_text(rel: str, text: str, size: int, mtime_ns: int, digest: str) -> Parsed:
    lang = language_for(rel)
    if credential_format(rel, text) is not None:  # a kubeconfig, Docker config... by content
        return Parsed(rel, size, mtime_ns, digest, lang, 0, "secret")
    try:
        rows, imports = outline_rows(text, lang)
    except Exception:  # one odd file must never stop indexing
        log.exception("outline failed for %s", rel)
        rows, imports = [], ()
    sym_terms: list[str] = []
    symbols = []
    for name, kind, start, end in rows:
        stems = stemmed_terms(name)  # () for a name over MAX_NAME characters
        symbols.append((name, name.lower(), kind, start, end, " ".join(stems)))
        sym_terms.extend(stems if stems or len(name) <= MAX_NAME else
                         (stem(t) for t in identifier_terms(name)))
    return Parsed(
        rel=rel, size=size, mtime_ns=mtime_ns, digest=digest, lang=lang,
        lines=count_lines(text), skipped=None,
        path_text=" ".join(stem(t) for t in path_terms(rel)),
        symbol_text=" ".join(sym_terms),
        body_text=_body_text(term_counts_upto(text, TF_CAP)),
        symbols=tuple(symbols),
        imports=imports,
    )


TF_CAP = 6
"""Repetitions of one term stored per file: BM25 saturates long before, and it keeps the index small."""


def _body_text(counts: dict[str, int]) -> str:
    """Each term repeated min(count, TF_CAP) times, space-separated."""
    return capped_text(counts, TF_CAP)


def read_and_parse(item: tuple[str, str, int, int, int]) -> Parsed:
    """Worker entry: read one file (bounded) and parse it. Never raises."""
    rel, ab, size, mtime_ns, max_bytes = item
    if size > max_bytes:
        return Parsed(rel, size, mtime_ns, "", language_for(rel), 0, "too_large")
    try:
        with open(ab, "rb") as fh:
            data = fh.read(max_bytes + 1)
    except OSError:
        # mtime -1: tried again at every refresh (making a file readable does not change mtime)
        return Parsed(rel, size, -1, "", language_for(rel), 0, "unreadable")
    if len(data) > max_bytes:
        return Parsed(rel, size, mtime_ns, "", language_for(rel), 0, "too_large")
    return parse_bytes(rel, data, size, mtime_ns)


Row = tuple
"""A parsed file as plain values, ready for the INSERTs: (rel, size, mtime_ns, digest, lang, kind,
lines, skipped, path_text, symbol_text, body_text, symbols, imports), symbols as (name, lname,
kind, start, end, terms). Workers send rows, not dataclasses: they cross the process boundary
several times faster."""


BAD_NAME = "undecodable_name"
"""The skip reason of a file whose name is not UTF-8 (`touch $'caf\\xe9.txt'`): SQLite, JSON
and the LSP carry only Unicode names, so the file is counted, never read or returned."""


def name_key(rel: str) -> str | None:
    """None for a path that can be stored and shown; else the key its skipped row is stored
    under: its bytes escaped (\\xe9), after a NUL that no real path holds."""
    if rel.isascii():
        return None
    try:
        rel.encode("utf-8")
        return None
    except UnicodeEncodeError:  # os and git decode undecodable bytes as lone surrogates
        raw = rel.encode("utf-8", "surrogateescape")
        return "\0" + raw.decode("utf-8", "backslashreplace")


def bad_name_row(key: str, st: os.stat_result) -> Row:
    return (key, st.st_size, st.st_mtime_ns, "", None, "config", 0, BAD_NAME, "", "", "", [],
            ())


def to_row(p: Parsed) -> Row:
    return (p.rel, p.size, p.mtime_ns, p.digest, p.lang, classify(p.rel, p.lang), p.lines,
            p.skipped, p.path_text, p.symbol_text, p.body_text, list(p.symbols), p.imports)


def _pack(fid: int, symbols: list[tuple]) -> bytes:
    """A file's symbols as symbols_of_many returns them, (file id, name, kind, start, end,
    terms) in line order, in one value: reading a candidate's thousands of definitions is then
    one row and a C-level load, not a row and a tuple per definition (a third of a CLI run's
    reads on a 10k-file tree)."""
    rows = [(fid, name, kind, start, end, terms) for name, _, kind, start, end, terms in symbols]
    rows.sort(key=itemgetter(3))  # stable: definitions that start on one line keep their order
    return marshal.dumps(rows)


def _unpack(packed: bytes) -> list[tuple[int, str, str, int, int, str]]:
    rows = marshal.loads(packed)
    if not isinstance(rows, list):
        raise TypeError("not a list of symbol rows")
    return rows


def die_with_parent(parent: int | None = None) -> None:
    """Worker initializer: end when the indexing process dies, even by SIGKILL (Linux).

    Otherwise a killed `iterative-retrieval index` leaves its workers waiting on a queue whose
    other end their siblings still hold: for ever. A parent killed between the fork and this
    call sends no signal, so `parent` (its pid) is checked after asking for one.
    """
    try:
        import ctypes
        import signal

        ctypes.CDLL(None, use_errno=True).prctl(1, int(signal.SIGKILL), 0, 0, 0)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):  # not Linux: nothing to do
        pass
    if parent is not None and os.getppid() != parent:
        os._exit(1)


def _start_worker(parent: int) -> None:
    """Worker initializer: die_with_parent, and no cyclic garbage collector (heap.short_run).

    A forked worker inherits a command line's setting, a spawned one (a server's) does not.
    Parsing makes no reference cycles (a full collection after 5k Go files found 11 objects),
    so the collector's passes over the growing memos found nothing and cost 5% of the CPU.
    """
    die_with_parent(parent)
    heap.short_run()


def _read_batch(items: list[tuple[str, str, int, int, int]]) -> list[Row]:
    """Worker entry: a chunk of files read and parsed into rows."""
    return [to_row(read_and_parse(it)) for it in items]


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


class Index:
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
        self.conn: sqlite3.Connection | None = None  # type: ignore[assignment]
        try:
            self.conn = self._open(discard)
            self._ensure_indexes(when_free=True)
            self._clear_overlays()
            self._reclassify()
        except (sqlite3.DatabaseError, OSError) as exc:
            if self.conn is not None:
                self.conn.close()
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
        try:
            return cls(root, path, discard)
        except IndexUnavailable as fault:
            if fault.remedy != REBUILD or discard:
                raise
            # Damage that the schema check did not reach (random writes into the pages): it
            # used to send every later run to an in-memory index, for ever.
            log.warning("index at %s unusable (%s): rebuilding", path, fault.problem)
            return cls(root, path, discard=True)

    @classmethod
    def memory(cls, root: Path, problem: str) -> Index:
        """A private, empty in-memory index, used when the cache folder's cannot be."""
        idx = cls(root, None)
        idx.problem = problem
        return idx

    def _open(self, discard: bool = False) -> sqlite3.Connection:
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
                    try:
                        os.unlink(str(self.db_path) + suffix)
                    except FileNotFoundError:
                        pass
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
            log.warning("index at %s is of another version or damaged: rebuilding",
                        self.db_path)
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
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=NORMAL")
        conn.execute("PRAGMA temp_store=MEMORY")
        return conn

    def _schema_ok(self, conn: sqlite3.Connection) -> bool:
        try:
            row = conn.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()
            if not row or int(row[0]) != SCHEMA_VERSION:
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
        rows = self._parse_all(todo)
        done = committed = 0
        every = self.commit_rows or (
            COMMIT_ROWS if threading.active_count() == 1 else STORE_BATCH)
        batch: list[Row] = []
        try:
            # before any row is stored: SQLite refuses to change `synchronous` in a transaction
            self._bulk(len(todo) >= PARALLEL_THRESHOLD, fresh=not known)
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

    def _parse_all(self, todo: list[tuple[str, str, int, int, int]]) -> Iterator[Row]:
        """Rows of the files to read, in order: in worker processes when there are many."""
        if len(todo) < PARALLEL_THRESHOLD or (os.cpu_count() or 1) < 2:
            return (to_row(read_and_parse(it)) for it in todo)
        return self._parse_parallel(todo)

    def _parse_parallel(self, todo: list[tuple[str, str, int, int, int]]) -> Iterator[Row]:
        # Forking is only safe from a single-threaded process (the CLI); a threaded host (the
        # language server, the MCP server) spawns fresh interpreters instead, which costs a
        # fraction of a second to start but keeps its threads out of the children.
        import multiprocessing  # only a cold start needs them: not imported on the warm path
        from concurrent.futures import ProcessPoolExecutor
        from concurrent.futures.process import BrokenProcessPool

        methods = multiprocessing.get_all_start_methods()
        method = "fork" if threading.active_count() == 1 and "fork" in methods else "spawn"
        workers = max(1, min(os.cpu_count() or 2, MAX_WORKERS))
        chunks = [todo[i : i + PARSE_CHUNK] for i in range(0, len(todo), PARSE_CHUNK)]
        done = 0
        pool = None
        try:
            pool = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context(method),
                                       initializer=_start_worker, initargs=(os.getpid(),))
            # A bounded window of chunks in flight: results wait in memory only while the store
            # is behind, and a stopped refresh leaves little work to cancel.
            pending: deque = deque()
            it = iter(chunks)
            for chunk in itertools.islice(it, workers * IN_FLIGHT):
                pending.append(pool.submit(_read_batch, chunk))
            while pending:
                rows = pending.popleft().result()
                nxt = next(it, None)
                if nxt is not None:
                    pending.append(pool.submit(_read_batch, nxt))
                yield from rows
                done += len(rows)
        except (OSError, RuntimeError, BrokenProcessPool) as exc:
            # no processes allowed here, or a worker died: do the rest inline
            log.warning("parallel indexing unavailable (%s); indexing in-process", exc)
            yield from (to_row(read_and_parse(it)) for it in todo[done:])
        finally:
            if pool is not None:
                pool.shutdown(wait=True, cancel_futures=True)

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
        if not cur.rowcount:
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
            self.conn.execute("INSERT INTO outlines VALUES(?,?)", (fid, _pack(fid, symbols)))
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

    # -- reading -----------------------------------------------------------------------------

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
            fetched: dict[int, list[tuple[int, str, str, int, int, str]]] = {fid: [] for fid in todo}
            for k in range(0, len(todo), 500):
                chunk = todo[k : k + 500]
                q = ",".join("?" * len(chunk))
                for fid, packed in self.conn.execute(
                    f"SELECT file_id, rows FROM outlines WHERE file_id IN ({q})", chunk
                ).fetchall():
                    try:
                        fetched[fid] = _unpack(packed)
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
