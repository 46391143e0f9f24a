"""The persistent index: incremental updates, symbols, open buffers, rebuilds."""

from __future__ import annotations

import sqlite3

from iterative_retrieval.index import SCHEMA_VERSION, Index, classify
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


def test_classify():
    """Tests, docs, examples, type declarations and config are told apart from source."""
    assert classify("tests/test_app.py", "python") == "test"
    assert classify("src/app.test.ts", "typescript") == "test"
    assert classify("pkg/foo_test.go", "go") == "test"
    assert classify("docs/index.md", "markdown") == "doc"
    assert classify("examples/demo/app.py", "python") == "example"
    assert classify("src/app.py", "python") == "source"
    assert classify("pyproject.toml", "toml") == "config"
    assert classify("index.d.ts", "typescript") == "declaration"
    assert classify("types/api.d.cts", "typescript") == "declaration"
    assert classify("pkg/stubs.pyi", "python") == "declaration"
    assert classify("src/index.ts", "typescript") == "source"
