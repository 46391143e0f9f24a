"""Tests of the per-kind breakdown of a run: `pytest bench/quality/test_breakdown.py`."""

import json

from bench.quality import breakdown as B


def _rec(tid, repo, gold, top, high=(0, 0), line_recall=None):
    metrics = B.M.ranking_metrics(top, gold)
    ours = {"metrics": metrics, "high": list(high), "line_recall": line_recall, "error": None}
    bm25 = {"metrics": B.M.ranking_metrics(list(reversed(top)), gold), "line_recall": 0.0,
            "error": None}
    return {"id": tid, "repo": repo, "source": "commit" if repo == "o/py" else "swe-bench-lite",
            "gold": gold, "systems": {"ours": ours, "bm25": bm25}}


def test_language_is_the_gold_files_majority():
    """A task's language is that of most of its gold files."""
    assert B.language(["a.ts", "b.js", "c.py"]) == "TS/JS"
    assert B.language(["src/lib.rs"]) == "Rust"
    assert B.language(["x.py"]) == "Python"
    assert B.language(["Makefile"]) == "other"


def test_cli_groups_by_repo_language_and_error_report(tmp_path, capsys):
    """Each grouping gets its rows; figures are the group's means; P(>=0.7) pools the files."""
    tasks = [{"id": "t1", "task": "Fix KeyError on empty input", "gold": ["a.py"]},
             {"id": "t2", "task": "Make it faster", "gold": ["b.ts"]}]
    records = [_rec("t1", "o/py", ["a.py"], ["a.py", "z.py"], high=(1, 2), line_recall=0.5),
               _rec("t2", "o/ts", ["b.ts"], ["z.ts", "y.ts", "b.ts"], high=(0, 1))]
    (tmp_path / "t.jsonl").write_text("".join(json.dumps(t) + "\n" for t in tasks))
    (tmp_path / "r.json").write_text(json.dumps({"tasks": records}))
    assert B.main(["--tasks", str(tmp_path / "t.jsonl"), "--json", str(tmp_path / "r.json"),
                   "--out", str(tmp_path / "b.md")]) == 0
    out = capsys.readouterr().out
    assert out.strip() == (tmp_path / "b.md").read_text().strip()
    row = "| all | 2 | ours | .500 | 1.000 | 1.000 | 1.000 | .667 | 1.000 | .500 | .333 (3) |"
    assert row in out
    assert "| named | 1 | ours | 1.000 |" in out and "| none | 1 | ours | .000 |" in out
    assert "| TS/JS | 1 | ours |" in out and "| o/py | 1 | ours |" in out
    assert "| any error report | 1 | ours | 1.000 |" in out
    assert "| commit | 1 | ours | 1.000 |" in out and "| swe-bench-lite | 1 | ours | .000 |" in out
