"""The command line end to end, as a user runs it: real processes, real files, exit codes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import EXAMPLES, write_files


def run(*args: str, stdin: str | None = None, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "iterative_retrieval", *args],
        input=stdin, capture_output=True, text=True, cwd=cwd, timeout=120,
    )


def test_missing_root_is_a_one_line_error(tmp_path):
    """A root that does not exist: one line on stderr, exit 2, nothing on stdout."""
    p = run("retrieve", "fix the login", "--root", str(tmp_path / "nope"))
    assert p.returncode == 2
    assert p.stdout == ""
    assert p.stderr.strip().count("\n") == 0
    assert "root does not exist" in p.stderr


def test_root_that_is_a_file(tmp_path):
    """A root that is a file: exit 2 with 'not a folder'."""
    f = tmp_path / "f.txt"
    f.write_text("x")
    p = run("retrieve", "fix the login", "--root", str(f))
    assert p.returncode == 2 and "not a folder" in p.stderr


@pytest.mark.parametrize("task", ["", "   \n\t "])
def test_empty_task(tmp_path, task):
    """An empty or blank task: exit 2 with a message that says the task is empty."""
    p = run("retrieve", task, "--root", str(tmp_path))
    assert p.returncode == 2 and "task is empty" in p.stderr


def test_empty_task_from_stdin(tmp_path):
    """'-' reads the task from stdin; an empty stdin is the same clear error."""
    p = run("retrieve", "-", "--root", str(tmp_path), stdin="")
    assert p.returncode == 2 and "task is empty" in p.stderr


def test_missing_task_file(tmp_path):
    """A --task-file that cannot be read: exit 2 naming the file."""
    p = run("retrieve", "--task-file", str(tmp_path / "none.md"), "--root", str(tmp_path))
    assert p.returncode == 2 and "none.md" in p.stderr


def test_binary_task_is_refused_and_invalid_utf8_is_read(tmp_path):
    """A binary task file or stdin (NUL bytes): exit 2 saying so, nothing searched; a task
    file in another encoding is read with its odd bytes replaced."""
    binary = tmp_path / "shot.png"
    binary.write_bytes(b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR" + bytes(range(256)) * 40)
    root = str(EXAMPLES / "auth-service")
    p = run("retrieve", "--task-file", str(binary), "--root", root)
    assert p.returncode == 2 and "task file" in p.stderr and "binary" in p.stderr
    assert p.stdout == ""
    p = run("retrieve", "-", "--root", root, stdin="token\0expiry")
    assert p.returncode == 2 and "task on stdin is binary" in p.stderr
    latin = tmp_path / "issue.txt"
    latin.write_bytes("Le jeton expiré: fix the token expiry".encode("latin-1"))
    p = run("retrieve", "--task-file", str(latin), "--root", root, "--json")
    assert p.returncode == 0, p.stderr
    assert "src/auth/tokens.ts" in [f["path"] for f in json.loads(p.stdout)["files"]][:3]


def test_a_task_over_the_limit_is_read_from_its_start_with_a_note(tmp_path):
    """A log piped in whole: its first 200 000 characters are read, and stderr says so."""
    task = "Fix the token expiry check\n" + "log line without meaning\n" * 10_000
    p = run("retrieve", "-", "--root", str(EXAMPLES / "auth-service"), "--json", stdin=task)
    assert p.returncode == 0, p.stderr
    assert "the task is longer than 200000 characters; only its start is read" in p.stderr
    out = json.loads(p.stdout)
    assert out["task"] == task[:200_000]  # the echo is what was read
    assert "src/auth/tokens.ts" in [f["path"] for f in out["files"]][:3]


def test_an_endless_or_huge_task_file_is_read_only_as_far_as_the_limit(tmp_path):
    """/dev/zero (endless NULs) is refused as binary at once, not read into memory for ever;
    of a 30 MB log only about the first 800 kB are read, and the run says so."""
    root = str(EXAMPLES / "auth-service")
    p = run("retrieve", "--task-file", "/dev/zero", "--root", root)
    assert p.returncode == 2 and "task file /dev/zero is binary" in p.stderr
    log = tmp_path / "huge.log"
    with log.open("w") as fh:
        fh.write("Fix the token expiry check\n")
        for _ in range(3000):
            fh.write("an uninteresting log line that repeats itself to fill space\n" * 160)
    assert log.stat().st_size > 25_000_000
    p = run("retrieve", "--task-file", str(log), "--root", root, "--json")
    assert p.returncode == 0, p.stderr
    assert "longer than 200000 characters" in p.stderr
    assert len(json.loads(p.stdout)["task"]) == 200_000


def test_bad_option_values(tmp_path):
    """Out-of-range options are refused with exit 2."""
    p = run("retrieve", "x y", "--root", str(tmp_path), "--max-cycles", "0")
    assert p.returncode == 2 and "max_cycles" in p.stderr


def test_bad_files_are_skipped_and_counted(tmp_path):
    """Binary, huge and undecodable files are skipped, counted in stats, and never crash a run."""
    write_files(tmp_path, {
        "src/login.py": "def login(user, password):\n    return check_password(user, password)\n",
        "src/blob.dat2": b"\x00\x01\x02binary" * 100,
        "src/huge.py": "x = 1\n" * 400_000,
        "src/latin.py": b"# caf\xe9 login\ndef login_cafe():\n    pass\n",
        "src/bad.txt": bytes(range(128, 256)) * 50,
    })
    p = run("retrieve", "fix the login", "--root", str(tmp_path), "--json")
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)
    skipped = out["stats"]["skipped"]
    assert skipped.get("binary") == 1
    assert skipped.get("too_large") == 1
    assert skipped.get("undecodable") == 1
    paths = [f["path"] for f in out["files"]]
    assert paths[0] == "src/login.py"
    assert "src/latin.py" in paths


def test_unreadable_file_is_skipped(tmp_path):
    """A file the user cannot read is skipped and counted, when permissions apply (not as root)."""
    import os

    write_files(tmp_path, {"a.py": "def login(): pass\n", "b.py": "def login_b(): pass\n"})
    os.chmod(tmp_path / "b.py", 0)
    try:
        p = run("retrieve", "login", "--root", str(tmp_path), "--json")
        assert p.returncode == 0, p.stderr
        if os.geteuid() != 0:
            assert json.loads(p.stdout)["stats"]["skipped"].get("unreadable") == 1
    finally:
        os.chmod(tmp_path / "b.py", 0o644)


def test_corrupt_index_is_rebuilt(tmp_path, _isolated_cache):
    """A corrupt cache file is replaced by a fresh index, never fatal."""
    write_files(tmp_path, {"auth.py": "def refresh_token(): pass\n"})
    assert run("index", "--root", str(tmp_path)).returncode == 0
    dbs = list(Path(_isolated_cache).rglob("*.sqlite3"))
    assert len(dbs) == 1
    dbs[0].write_bytes(b"this is not a database" * 100)
    for suffix in ("-wal", "-shm"):
        Path(str(dbs[0]) + suffix).unlink(missing_ok=True)
    p = run("retrieve", "refresh token", "--root", str(tmp_path), "--json")
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout)["files"][0]["path"] == "auth.py"


def test_second_run_rereads_nothing(tmp_path):
    """The index persists: a second run on an unchanged tree re-reads no file; an edit re-reads one."""
    write_files(tmp_path, {f"m{i}.py": f"def f{i}(): return {i}\n" for i in range(20)})
    first = json.loads(run("index", "--root", str(tmp_path), "--json").stdout)[0]
    assert first["indexed"] == 20
    second = json.loads(run("index", "--root", str(tmp_path), "--json").stdout)[0]
    assert second["indexed"] == 0 and second["unchanged"] == 20
    (tmp_path / "m3.py").write_text("def changed(): pass\n")
    (tmp_path / "m4.py").unlink()
    third = json.loads(run("index", "--root", str(tmp_path), "--json").stdout)[0]
    assert third["indexed"] == 1 and third["removed"] == 1


def test_index_lives_in_the_cache_folder_or_the_flag(tmp_path, _isolated_cache):
    """By default the index is under XDG_CACHE_HOME; --cache-dir overrides it; never in the root."""
    write_files(tmp_path / "ws", {"a.py": "x = 1\n"})
    run("index", "--root", str(tmp_path / "ws"))
    assert list((Path(_isolated_cache) / "iterative-retrieval").glob("*.sqlite3"))
    run("index", "--root", str(tmp_path / "ws"), "--cache-dir", str(tmp_path / "c"))
    assert list((tmp_path / "c").glob("*.sqlite3"))
    assert not [p for p in (tmp_path / "ws").rglob("*") if p.suffix.startswith(".sqlite")]


def test_json_schema_fields():
    """--json prints one object with the documented fields and forward-slash relative paths."""
    p = run("retrieve", "Fix the authentication token expiry bug", "--root",
            str(EXAMPLES / "auth-service"), "--json")
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)
    assert out["schema_version"] == "1.5" and out["warnings"] == []
    assert set(out) >= {"schema_version", "task", "files", "trace", "stats"}
    f = out["files"][0]
    assert set(f) >= {"path", "relevance", "band", "role", "reason", "missing", "cycle", "regions"}
    assert f["role"] == "implements" and f["reason"].startswith("implements: ")
    assert "\\" not in f["path"] and not f["path"].startswith("/")
    r = f["regions"][0]
    assert set(r) == {"start_line", "end_line", "why", "text"} and r["start_line"] <= r["end_line"]
    assert r["why"], "a region says what it is (whole file, a function, matched lines)"
    t = out["trace"][0]
    assert set(t["query"]) == {"patterns", "keywords", "excludes", "focus_areas", "follow_up",
                               "from_branch"}
    assert set(t) >= {"cycle", "query", "candidates", "kept", "excluded", "learned"}


def test_markdown_and_text_outputs():
    """--markdown is chat-ready; the default is a ranked table with a trace."""
    root = str(EXAMPLES / "auth-service")
    md = run("retrieve", "Fix the authentication token expiry bug", "--root", root, "--markdown")
    assert md.returncode == 0 and md.stdout.startswith("## Context for:")
    assert "```typescript" in md.stdout
    txt = run("retrieve", "Fix the authentication token expiry bug", "--root", root)
    assert txt.returncode == 0 and "Trace:" in txt.stdout and "cycle 1:" in txt.stdout


def test_task_file(tmp_path):
    """--task-file reads a long pasted issue."""
    issue = tmp_path / "issue.md"
    issue.write_text("Tokens never expire.\n\nThe `isExpired` check in tokens.ts always says false.\n")
    p = run("retrieve", "--task-file", str(issue), "--root", str(EXAMPLES / "auth-service"), "--json")
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout)["files"][0]["path"] == "src/auth/tokens.ts"


def test_two_roots_rank_together(tmp_path):
    """Several --root flags: files of both roots are ranked together, each with its root."""
    write_files(tmp_path / "api", {"src/billing.py": "def charge_invoice(invoice):\n    return invoice\n"})
    write_files(tmp_path / "web", {"src/invoice_view.ts": "export function renderInvoice(invoice) {}\n",
                                   "src/other.ts": "export const x = 1\n"})
    p = run("retrieve", "invoice rendering and charging", "--root", str(tmp_path / "api"),
            "--root", str(tmp_path / "web"), "--json")
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)
    got = {(Path(f["root"]).name, f["path"]) for f in out["files"]}
    assert {("api", "src/billing.py"), ("web", "src/invoice_view.ts")} <= got
    assert len(out["roots"]) == 2


def test_two_roots_with_the_same_path_are_each_labelled_with_their_own_root(tmp_path):
    """The text view labels each file by its root: `src/invoice.py` of api and of web are two
    rows, each with its own root (the label was looked up by path, so one showed the other's)."""
    write_files(tmp_path / "api", {"src/invoice.py": "def charge_invoice(invoice):\n    return invoice\n"})
    write_files(tmp_path / "web", {"src/invoice.py": "def render_invoice(invoice):\n    return invoice\n"})
    p = run("retrieve", "charge_invoice and render_invoice", "--root", str(tmp_path / "api"),
            "--root", str(tmp_path / "web"), "--regions", "-q", "--cache-dir", str(tmp_path / "c"))
    assert p.returncode == 0, p.stderr
    rows = [ln for ln in p.stdout.splitlines() if "src/invoice.py " in ln and ln.strip()[:1].isdigit()]
    assert len(rows) == 2, p.stdout
    by_label = {ln.split()[3]: ln for ln in rows}
    assert set(by_label) == {"api:src/invoice.py", "web:src/invoice.py"}, p.stdout
    assert "charge_invoice" in by_label["api:src/invoice.py"]
    assert "render_invoice" in by_label["web:src/invoice.py"]
    assert "--- api:src/invoice.py:1-" in p.stdout and "--- web:src/invoice.py:1-" in p.stdout


def test_the_same_task_gives_the_same_answer_whatever_the_hash_seed(tmp_path):
    """Ranking, reasons (their graph links included) and regions do not depend on set order."""
    import os

    outs = []
    for seed in ("1", "2", "3"):
        p = subprocess.run(
            [sys.executable, "-m", "iterative_retrieval", "retrieve", "Fix the authentication token expiry bug",
             "--root", str(EXAMPLES / "auth-service"), "--json", "-q", "--cache-dir", str(tmp_path / "cache")],
            capture_output=True, text=True, env={**os.environ, "PYTHONHASHSEED": seed}, timeout=120,
        )
        assert p.returncode == 0, p.stderr
        out = json.loads(p.stdout)
        outs.append([(f["path"], f["relevance"], f["reason"], f["regions"]) for f in out["files"]])
    assert outs[0] == outs[1] == outs[2]
    assert any("imports" in r for _, _, r, _ in outs[0])


def explain_json(root, cache, path: str, task: str) -> dict:
    """`explain PATH TASK --json` on one root, as a user runs it."""
    res = run("explain", path, task, "--root", str(root), "--cache-dir", str(cache), "--json", "-q")
    assert res.returncode == 0, res.stderr
    return json.loads(res.stdout)


def test_explain_says_which_rule_keeps_a_file_out(tmp_path):
    """A vendored copy of a library's release and a file the project's ignore file names are
    not indexed, each for its own reason."""
    root = write_files(tmp_path / "ws", {
        "pkg/inspect.py": "def getargspec(func):\n    return func\n",
        "pkg/static/jquery-3.5.1.js": "function jQuery(selector) { return selector }\n",
        "gen/schema.py": "SCHEMA = {}\n",
        ".iterative-retrieval-ignore": "gen/\n",
    })
    def explain(path: str) -> dict:
        return explain_json(root, tmp_path / "c", path, "jQuery selector schema")

    vendored = explain("pkg/static/jquery-3.5.1.js")
    assert vendored["band"] == "irrelevant" and "copies of a library's release" in vendored["reason"]
    ignored = explain("gen/schema.py")
    assert "not indexed" in ignored["reason"] and ".iterative-retrieval-ignore" in ignored["reason"]


def test_explain_says_why_a_file_is_stored_unread(tmp_path):
    """A file the index stores unread (a bundler's output, a binary file) is explained by the
    reason it was skipped, not as a candidate below 0.2."""
    root = write_files(tmp_path / "ws", {
        "lib/pool.js": "function acquireConnection(pool) {\n  return pool.acquire()\n}\n",
        "browser/bundle.js": (
            "(function(){function r(e,n,t){function o(i,f){return n[i].exports}return o}return r})()"
            "({1:[function(require,module,exports){\nfunction acquireConnection(pool) {}\n},{}]},{},[1]);\n"
        ),
        "lib/pool.dat.js": b"\0\1acquireConnection",
    })

    def explain(path: str) -> dict:
        return explain_json(root, tmp_path / "c", path, "acquireConnection leaks the pool")

    bundle = explain("browser/bundle.js")
    assert bundle["rank"] is None and bundle["reason"].startswith("not indexed: a generated file")
    assert "a bundler's output" in bundle["reason"]
    assert explain("lib/pool.dat.js")["reason"] == "not indexed: a binary file"
    assert explain("lib/pool.js")["rank"] == 1
