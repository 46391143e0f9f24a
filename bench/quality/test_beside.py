"""The two-root benchmark counts only the task's own root."""

from bench.quality.beside import main, own_ranking


class F:
    def __init__(self, root, path):
        self.root, self.path = root, path


def test_a_file_of_the_other_root_is_never_a_gold_path(tmp_path):
    mine, other = tmp_path / "mine", tmp_path / "other"
    files = [F(str(other), "src/app.py"), F(str(mine), "src/app.py"), F(str(other), "x.py")]
    ranking, others = own_ranking(files, mine.resolve())
    assert ranking[1] == "src/app.py" and ranking[0] != "src/app.py"
    assert others == 2


def test_a_run_on_real_trees(tmp_path, capsys):
    from tests.conftest import write_files

    write_files(tmp_path / "work" / "o__r@abcdef123456", {
        "src/session.py": "def session_expiry(session):\n    return session.expiry\n",
        "src/other.py": "def unrelated():\n    return 1\n"})
    write_files(tmp_path / "beside", {"lib/expiry.py": "def expiry_table():\n    return {}\n"})
    tasks = tmp_path / "tasks.jsonl"
    tasks.write_text('{"id": "t1", "repo": "o/r", "base": "abcdef1234567890", '
                     '"task": "Fix session expiry", "gold": ["src/session.py"]}\n')
    assert main(["--tasks", str(tasks), "--work", str(tmp_path / "work"), "--repo", "o/r",
                 "--beside", str(tmp_path / "beside"), "--cache-dir", str(tmp_path / "c"),
                 "--json", str(tmp_path / "out.json")]) == 0
    out = capsys.readouterr().out
    assert "alone  1 tasks  R@5 1.000" in out
    import json
    row = json.loads((tmp_path / "out.json").read_text())["tasks"][0]
    assert row["alone"][0] == "src/session.py"
    # beside: the task's own file, and the other root's file marked as the other root's
    assert "src/session.py" in row["beside"]
    assert any(p.startswith("(other) ") and p.endswith("lib/expiry.py") for p in row["beside"])
    assert "beside 1 tasks" in out
