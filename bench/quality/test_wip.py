"""Tests of the work-in-progress miner on a real git repository."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from bench.quality import wip as W
from bench.quality.test_mine import _commit, _git
from iterative_retrieval.changes import read_changes


def _repo(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    repo = tmp_path / "r"
    repo.mkdir()
    _git(repo, "init", "-q", "-b", "main")
    shas = {}
    shas["base"] = _commit(repo, "Start the app", {"src/app.py": "def run():\n    return 1\n",
                                                   "src/util.py": "def helper():\n    return 2\n"},
                           when=0)
    shas["a"] = _commit(repo, "Add the retry loop to the runner", {
        "src/app.py": "def run():\n    for _ in range(3):\n        return 1\n"}, when=5)
    shas["b"] = _commit(repo, "Make the number of retries of the runner configurable", {
        "src/app.py": "def run(n=3):\n    for _ in range(n):\n        return 1\n"}, when=9)
    return repo, shas


def test_a_pair_of_same_day_commits_is_a_task_on_a_branch(tmp_path):
    """A then B by one author: the tree after A, the branch's changes A's files, the task B."""
    repo, shas = _repo(tmp_path)
    git_dir = str(repo / ".git")
    tasks = W.mine_wip("o/r", git_dir)
    assert [t["base"] for t in tasks] == [shas["a"]]
    t = tasks[0]
    assert t["before"] == shas["base"] and t["gold"] == ["src/app.py"]
    assert t["branch_files"] == ["src/app.py"] and "configurable" in t["task"]
    out = tmp_path / "tasks.jsonl"
    out.write_text(json.dumps(t) + "\n")
    mirrors = tmp_path / "mirrors"
    (mirrors / "o+r").mkdir(parents=True)
    subprocess.run(["git", "clone", "-q", "--bare", str(repo), str(mirrors / "o+r" / "repo")],
                   check=True, capture_output=True)
    # the mirror's default branch is `master`, and holds B: not a default branch of the tree's
    _git(mirrors / "o+r" / "repo", "branch", "-m", "main", "master")
    (root,) = W.materialize(str(out), str(tmp_path / "work"), str(mirrors))
    assert Path(root, "src/app.py").read_text().startswith("def run():\n    for")
    ch = read_changes(Path(root))
    assert ch.files["src/app.py"].kind == "branch" and "retry loop" in ch.text
    assert ch.base == shas["base"]


def test_a_chain_of_commits_is_a_longer_branch(tmp_path):
    """--chain 2: the two commits before B are the branch; its base is the first one's parent,
    and the last one's files are recorded apart."""
    repo, shas = _repo(tmp_path)
    shas["c"] = _commit(repo, "Log each retry of the runner in the helper module", {
        "src/util.py": "def helper():\n    print('retry')\n    return 2\n"}, when=12)
    tasks = {t["base"]: t for t in W.mine_wip("o/r", str(repo / ".git"), chain=2)}
    t = tasks[shas["b"]]
    assert t["before"] == shas["base"] and t["gold"] == ["src/util.py"]
    assert t["branch_files"] == ["src/app.py"] and t["last_commit_files"] == ["src/app.py"]
    assert set(tasks) == {shas["b"]}  # the root commit starts no branch
