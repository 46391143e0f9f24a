"""Benchmark tasks (tasks.jsonl) and the materialized trees they are scored against."""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Task:
    """One task: the words a user would type, and the files (and lines) the real fix changed."""

    id: str
    source: str
    repo: str
    base: str
    task: str
    gold: tuple[str, ...]
    gold_lines: dict[str, list[list[int]]] = field(default_factory=dict, hash=False)

    @classmethod
    def from_dict(cls, d: dict) -> Task:
        return cls(
            id=d["id"], source=d.get("source", ""), repo=d["repo"], base=d["base"], task=d["task"],
            gold=tuple(d["gold"]), gold_lines=dict(d.get("gold_lines") or {}),
        )


def root_for(work: str, repo: str, base: str) -> str:
    """Where materialize.py writes the tree of (repo, base): <work>/<owner>__<name>@<sha12>."""
    return os.path.join(work, "{}@{}".format(repo.replace("/", "__"), base[:12]))


def load_tasks(path: str, repos: Iterable[str] = (), limit: int | None = None) -> list[Task]:
    """Tasks of the file in order, only those of `repos` when given, at most `limit` of them."""
    wanted = {r.strip() for r in repos if r.strip()}
    out: list[Task] = []
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            if not line.strip():
                continue
            t = Task.from_dict(json.loads(line))
            if wanted and t.repo not in wanted:
                continue
            out.append(t)
            if limit is not None and len(out) >= limit:
                break
    return out


def group_by_tree(
    tasks: Iterable[Task], work: str
) -> tuple[list[tuple[str, list[Task]]], list[Task]]:
    """(root, its tasks) groups sorted by repo then root, and the tasks whose tree is missing."""
    groups: dict[str, list[Task]] = {}
    missing: list[Task] = []
    for t in tasks:
        root = root_for(work, t.repo, t.base)
        if not os.path.isdir(root):
            missing.append(t)
            continue
        groups.setdefault(root, []).append(t)
    ordered = sorted(groups.items(), key=lambda kv: (kv[1][0].repo, kv[0]))
    return ordered, missing
