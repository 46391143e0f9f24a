"""Several processes on one root and one cache folder at once: editors, an MCP server and a
terminal on one repository is the normal case. Cold runs started together all answer, alike,
with no traceback, no rebuild and no in-memory fallback; the index they leave equals a fresh one.

The suite runs a few runs on a few hundred files; `IR_LONG=1` runs 10 at once on 10 000 files,
5 trials in a row (docs/reliability.md has the figures, and bench/reliability/concurrent.py the
same on any tree).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from iterative_retrieval.index import index_path_for
from iterative_retrieval.workspace import check_root

from .conftest import LONG, generated_tree, make_repo
from .test_reliability_faults import TASK, fresh_snapshot, snapshot

FILES = 10_000 if LONG else 450
RUNS = 10 if LONG else 6
TRIALS = 5 if LONG else 3
TIMEOUT = 1800 if LONG else 300  # seconds: a hang guard only


def cli(*args: str) -> list[str]:
    return [sys.executable, "-m", "iterative_retrieval", *args]


def answer_of(stdout: str) -> list[tuple]:
    """The part of a --json answer that must not depend on who built the index."""
    return [(f["path"], f["relevance"], [(r["start_line"], r["end_line"], r["text"])
                                         for r in f["regions"]])
            for f in json.loads(stdout)["files"]]


@pytest.fixture(scope="module")
def tree(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("concurrent") / "ws"
    generated_tree(root, FILES)
    make_repo(root, {})
    return root


def test_concurrent_cold_runs_agree(tree, tmp_path):
    """RUNS cold processes at once (retrieves, and one `index`), TRIALS times: every one exits 0
    with the answer a lone run gives; none rebuilds or falls back; the index is a fresh one."""
    alone = subprocess.run(cli("retrieve", TASK, "--root", str(tree), "--cache-dir",
                               str(tmp_path / "alone"), "--json"),
                           capture_output=True, text=True, timeout=TIMEOUT)
    assert alone.returncode == 0, alone.stderr
    expected = answer_of(alone.stdout)
    assert expected[0][0] == "src/auth/tokens.py"
    fresh = fresh_snapshot(tree, tmp_path)
    for trial in range(TRIALS):
        cache = tmp_path / f"cache-{trial}"
        procs = [subprocess.Popen(
            cli("index", "--root", str(tree), "--cache-dir", str(cache)) if k == RUNS // 2
            else cli("retrieve", TASK, "--root", str(tree), "--cache-dir", str(cache), "--json"),
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for k in range(RUNS)]
        outs = [(p, *p.communicate(timeout=TIMEOUT)) for p in procs]
        for k, (p, out, err) in enumerate(outs):
            assert p.returncode == 0, f"trial {trial}, run {k}: {err}"
            assert "Traceback" not in err, err
            assert "rebuilding" not in err and "in-memory" not in err, err
            if k != RUNS // 2:
                assert answer_of(out) == expected, f"trial {trial}, run {k}"
        assert snapshot(index_path_for(check_root(tree), cache)) == fresh


def _open_index(args: tuple[str, str]) -> str:
    """In a worker process: open the index of a root in a cache; "ok", or why not."""
    from iterative_retrieval.faults import IndexUnavailable
    from iterative_retrieval.index import Index

    try:
        idx = Index.open(Path(args[0]), args[1])
    except IndexUnavailable as exc:
        return str(exc)
    out = "in-memory" if idx.in_memory else "ok"
    idx.close()
    return out


def test_processes_opening_a_new_index_at_once_all_get_it(tmp_path):
    """Six processes open a cache's new index file at the same moment, twenty times: each gets
    the file. (They race to switch it to WAL, and SQLite answers the losers "database is
    locked" at once, without waiting: 6 of 240 such opens failed before they tried again.)"""
    import multiprocessing

    root = make_repo(tmp_path / "ws", {"a.py": "def a():\n    return 1\n"})
    # spawned, not forked: a fork of this process could copy a lock another thread holds
    with multiprocessing.get_context("spawn").Pool(6) as pool:
        for trial in range(20):
            cache = str(tmp_path / f"cache-{trial}")
            opened = pool.map_async(_open_index, [(str(root), cache)] * 6).get(TIMEOUT)
            assert opened == ["ok"] * 6, trial


HOLD_BUILD_LOCK = textwrap.dedent("""\
    import fcntl, sys, time
    fh = open(sys.argv[1], "a+")
    fcntl.flock(fh, fcntl.LOCK_EX)
    print("locked", flush=True)
    time.sleep(600)
    """)


@pytest.mark.skipif(sys.platform == "win32", reason="the holder uses fcntl")
@pytest.mark.parametrize("cache_state", ["cold", "warm with an edit"])
def test_a_builder_that_shows_no_progress_is_passed(tree, tmp_path, cache_state):
    """A process holding the build lock without any sign of life (hung, or stopped) is waited
    for ITERATIVE_RETRIEVAL_BUILD_WAIT seconds of silence; then the run answers correctly from an
    in-memory index and says why; once it is gone, the cache serves again."""
    cache = tmp_path / "cache"
    run = cli("retrieve", TASK, "--root", str(tree), "--cache-dir", str(cache), "--json")
    edited = tree / "pkg/m0/mod_0.py"
    original = edited.read_text()
    if cache_state != "cold":
        assert subprocess.run(run, capture_output=True, timeout=TIMEOUT).returncode == 0
        edited.write_text(original + "\n# an edit, so that the refresh has work to do\n")
    db = index_path_for(check_root(tree), cache)
    db.parent.mkdir(parents=True, exist_ok=True)
    holder = subprocess.Popen([sys.executable, "-c", HOLD_BUILD_LOCK, f"{db}.lock"],
                              stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "locked"
        p = subprocess.run(run, capture_output=True, text=True, timeout=TIMEOUT,
                           env={**os.environ, "ITERATIVE_RETRIEVAL_BUILD_WAIT": "1"})
        assert p.returncode == 0, p.stderr
        assert "another process is indexing" in p.stderr
        assert "without progress" in p.stderr and "in-memory index" in p.stderr
        assert answer_of(p.stdout)[0][0] == "src/auth/tokens.py"
    finally:
        holder.kill()
        holder.wait()
        edited.write_text(original)
    p = subprocess.run(run, capture_output=True, text=True, timeout=TIMEOUT)
    assert p.returncode == 0 and "in-memory" not in p.stderr, p.stderr
    assert snapshot(db) == fresh_snapshot(tree, tmp_path)
