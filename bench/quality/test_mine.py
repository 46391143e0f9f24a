"""Tests of the commit miner on a real git repository: `pytest bench/quality/test_mine.py`."""

from __future__ import annotations

import json
import os
import subprocess

import pytest

from bench.quality import mine as MI

APP_V1 = "".join(f"line {i}\n" for i in range(1, 11))  # src/app.py: line 1 .. line 10


def _git(repo, *args, when=0):
    date = f"2020-01-01T00:{when:02d}:00+0000"
    env = dict(os.environ, GIT_AUTHOR_NAME="Dev", GIT_AUTHOR_EMAIL="dev@example.com",
               GIT_COMMITTER_NAME="Dev", GIT_COMMITTER_EMAIL="dev@example.com",
               GIT_AUTHOR_DATE=date, GIT_COMMITTER_DATE=date, GIT_CONFIG_GLOBAL=os.devnull,
               GIT_CONFIG_NOSYSTEM="1")
    res = subprocess.run(["git", "-C", str(repo), *args], env=env, check=True,
                         capture_output=True, text=True)
    return res.stdout.strip()


def _write(repo, path, text):
    full = repo / path
    full.parent.mkdir(parents=True, exist_ok=True)
    full.write_text(text)


def _commit(repo, message, files, when):
    for path, text in files.items():
        _write(repo, path, text)
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", message, when=when)
    return _git(repo, "rev-parse", "HEAD")


FIX_MESSAGE = """Fix crash when the config value is empty (#12)

The loader raised an error on an empty value in src/app.py; handle it
like a missing one. See gh-7 and https://github.com/o/r/issues/12 too.

Fixes #12
Co-authored-by: Other Dev <other@example.com>
Signed-off-by: Dev <dev@example.com>"""

TRACEBACK_MESSAGE = """Return an empty list when the file holds no entries

Traceback (most recent call last):
  File "src/util.py", line 2, in entries
    return data[0]
IndexError: list index out of range"""


@pytest.fixture(scope="module")
def repo(tmp_path_factory):
    """A repository whose history has one commit of each kind the miner must tell apart."""
    r = tmp_path_factory.mktemp("repo")
    _git(r, "init", "-q", "-b", "main")
    c = {}
    c["root"] = _commit(r, "Initial import of the project with its loader and tests", {
        "src/app.py": APP_V1, "src/util.py": "def entries(data):\n    return data[0]\n",
        "tests/test_app.py": "def test_app():\n    pass\n", "README.md": "# Project\n"}, 0)
    # a fix: lines 3-4 modified, one line inserted after line 7, one removed at 9; a test too
    app2 = APP_V1.replace("line 3\nline 4\n", "line three\nline four\n") \
        .replace("line 7\n", "line 7\ninserted\n").replace("line 9\n", "")
    c["fix"] = _commit(r, FIX_MESSAGE, {
        "src/app.py": app2, "tests/test_app.py": "def test_app():\n    assert True\n"}, 1)
    c["bump"] = _commit(r, "Bump version to 1.2.0 for the next release of the loader", {
        "src/app.py": "__version__ = '1.2.0'\n" + app2}, 2)
    c["docs"] = _commit(r, "Document every option of the config loader in the readme", {
        "README.md": "# Project\n\nOptions: all of them.\n", "docs/usage.rst": "Usage\n"}, 3)
    c["short"] = _commit(r, "fix it", {"src/util.py": "def entries(data):\n    return data[:1]\n"},
                         4)
    c["new_file"] = _commit(r, "Fix the loader by adding a helper module for empty values", {
        "src/helper.py": "X = 1\n", "tests/test_app.py": "def test_app():\n    assert 1\n"}, 5)
    c["feature"] = _commit(r, "Add a colour option to the renderer output for terminals", {
        "src/util.py": "def entries(data):\n    return data[:1]\n\nCOLOUR = True\n"}, 6)
    # a side branch with a traceback fix, merged with a merge commit
    _git(r, "checkout", "-q", "-b", "side", c["short"])
    c["traceback"] = _commit(r, TRACEBACK_MESSAGE, {
        "src/util.py": "def entries(data):\n    return data[:1] if data else []\n",
        "tests/test_util.py": "def test_entries():\n    assert entries([]) == []\n"}, 7)
    _git(r, "checkout", "-q", "main")
    _git(r, "merge", "-q", "--no-ff", "-X", "theirs", "-m",
         "Merge branch 'side' that handles the empty entries error case", "side", when=8)
    c["merge"] = _git(r, "rev-parse", "HEAD")
    # a bare copy, as the fetch tool leaves them
    bare = tmp_path_factory.mktemp("mirror") / "repo"
    subprocess.run(["git", "clone", "-q", "--bare", str(r), str(bare)], check=True)
    return str(bare), c


def test_only_fair_commits_become_tasks(repo):
    """The fix and the traceback fix are tasks; bump, docs, short, new-file, featureless and merge
    commits are not."""
    git_dir, c = repo
    stats: dict = {}
    tasks = MI.mine("o/r", git_dir, stats=stats)
    assert [t["id"] for t in tasks] == [f"o__r@{c['fix'][:12]}", f"o__r@{c['traceback'][:12]}"]
    assert stats["eligible"] == 2
    assert stats["no source file"] == 1  # the docs commit
    assert stats["message too short"] == 1
    assert stats["adds, deletes or renames a source file"] == 1
    assert stats["no test and no fix words"] == 1  # the colour feature
    assert stats["subject"] == 1  # the bump
    assert stats["root"] == 1


def test_task_fields_cleaning_and_gold_lines(repo):
    """A task has the development set's fields; its text loses issue numbers, trailers and the
    gold path; gold_lines are the parent's removed/modified lines (insertion: the line before)."""
    git_dir, c = repo
    fix = MI.mine("o/r", git_dir)[0]
    assert set(fix) == {"id", "source", "repo", "base", "task", "gold", "gold_lines"}
    assert fix["source"] == "commit" and fix["repo"] == "o/r"
    assert fix["base"] == c["root"]
    assert fix["gold"] == ["src/app.py"]
    assert fix["gold_lines"] == {"src/app.py": [[3, 4], [7, 7], [9, 9]]}
    assert fix["task"] == (
        "Fix crash when the config value is empty\n\n"
        "The loader raised an error on an empty value in; handle it\n"
        "like a missing one. too.")
    for gone in ("#12", "gh-7", "Co-authored-by", "Signed-off-by", "src/app.py", "github.com"):
        assert gone not in fix["task"]


def test_traceback_kind(repo):
    """--kind traceback keeps only the commit whose message holds a pasted traceback."""
    git_dir, c = repo
    tasks = MI.mine("o/r", git_dir, kind="traceback")
    assert [t["base"] for t in tasks] == [c["short"]]
    assert "Traceback (most recent call last):" in tasks[0]["task"]
    assert "File \"src/util.py\"" not in tasks[0]["task"]  # a verbatim gold path, removed
    assert tasks[0]["gold_lines"] == {"src/util.py": [[2, 2]]}
    mixed = MI.mine("o/r", git_dir, kind="mixed", max_n=1)
    assert [t["base"] for t in mixed] == [c["short"]]


def test_sample_is_seeded_and_cli_output_deterministic(repo, tmp_path):
    """--max samples with the seed; the same flags write the same bytes; --append adds only new
    tasks."""
    git_dir, _ = repo
    out1, out2 = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    for out in (out1, out2):
        assert MI.main(["--repo", "o/r", "--git-dir", git_dir, "--out", str(out),
                        "--max", "1", "--seed", "3"]) == 0
    assert out1.read_bytes() == out2.read_bytes()
    assert len(out1.read_text().splitlines()) == 1
    MI.main(["--repo", "o/r", "--git-dir", git_dir, "--out", str(out1), "--append"])
    rows = [json.loads(line) for line in out1.read_text().splitlines()]
    assert len(rows) == 2 and len({r["id"] for r in rows}) == 2
    MI.main(["--repo", "o/r", "--git-dir", git_dir, "--out", str(out1), "--any-change",
             "--append"])
    assert len(out1.read_text().splitlines()) == 3  # the colour feature joins


@pytest.mark.parametrize("message, expected", [
    ("Fix foo (#45)", "Fix foo"),
    ("Fix crash (fixes #12, #13)", "Fix crash"),
    ("Handle None\n\nCloses #3\nCo-authored-by: A <a@b.c>", "Handle None"),
    ("Tidy loaders, #380.\n\nNeeds a test.", "Tidy loaders.\n\nNeeds a test."),
    ("Fix #12, #13: handle None", "handle None"),
    ("Note this  here.  Fixed #605", "Note this here."),
    ("Fix thing\n\nPR-URL: https://github.com/a/b/pull/4\nReviewed-By: X <x@y.z>", "Fix thing"),
    ("Refs: gh-99\nSee owner/repo#5 for details", "for details"),
    ("This addresses issue #123 in the parser.", "This in the parser."),
    ("Keep the colon: here\n\n    indented  code  stays",
     "Keep the colon: here\n\n    indented  code  stays"),
    ("Fixes: a crash on empty input\nFixes: #4", "Fixes: a crash on empty input"),
    ("Fix (cherry) pick\n\n(cherry picked from commit 0123abcd)", "Fix (cherry) pick"),
])
def test_clean_message(message, expected):
    """Issue references, trailers and their stranded punctuation go; other text stays as is."""
    assert MI.clean_message(message) == expected


def test_clean_message_removes_gold_paths_and_their_suffixes():
    """A gold path goes wherever it stands whole, and so does its tail of two or more segments;
    a bare file name or a longer path that merely contains it stays."""
    text = "Fix `src/pkg/app.py` and pkg/app.py, not app.py nor src/pkg/app.pyc or x/src/pkg/app.py"
    assert MI.clean_message(text, ["src/pkg/app.py"]) == (
        "Fix and, not app.py nor src/pkg/app.pyc or x/src/pkg/app.py")
    assert MI.clean_message("Update index.d.ts for mergeConfig", ["index.d.ts"]) == (
        "Update for mergeConfig")  # a top-level gold file's path is its name


@pytest.mark.parametrize("path, kind", [
    ("src/app.py", "source"), ("lib/router/index.js", "source"), ("index.d.ts", "source"),
    ("crates/core/src/main.rs", "source"), ("scripts/gen.sh", "source"),
    ("tests/test_app.py", "test"), ("pkg/app_test.go", "test"), ("src/a.spec.ts", "test"),
    ("packages/x/__tests__/a.ts", "test"), ("flask/testsuite/basic.py", "test"),
    ("conftest.py", "test"), ("packages/dts-test/a.ts", "test"), ("test.js", "test"),
    ("index.test-d.ts", "test"), ("src/tests.rs", "test"), ("lib/attest.js", "source"),
    ("docs/conf.py", "doc"), ("CHANGES.rst", "doc"), ("HISTORY.md", "doc"), ("README", "doc"),
    ("package-lock.json", "other"), ("Cargo.lock", "other"), (".github/workflows/ci.yml", "other"),
    ("dist/app.min.js", "other"), ("vendor/lib/x.go", "other"), ("setup.py", "other"),
    ("rollup.config.js", "other"), ("package.json", "other"), ("pyproject.toml", "other"),
])
def test_file_kind(path, kind):
    """Paths are sorted into source, test, doc and other by folder, name and extension."""
    assert MI.file_kind(path) == kind


def test_file_kind_exclude():
    """--exclude globs make paths never gold."""
    assert MI.file_kind("requests/packages/urllib3/poolmanager.py",
                        ["requests/packages/*"]) == "other"


@pytest.mark.parametrize("subject, skipped", [
    ("Bump version to 2.0", True), ("Release 1.2.3", True), ("v1.2.3", True),
    ("chore(deps): update dependency x to v2", True), ("deps: debug@2.6.9", True),
    ("Fix typo in error message", True), ("Run prettier on the sources", True),
    ("Revert \"Fix the thing\"", True), ("Merge pull request #1 from a/b", True),
    ("docs: explain the thing", True), ("fix(runtime-core): keep the order", False),
    ("Fix version parsing of pre-releases", False), ("Handle formats with a dot", False),
])
def test_skip_reason(subject, skipped):
    """Releases, bumps, dependency updates, typo/lint/format, reverts and merges are no tasks."""
    assert (MI.skip_reason(subject, "Dev") is not None) == skipped


def test_skip_reason_bots():
    """Bots' commits are no tasks; a person whose name ends in 'bot' is no bot."""
    assert MI.skip_reason("Fix the parser on empty input", "renovate[bot]") == "bot"
    assert MI.skip_reason("Fix the parser on empty input", "Andrew Talbot") is None


@pytest.mark.parametrize("text, kind", [
    ("x\n\nTraceback (most recent call last):\n  File \"a.py\", line 1\nKeyError: 'a'",
     "traceback"),
    ("x\n\n    at Object.<anonymous> (/a/b.js:10:5)", "traceback"),
    ("thread 'main' panicked at 'boom', src/main.rs:3:5", "traceback"),
    ("fix `ReferenceError: navigator is not defined`", "message"),
    ("Error: .get() requires callback functions", "message"),
    ("error: the argument was given twice", "message"),
    ("Cannot read properties of undefined (reading 'deep')", "message"),
    ("Fix KeyError on empty headers", "named"),
    ("Fix TypeError in res.send", "named"),
    ("Add toJSON to the AxiosError type", None),
    ("Make the parser faster on long lines", None),
])
def test_error_report(text, kind):
    """Tracebacks, quoted error messages and built-in error names are told apart; a project's
    own exception class is no error report."""
    assert MI.error_report(text) == kind


@pytest.mark.parametrize("diff, ranges", [
    ("@@ -3,2 +3,2 @@\n@@ -7,0 +8 @@\n@@ -9 +9,0 @@", [[3, 4], [7, 7], [9, 9]]),
    ("@@ -0,0 +1,2 @@", [[1, 1]]),  # inserted at the top: line 1
    ("@@ -5,2 +5,3 @@\n@@ -7 +8 @@\n@@ -20,0 +22,4 @@", [[5, 7], [20, 20]]),  # adjacent join
])
def test_hunk_ranges(diff, ranges):
    """Old-side ranges of -U0 hunks: removed/modified lines, the line before a pure insertion,
    adjacent ranges merged."""
    assert MI.hunk_ranges(diff) == ranges


def test_select_takes_error_reports_strongest_first():
    """--kind traceback fills up with tracebacks, then quoted messages, then named errors;
    mixed adds the rest after them; any samples everything alike; output is in time order."""
    texts = ["Traceback (most recent call last):\n  x", "Error: boom happened here",
             "Error: other boom here", "Fix KeyError on empty input", "Plain change of things"]
    eligible = [(MI.Commit(f"{i:040d}", ["p"], "Dev", 100 - i, t), ["a.py"], t)
                for i, t in enumerate(texts)]
    pick = MI.select(eligible, 2, "traceback", seed=0)
    assert len(pick) == 2 and pick[-1][2] == texts[0]  # the oldest (time 96..100) comes first
    assert MI.error_report(pick[0][2]) == "message"
    assert [e[2] for e in MI.select(eligible, 3, "traceback", 0)] == texts[2::-1]
    assert [e[2] for e in MI.select(eligible, None, "traceback", 0)] == texts[3::-1]
    assert [e[2] for e in MI.select(eligible, None, "mixed", 0)] == texts[::-1]
    assert len(MI.select(eligible, 3, "any", 0)) == 3
    assert MI.select(eligible, 3, "any", 0) == MI.select(eligible, 3, "any", 0)
