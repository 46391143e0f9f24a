"""Mine "work in progress" tasks from a repository's history, and write their trees as git
repositories on a branch, so that the git signals (server/iterative_retrieval/changes.py) see
the branch's changes as a developer in the middle of the work would.

    python -m bench.quality.wip mine --repo owner/name --git-dir /work/.mirror/owner+name/repo \
        --out /tmp/wip/tasks.jsonl [--max 40] [--seed 0] [--append]
    python -m bench.quality.wip materialize --tasks /tmp/wip/tasks.jsonl --work /tmp/wip/work \
        [--mirrors /work/.mirror]

A task is two consecutive commits A then B by the same author on the same day, B's only parent
being A (the commits of one pull request, or of one sitting): the work tree is the state after
A, whose changes are the branch's changes against the state before A (the default branch, at
A's parent); the task is B's cleaned message; the gold is B's changed source files, with the
lines of A's version that B changed. B must be a task by bench.quality.mine's rules (any change,
not only fixes); A must change 1 to --max-branch-files source files. Each task records
`branch_files` (A's source files) so a report can say how often B continues A's files.

With `--chain N` the branch is the N commits before B (by the same author, each within a day
of the one before): the tree is the state after the last, the branch's base the first one's
parent, and `last_commit_files` records the last commit's source files: a long branch, where
the newest work and the oldest can be told apart.

A tree is `<work>/<owner>__<name>@<A12>` (keep WIP trees in a folder of their own): a
clone sharing the mirror's objects, with a local `main` at A's parent and the branch `wip`
checked out at A, no other branch and no remote (so that the default branch is the local
`main`).

Run them with `python -m bench.quality`, with and without `IR_ABLATE=changes`; with
`IR_GIT_NOW=head` the commits before A are recent work as they were when A was made
(docs/benchmarks.md, "Work in progress").
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import subprocess
import sys

from .mine import Commit, Rules, file_kind, gold_lines, iter_commits, judge, task_id, write_tasks
from .tasks import load_tasks, root_for

SAME_DAY = 86400
"""B follows A within this many seconds."""
MAX_BRANCH_FILES = 8


def chains(commits: list[Commit], length: int = 1) -> list[tuple[list[Commit], Commit]]:
    """(As, B): `length` commits A (oldest first) then B, each the only parent of the next, all
    by the same author, each within SAME_DAY of the one before."""
    by_sha = {c.sha: c for c in commits}
    out = []
    for b in commits:
        run = [b]
        while len(run) <= length:
            child = run[-1]
            if len(child.parents) != 1:
                break
            a = by_sha.get(child.parents[0])
            if a is None or a.author != b.author or not 0 <= child.time - a.time <= SAME_DAY:
                break
            run.append(a)
        if len(run) == length + 1 and len(run[-1].parents) == 1:
            out.append((run[:0:-1], b))
    return out


def branch_sources(branch: Commit | list[Commit], rules: Rules) -> list[str]:
    """The source files the branch's commits leave changed (not deleted)."""
    state: dict[str, bool] = {}
    for a in branch if isinstance(branch, list) else [branch]:
        for p, ch in a.changes.items():
            state[p] = ch.status != "D"
    return sorted(p for p, alive in state.items()
                  if alive and file_kind(p, rules.exclude) == "source")


WIP_RULES = Rules(require_fix=False)
"""A WIP task's B need not be a fix."""


def mine_wip(repo: str, git_dir: str, *, max_n: int | None = None, seed: int = 0,
             since: str | None = None, rev: str = "HEAD", rules: Rules = WIP_RULES,
             max_branch_files: int = MAX_BRANCH_FILES, chain: int = 1) -> list[dict]:
    """WIP tasks of `git_dir` (see the module docstring), a seeded sample in commit-time order.
    `chain`: how many commits the branch has (the last `chain` commits before B)."""
    commits = list(iter_commits(git_dir, rev, since))
    eligible = []
    seen: set[tuple[str, tuple[str, ...]]] = set()
    for run, b in chains(commits, chain):
        reason, gold, task = judge(b, rules)
        branch = branch_sources(run, rules)
        a = run[-1]
        if reason or not branch or len(branch) > max_branch_files:
            continue
        if (task, tuple(gold)) in seen:
            continue
        seen.add((task, tuple(gold)))
        eligible.append((run, b, gold, task, branch))
    eligible.sort(key=lambda e: (e[1].time, e[1].sha))
    if max_n is not None and len(eligible) > max_n:
        eligible = sorted(random.Random(seed).sample(eligible, max_n),
                          key=lambda e: (e[1].time, e[1].sha))
    tasks = []
    for run, b, gold, task, branch in eligible:
        a = run[-1]
        lines = gold_lines(git_dir, a.sha, b.sha, gold)
        if not all(lines.values()):
            continue
        task_ = {"id": task_id(repo, b.sha) + "-wip", "source": "wip", "repo": repo,
                 "base": a.sha, "before": run[0].parents[0], "task": task, "gold": gold,
                 "gold_lines": lines, "branch_files": branch}
        if chain > 1:
            task_["last_commit_files"] = branch_sources(a, rules)
        tasks.append(task_)
    return tasks


def materialize(tasks_path: str, work: str, mirrors: str) -> list[str]:
    """Write each task's tree (idempotent); the roots written or found."""
    out = []
    with open(tasks_path, encoding="utf-8") as fh:
        import json

        raw = [json.loads(line) for line in fh if line.strip()]
    for t in raw:
        root = root_for(work, t["repo"], t["base"])
        out.append(root)
        done = os.path.join(root, ".git", "wip-done")  # not in the work tree: no untracked file
        if os.path.exists(done):
            continue
        shutil.rmtree(root, ignore_errors=True)
        git_dir = os.path.join(mirrors, t["repo"].replace("/", "+"), "repo")
        run = lambda *a: subprocess.run(["git", *a], check=True, capture_output=True)  # noqa: E731
        run("clone", "-q", "--shared", "--no-checkout", git_dir, root)
        run("-C", root, "remote", "remove", "origin")
        run("-C", root, "checkout", "-q", "-B", "main", t["before"])
        run("-C", root, "checkout", "-q", "-B", "wip", t["base"])
        # the clone's own copy of the mirror's default branch (`master`) holds B and what came
        # after: the git signals take the nearest copy of the default branch, so only `main`
        # may be one
        others = subprocess.run(["git", "-C", root, "for-each-ref", "--format=%(refname:short)",
                                 "refs/heads/"], check=True, capture_output=True, text=True)
        for name in set(others.stdout.split()) - {"main", "wip"}:
            run("-C", root, "branch", "-q", "-D", name)
        with open(done, "w") as fh:
            fh.write(t["id"] + "\n")
        print(f"[{len(out)}/{len(raw)}] {root}", file=sys.stderr, flush=True)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.quality.wip",
                                 description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    m = sub.add_parser("mine")
    m.add_argument("--repo", required=True)
    m.add_argument("--git-dir", required=True)
    m.add_argument("--out", required=True)
    m.add_argument("--max", type=int, default=None)
    m.add_argument("--seed", type=int, default=0)
    m.add_argument("--since", default=None)
    m.add_argument("--rev", default="HEAD")
    m.add_argument("--append", action="store_true")
    m.add_argument("--chain", type=int, default=1,
                   help="commits on the branch before B (default 1: A alone)")
    m.add_argument("--max-branch-files", type=int, default=MAX_BRANCH_FILES)
    z = sub.add_parser("materialize")
    z.add_argument("--tasks", required=True)
    z.add_argument("--work", required=True)
    z.add_argument("--mirrors", default="/work/.mirror")
    args = ap.parse_args(argv)
    if args.cmd == "mine":
        tasks = mine_wip(args.repo, args.git_dir, max_n=args.max, seed=args.seed,
                         since=args.since, rev=args.rev, chain=args.chain,
                         max_branch_files=args.max_branch_files)
        n = write_tasks(args.out, tasks, args.append)
        cont = sum(1 for t in tasks if set(t["gold"]) & set(t["branch_files"]))
        print(f"{n} new tasks ({len(tasks)} mined; {cont} continue a file of the branch)",
              file=sys.stderr)
        return 0
    materialize(args.tasks, args.work, args.mirrors)
    load_tasks(args.tasks)  # well-formed for the benchmark
    return 0


if __name__ == "__main__":
    sys.exit(main())
