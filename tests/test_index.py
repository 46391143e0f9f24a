"""The persistent index: incremental updates, symbols, open buffers, rebuilds."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from iterative_retrieval.config import Settings
from iterative_retrieval.engine import Engine
from iterative_retrieval.index import SCHEMA_VERSION, Index, classify
from iterative_retrieval.tokenize import stem
from iterative_retrieval.workspace import Scope, check_root

from .conftest import write_files


def open_index(root, cache):
    r = check_root(root)
    return Index.open(r, cache), Scope(r)


def test_refresh_is_incremental(tmp_path):
    """Only new or changed files are read; deletions are noticed."""
    root = write_files(tmp_path / "ws", {"a.py": "def alpha(): pass\n", "b.py": "def beta(): pass\n"})
    idx, scope = open_index(root, tmp_path / "c")
    s1 = idx.refresh(scope, 1_000_000)
    assert (s1.files, s1.indexed) == (2, 2)
    s2 = idx.refresh(scope, 1_000_000)
    assert (s2.indexed, s2.unchanged) == (0, 2)
    (root / "a.py").write_text("def alpha_two(): pass\n")
    (root / "b.py").unlink()
    s3 = idx.refresh(scope, 1_000_000)
    assert (s3.indexed, s3.removed, s3.files) == (1, 1, 1)
    assert idx.definitions(["alpha_two"])["alpha_two"][0][1].start_line == 1
    assert not idx.definitions(["beta"])


def test_symbols_and_fielded_search(tmp_path):
    """A definition is found by name; BM25 ranks the defining file above a mere mention."""
    root = write_files(tmp_path / "ws", {
        "src/tokens.ts": "export function refreshToken(t: string) {\n  return t\n}\n",
        "src/other.ts": "import { refreshToken } from './tokens'\nrefreshToken('x')\n",
    })
    idx, scope = open_index(root, tmp_path / "c")
    idx.refresh(scope, 1_000_000)
    defs = idx.definitions(["refreshtoken"])["refreshtoken"]
    assert [idx.files([fid])[fid].path for fid, _ in defs] == ["src/tokens.ts"]
    hits = idx.search_term("refreshtoken")
    by_path = {idx.files([f])[f].path: s for f, s in hits.items()}
    assert by_path["src/tokens.ts"] > by_path["src/other.ts"]
    assert idx.imports_of(idx.file_id("src/other.ts")) == ["./tokens"]


def test_open_buffer_wins_until_closed(tmp_path):
    """Unsaved text is searchable; a refresh keeps it; closing the buffer returns to the disk."""
    root = write_files(tmp_path / "ws", {"a.py": "def on_disk(): pass\n"})
    idx, scope = open_index(root, tmp_path / "c")
    idx.refresh(scope, 1_000_000)
    idx.put_text("a.py", "def in_buffer(): pass\n")
    idx.put_text("new.py", "def not_saved_yet(): pass\n")
    idx.refresh(scope, 1_000_000)
    assert idx.definitions(["in_buffer"]) and not idx.definitions(["on_disk"])
    assert idx.definitions(["not_saved_yet"])
    idx.drop_overlay("a.py", scope, 1_000_000)
    idx.drop_overlay("new.py", scope, 1_000_000)
    assert idx.definitions(["on_disk"]) and not idx.definitions(["in_buffer"])
    assert not idx.definitions(["not_saved_yet"])


def test_outdated_schema_is_rebuilt(tmp_path):
    """An index of another schema version is discarded and rebuilt."""
    root = write_files(tmp_path / "ws", {"a.py": "def alpha(): pass\n"})
    idx, scope = open_index(root, tmp_path / "c")
    idx.refresh(scope, 1_000_000)
    idx.conn.execute("UPDATE meta SET value='0' WHERE key='schema_version'")
    idx.conn.commit()
    idx.close()
    idx2, _ = open_index(root, tmp_path / "c")
    v = idx2.conn.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()[0]
    assert int(v) == SCHEMA_VERSION
    assert idx2.file_count() == 0
    assert idx2.refresh(scope, 1_000_000).indexed == 1


def test_two_versions_sharing_a_cache_keep_an_index_each(tmp_path, monkeypatch, caplog):
    """The VS Code extension's server and a command line of another version share the cache
    folder: each keeps its own index, so switching between them re-indexes nothing."""
    from iterative_retrieval.index import store

    root = write_files(tmp_path / "ws", {"a.py": "def alpha(): pass\n"})
    idx, scope = open_index(root, tmp_path / "c")
    assert idx.refresh(scope, 1_000_000).indexed == 1
    mine = idx.db_path
    idx.close()

    monkeypatch.setattr(store, "SCHEMA_VERSION", SCHEMA_VERSION + 1)
    with caplog.at_level("WARNING", logger="iterative_retrieval.index"):
        other, _ = open_index(root, tmp_path / "c")
    assert other.db_path != mine and other.db_path.parent == mine.parent
    assert other.refresh(scope, 1_000_000).indexed == 1
    other.close()
    said = [r.getMessage() for r in caplog.records if "building the index" in r.getMessage()]
    assert said and f"format {SCHEMA_VERSION}" in said[0] and str(mine) in said[0], said

    monkeypatch.setattr(store, "SCHEMA_VERSION", SCHEMA_VERSION)
    again, _ = open_index(root, tmp_path / "c")
    stats = again.refresh(scope, 1_000_000)
    assert again.db_path == mine and (stats.indexed, stats.unchanged) == (0, 1)
    again.close()
    assert other.db_path.exists()


def test_an_index_of_another_version_goes_once_unused_for_days(tmp_path):
    """Another format's file, and the one file per root of earlier versions, are deleted
    when nothing has opened them for KEEP_DAYS, and never while their lock is held."""
    import os
    import time

    from iterative_retrieval.buildlock import BuildLock
    from iterative_retrieval.index import versions

    root = write_files(tmp_path / "ws", {"a.py": "def alpha(): pass\n"})
    idx, scope = open_index(root, tmp_path / "c")
    idx.refresh(scope, 1_000_000)
    mine = idx.db_path
    idx.close()
    stem = mine.name[: -len(f".v{SCHEMA_VERSION}.sqlite3")]
    older = mine.with_name(versions.file_name(stem, SCHEMA_VERSION - 1))
    legacy = mine.with_name(stem + ".sqlite3")
    unrelated = mine.with_name(stem + "0.v1.sqlite3")  # no index of this root
    for p in (older, legacy, unrelated):
        p.write_bytes(mine.read_bytes())
        Path(str(p) + "-wal").write_bytes(b"")
    assert set(versions.others(mine)) == {older, legacy}

    assert versions.prune(mine) == []  # used just now
    stale = time.time() - (versions.KEEP_DAYS + 1) * 86400
    for p in (older, legacy, unrelated):
        for f in (p, Path(str(p) + "-wal")):
            os.utime(f, (stale, stale))
    with BuildLock(older).held():  # its version is building it
        assert versions.prune(mine) == [legacy]
    assert older.exists() and not legacy.exists()
    assert not Path(str(legacy) + "-wal").exists()

    os.utime(older, (stale, stale))
    os.utime(str(older) + ".lock", (stale, stale))
    idx, _ = open_index(root, tmp_path / "c")  # opening prunes, and marks its own file used
    idx.close()
    assert not older.exists() and not Path(str(older) + ".lock").exists()
    assert mine.exists() and time.time() - mine.stat().st_mtime < versions.KEEP_DAYS * 86400
    assert unrelated.exists()  # another root's


def test_killed_writer_leaves_a_usable_index(tmp_path):
    """A transaction that never commits (a killed process) leaves the last good state."""
    root = write_files(tmp_path / "ws", {"a.py": "def alpha(): pass\n"})
    idx, scope = open_index(root, tmp_path / "c")
    idx.refresh(scope, 1_000_000)
    raw = sqlite3.connect(idx.db_path)
    raw.execute("BEGIN")
    raw.execute("DELETE FROM files")
    raw.close()  # rolled back, as after a crash
    assert idx.file_count() == 1


def test_parallel_cold_index(tmp_path):
    """Above the threshold, files are parsed in worker processes with the same result."""
    files = {f"pkg/m{i}.py": f"def func_{i}():\n    return {i}\n" for i in range(450)}
    root = write_files(tmp_path / "ws", files)
    idx, scope = open_index(root, tmp_path / "c")
    stats = idx.refresh(scope, 1_000_000)
    assert stats.indexed == 450
    assert idx.definitions(["func_449"])
    # stored without an fsync per checkpoint, then back to normal and checkpointed
    assert idx.conn.execute("PRAGMA synchronous").fetchone()[0] == 1
    busy, frames, copied = idx.conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
    assert busy == 0 and frames == copied
    # the name index, built once at the end of a first index, answers look-ups by name
    assert _lookups_by_name_use_the_index(idx)


def _lookups_by_name_use_the_index(idx):
    plan = idx.conn.execute(
        "EXPLAIN QUERY PLAN SELECT file_id FROM symbols WHERE lname='x'").fetchall()
    return "symbols_lname" in str(plan)


def test_first_index_killed_before_its_end_gets_its_name_index_back(tmp_path, monkeypatch):
    """A first index builds the symbols' name index at its end; one stopped before (a killed
    process) leaves the table without it, and the next open builds it."""
    from iterative_retrieval.index import store, workers

    monkeypatch.setattr(workers, "PARALLEL_THRESHOLD", 10)
    files = {f"pkg/m{i}.py": f"def func_{i}():\n    return {i}\n" for i in range(30)}
    root = write_files(tmp_path / "ws", files)
    idx, scope = open_index(root, tmp_path / "c")
    seen = []

    def stop_early():
        seen.append(idx.conn.execute(
            "SELECT count(*) FROM sqlite_master WHERE name='symbols_lname'").fetchone()[0])
        return True

    monkeypatch.setattr(store, "STORE_BATCH", 8)
    monkeypatch.setattr(idx, "_ensure_indexes", lambda: None)  # as if killed: no end
    idx.refresh(scope, 1_000_000, should_stop=stop_early)
    assert seen == [0]  # dropped while the first files were stored
    assert not _lookups_by_name_use_the_index(idx)
    idx.close()

    again, scope = open_index(root, tmp_path / "c")
    assert _lookups_by_name_use_the_index(again)
    again.refresh(scope, 1_000_000)
    assert again.definitions(["func_29"]) and again.definitions(["func_0"])


def test_classify():
    """Tests, docs, examples and config are told apart from source."""
    assert classify("tests/test_app.py", "python") == "test"
    assert classify("src/app.test.ts", "typescript") == "test"
    assert classify("pkg/foo_test.go", "go") == "test"
    # type tests, which the compiler checks (tsd's `test-d/`, vitest's `*.test-d.ts`)
    for name in ("test-dts/defineComponent.test-d.tsx", "src/index.test-d.ts",
                 "test-d/index.ts", "packages-private/dts-test/ref.test-d.ts"):
        assert classify(name, "typescript") == "test", name
    assert classify("src/test-data.ts", "typescript") == "source"
    # a package's tests in one script beside it (AVA's `test.js`), a Rust module's `mod tests`
    for name, lang in (("test.js", "javascript"), ("packages/got/test.ts", "typescript"),
                       ("tests.mjs", "javascript"), ("src/parser/tests.rs", "rust")):
        assert classify(name, lang) == "test", name
    for name, lang in (("lib/attest.js", "javascript"), ("src/latest.ts", "typescript"),
                       ("src/tests_util.rs", "rust"), ("utils/test.py", "python")):
        assert classify(name, lang) == "source", name
    assert classify("docs/index.md", "markdown") == "doc"
    assert classify("examples/demo/app.py", "python") == "example"
    assert classify("sandbox/server.js", "javascript") == "example"  # a manual-testing app
    # a package named by a reverse domain is the project's code: Gradle's and Maven's default
    # `org.example`, and `com.example`, put every source file under an `example/` folder
    for name, lang in (("src/main/java/org/example/App.java", "java"),
                       ("src/main/kotlin/com/example/billing/Invoice.kt", "kotlin"),
                       ("app/src/main/java/net/demo/Main.java", "java")):
        assert classify(name, lang) == "source", name
    assert classify("examples/src/main/java/com/acme/Demo.java", "java") == "example"
    # benchmarks: Cargo's benches/, and the like
    for name in ("benches/05_ripgrep.rs", "benchsuite/runner.py", "bench/parse.js",
                 "benchmarks/bench_sort.py"):
        assert classify(name, "rust") == "example", name
    assert classify("src/bencher.rs", "rust") == "source"
    assert classify("packages/sfc-playground/src/App.vue", "vue") == "source"
    assert classify("src/app.py", "python") == "source"
    assert classify("pyproject.toml", "toml") == "config"
    # build, lint and test-runner settings written as scripts are configuration too
    for name in ("rollup.config.js", "web/vite.config.mts", "karma.conf.cjs", ".eslintrc.cjs",
                 "Gruntfile.js", "gulpfile.ts", ".dependency-cruiser.js", "web/.mocharc.js",
                 ".lintstagedrc.mjs"):
        assert classify(name, "javascript") == "config", name
    for name in ("src/config.js", "lib/core/mergeConfig.js", "src/rc.ts", "src/profile.js",
                 ".vuepress/theme/index.js", "src/.internal/x.ts"):
        assert classify(name, "javascript") == "source", name
    # package and build manifests written in the project's language
    for name, lang in (("sinatra.gemspec", "ruby"), ("Rakefile", "ruby"), ("Gemfile", "ruby"),
                       ("setup.py", "python"), ("noxfile.py", "python"), ("build.gradle", "groovy"),
                       ("app/build.gradle.kts", "kotlin")):
        assert classify(name, lang) == "config", name
    for name, lang in (("lib/gemfile_parser.rb", "ruby"), ("src/setup_utils.py", "python")):
        assert classify(name, lang) == "source", name
    # gettext's translation catalogs, and what is built beside them, are text for translators
    for name, lang in (("sphinx/locale/fr/LC_MESSAGES/sphinx.po", None),
                       ("sphinx/locale/fr/LC_MESSAGES/sphinx.js", "javascript"),
                       ("po/messages.pot", None)):
        assert classify(name, lang) == "doc", name
    for name, lang in (("sphinx/locale/__init__.py", "python"), ("app/potato.py", "python"),
                       ("src/report.pot.py", "python")):
        assert classify(name, lang) == "source", name


def test_kinds_of_another_classifier_are_redone_on_open(tmp_path):
    """The file list reads each file's stored kind: an index whose kinds another version of
    classify() stored gets today's kinds when it is opened, without a re-index."""
    root = write_files(tmp_path / "ws", {"src/app.py": "x = 1\n", "tests/test_app.py": "y = 2\n"})
    idx, scope = open_index(root, tmp_path / "c")
    idx.refresh(scope, 1_000_000)
    with idx.conn:
        idx.conn.execute("UPDATE files SET kind='doc'")
        idx.conn.execute("UPDATE meta SET value='0' WHERE key='classifier'")
    idx.close()
    idx, scope = open_index(root, tmp_path / "c")
    assert {f.path: f.kind for f in idx.all_files()} == {"src/app.py": "source",
                                                         "tests/test_app.py": "test"}
    assert idx.refresh(scope, 1_000_000).indexed == 0


def _contents(idx):
    """Everything an index holds, keyed by path (file ids differ between builds)."""
    c = idx.conn
    paths = dict(c.execute("SELECT id, path FROM files"))
    return (
        sorted(c.execute("SELECT path, size, mtime_ns, hash, lang, kind, lines, skipped FROM files")),
        sorted((paths[r], p, s, b) for r, p, s, b in c.execute("SELECT rowid, * FROM fts")),
        sorted((paths[f], *rest) for f, *rest in c.execute("SELECT * FROM symbols")),
        sorted((paths[f], t) for f, t in c.execute("SELECT * FROM imports")),
    )


def test_worker_processes_build_the_same_index(tmp_path, monkeypatch):
    """Parsing in worker processes (forked from the CLI, spawned from a threaded server) stores
    exactly what parsing in-process stores."""
    import threading

    from iterative_retrieval.index import workers

    files = {f"pkg/m{i}.py": f"class Model{i}:\n    def save_{i}(self):\n        return {i}\n"
             for i in range(60)}
    files.update({f"web/v{i}.ts": f"import {{ a }} from './a'\nexport function view{i}() {{}}\n"
                  for i in range(30)})
    files["data/blob.txt"] = b"\0\1\2"
    root = write_files(tmp_path / "ws", files)
    inline, scope = open_index(root, tmp_path / "c1")
    inline.refresh(scope, 1_000_000)

    monkeypatch.setattr(workers, "PARALLEL_THRESHOLD", 10)
    monkeypatch.setattr(workers, "PARSE_CHUNK", 8)
    forked, _ = open_index(root, tmp_path / "c2")
    forked.refresh(scope, 1_000_000)
    assert _contents(forked) == _contents(inline)

    stop = threading.Event()
    busy = threading.Thread(target=stop.wait)  # a second thread: forking is unsafe, spawn is used
    busy.start()
    try:
        spawned, _ = open_index(root, tmp_path / "c3")
        stats = spawned.refresh(scope, 1_000_000)
    finally:
        stop.set()
        busy.join()
    assert stats.indexed == 91
    assert _contents(spawned) == _contents(inline)


def test_symbols_follow_changes_by_this_and_other_processes(tmp_path):
    """symbols_of_many remembers symbols between cycles, but never serves stale ones: not after
    this index re-reads a file, nor after another connection (a CLI `index`) rewrote the file."""
    root = write_files(tmp_path / "ws", {"a.py": "def first(): pass\n"})
    idx, scope = open_index(root, tmp_path / "c")
    idx.refresh(scope, 1_000_000)

    def names():
        fid = idx.file_id("a.py")
        return [s.name for s in idx.symbols_of_many([fid]).get(fid, [])]

    assert names() == ["first"]
    (root / "a.py").write_text("def second(): pass\n")
    idx.update_paths(["a.py"], 1_000_000)
    assert names() == ["second"]
    (root / "a.py").write_text("def third(): pass\n\ndef fourth(): pass\n")
    other, _ = open_index(root, tmp_path / "c")
    other.refresh(scope, 1_000_000)
    other.close()
    assert names() == ["third", "fourth"]


def test_a_buffer_opened_during_a_refresh_wins(tmp_path, monkeypatch):
    """An editor buffer indexed while a refresh is still storing files (a first index of a big
    workspace) is neither overwritten by the disk nor an error, for a new and a known file."""
    from iterative_retrieval.index import store

    monkeypatch.setattr(store, "STORE_BATCH", 2)
    files = {f"m{i}.py": f"def disk_{i}(): pass\n" for i in range(8)}
    root = write_files(tmp_path / "ws", files)
    idx, scope = open_index(root, tmp_path / "c")
    (root / "m7.py").unlink()
    idx.refresh(scope, 1_000_000)  # m0..m6 known
    (root / "m7.py").write_text("def disk_7(): pass\n")
    (root / "m6.py").write_text("def disk_6_changed(): pass\n")

    def progress(done, total):
        if done == 2:  # m7 (new) and m6 (known, changed) are not stored yet
            idx.put_text("m7.py", "def buffer_7(): pass\n")
            idx.put_text("m6.py", "def buffer_6(): pass\n")

    (root / "m0.py").write_text("def disk_0_changed(): pass\n")
    (root / "m1.py").write_text("def disk_1_changed(): pass\n")
    idx.refresh(scope, 1_000_000, progress=progress)
    assert idx.definitions(["buffer_7", "buffer_6"]).keys() == {"buffer_7", "buffer_6"}
    assert not idx.definitions(["disk_7", "disk_6_changed", "disk_6"])
    assert sorted(idx.overlay_paths()) == ["m6.py", "m7.py"]


def test_a_refresh_commits_in_large_transactions_and_loses_nothing(tmp_path, monkeypatch):
    """A command line's refresh commits every COMMIT_ROWS files: other readers see nothing of a
    transaction before its commit, a buffer update that fails meanwhile rolls back only itself,
    and a refresh stopped between commits keeps what it stored."""
    from iterative_retrieval.index import store

    monkeypatch.setattr(store, "STORE_BATCH", 4)
    files = {f"m{i}.py": f"def disk_{i}(): pass\n" for i in range(40)}
    root = write_files(tmp_path / "ws", files)
    idx, scope = open_index(root, tmp_path / "c")
    idx.commit_rows = 16
    other = sqlite3.connect(idx.db_path)
    seen = []

    def failing_insert(row, overlay, if_new=False):
        raise sqlite3.OperationalError("disk I/O error")

    def progress(done, total):
        seen.append((done, other.execute("SELECT count(*) FROM files").fetchone()[0]))
        if done == 20:  # 16 committed, 4 stored and not yet committed
            with monkeypatch.context() as m:
                m.setattr(idx, "_insert", failing_insert)
                try:
                    idx.put_text("buffer.py", "def buffer(): pass\n")
                except sqlite3.OperationalError:
                    pass
                else:
                    raise AssertionError("the buffer update was meant to fail")

    idx.refresh(scope, 1_000_000, progress=progress)
    # committed every 16 files; the failed update committed the 4 pending first
    assert seen[:5] == [(4, 0), (8, 0), (12, 0), (16, 16), (20, 16)]
    assert seen[5] == (24, 20)
    assert idx.file_count() == 40 and other.execute("SELECT count(*) FROM files").fetchone()[0] == 40
    assert idx.definitions([f"disk_{i}" for i in range(40)]).keys() == {
        f"disk_{i}" for i in range(40)}

    # stopped between commits: what was stored is committed, the rest is read next time
    for i in range(40):
        (root / f"m{i}.py").write_text(f"def changed_{i}(): pass\n")
    idx.refresh(scope, 1_000_000, should_stop=lambda: idx.conn.in_transaction)
    assert other.execute("SELECT count(*) FROM files WHERE path LIKE 'm%'").fetchone()[0] == 40
    assert len(idx.definitions([f"changed_{i}" for i in range(40)])) == 4
    idx.refresh(scope, 1_000_000)
    assert len(idx.definitions([f"changed_{i}" for i in range(40)])) == 40
    other.close()
    idx.close()


def test_read_memos_follow_writes(tmp_path):
    """all_files and definitions are remembered between calls but follow every write."""
    root = write_files(tmp_path / "ws", {"a.py": "def alpha(): pass\n"})
    idx, scope = open_index(root, tmp_path / "c")
    idx.refresh(scope, 1_000_000)
    assert [f.path for f in idx.all_files()] == ["a.py"]
    assert list(idx.definitions(["alpha", "beta"])) == ["alpha"]
    write_files(root, {"b.py": "def beta(): pass\n\ndef alpha(): pass\n"})
    idx.refresh(scope, 1_000_000)
    assert sorted(f.path for f in idx.all_files()) == ["a.py", "b.py"]
    defs = idx.definitions(["beta", "alpha"])
    assert list(defs) == ["alpha", "beta"] and len(defs["alpha"]) == 2
    idx.put_text("c.py", "def gamma(): pass\n")
    assert idx.definitions(["gamma"]) and len(idx.all_files()) == 3


def test_document_frequencies_and_counts_follow_every_writer(tmp_path):
    """Document frequencies (asked for together, present or not) and the file counts every
    retrieval reports are remembered, and follow a write by another process."""
    root = write_files(tmp_path / "ws", {
        "a.py": "def alpha():\n    return token + token\n", "b.py": "token = 1\n",
        "data.txt": b"\0\1\2token",
    })
    idx, scope = open_index(root, tmp_path / "c")
    idx.refresh(scope, 1_000_000)
    absent = [f"zz{i}" for i in range(600)]  # more than one statement's worth
    dfs = idx.doc_freqs(["token", "alpha", "token", *absent])
    assert list(dfs)[:2] == ["token", "alpha"] and len(dfs) == 602
    assert (dfs["token"], dfs["alpha"]) == (2, 1) and not any(dfs[t] for t in absent)
    assert (idx.file_count(), idx.skipped_counts()) == (2, {"binary": 1})

    (root / "data.txt").unlink()
    write_files(root, {"c.py": "token = 2\n"})
    other, _ = open_index(root, tmp_path / "c")
    other.refresh(scope, 1_000_000)
    other.close()
    assert idx.doc_freqs(["token"]) == {"token": 3}
    assert (idx.file_count(), idx.skipped_counts()) == (3, {})


def test_packed_outline_matches_the_symbols_table(tmp_path):
    """A file's symbols are read from one packed row, the same rows the symbols table holds in
    line order; a packed row this Python cannot load is read from the table instead."""
    text = "class A:\n    def b(self): pass\n\n    def c(self): pass\n\ndef d(): pass\n"
    root = write_files(tmp_path / "ws", {"a.py": text})
    idx, scope = open_index(root, tmp_path / "c")
    idx.refresh(scope, 1_000_000)
    fid = idx.file_id("a.py")
    table = idx.conn.execute("SELECT file_id, name, kind, start, end, terms FROM symbols"
                             " WHERE file_id=? ORDER BY start", (fid,)).fetchall()
    assert [r[1] for r in table] == ["A", "b", "c", "d"]
    assert idx.symbols_of_many([fid])[fid].rows == table
    with idx.conn:
        idx.conn.execute("UPDATE outlines SET rows=x'00ff'")
    idx.close()
    idx, _ = open_index(root, tmp_path / "c")
    assert idx.symbols_of_many([fid])[fid].rows == table
    write_files(root, {"a.py": "def e(): pass\n"})
    idx.refresh(scope, 1_000_000)
    fid = idx.file_id("a.py")
    assert [r[1] for r in idx.symbols_of_many([fid])[fid].rows] == ["e"]
    assert idx.conn.execute("SELECT count(*) FROM outlines").fetchone()[0] == 1


def test_stored_symbol_rows_read_like_symbols(tmp_path):
    """symbols_of_many's rows are a sequence of Symbol values, in line order, made on demand;
    definers names the same files as definitions, in the same order."""
    from iterative_retrieval.models import Symbol, SymbolRows, symbol_names
    from iterative_retrieval.tokenize import stemmed_terms

    root = write_files(tmp_path / "ws", {
        "a.py": "def parse_time(): pass\n\nclass Month:\n    pass\n",
        "b.py": "def parse_time(): pass\n",
    })
    idx, scope = open_index(root, tmp_path / "c")
    idx.refresh(scope, 1_000_000)
    fid = idx.file_id("a.py")
    rows = idx.symbols_of_many([fid])[fid]
    assert isinstance(rows, SymbolRows) and len(rows) == 2
    assert list(symbol_names(rows)) == ["parse_time", "Month"]
    assert [s.name for s in rows] == ["parse_time", "Month"] and rows[1].kind == "class"
    assert rows[0] == Symbol("parse_time", rows[0].kind, 1, rows[0].end_line)
    assert rows[0].terms == stemmed_terms("parse_time")
    assert idx.symbols_of_many([fid])[fid] is rows  # one object per file version
    assert idx.definers(["parse_time"]) == {
        "parse_time": [f for f, _ in idx.definitions(["parse_time"])["parse_time"]]}
    assert idx.imports_of_many([fid]) == {fid: idx.imports_of(fid)}


def test_counts_do_not_wait_for_a_running_write(tmp_path):
    """`status` reads the last committed counts on a connection of its own: a batch being
    written (the index lock held, a transaction open) does not hold it up."""
    import threading

    root = write_files(tmp_path / "ws", {"a.py": "x = 1\n", "blob.txt": "\0\0\0"})
    idx, scope = open_index(root, tmp_path / "c")
    idx.refresh(scope, 1_000_000)
    idx.put_text("c.py", "y = 2\n")
    writing, release = threading.Event(), threading.Event()

    def hold_a_write():
        with idx._lock, idx.conn:
            idx.conn.execute("INSERT INTO files(path) VALUES('uncommitted.py')")
            writing.set()
            release.wait(10)

    t = threading.Thread(target=hold_a_write)
    t.start()
    try:
        assert writing.wait(10)
        assert idx.counts() == (2, {"binary": 1}, 1)
    finally:
        release.set()
        t.join()
    assert idx.counts() == (3, {"binary": 1}, 1)


def test_counts_survive_a_deleted_cache_file(tmp_path):
    """The cache file deleted under a running server: `status` still answers (from the open
    connection) and no empty database is made in its place."""
    root = write_files(tmp_path / "ws", {"a.py": "x = 1\n"})
    idx, scope = open_index(root, tmp_path / "c")
    idx.refresh(scope, 1_000_000)
    for suffix in ("", "-wal", "-shm"):
        (tmp_path / "c" / (idx.db_path.name + suffix)).unlink(missing_ok=True)
    assert idx.counts() == (1, {}, 0)
    assert not idx.db_path.exists()


def test_a_first_index_of_a_large_tree_with_a_secret_file(tmp_path):
    """A first index that reads enough files to go in bulk, in a tree with a secret file: the
    skipped rows were stored in an open transaction, where SQLite refuses to change
    `synchronous`, and every such first index failed (issue found on vite's trees)."""
    from iterative_retrieval.index.workers import PARALLEL_THRESHOLD

    files = {f"pkg/m{i}.py": f"def handler_{i}(token):\n    return token\n"
             for i in range(PARALLEL_THRESHOLD + 20)}
    files[".env"] = "API_TOKEN=not-a-real-one\n"
    root = write_files(tmp_path / "ws", files)
    eng = Engine([root], Settings(cache_dir=str(tmp_path / "cache")))
    stats = eng.refresh()[0]
    assert stats.indexed == PARALLEL_THRESHOLD + 20
    assert stats.skipped.get("secret") == 1
    assert eng.retrieve("handler_7 token").files[0].path == "pkg/m7.py"


BROWSERIFY_OLD = (
    '!function(e){if("object"==typeof exports&&"undefined"!=typeof module)module.exports=e()}'
    '(function(){var define,module,exports;return (function e(t,n,r){function s(o,u){if(!n[o])'
    '{var f=n[o]={exports:{}};t[o][0].call(f.exports,function(e){return s(t[o][1][e]||e)},f,'
    'f.exports,e,t,n,r)}return n[o].exports}for(var o=0;o<r.length;o++)s(r[o]);return s})({1:'
    '[function(require,module,exports){\nfunction acquireConnection(pool) {\n  return pool.acquire()\n}\n'
    'module.exports = acquireConnection\n},{}]},{},[1])(1)});\n'
)
BROWSERIFY_NEW = (
    '(function(){function r(e,n,t){function o(i,f){if(!n[i]){if(!e[i]){var c="function"=='
    'typeof require&&require;if(!f&&c)return c(i,!0)}}return n[i].exports}return o}return r})()'
    '({1:[function(require,module,exports){\nfunction releaseConnection(pool, conn) {\n'
    '  pool.release(conn)\n}\n},{}]},{},[1]);\n'
)
WEBPACK = (
    '/******/ (function(modules) { // webpackBootstrap\n'
    '/******/ \tvar installedModules = {};\n'
    '/******/ \tfunction __webpack_require__(moduleId) {\n'
    '/******/ \t\treturn installedModules[moduleId];\n/******/ \t}\n'
    '/******/ })([\n/* 0 */\n/***/ (function(module, exports) {\n\n'
    'function drainPool(pool) {\n  pool.drain()\n}\n\n/***/ })\n/******/ ]);\n'
)


def test_a_bundlers_output_is_stored_unread(tmp_path):
    """A browserify or webpack bundle committed under a plain name is a copy of the project's
    modules: skipped as generated, on disk and in an open buffer. A module that writes such a
    prelude in a string, or merely names webpack's runtime, is source."""
    root = write_files(tmp_path / "ws", {
        "lib/pool.js": "function acquireConnection(pool) {\n  return pool.acquire()\n}\n",
        "browser/knex.js": BROWSERIFY_OLD,
        "browser/websql.js": BROWSERIFY_NEW,
        "public/app.js": WEBPACK,
        "lib/template.js": (
            "function bootstrap(source) {\n"
            "  source.add('/******/ (function(modules) { // webpackBootstrap\\n')\n"
            "  return '__webpack_require__'\n}\n"
        ),
        "lib/runtime.mjs": "/* webpackBootstrap is webpack's runtime */\nexport function e(t, n, r) {}\n",
    })
    idx, scope = open_index(root, tmp_path / "c")
    idx.refresh(scope, 1_000_000)
    assert idx.skipped_counts() == {"generated": 3}
    for rel in ("browser/knex.js", "browser/websql.js", "public/app.js"):
        assert idx.skip_reason(rel) == "generated"
    [(pool_id, _)] = idx.definitions(["acquireconnection"])["acquireconnection"]
    assert pool_id == idx.file_id("lib/pool.js")
    assert not idx.definitions(["releaseconnection"]) and not idx.definitions(["drainpool"])
    assert idx.definitions(["bootstrap"]) and idx.definitions(["e"])

    idx.put_text("lib/pool.js", WEBPACK)
    idx.refresh(scope, 1_000_000)
    assert idx.skip_reason("lib/pool.js") == "generated" and not idx.definitions(["acquireconnection"])


def test_an_api_reference_s_html_pages_are_stored_unread(tmp_path):
    """jazzy's, javadoc's and Doxygen's pages repeat every type's names and doc comments, which
    the source says once: skipped as generated. A hand-written page or template, even one that
    speaks of javadoc, is read."""
    root = write_files(tmp_path / "ws", {
        "Source/Session.swift": "/// Starts a request.\nopen class Session {\n"
                                "    func request() {}\n}\n",
        "docs/Classes/Session.html": (
            '<!DOCTYPE html>\n<html lang="en">\n  <head>\n    <title>Session Class Reference'
            '</title>\n    <link rel="stylesheet" type="text/css" href="../css/jazzy.css" />\n'
            '  </head>\n  <body><h1>Session</h1><p>Starts a request.</p></body>\n</html>\n'),
        "api/okhttp3/Call.html": (
            '<!DOCTYPE HTML>\n<!-- Generated by javadoc (11.0.2) on Mon Jan 7 -->\n<html>\n'
            '<head><title>Call</title></head><body>Call enqueue</body></html>\n'),
        "html/classfmt.html": (
            '<!DOCTYPE html>\n<html><head>\n<!-- Generated by Doxygen 1.9.1 -->\n</head>'
            '<body>format_to</body></html>\n'),
        "templates/layout.html": (
            "<!doctype html>\n<title>{% block title %}{% endblock %}</title>\n"
            "<p>Our API reference is generated by javadoc: see the session docs.</p>\n"),
    })
    idx, scope = open_index(root, tmp_path / "c")
    idx.refresh(scope, 1_000_000)
    assert idx.skipped_counts() == {"generated": 3}
    for rel in ("docs/Classes/Session.html", "api/okhttp3/Call.html", "html/classfmt.html"):
        assert idx.skip_reason(rel) == "generated"
    assert idx.skip_reason("templates/layout.html") is None
    paths = {f.id: f.path for f in idx.all_files()}
    hits = {paths[fid] for fid in idx.search_term(stem("session"))}
    assert hits == {"Source/Session.swift", "templates/layout.html"}, hits


def test_a_file_whose_header_says_a_tool_wrote_it_is_stored_unread(tmp_path):
    """Bison's and flex's output, a Go file marked `Code generated … DO NOT EDIT.` and an ANTLR
    parser say so before any code: skipped as generated, their names out of the search. A
    generator's own template (the banner inside a string, after code) and a file that mentions
    generation in a later comment are source."""
    root = write_files(tmp_path / "ws", {
        "src/parser.c": ("/* A Bison parser, made by GNU Bison 3.0.2.  */\n"
                         "int yyparse_range(void) { return 0; }\n"),
        "src/lexer.c": ('#line 2 "lexer.c"\n\n#define  YY_INT_ALIGNED short int\n\n'
                        "/* A lexical scanner generated by flex */\nint yylex_range(void);\n"),
        "kind_string.go": ("// Code generated by \"stringer -type=Kind\"; DO NOT EDIT.\n\n"
                           "package kind\n\nfunc rangeName() string { return \"\" }\n"),
        "latexparser.py": ("# encoding: utf-8\n\n# *** GENERATED BY `setup.py antlr`, DO NOT EDIT "
                           "BY HAND ***\ndef range_rule():\n    pass\n"),
        "src/jv_aux.c": "/* range bounds */\nint range_bounds(int a) { return a; }\n",
        "write_types.js": ("import { write } from './utils.js';\n\nconst header = () => `\n"
                           "// this file is auto-generated\n`;\nexport function range_types() {}\n"),
        "gen.go": ("package gen\n\n// The output says: Code generated by gen. DO NOT EDIT.\n"
                   "func rangeWriter() {}\n"),
    })
    idx, scope = open_index(root, tmp_path / "c")
    idx.refresh(scope, 1_000_000)
    assert idx.skipped_counts() == {"generated": 4}
    for rel in ("src/parser.c", "src/lexer.c", "kind_string.go", "latexparser.py"):
        assert idx.skip_reason(rel) == "generated", rel
    for name in ("range_bounds", "range_types", "rangewriter"):
        assert idx.definitions([name]), name
    assert not idx.definitions(["yyparse_range"]) and not idx.definitions(["range_rule"])
