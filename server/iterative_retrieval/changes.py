"""What the developer is in the middle of, from the local git repository only.

A developer rarely starts from nothing: they are on a branch with changes, with files edited
and not yet committed. This reads, for one workspace root, the files changed on the branch
(against its merge-base with the default branch), staged and unstaged edits, untracked files,
the files committed recently (their weight decaying with age), and the files that the
project's history changed together with the work's files (the next step of a change is often
where earlier changes to the same files went too: evolutionary coupling). EVALUATE weighs them as
evidence with their own reason, DISPATCH takes them as candidates. Nothing here touches the
network or changes the repository; a folder with no git, a shallow clone, a detached HEAD or a
git that fails answer with what could be read (often nothing).
"""

from __future__ import annotations

import math
import os
import re
import subprocess
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from .models import Concept
from .query import parse_task
from .tokenize import term_counts

GIT_TIMEOUT = 10.0
"""Seconds one git command may take before its signal is left out."""
RECENT_DAYS = 14
"""Commits this recent count as recent work…"""
RECENT_HALF_LIFE = 3.0
"""…their weight halving every this many days."""
MAX_FILES = 200
"""A branch or a commit that touches more files than this says little about any one of them."""
BRANCH_COMMITS = 200
"""The branch's newest commits read to say how far back each file's last change on it is."""
WORK_COMMITS = 3
"""A task that says it is about the work names the files of the branch's last this many
commits (and the uncommitted ones): on a long branch, not every file it ever changed. (Of
3-commit branches mined from the development repositories, a file of the last commit is one the
next commit changes in 57 % of cases, a file only the earlier commits changed in 25 %; weighing
the branch's files by how recent their commit is did not rank better, though: docs/benchmarks.md,
"A longer branch".)"""
DEFAULT_BRANCHES = ("main", "master", "trunk", "develop", "dev")
COUPLING_COMMITS = 1000
"""Commits of history read for the files that change together with the work's files…"""
COUPLING_MAX_FILES = 30
"""…leaving out commits that touch more files than this (a rename, a reformat, a release)…"""
COUPLING_MIN = 2
"""…a file counts when it changed with them in at least this many commits…"""
COUPLING_TOP = 10
"""…the most often first, at most this many…"""
COUPLING_STRENGTH = 0.6
"""…and weighs this much when it changed in every commit that touched them (less as that share
falls)."""
WORKING = ("unstaged", "staged", "branch")
"""The kinds of change that are the work in progress and have a history (untracked files do
not)."""
WORK_KINDS = (*WORKING, "untracked")
"""The kinds of change that are the developer's own work in progress (not a recent commit, nor a
file coupled with the work): the files a task that says it is about the work names."""

STRENGTH = {"unstaged": 1.0, "staged": 1.0, "untracked": 0.9, "branch": 0.8}
"""How much a kind of change says that the developer is working on the file (recent: decayed)."""
REASON = {
    "unstaged": "edited, not committed",
    "staged": "staged for commit",
    "untracked": "new, not committed",
    "branch": "changed on this branch",
}

LEANING_RE = re.compile(
    r"(^|[.!?:;\n]\s*)(continue|carry on)\b|"
    r"\b((continue|continuing|carry on) (my|this|with|working|on|from)|pick up where|"
    r"finish(ing)? (the|my|this)|"
    r"(this|my|the current|current) (branch|change|changes|diff|work)|"
    r"(my|the current|current) (patch|commit)|"
    r"work in progress|\bwip\b|uncommitted|staged (changes|files|edits)|i('ve| have) staged|"
    r"i (just|have just|recently) (wrote|added|changed|edited|made|started)|"
    r"i('m| am) (working on|in the middle of)|"
    r"(the|my) (work|changes|edits|refactor|refactoring|patch|code) so far|the failing test)\b",
    re.I,
)
"""How a task says it is about the work in progress ("continue the refactor on this branch",
"the failing test I just wrote"): then the changed files weigh in full, and are what the task
names (relevance.judge). Not a verb in passing ("… and continue parsing", "so far I tried",
"staged rollouts") nor a message speaking of itself ("This commit fixes that", "This patch
adds"): a pasted commit or pull request says those of its own change, not the branch's."""


@dataclass(frozen=True)
class Change:
    """The strongest change of one file."""

    kind: str
    """unstaged, staged, untracked, branch, recent or coupled."""
    strength: float
    """0-1: how much it says that the developer is working on the file."""
    age_days: float = 0.0
    """For a recent commit: how long ago, in days."""
    partner: str = ""
    """For a coupled file: the work's file it changed with most often…"""
    together: tuple[int, int] = (0, 0)
    """…in how many of the commits that touched the work's files."""
    commits_after: int = 0
    """For a branch file: how many of the branch's commits came after the last one that
    changed it."""

    @property
    def is_work(self) -> bool:
        """Whether a task that says it is about the work names this file (WORK_COMMITS)."""
        return self.kind in WORK_KINDS and self.commits_after < WORK_COMMITS

    @property
    def reason(self) -> str:
        if self.kind == "coupled":
            n, of = self.together
            return f"changed with {self.partner.rsplit('/', 1)[-1]} before ({n} of {of} commits)"
        if self.kind == "branch" and self.commits_after:
            n = self.commits_after
            return f"{REASON['branch']}, {n} commit{'s' if n > 1 else ''} ago"
        if self.kind != "recent":
            return REASON[self.kind]
        days = self.age_days
        when = ("today" if days < 1 else "yesterday" if days < 2 else f"{int(days)} days ago")
        return f"committed {when}"


@dataclass(frozen=True)
class Changes:
    """The work in progress of one root: path (relative to the root) → its strongest change."""

    files: dict[str, Change] = field(default_factory=dict)
    base: str | None = None
    """The merge-base with the default branch, when one was found."""
    text: str = ""
    """What the work in progress says: the branch's commit messages and the lines its diff and
    the uncommitted edits add or remove (at most TEXT_MAX characters)."""
    messages: str = ""
    """The branch's commit messages, newest first (at most MESSAGES of them)."""

    def __bool__(self) -> bool:
        return bool(self.files)


NONE = Changes()


def leans_on_changes(task: str) -> bool:
    """Whether the task says it is about the work in progress."""
    return bool(LEANING_RE.search(task[:4000]))


def lean(task: str, concepts: Sequence[Concept], changes: Changes) -> float:
    """How much the task is about the work in progress, 0-1: 1 when it says so; else the share
    of its concepts' weight that the work's own text (commit messages, changed lines) says."""
    if not changes:
        return 0.0
    if leans_on_changes(task):
        return 1.0
    total = sum(c.weight for c in concepts if c.terms)
    if not total or not changes.text:
        return 0.0
    said = set(term_counts(changes.text))
    return sum(c.weight for c in concepts if c.terms and not said.isdisjoint(c.terms)) / total


class UnknownBase(ValueError):
    """The git base asked for (config.GIT_BASE) names no commit of a root's repository: the
    request fails, on the settings, rather than measure the branch from another base."""


def read_changes(root: Path, now: float | None = None, base_ref: str | None = None) -> Changes:
    """The work in progress under `root` (a folder of a git work tree, or not); the branch's
    changes since it left `base_ref` (a ref name config.GIT_BASE checked), else the default
    branch. UnknownBase when `base_ref` names no commit there."""
    if not _in_git(root):
        return NONE
    found: dict[str, Change] = {}

    def note(path: str, change: Change) -> None:
        old = found.get(path)
        if old is None or change.strength > old.strength:
            found[path] = change

    for path, kind in _status(root):
        note(path, Change(kind, STRENGTH[kind]))
    base = _merge_base(root, base_ref)
    if base is not None:
        branch = _names(root, "diff", "--name-only", "--relative", "-z", base, "HEAD")
        if branch is not None and len(branch) <= MAX_FILES:
            after, read = _branch_commits(root, base)
            for path in branch:  # one no commit read changed: at least as far back as all
                back = after.get(path, read)
                note(path, Change("branch", STRENGTH["branch"], commits_after=back))
    if now is None:
        now = _replayed(root)
    for path, age in _recent(root, time.time() if now is None else now).items():
        note(path, Change("recent", 0.5 * math.pow(0.5, age / RECENT_HALF_LIFE), age))
    working = {p for p, ch in found.items() if ch.kind in WORKING}
    if working:
        for path, change in coupled(_history(root), working).items():
            note(path, change)
    messages = _messages(root, base)
    return Changes(found, base, _wip_text(root, base, messages), messages)


def coupled(history: Sequence[frozenset[str]], working: set[str]) -> dict[str, Change]:
    """The files that changed together with the working files in past commits (each commit a
    set of paths, at most COUPLING_MAX_FILES), most often first."""
    touched = [c for c in history if len(c) <= COUPLING_MAX_FILES and not c.isdisjoint(working)]
    if not touched:
        return {}
    counts: dict[str, int] = {}
    partners: dict[str, dict[str, int]] = {}
    for commit in touched:
        mine = commit & working
        for path in commit - working:
            counts[path] = counts.get(path, 0) + 1
            with_ = partners.setdefault(path, {})
            for w in mine:
                with_[w] = with_.get(w, 0) + 1
    best = sorted((p for p, n in counts.items() if n >= COUPLING_MIN),
                  key=lambda p: (-counts[p], p))[:COUPLING_TOP]
    out = {}
    for path in best:
        partner = min(partners[path].items(), key=lambda kv: (-kv[1], kv[0]))[0]
        share = counts[path] / len(touched)
        out[path] = Change("coupled", COUPLING_STRENGTH * share, partner=partner,
                           together=(counts[path], len(touched)))
    return out


_histories: dict[tuple[Path, str], list[frozenset[str]]] = {}
"""_history by (root, HEAD commit): the history behind a commit never changes, and reading it
is the costliest part of a retrieval's git signals (0.1 s on sympy's)."""
HISTORIES_KEPT = 8
_histories_lock = threading.Lock()


def _history(root: Path) -> list[frozenset[str]]:
    """The paths (relative to root) of each of the last COUPLING_COMMITS commits, newest first;
    not a root commit (the project's import says nothing of which files go together)."""
    head = _git(root, "rev-parse", "HEAD")
    key = (root, head.decode().strip()) if head else None
    if key is not None:
        with _histories_lock:
            if key in _histories:
                return _histories[key]
    out = _git(root, "log", "--no-merges", "--format=%x01%P", "--name-only", "--relative", "-z",
               "-n", str(COUPLING_COMMITS), "HEAD")
    if out is None:
        return []
    commits = []
    for chunk in out.split(b"\x01"):
        parents, _, names = chunk.partition(b"\0")
        if not parents.strip():
            continue
        paths = frozenset(raw.decode("utf-8", "surrogateescape")
                          for raw in (n.lstrip(b"\n") for n in names.split(b"\0")) if raw)
        if paths:
            commits.append(paths)
    if key is not None:
        with _histories_lock:
            if len(_histories) >= HISTORIES_KEPT:
                _histories.pop(next(iter(_histories)))
            _histories[key] = commits
    return commits


TEXT_MAX = 200_000
MESSAGES = 50
"""The branch's commit messages read, newest first (not merges': "Merge pull request #12 from
…" says nothing of the work)."""
WORK_WORDS = 8
"""A task that says it is about the work borrows this many of the branch messages' names and
words: "continue the work on this branch" says nothing else of what the work is."""


BOT_RE = re.compile(r"\[bot\]|\bbot$|^(dependabot|renovate|pre-commit-ci|pyup)\b", re.I)
"""The authors whose commits on a branch are a tool's (dependabot[bot], pre-commit-ci[bot],
renovate[bot], pyup-bot): their messages ("[pre-commit.ci] auto fixes from pre-commit.com
hooks", "Bump sphinx from 8.0.2 to 8.1.0") say nothing of the developer's work."""


def _messages(root: Path, base: str | None) -> str:
    """The branch's commit messages, newest first: not merges', nor a bot's (BOT_RE)."""
    if base is None:
        return ""
    log = _git(root, "log", "--no-merges", "--format=%x01%an%x02%B", "-n", str(MESSAGES),
               f"{base}..HEAD")
    if not log:
        return ""
    said = []
    for entry in log.decode("utf-8", "replace").split("\x01"):
        author, sep, message = entry.partition("\x02")
        if sep and not BOT_RE.search(author.strip()):
            said.append(message.strip("\n"))
    return "\n\n".join(said)[:TEXT_MAX]


def work_words(task: str, changes: Changes,
               keep: Callable[[str], bool] | None = None) -> tuple[str, ...]:
    """The names and words of the branch's commit messages, strongest first, when the task
    says it is about the work in progress: the work's subject, searched as learned terms.
    `keep`: which words may be searched (not a credential a message pasted)."""
    if not changes.messages or not leans_on_changes(task):
        return ()
    said = parse_task(changes.messages).keywords
    best = sorted((c for c in said if c.kind in ("identifier", "word")
                   and (keep is None or keep(c.text))),
                  key=lambda c: -c.weight)
    return tuple(c.text for c in best[:WORK_WORDS])


PROCESS_WORDS = frozenset({"continue", "continuing", "carry", "pick", "finish", "finishing"})
"""The verbs of the phrases that say a task is about the work in progress: they say *that* it
is, not what the work is ("continue the work on this branch" had `containing` searched as a
stand-in for *continue*, the word no code writes)."""


def without_process_words(task: str, concepts: tuple[Concept, ...]) -> tuple[Concept, ...]:
    """The task's concepts less the PROCESS_WORDS of the phrases that say it is about the work
    (the same word elsewhere in the task, `pick the locale`, is kept)."""
    said = {w for m in LEANING_RE.finditer(task[:4000]) for w in re.findall(r"[a-z]+",
                                                                               m.group().lower())}
    drop = said & PROCESS_WORDS
    if not drop:
        return concepts
    return tuple(c for c in concepts if c.kind != "word" or c.text.lower() not in drop)


def _wip_text(root: Path, base: str | None, messages: str) -> str:
    """The branch's commit messages, then the changed lines of its diff and of the edits."""
    parts: list[str] = [messages] if messages else []
    diff = _git(root, "diff", "-U0", "--no-color", "--relative", base or "HEAD", "--", ".")
    if diff:
        lines = diff.decode("utf-8", "replace").splitlines()
        parts.append("\n".join(ln[1:] for ln in lines if ln[:1] in "+-"
                               and not ln.startswith(("+++", "---"))))
    return "\n".join(parts)[:TEXT_MAX]


def _in_git(root: Path) -> bool:
    return any((p / ".git").exists() for p in (root, *root.parents))


def _git(root: Path, *args: str) -> bytes | None:
    env = dict(os.environ, GIT_OPTIONAL_LOCKS="0", LC_ALL="C")
    try:
        proc = subprocess.run(["git", "-c", "core.quotepath=off", *args], cwd=root, env=env,
                              capture_output=True, timeout=GIT_TIMEOUT)
    except (OSError, subprocess.SubprocessError):
        return None
    return proc.stdout if proc.returncode == 0 else None


def _names(root: Path, *args: str) -> list[str] | None:
    out = _git(root, *args)
    if out is None:
        return None
    return [raw.decode("utf-8", "surrogateescape") for raw in out.split(b"\0") if raw]


def _status(root: Path) -> list[tuple[str, str]]:
    """(path, kind) of the staged, unstaged and untracked files under root, relative to it."""
    out = _git(root, "status", "--porcelain=v1", "-z", "--untracked-files=all", "--", ".")
    if out is None:
        return []
    prefix = _prefix(root)
    entries = out.split(b"\0")
    found: list[tuple[str, str]] = []
    i = 0
    while i < len(entries):
        entry = entries[i]
        i += 1
        if len(entry) < 4:
            continue
        x, y = chr(entry[0]), chr(entry[1])
        path = entry[3:].decode("utf-8", "surrogateescape")
        if x in "RC":
            i += 1  # a rename's or copy's source path follows
        if x == "?":
            kind = "untracked"
        elif y not in " ?!":
            kind = "unstaged"
        elif x not in " ?!":
            kind = "staged"
        else:
            continue
        if x == "D" or y == "D":
            continue  # gone: nothing to hand out
        if path.startswith(prefix):
            found.append((path[len(prefix):], kind))
    return found


def _prefix(root: Path) -> str:
    """The root's path inside its repository ("" at the top), as git status writes paths."""
    out = _git(root, "rev-parse", "--show-prefix")
    return out.decode("utf-8", "surrogateescape").strip() if out else ""


def _merge_base(root: Path, base_ref: str | None = None) -> str | None:
    """Where the current branch left `base_ref`, or the default branch; None on it itself,
    in a shallow clone that lacks it, or when there is no default branch. Of the default
    branch's copies (the remote's, a fork's `upstream`, the local one, which may be weeks
    behind), the nearest fork point: the others would count commits merged since as the
    branch's own."""
    head = _git(root, "rev-parse", "HEAD")
    if head is None:
        return None
    if base_ref is not None and _git(root, "rev-parse", "-q", "--verify",
                                     f"{base_ref}^{{commit}}") is None:
        raise UnknownBase(f"git base {base_ref!r} is no branch, tag or commit in {root}")
    bases: list[str] = []
    for ref in [base_ref] if base_ref is not None else _default_refs(root):
        out = _git(root, "merge-base", "HEAD", ref)
        sha = out.decode().strip() if out else ""
        if sha and sha not in bases:
            bases.append(sha)
    if len(bases) > 1:  # the ones no other descends from, in the refs' order
        out = _git(root, "merge-base", "--independent", *bases)
        nearest = set(out.decode().split()) if out else set()
        bases = [b for b in bases if b in nearest] or bases
    if not bases or bases[0] == head.decode().strip():
        return None
    return bases[0]


DEFAULT_REMOTES = ("origin", "upstream")
"""The remotes whose default branch the work may have left: the clone's, and a fork's
canonical repository."""


def _default_refs(root: Path) -> list[str]:
    """The default branch's refs that exist, in order: the remotes' HEADs, then the usual names
    (not the current branch's), each the remotes' copy before the local one."""
    current = (_git(root, "symbolic-ref", "-q", "--short", "HEAD") or b"").decode().strip()
    wanted = [f"refs/remotes/{r}/HEAD" for r in DEFAULT_REMOTES]
    for name in DEFAULT_BRANCHES:
        if name != current:
            wanted += [f"refs/remotes/{r}/{name}" for r in DEFAULT_REMOTES]
            wanted.append(f"refs/heads/{name}")
    out = _git(root, "for-each-ref", "--format=%(refname)", *wanted)
    have = set(out.decode("utf-8", "replace").split()) if out else set()
    return [ref for ref in wanted if ref in have]


REPLAY_ENV = "IR_GIT_NOW"
"""Set to `head`, recent commits count from the HEAD commit's time instead of the clock's: a
benchmark replays the moment a past commit was made (bench/quality/wip.py), when the commits
before it were days old, not years."""


def _replayed(root: Path) -> float | None:
    """The moment REPLAY_ENV asks for, or None for the clock's."""
    if os.environ.get(REPLAY_ENV, "").strip().lower() != "head":
        return None
    out = _git(root, "log", "-1", "--format=%ct", "HEAD")
    return float(out.strip()) if out and out.strip().isdigit() else None


def _recent(root: Path, now: float) -> dict[str, float]:
    """path → days since it was last committed, for commits of the RECENT_DAYS before `now`."""
    since = int(now - RECENT_DAYS * 86400)
    ages: dict[str, float] = {}
    for head, paths in _log(root, "--no-merges", f"--since={since}", f"--until={int(now)}",
                            "-n", "200", "HEAD"):
        if len(head) < 2:
            continue  # a root commit: the project's import, not work on some of its files
        if not head[0].isdigit() or len(paths) > MAX_FILES:
            continue
        age = max(0.0, (now - int(head[0])) / 86400)
        for path in paths:
            ages.setdefault(path, age)
    return ages


def _branch_commits(root: Path, base: str) -> tuple[dict[str, int], int]:
    """path → how many of the branch's commits came after the newest one that changed it (0:
    its last commit), over its BRANCH_COMMITS newest commits: its own line of commits, where a
    branch merged into it is one commit, with what it brought; and how many commits were read."""
    since: dict[str, int] = {}
    log = _log(root, "--first-parent", "--diff-merges=first-parent", "-n", str(BRANCH_COMMITS),
               f"{base}..HEAD")
    for n, (_head, paths) in enumerate(log):
        for path in paths:
            since.setdefault(path, n)
    return since, len(log)


def _log(root: Path, *args: str) -> list[tuple[list[str], list[str]]]:
    """(the commit's time and parents, the paths it changed under root), newest first, of the
    commits `args` select."""
    out = _git(root, "log", *args, "--format=%x00%ct %P", "--name-only", "--relative", "-z")
    if out is None:
        return []
    commits = []
    for chunk in out.split(b"\0\0"):
        parts = [p for p in chunk.replace(b"\n", b"\0").split(b"\0") if p]
        head = parts[0].decode("ascii", "replace").split() if parts else []
        if head and head[0].isdigit():
            commits.append((head, [raw.decode("utf-8", "surrogateescape") for raw in parts[1:]]))
    return commits
