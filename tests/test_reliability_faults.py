"""Faults: files that change under the indexer, a damaged, locked, read-only or full index, and a
process killed in the middle of a write. Each must end in a correct index after at most a rebuild,
and no answer may come from stale rows.

"Correct" is checked the strict way: the index (or the answer) equals the one a fresh cache
builds from the same files. Reduced sizes in the suite; `IR_LONG=1` runs more and bigger cases.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

import pytest

from iterative_retrieval.config import Settings
from iterative_retrieval.engine import Engine
from iterative_retrieval.index import Index, index_path_for
from iterative_retrieval.workspace import Scope, check_root

from .conftest import LONG, WORDS, generated_tree, make_repo, module_text

TASK = "Fix the authentication token expiry bug"
ROOT_USER = os.geteuid() == 0


# -- helpers -----------------------------------------------------------------------------------


def snapshot(db: Path | Index) -> dict[str, tuple]:
    """What an index says about each file: content hash, skip reason, lines, symbols, terms."""
    conn = db.conn if isinstance(db, Index) else sqlite3.connect(db)
    rows = conn.execute(
        "SELECT f.path, f.hash, f.skipped, f.lines,"
        " (SELECT count(*) FROM symbols s WHERE s.file_id = f.id),"
        " (SELECT body FROM fts WHERE fts.rowid = f.id)"
        " FROM files f"
    ).fetchall()
    return {r[0]: tuple(r[1:]) for r in rows}


def fresh_snapshot(root: Path, tmp: Path) -> dict[str, tuple]:
    cache = Path(tempfile.mkdtemp(dir=tmp, prefix="fresh-"))
    idx = Index.open(check_root(root), cache)
    idx.refresh(Scope(check_root(root)), 1_000_000)
    snap = snapshot(idx)
    idx.close()
    return snap


def answer(root: Path, cache: Path | None, **settings) -> list[tuple]:
    """The retrieve answer that matters (ranked paths, relevance, regions' text)."""
    engine = Engine([root], Settings(cache_dir=str(cache) if cache else None, **settings))
    try:
        result = engine.retrieve(TASK)
    finally:
        engine.close()
    return [(f.path, round(f.relevance, 6), [(r.start_line, r.end_line, r.text) for r in f.regions])
            for f in result.files]


def cli(*args: str, env: dict | None = None, **kw) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "iterative_retrieval", *args],
                          capture_output=True, text=True, timeout=300,
                          env={**os.environ, **(env or {})}, **kw)


def without_root_powers():
    """preexec_fn that makes file permissions bind a root process as they bind anyone else.

    It drops CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH from the bounding set, so the program the
    child runs never gets them back (None when not root: permissions already apply).
    """
    if not ROOT_USER:
        return None

    def drop() -> None:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        pr_capbset_drop, cap_dac_override, cap_dac_read_search = 24, 1, 2
        for cap in (cap_dac_override, cap_dac_read_search):
            if libc.prctl(pr_capbset_drop, cap, 0, 0, 0) != 0:
                raise OSError(ctypes.get_errno(), "prctl(PR_CAPBSET_DROP) failed")

    return drop


def shared_tmp(tmp_path: Path) -> Path:
    """A scratch folder of the test's own (removed by the test)."""
    return Path(tempfile.mkdtemp(prefix="ir-faults-", dir=tmp_path))


# -- files that change while they are indexed --------------------------------------------------

DISTURB = textwrap.dedent("""\
    import os, random, sys
    from pathlib import Path
    from iterative_retrieval.index import Index
    from iterative_retrieval.workspace import Scope, check_root

    root, cache, seed = Path(sys.argv[1]), sys.argv[2], int(sys.argv[3])
    r = random.Random(seed)
    rels = sorted(str(p.relative_to(root)) for p in root.rglob("*.py"))
    victims = r.sample(rels, 40)
    state = {"done": False}

    def disturb(done, total):
        if state["done"]:
            return
        state["done"] = True
        for k, rel in enumerate(victims):
            p = root / rel
            action = k % 4
            if action == 0:
                p.unlink()
            elif action == 1:
                with open(p, "r+") as fh:
                    fh.truncate(r.randint(0, 40))
            elif action == 2:
                os.chmod(p, 0)
            else:
                p.write_text(p.read_text() + "\\ndef added_later(): pass\\n")

    real = check_root(root)
    idx = Index.open(real, cache)
    first = idx.refresh(Scope(real), 1_000_000, progress=disturb)
    second = idx.refresh(Scope(real), 1_000_000)
    print(first.indexed, second.indexed, second.files)
    """)


FRESH = textwrap.dedent("""\
    import json, sys
    from pathlib import Path
    from iterative_retrieval.index import Index
    from iterative_retrieval.workspace import Scope, check_root
    idx = Index.open(check_root(sys.argv[1]), sys.argv[2])
    idx.refresh(Scope(check_root(sys.argv[1])), 1_000_000)
    rows = idx.conn.execute(
        "SELECT f.path, f.hash, f.skipped, f.lines,"
        " (SELECT count(*) FROM symbols s WHERE s.file_id = f.id),"
        " (SELECT body FROM fts WHERE fts.rowid = f.id) FROM files f").fetchall()
    print(json.dumps({r[0]: r[1:] for r in rows}))
    """)


@pytest.mark.parametrize("files", [380, 1200] if LONG else [380])
@pytest.mark.parametrize("seed", range(3 if LONG else 1))
def test_files_changed_during_indexing_end_in_a_correct_index(tmp_path, seed, files):
    """Files deleted, truncated, made unreadable or rewritten while a cold index runs: one more
    refresh makes the index equal to a fresh one (a file made unreadable after it was read may
    keep its unchanged content); once readable again, every file is read."""
    base = shared_tmp(tmp_path)
    try:
        root = base / "ws"
        generated_tree(root, files)
        cache = base / "cache"

        def run(script: str, *args: str) -> str:
            p = subprocess.run([sys.executable, "-c", script, *args], capture_output=True,
                               text=True, timeout=300, preexec_fn=without_root_powers(), env=os.environ)
            assert p.returncode == 0, p.stderr
            return p.stdout

        readable_before = fresh_snapshot(root, base)
        run(DISTURB, str(root), str(cache), str(seed))
        got = snapshot(index_path_for(check_root(root), cache))
        # The same unprivileged user's fresh index of the final tree.
        fresh = {k: tuple(v) for k, v in json.loads(run(FRESH, str(root), str(base / "f"))).items()}
        locked = {k for k, v in fresh.items() if v[1] == "unreadable"}
        assert len(locked) == 10
        assert {k for k, v in got.items() if v[1] == "unreadable"} <= locked
        for rel in set(got) | set(fresh):
            if rel in locked and got.get(rel) != fresh[rel]:
                assert got.get(rel) == readable_before[rel], rel  # read before the chmod
            else:
                assert got.get(rel) == fresh.get(rel), rel
        # Readable again (chmod changes no mtime): the next refresh reads them.
        for rel in locked:
            os.chmod(root / rel, 0o644)
        idx = Index.open(check_root(root), cache)
        idx.refresh(Scope(check_root(root)), 1_000_000)
        assert snapshot(idx) == fresh_snapshot(root, base)
        idx.close()
    finally:
        shutil.rmtree(base, ignore_errors=True)


# -- a damaged index ---------------------------------------------------------------------------


def _garbage_header(db: Path) -> None:
    with open(db, "r+b") as fh:
        fh.write(os.urandom(100))


def _garbage_pages(db: Path) -> None:
    size = db.stat().st_size
    r = random.Random(size)
    with open(db, "r+b") as fh:
        for _ in range(8):
            fh.seek(r.randrange(4096, max(4097, size - 4096)))
            fh.write(os.urandom(4096))


def _truncated(db: Path) -> None:
    with open(db, "r+b") as fh:
        fh.truncate(db.stat().st_size // 2)


def _empty(db: Path) -> None:
    db.write_bytes(b"")


def _folder(db: Path) -> None:
    db.unlink()
    db.mkdir()


def _garbage_wal(db: Path) -> None:
    Path(str(db) + "-wal").write_bytes(os.urandom(64 * 1024))


def _old_schema(db: Path) -> None:
    conn = sqlite3.connect(db)
    conn.execute("UPDATE meta SET value='1' WHERE key='schema_version'")
    conn.execute("DELETE FROM files WHERE path LIKE 'pkg/m0/%'")  # stale rows that must not count
    conn.commit()
    conn.close()


def _nonsense_version(db: Path) -> None:
    conn = sqlite3.connect(db)
    conn.execute("UPDATE meta SET value='not a number' WHERE key='schema_version'")
    conn.commit()
    conn.close()


DAMAGE = {"garbage header": _garbage_header, "garbage pages": _garbage_pages,
          "truncated": _truncated, "empty file": _empty, "a folder in its place": _folder,
          "garbage WAL": _garbage_wal, "another schema": _old_schema,
          "a version that is no number": _nonsense_version}


@pytest.fixture(scope="module")
def damaged_ws(tmp_path_factory):
    root = tmp_path_factory.mktemp("damaged") / "ws"
    files = generated_tree(root, 300)
    make_repo(root, {})
    expected = answer(root, tmp_path_factory.mktemp("expected-cache"))
    assert expected and expected[0][0] == "src/auth/tokens.py"
    return root, files, expected


@pytest.mark.parametrize("damage", sorted(DAMAGE))
def test_a_damaged_index_is_rebuilt_or_replaced(damaged_ws, tmp_path, damage):
    """Whatever happened to the file, the next run answers exactly as a fresh cache does."""
    root, _files, expected = damaged_ws
    cache = tmp_path / "cache"
    assert answer(root, cache) == expected
    db = index_path_for(check_root(root), cache)
    DAMAGE[damage](db)
    assert answer(root, cache) == expected
    assert answer(root, cache) == expected  # and again, from whatever the repair left


def test_the_rebuild_says_whether_the_index_is_from_another_version_or_damaged(
        damaged_ws, tmp_path, caplog):
    """After an upgrade the index is rebuilt once, and the line says why: an earlier version
    made it, not damage; damage is called damage."""
    from iterative_retrieval.index import SCHEMA_VERSION

    root, _files, expected = damaged_ws
    cache = tmp_path / "cache"
    assert answer(root, cache) == expected
    db = index_path_for(check_root(root), cache)
    _old_schema(db)
    with caplog.at_level("WARNING", logger="iterative_retrieval.index"):
        assert answer(root, cache) == expected
    said = [r.getMessage() for r in caplog.records if "rebuilding" in r.getMessage()]
    assert said and "made by an earlier version" in said[0], said
    assert f"index format 1, now {SCHEMA_VERSION}" in said[0], said
    caplog.clear()
    conn = sqlite3.connect(db)
    conn.execute("DROP TABLE files")
    conn.commit()
    conn.close()
    with caplog.at_level("WARNING", logger="iterative_retrieval.index"):
        assert answer(root, cache) == expected
    said = [r.getMessage() for r in caplog.records if "rebuilding" in r.getMessage()]
    assert said and "is damaged" in said[0], said


def test_an_index_damaged_while_the_engine_runs_is_rebuilt(damaged_ws, tmp_path):
    """Pages overwritten under a running engine: the next retrieve detects it (or never reads
    them) and still answers as a fresh cache does."""
    root, _files, expected = damaged_ws
    engine = Engine([root], Settings(cache_dir=str(tmp_path / "cache")))
    try:
        engine.retrieve(TASK)
        db = index_path_for(check_root(root), tmp_path / "cache")
        _garbage_pages(db)
        engine.index(check_root(root)).conn.execute("PRAGMA cache_size=0")  # no cached pages
        result = engine.retrieve(TASK)
        got = [(f.path, round(f.relevance, 6),
                [(r.start_line, r.end_line, r.text) for r in f.regions]) for f in result.files]
        assert got == expected
    finally:
        engine.close()


def _garbage_file_rows(db: Path) -> None:
    """Every leaf page of the file table overwritten: the schema check passes, and the first
    read of the file list (while opening) meets the damage."""
    conn = sqlite3.connect(db)
    pages = [p for (p,) in conn.execute(
        "SELECT pageno FROM dbstat WHERE name='files' AND pagetype='leaf'")]
    size = conn.execute("PRAGMA page_size").fetchone()[0]
    conn.close()
    r = random.Random(len(pages))
    with open(db, "r+b") as fh:
        for page in pages:
            fh.seek((page - 1) * size)
            fh.write(r.randbytes(size))


def _random_writes(seed: int):
    def damage(db: Path) -> None:
        r = random.Random(seed)
        size = db.stat().st_size
        with open(db, "r+b") as fh:
            for _ in range(50):
                fh.seek(r.randrange(size))
                fh.write(r.randbytes(r.randrange(1, 64)))

    return damage


def test_an_index_damaged_past_the_schema_check_is_rebuilt_on_disk(damaged_ws, tmp_path):
    """Damage that opening meets after the schema check: the next run rebuilds the file on disk
    and answers as a fresh cache does; the run after reads it without a word. (It used to warn
    "using a temporary in-memory index" and re-index everything at every run, for ever.)"""
    root, _files, expected = damaged_ws
    cache = tmp_path / "cache"
    assert answer(root, cache) == expected
    db = index_path_for(check_root(root), cache)
    _garbage_file_rows(db)
    run = ("retrieve", TASK, "--root", str(root), "--cache-dir", str(cache), "--json")
    first = cli(*run)
    assert first.returncode == 0, first.stderr
    assert "rebuilding" in first.stderr and "in-memory" not in first.stderr, first.stderr
    second = cli(*run)
    assert second.returncode == 0 and second.stderr == "", second.stderr
    for p in (first, second):
        files = json.loads(p.stdout)["files"]
        assert [(f["path"], [(r["start_line"], r["end_line"], r["text"]) for r in f["regions"]])
                for f in files] == [(path, regions) for path, _, regions in expected]
        assert [f["relevance"] for f in files] == pytest.approx([e[1] for e in expected],
                                                                abs=6e-4)
    assert sqlite3.connect(db).execute("PRAGMA integrity_check").fetchone() == ("ok",)
    assert snapshot(db) == fresh_snapshot(root, tmp_path)


@pytest.mark.parametrize("seed", range(12 if LONG else 4))
def test_random_writes_into_the_index_never_leave_it_in_memory(damaged_ws, tmp_path, seed):
    """Random bytes written anywhere into the file, as a failing disk would: every run exits 0,
    none falls back to an in-memory index, and once a run has met the damage (and rebuilt the
    file) the next one says nothing."""
    root, _files, _expected = damaged_ws
    cache = tmp_path / "cache"
    answer(root, cache)
    _random_writes(seed)(index_path_for(check_root(root), cache))
    run = ("retrieve", TASK, "--root", str(root), "--cache-dir", str(cache), "--json")
    first, second = cli(*run), cli(*run)
    for p in (first, second):
        assert p.returncode == 0, p.stderr
        assert "in-memory" not in p.stderr and "Traceback" not in p.stderr, p.stderr
    if "rebuilding" in first.stderr:
        assert second.stderr == "", second.stderr


# -- an index locked by another process, read-only, or on a full disk ------------------------

HOLD_LOCK = textwrap.dedent("""\
    import sqlite3, sys, time
    conn = sqlite3.connect(sys.argv[1], isolation_level=None)
    if sys.argv[2] == "exclusive":
        conn.execute("PRAGMA locking_mode=EXCLUSIVE")
    conn.execute("BEGIN EXCLUSIVE")
    conn.execute("INSERT INTO meta VALUES('holder', 'x')")
    print("locked", flush=True)
    time.sleep(600)
    """)


@pytest.mark.parametrize("mode", ["exclusive", "writer"])
def test_an_index_locked_by_another_process(damaged_ws, tmp_path, mode):
    """Another process holds the index (every access, or just writes): after the busy timeout
    the run answers from a temporary index, correctly, says so, and leaves the file alone."""
    root, files, expected = damaged_ws
    cache = tmp_path / "cache"
    assert answer(root, cache) == expected
    db = index_path_for(check_root(root), cache)
    holder = subprocess.Popen([sys.executable, "-c", HOLD_LOCK, str(db), mode],
                              stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "locked"
        edited = root / "pkg/m0/mod_0.py"
        original = edited.read_text()
        edited.write_text(original + "\n# one more line, so that the index must be written\n")
        try:
            # the edit is part of the truth: a fresh cache's answer on the edited tree
            fresh = answer(root, tmp_path / "fresh-cache")
            p = cli("retrieve", TASK, "--root", str(root), "--cache-dir", str(cache), "--json",
                    env={"ITERATIVE_RETRIEVAL_LOCK_TIMEOUT": "0.5"})
            assert p.returncode == 0, p.stderr
            assert "locked" in p.stderr and "in-memory index" in p.stderr
            got = json.loads(p.stdout)
            assert [f["path"] for f in got["files"]][:3] == [e[0] for e in fresh][:3]
            assert got["stats"]["files_indexed"] == len(files)
        finally:
            edited.write_text(original)
        assert db.exists()
    finally:
        holder.kill()
        holder.wait()
    assert answer(root, cache) == expected  # the lock gone, the file serves again


def test_a_read_only_cache_folder(damaged_ws, tmp_path):
    """A cache folder that cannot be written, or an index file that cannot: the run answers
    correctly from a temporary index and says why."""
    root, _files, expected = damaged_ws
    cache = tmp_path / "ro-cache"
    cache.mkdir()
    os.chmod(cache, 0o555)
    try:
        p = cli("retrieve", TASK, "--root", str(root), "--cache-dir", str(cache / "sub"), "--json",
                preexec_fn=without_root_powers())
        assert p.returncode == 0, p.stderr
        assert "in-memory index" in p.stderr
        got = json.loads(p.stdout)
        assert [f["path"] for f in got["files"]] == [e[0] for e in expected]
        # An index file that exists but cannot be written (a read-only copy of a cache).
        os.chmod(cache, 0o755)
        answer(root, cache)
        db = index_path_for(check_root(root), cache)
        os.chmod(db, 0o444)
        os.chmod(cache, 0o555)
        (root / "pkg/m0/mod_1.py").write_text(module_text(1, WORDS) + "# changed\n")
        p = cli("retrieve", TASK, "--root", str(root), "--cache-dir", str(cache), "--json",
                preexec_fn=without_root_powers())
        assert p.returncode == 0, p.stderr
        assert "in-memory index" in p.stderr
        assert json.loads(p.stdout)["files"][0]["path"] == expected[0][0]
    finally:
        os.chmod(cache, 0o755)
        (root / "pkg/m0/mod_1.py").write_text(module_text(1, WORDS))


def _limit_file_size(limit: int):
    def apply() -> None:
        import resource

        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    return apply


@pytest.mark.parametrize("how", ["tmpfs", "file-size limit"])
def test_a_full_disk(damaged_ws, tmp_path, how):
    """The disk fills up in the middle of indexing: the run still answers correctly (from a
    temporary index) and says why; a later run with room repairs the cache."""
    root, _files, expected = damaged_ws
    cache = tmp_path / "small"
    cache.mkdir()
    preexec = None
    mounted = False
    if how == "tmpfs":
        if not ROOT_USER:
            pytest.skip("mounting a small tmpfs needs root")
        mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=96k", "tmpfs", str(cache)],
                                 capture_output=True).returncode == 0
        if not mounted:
            pytest.skip("mount is not allowed here")
    else:
        preexec = _limit_file_size(96 * 1024)
    try:
        p = cli("retrieve", TASK, "--root", str(root), "--cache-dir", str(cache), "--json",
                preexec_fn=preexec)
        assert p.returncode == 0, p.stderr
        assert "in-memory index" in p.stderr
        got = json.loads(p.stdout)
        assert [f["path"] for f in got["files"]] == [e[0] for e in expected]
    finally:
        if mounted:
            subprocess.run(["umount", str(cache)], check=False)
    assert answer(root, cache) == expected


# -- killed in the middle of a write -----------------------------------------------------------


def test_killed_mid_index_then_restarted(tmp_path):
    """`iterative-retrieval index` killed (SIGKILL) at several points of a cold index: its
    workers end with it, the next run completes the index, and it equals a fresh one."""
    root = tmp_path / "ws"
    generated_tree(root, 3000 if LONG else 1200)
    make_repo(root, {})
    expected = fresh_snapshot(root, tmp_path)
    cache = tmp_path / "cache"
    kills = 0
    for point in ([0.15, 0.4, 0.6, 0.85] if LONG else [0.4]):
        proc = subprocess.Popen(
            [sys.executable, "-m", "iterative_retrieval", "index", "--root", str(root),
             "--cache-dir", str(cache)],
            stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True,
            env={**os.environ, "ITERATIVE_RETRIEVAL_PROGRESS": "1"}, start_new_session=True,
        )
        buf = ""
        while True:
            ch = proc.stderr.read(1)
            if not ch:
                break
            buf += ch
            if ch in "\r\n" and "indexing" in buf:
                line = buf.strip().rsplit("\r", 1)[-1].rsplit("\n", 1)[-1]
                buf = ""
                done, total = map(int, line.split()[1].split("/"))
                if done >= point * total and done < total:
                    proc.send_signal(signal.SIGKILL)
                    kills += 1
                    break
        proc.wait()
        # Its worker processes end with it (they used to wait for ever on their queue).
        for _ in range(200):
            try:
                os.killpg(proc.pid, 0)
            except ProcessLookupError:
                break
            time.sleep(0.05)
        else:
            ps = subprocess.run(["ps", "-o", "pid,ppid,stat,etime,wchan:20,args", "-g", str(proc.pid)],
                                capture_output=True, text=True).stdout
            os.killpg(proc.pid, signal.SIGKILL)
            raise AssertionError("worker processes outlived the killed indexer:\n" + ps)
        # Touch a few files between runs, as an editor would.
        for i in range(0, 60, 7):
            (root / f"pkg/m0/mod_{i}.py").write_text(module_text(i, WORDS) + f"# edit {point}\n")
        expected = fresh_snapshot(root, tmp_path)
    assert kills >= 1
    p = cli("index", "--root", str(root), "--cache-dir", str(cache), "--json")
    assert p.returncode == 0, p.stderr
    assert snapshot(index_path_for(check_root(root), cache)) == expected


def test_the_server_killed_mid_index_and_restarted(tmp_path):
    """The language server killed while it indexes: a new server on the same cache ends with
    every file indexed, as a fresh index has them."""
    root = tmp_path / "ws"
    generated_tree(root, 1500 if LONG else 800)
    make_repo(root, {})
    cache = tmp_path / "cache"
    init = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "processId": None, "rootUri": root.as_uri(), "capabilities": {},
        "initializationOptions": {"cacheDir": str(cache)}}})
    initialized = json.dumps({"jsonrpc": "2.0", "method": "initialized", "params": {}})
    frames = "".join(f"Content-Length: {len(m)}\r\n\r\n{m}" for m in (init, initialized))
    # a pause after each batch of 64 files (the server's debugging hook): a fast machine indexed
    # the whole tree between two polls below, and there was nothing left to kill it in
    proc = subprocess.Popen([sys.executable, "-m", "iterative_retrieval", "serve"],
                            stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL,
                            env={**os.environ, "ITERATIVE_RETRIEVAL_LSP_SLOW": "0.1"})
    proc.stdin.write(frames.encode())
    proc.stdin.flush()
    db = index_path_for(check_root(root), cache)
    for _ in range(600):  # until some files are committed, then kill
        time.sleep(0.05)
        try:
            n = sqlite3.connect(db, timeout=5).execute("SELECT count(*) FROM files").fetchone()[0]
        except sqlite3.Error:
            continue
        if n >= 256:
            break
    proc.kill()
    proc.wait()
    assert n < 801, "indexing finished before the kill: make the tree bigger"  # 800 + 1
    engine = Engine([root], Settings(cache_dir=str(cache)))
    engine.refresh()
    assert snapshot(engine.index(check_root(root))) == fresh_snapshot(root, tmp_path)
    engine.close()
