"""Mine a repository's real fix commits into benchmark tasks, in the development set's format.

    python -m bench.quality.mine --repo owner/name --git-dir /work/.mirror/owner+name/repo \
        --out /tmp/heldout/tasks.jsonl [--max 30] [--seed 0] [--since 2016-01-01] \
        [--kind any|traceback|mixed] [--exclude 'pkg/vendor/*'] [--append]

Each task is one commit: `task` = its message (subject and body) with issue and PR numbers,
trailers and verbatim gold paths removed; `gold` = the non-test source files it modified;
`gold_lines` = the 1-based inclusive line ranges of the parent's version of each gold file that
the commit removed or modified (for a pure insertion, the line it follows), from
`git diff -U0 <parent> <commit>`, adjacent ranges merged; `base` = the parent.

A commit becomes a task when
- it is not a merge and has a parent;
- it modifies 1 to --max-files non-test source files (by extension), adds, deletes or renames
  none, and changes at most --max-lines lines in them; tests, docs, changelogs, lockfiles,
  generated, vendored and hidden-folder files may change too but are never gold;
- its cleaned message has at least --min-words words and is not a merge, revert, release,
  version or dependency bump, typo, lint or formatting commit (nor a chore/ci/docs/style/test/
  build conventional commit, nor by a bot);
- unless --any-change: it touches a test file, or its message says fix/bug/error/crash/handle
  (or the like): a bias towards bug fixes.
`--kind traceback` keeps only commits whose message holds a pasted traceback, stack trace or
panic, a quoted error message or a built-in error's name (see `error_report`), strongest first;
`--kind mixed` takes those first and fills up to --max with the others. The sample is drawn
with a seeded `random.Random` from the eligible commits sorted by commit time, and written in
that order, so the same mirror and flags give the same file.
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import os
import random
import re
import subprocess
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

# -- files --------------------------------------------------------------------------------------

SOURCE_EXTENSIONS = frozenset((
    ".py", ".pyx", ".pyi", ".js", ".mjs", ".cjs", ".jsx", ".ts", ".tsx", ".mts", ".cts", ".vue",
    ".svelte", ".go", ".rs", ".c", ".h", ".cc", ".cpp", ".cxx", ".hpp", ".hh", ".java", ".kt",
    ".kts", ".scala", ".rb", ".php", ".cs", ".swift", ".m", ".mm", ".lua", ".sh", ".bash",
    ".zsh", ".fish", ".ps1", ".pl", ".ex", ".exs", ".erl", ".hs", ".ml", ".dart", ".zig",
))
TEST_DIRS = frozenset((
    "test", "tests", "testing", "__tests__", "__test__", "spec", "specs", "testsuite",
    "testdata", "test_data", "fixtures", "__fixtures__", "__snapshots__", "__mocks__", "e2e",
    "bench", "benches", "benchmark", "benchmarks",
))
TEST_DIR_RE = re.compile(r"(^|[-_.])tests?([-_.]|$)")
TEST_FILE_RE = re.compile(
    r"(^test_.*\.py$|^.*_tests?\.py$|^conftest\.py$|^.*_test\.go$|^tests?\.rs$"
    r"|^(.*[._-])?(test|spec)s?(-d)?\.[cm]?[jt]sx?$|^.*Tests?\.(java|kt|cs|swift)$|^.*_spec\.rb$)")
"""A script's tests beside it (`test.js`, AVA's; `index.test-d.ts`, tsd's type tests) too."""
DOC_DIRS = frozenset(("doc", "docs", "documentation", "website", "site", "man", "changelog.d",
                      "changes", "newsfragments", "news"))
DOC_EXTENSIONS = frozenset((".md", ".rst", ".txt", ".adoc", ".markdown", ".html", ".1", ".ronn"))
DOC_NAME_RE = re.compile(
    r"^(changes|changelog|history|news|authors|contributors|license|licence|copying|readme"
    r"|contributing|security|code_of_conduct|releasing|notice)([._-].*)?$", re.IGNORECASE)
LOCKFILES = frozenset((
    "package-lock.json", "yarn.lock", "pnpm-lock.yaml", "npm-shrinkwrap.json", "cargo.lock",
    "poetry.lock", "pipfile.lock", "go.sum", "composer.lock", "gemfile.lock", "uv.lock",
    "pdm.lock", "bun.lockb",
))
VENDORED_DIRS = frozenset((
    "vendor", "vendored", "_vendor", "third_party", "thirdparty", "third-party", "extern",
    "external", "node_modules", "dist", "build", "generated", "gen", "__generated__",
))
BUILD_FILE_RE = re.compile(  # build and tool configuration written in a programming language
    r"(^|[._-])(config|conf|rc)\.[cm]?[jt]s$"
    r"|^(gulpfile|gruntfile|webpack|rollup|vite|jest|karma|babel|eslint|prettier|tsup|esbuild)"
    r"\b.*\.[cm]?[jt]s$|^(setup|noxfile|fabfile|build)\.(py|rs)$|^(makefile|dockerfile)$",
    re.IGNORECASE)
GENERATED_RE = re.compile(r"(\.min\.[jc]ss?$|\.map$|\.pb\.go$|_pb2\.py$|\.generated\.\w+$"
                          r"|\.snap$|\.lock$)", re.IGNORECASE)


def file_kind(path: str, exclude: Iterable[str] = ()) -> str:
    """'source', 'test', 'doc' or 'other' (config, lockfile, generated, vendored, excluded)."""
    parts = path.split("/")
    name = parts[-1]
    dirs = [p.lower() for p in parts[:-1]]
    low = name.lower()
    ext = os.path.splitext(low)[1]
    if any(fnmatch.fnmatchcase(path, pat) for pat in exclude):
        return "other"
    if any(d.startswith(".") for d in dirs) or low in LOCKFILES or GENERATED_RE.search(low) \
            or BUILD_FILE_RE.search(low):
        return "other"
    if any(d in VENDORED_DIRS for d in dirs):
        return "other"
    if any(d in TEST_DIRS or TEST_DIR_RE.search(d) for d in dirs) or TEST_FILE_RE.match(name):
        return "test"
    if any(d in DOC_DIRS for d in dirs) or ext in DOC_EXTENSIONS or DOC_NAME_RE.match(low):
        return "doc"
    if ext in SOURCE_EXTENSIONS:
        return "source"
    return "other"


# -- messages -----------------------------------------------------------------------------------

CUT = "\x00"  # marks where something was removed, so only the removals' leftovers are tidied


ISSUE = (r"(?:(?:issues?|PRs?|pull\s+requests?|tickets?)\s+)?"
         r"(?:[\w.-]+/[\w.-]+)?(?:#|\b[Gg][Hh]-)\d+\b")
ISSUE_LIST = ISSUE + r"(?:(?:\s*,\s*|\s+and\s+|\s+)" + ISSUE + r")*"
VERB = (r"(?:fix(?:e[sd])?|close[sd]?|resolve[sd]?|refs?|references?|see|related\s+to|part\s+of"
        r"|follow[\s-]?up\s+(?:to|of|on)|addresse[sd]|address|implements?|cf\.?|re)")
TRAILER_RE = re.compile(
    r"^\s*(?:[A-Z]\w*(?:-\w+)*-by|PR-URL|Change-Id|Cc|Link|Backport-of)\s*:.*$",
    re.IGNORECASE | re.MULTILINE)
ISSUE_URL_RE = re.compile(
    r"<?https?://github\.com/[\w.-]+/[\w.-]+/(?:issues|pull|pulls|discussions)/(\d+)[^\s)>\]]*>?")
ISSUE_LINE_RE = re.compile(r"^\s*[-*]?\s*(?:" + VERB + r")?\s*:?\s*" + ISSUE_LIST
                           + r"\s*[.;]?\s*$", re.IGNORECASE | re.MULTILINE)
PAREN_ISSUE_RE = re.compile(r"\s*[(\[]\s*(?:" + VERB + r")?\s*:?\s*" + ISSUE_LIST
                            + r"\s*[)\]]", re.IGNORECASE)
VERB_ISSUE_RE = re.compile(r"[,;]?\s*\b" + VERB + r"\s*:?\s*" + ISSUE_LIST, re.IGNORECASE)
BARE_ISSUE_RE = re.compile(r"\s?" + ISSUE)
NOISE_LINE_RE = re.compile(
    r"^\s*(?:\(cherry picked from commit [0-9a-f]+\)|\[(?:skip ci|ci skip|skip-ci)\]"
    r"|-{3,}|Squashed commit of the following:?)\s*$", re.IGNORECASE | re.MULTILINE)


def remove_paths(text: str, paths: Iterable[str]) -> str:
    """Remove each path, and each of its tails of two or more segments, where it stands whole."""
    variants: set[str] = set()
    for p in paths:
        parts = p.split("/")
        variants.update("/".join(parts[i:]) for i in range(max(1, len(parts) - 1)))
    for v in sorted(variants, key=len, reverse=True):
        text = re.sub(r"(?<![\w/.-])[`'\"]?(?:\./|a/|b/)?" + re.escape(v) + r"[`'\"]?(?![\w/-])",
                      CUT, text)
    return text


def _tidy(line: str) -> str:
    """A line with its removal marks gone, and the spaces and punctuation they stranded."""
    if CUT not in line:
        return line.rstrip()
    line = re.sub("[ \t]*" + CUT + "+", CUT, line)
    line = re.sub("^(\\s*)" + CUT + r"[\s,;:.]*", r"\1", line)  # what led the line
    line = re.sub(r"([,;:])?" + CUT + r"\s*([.,;:!?])", lambda m: m.group(2), line)
    line = re.sub(r"[(\[]\s*" + CUT + r"\s*[)\]]", CUT, line)  # brackets emptied
    line = line.replace(CUT + " ", " ").replace(CUT, "")
    line = re.sub(r"(?<=\S) {2,}", " ", line).rstrip(" \t,;:-")
    return "" if line.strip() in {"*", "-", ".", "()"} else line


def clean_message(message: str, gold: Iterable[str] = ()) -> str:
    """The commit message as a task: no issue/PR numbers, trailers or verbatim gold paths."""
    text = message.replace("\r\n", "\n")
    text = TRAILER_RE.sub(CUT, text)
    text = NOISE_LINE_RE.sub(CUT, text)
    text = ISSUE_URL_RE.sub(r"#\1", text)  # then removed as any other issue reference
    text = ISSUE_LINE_RE.sub(CUT, text)
    text = PAREN_ISSUE_RE.sub(CUT, text)
    text = VERB_ISSUE_RE.sub(CUT, text)
    text = BARE_ISSUE_RE.sub(CUT, text)
    text = remove_paths(text, gold)
    lines = [_tidy(line) for line in text.split("\n")]
    lines[0] = re.sub(r"(?<=\S) {2,}", " ", lines[0])  # the subject's runs of spaces
    text = re.sub(r"\n{3,}", "\n\n", "\n".join(lines))
    return text.strip()


WORD_RE = re.compile(r"[A-Za-z][A-Za-z0-9_'-]*")


def word_count(text: str) -> int:
    """Words (a letter, then letters, digits, _ ' -) in the text."""
    return len(WORD_RE.findall(text))


CONVENTIONAL_SKIP_RE = re.compile(
    r"^\s*(?:chore|ci|build|docs?|style|tests?|release|deps?|dependencies|bump|revert|wip"
    r"|typo|lint|format|changelog|meta|version|infra)(?:\([^)]*\))?!?\s*:", re.IGNORECASE)
SKIP_SUBJECT_RES = tuple(re.compile(p, re.IGNORECASE) for p in (
    r"^\s*(?:merge|revert|reapply|back\s?port)\b",
    r"^\s*(?:release|prepare|preparing|cut)\b",
    r"^\s*v?\d+(?:\.\d+)+\b",
    r"\brelease(?:d|s)?\s+v?\d",
    r"\bbump(?:s|ed|ing)?\b",
    r"\bversion\s+(?:to\s+|=\s*)?v?\d",
    r"\b(?:update|upgrade|pin|unpin|require)s?d?\b.*\b(?:deps?|dependenc\w*|requirements?)\b",
    r"\b\w[\w.-]*@v?\d+\.\d+",  # "deps: foo@1.2.3"
    r"\b(?:dependabot|renovate|greenkeeper|pre-commit-ci)\b",
    r"\btypos?\b", r"\bspelling\b", r"\bmisspell",
    (r"\b(?:lint|linting|linter|eslint|tslint|flake8|pylint|ruff|clippy|rustfmt|gofmt|isort"
    r"|prettier|pre-commit|mypy)\b"),
    r"\b(?:reformat\w*|formatting|format code|code format|whitespace|trailing spaces)\b",
    r"\bchangelog\b", r"\bcopyright\b", r"\bwip\b",
))
FIX_RE = re.compile(
    r"\b(?:fix\w*|bug\w*|errors?|erroneous|crash\w*|handl\w*|exceptions?|fail\w*|broken|breaks?"
    r"|regression|incorrect\w*|wrong\w*|panic\w*|invalid|mistake\w*|prevent\w*|avoid\w*"
    r"|issue|problem|correct\w*|workaround|leak\w*|hang\w*|infinite)\b", re.IGNORECASE)


def skip_reason(subject: str, author: str) -> str | None:
    """Why a commit's subject marks it as no fair task, or None."""
    if re.search(r"\[bot\]|\bbot\b", author.lower()):
        return "bot"
    if CONVENTIONAL_SKIP_RE.match(subject):
        return "conventional: " + subject.split(":", 1)[0].strip().lower()
    for rx in SKIP_SUBJECT_RES:
        if rx.search(subject):
            return "subject: " + rx.pattern
    return None


# Error reports, strongest first: a pasted Python traceback, JS/Java stack trace or Go/Rust panic;
# a line that is an error message (`TypeError: ...`, `error: ...`) or a well-known runtime error's
# words; a built-in error type named (`KeyError`, `UnicodeDecodeError`, `RangeError`).
TRACEBACK_RES = tuple(re.compile(p, re.MULTILINE) for p in (
    r"Traceback \(most recent call last\)",
    r"^\s*File \"[^\"]+\", line \d+",
    r"^\s+at\s+\S.*[(\s]\S+:\d+(?::\d+)?\)?\s*$",  # JS / Java stack frames
    r"\bpanic(?:ked)?(?: at)?:|thread '[^']*' panicked|goroutine \d+ \[",
))
MESSAGE_RES = tuple(re.compile(p, re.MULTILINE) for p in (
    r"^\s*(?:Uncaught\s+)?(?:[\w.]+\.)?[A-Z]\w*(?:Error|Exception|Warning)\b\s*:\s*\S",
    r"^\s*(?:error|fatal|Error|ERROR|FATAL)(?:\[\w+\])?\s*:\s*\S",
    (r"\b(?:Uncaught|Cannot read propert(?:y|ies) of|is not a function|is not defined"
    r"|is not iterable|Maximum call stack size exceeded|[Ss]egmentation fault|stack overflow"
    r"|nil pointer dereference|index out of range|[Uu]nhandled(?: promise)? rejection)\b"),
))
# the runtime's own errors (Python, JavaScript); a project's own exception classes are no report
NAMED_RE = re.compile(
    r"\b(?:(?:Type|Value|Key|Attribute|Index|Import|ModuleNotFound|Name|UnboundLocal|Syntax"
    r"|Indentation|Runtime|Recursion|OS|IO|Environment|FileNotFound|FileExists|Permission"
    r"|IsADirectory|NotADirectory|Connection|BrokenPipe|Timeout|ZeroDivision|Overflow"
    r"|FloatingPoint|Arithmetic|Assertion|NotImplemented|Memory|Lookup|Buffer|EOF|Unicode"
    r"|UnicodeDecode|UnicodeEncode|Reference|Range|URI|Eval|Aggregate)Error"
    r"|StopIteration|KeyboardInterrupt|SystemExit|DeprecationWarning|ResourceWarning)\b")


def error_report(text: str) -> str | None:
    """'traceback' (a pasted traceback, stack trace or panic), 'message' (a quoted error message),
    'named' (a built-in Python or JavaScript error named) or None: the strongest the text holds."""
    if any(rx.search(text) for rx in TRACEBACK_RES):
        return "traceback"
    if any(rx.search(text) for rx in MESSAGE_RES):
        return "message"
    if NAMED_RE.search(text):
        return "named"
    return None


# -- git ----------------------------------------------------------------------------------------

@dataclass
class Change:
    """One file a commit changed."""

    path: str
    status: str  # A, M, D, T... (no renames: they show as D + A)
    added: int | None = None  # None: binary
    deleted: int | None = None


@dataclass
class Commit:
    """A commit with its first parent and the files it changed against that parent."""

    sha: str
    parents: list[str]
    author: str
    time: int
    message: str
    changes: dict[str, Change] = field(default_factory=dict)


def git(git_dir: str, *args: str) -> str:
    """Output of a git command on `git_dir` (bytes decoded as UTF-8, bad bytes replaced)."""
    res = subprocess.run(["git", "--git-dir", git_dir, "-c", "core.quotePath=false", *args],
                         capture_output=True, check=True)
    return res.stdout.decode("utf-8", "replace")


def iter_commits(git_dir: str, rev: str = "HEAD", since: str | None = None,
                 until: str | None = None) -> Iterator[Commit]:
    """Every non-merge commit reachable from `rev` with the files it changed, newest first."""
    args = ["log", "--no-merges", "--no-renames", "--raw", "--numstat", "--no-abbrev",
            "--format=%x1e%H%x1f%P%x1f%an%x1f%ct%x1f%B%x1d"]
    if since:
        args.append("--since=" + since)
    if until:
        args.append("--until=" + until)
    out = git(git_dir, *args, rev, "--")
    for chunk in out.split("\x1e")[1:]:
        head, _, rest = chunk.partition("\x1d")
        sha, parents, author, ctime, message = head.split("\x1f", 4)
        c = Commit(sha, parents.split(), author, int(ctime), message.strip())
        for line in rest.splitlines():
            if line.startswith(":"):
                meta, _, path = line.partition("\t")
                c.changes[path] = Change(path, meta.split()[-1][:1])
            elif line.strip():
                added, deleted, path = line.split("\t", 2)
                ch = c.changes.setdefault(path, Change(path, "M"))
                if added != "-":
                    ch.added, ch.deleted = int(added), int(deleted)
        yield c


HUNK_RE = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+\d+(?:,\d+)? @@")


def merge_ranges(ranges: Iterable[list[int]]) -> list[list[int]]:
    """Sorted ranges with overlapping or adjacent ones joined."""
    out: list[list[int]] = []
    for a, b in sorted(ranges):
        if out and a <= out[-1][1] + 1:
            out[-1][1] = max(out[-1][1], b)
        else:
            out.append([a, b])
    return out


def hunk_ranges(diff: str) -> list[list[int]]:
    """Old-side line ranges of a `git diff -U0` of one file: removed or modified lines, or for a
    pure insertion the line it follows (line 1 for an insertion at the top)."""
    ranges = []
    for line in diff.splitlines():
        m = HUNK_RE.match(line)
        if not m:
            continue
        start, count = int(m.group(1)), 1 if m.group(2) is None else int(m.group(2))
        ranges.append([start, start + count - 1] if count else [max(start, 1)] * 2)
    return merge_ranges(ranges)


def gold_lines(git_dir: str, parent: str, sha: str, paths: Iterable[str]) -> dict:
    """{path: old-side ranges} for each path, from `git diff -U0 parent sha`."""
    return {p: hunk_ranges(git(git_dir, "diff", "-U0", "--no-renames", "--no-color",
                               "--no-ext-diff", parent, sha, "--", p)) for p in paths}


# -- selection ----------------------------------------------------------------------------------

@dataclass(frozen=True)
class Rules:
    """The thresholds a commit must meet to become a task."""

    max_files: int = 4
    max_lines: int = 200
    min_words: int = 6
    require_fix: bool = True
    exclude: tuple[str, ...] = ()


def judge(c: Commit, rules: Rules) -> tuple[str | None, list[str], str]:
    """(reason it is rejected or None, gold files, cleaned message)."""
    if len(c.parents) != 1:
        return ("merge" if c.parents else "root"), [], ""
    subject = c.message.split("\n", 1)[0]
    reason = skip_reason(subject, c.author)
    if reason:
        return reason, [], ""
    kinds = {p: file_kind(p, rules.exclude) for p in c.changes}
    src = sorted(p for p, k in kinds.items() if k == "source")
    if not src:
        return "no source file", [], ""
    if len(src) > rules.max_files:
        return "too many source files", [], ""
    if any(c.changes[p].status != "M" for p in src):
        return "adds, deletes or renames a source file", [], ""
    if any(c.changes[p].added is None for p in src):
        return "binary source file", [], ""
    if any(c.changes[p].added + c.changes[p].deleted == 0 for p in src):
        return "mode-only change", [], ""
    size = sum(c.changes[p].added + c.changes[p].deleted for p in src)
    if size > rules.max_lines:
        return "diff too large", [], ""
    task = clean_message(c.message, src)
    if word_count(task) < rules.min_words:
        return "message too short", [], ""
    touches_tests = any(k == "test" for k in kinds.values())
    if rules.require_fix and not touches_tests and not FIX_RE.search(task):
        return "no test and no fix words", [], ""
    return None, src, task


def task_id(repo: str, sha: str) -> str:
    """Task id as in the development set: owner__name@sha12."""
    return "{}@{}".format(repo.replace("/", "__"), sha[:12])


ERROR_STRENGTH = ("traceback", "message", "named")


def select(eligible: list[tuple[Commit, list[str], str]], max_n: int | None, kind: str,
           seed: int) -> list[tuple[Commit, list[str], str]]:
    """A seeded sample of at most max_n, in commit-time order; `kind` as for --kind.

    Error reports are taken strongest first: every pasted traceback before any quoted message,
    every message before any named error, each level sampled when it does not fit whole."""
    eligible = sorted(eligible, key=lambda e: (e[0].time, e[0].sha))
    rng = random.Random(seed)
    limit = len(eligible) if max_n is None else max_n
    levels = [[e for e in eligible if error_report(e[2]) == lv] for lv in ERROR_STRENGTH]
    if kind == "any":
        levels = [eligible]
    elif kind == "mixed":
        levels.append([e for e in eligible if not error_report(e[2])])
    picked: list[tuple[Commit, list[str], str]] = []
    for level in levels:
        room = limit - len(picked)
        picked += level if len(level) <= room else rng.sample(level, room)
    return sorted(picked, key=lambda e: (e[0].time, e[0].sha))


def mine(repo: str, git_dir: str, *, max_n: int | None = None, kind: str = "any", seed: int = 0,
         since: str | None = None, until: str | None = None, rev: str = "HEAD",
         rules: Rules = Rules(), stats: dict | None = None) -> list[dict]:
    """Tasks from the commits of `git_dir` (see the module docstring)."""
    eligible = []
    seen: set[tuple[str, tuple[str, ...]]] = set()
    for c in reversed(list(iter_commits(git_dir, rev, since, until))):  # oldest first
        reason, gold, task = judge(c, rules)
        if reason is None and (task, tuple(gold)) in seen:
            reason = "same message and files as an earlier commit"  # cherry-picks, backports
        seen.add((task, tuple(gold)))
        if stats is not None:
            key = (reason or "eligible").split(":")[0]
            stats[key] = stats.get(key, 0) + 1
        if reason is None:
            eligible.append((c, gold, task))
    if stats is not None:
        stats["error reports among eligible"] = sum(1 for e in eligible if error_report(e[2]))
    tasks = []
    for c, gold, task in select(eligible, max_n, kind, seed):
        parent = c.parents[0]
        lines = gold_lines(git_dir, parent, c.sha, gold)
        if not all(lines.values()):
            continue  # a mode-only change: nothing to score lines against
        tasks.append({"id": task_id(repo, c.sha), "source": "commit", "repo": repo,
                      "base": parent, "task": task, "gold": gold, "gold_lines": lines})
    return tasks


def write_tasks(path: str, tasks: list[dict], append: bool) -> int:
    """Write (or with `append` add to) a tasks.jsonl; tasks already there by id are kept as is.
    Returns how many were new."""
    old: list[dict] = []
    if append and os.path.exists(path):
        with open(path, encoding="utf-8") as fh:
            old = [json.loads(line) for line in fh if line.strip()]
    seen = {t["id"] for t in old}
    new = [t for t in tasks if t["id"] not in seen]
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open(path, "w", encoding="utf-8") as fh:
        fh.writelines(json.dumps(t, ensure_ascii=False) + "\n" for t in old + new)
    return len(new)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.quality.mine",
                                 description=__doc__.split("\n")[0])
    ap.add_argument("--repo", required=True, help="owner/name, as the tasks' `repo`")
    ap.add_argument("--git-dir", required=True, help="a (bare) git directory with full history")
    ap.add_argument("--out", required=True, help="tasks.jsonl to write")
    ap.add_argument("--append", action="store_true",
                    help="keep the tasks already in --out and add the new ones after them")
    ap.add_argument("--max", type=int, default=None, help="at most N tasks (seeded sample)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--kind", choices=("any", "traceback", "mixed"), default="any",
                    help="any: sample all eligible commits; traceback: only those whose message "
                         "holds a traceback or error message; mixed: those first, then others")
    ap.add_argument("--since", help="only commits after this date (git log --since)")
    ap.add_argument("--until", help="only commits before this date (git log --until)")
    ap.add_argument("--rev", default="HEAD", help="history to walk (default HEAD)")
    ap.add_argument("--max-files", type=int, default=Rules.max_files)
    ap.add_argument("--max-lines", type=int, default=Rules.max_lines)
    ap.add_argument("--min-words", type=int, default=Rules.min_words)
    ap.add_argument("--any-change", action="store_true",
                    help="do not require a touched test or fix/bug/error words")
    ap.add_argument("--exclude", action="append", default=[],
                    help="glob of paths never gold (e.g. vendored code); repeatable")
    a = ap.parse_args(argv)
    rules = Rules(a.max_files, a.max_lines, a.min_words, not a.any_change, tuple(a.exclude))
    stats: dict = {}
    tasks = mine(a.repo, a.git_dir, max_n=a.max, kind=a.kind, seed=a.seed, since=a.since,
                 until=a.until, rev=a.rev, rules=rules, stats=stats)
    new = write_tasks(a.out, tasks, a.append)
    print(f"{a.repo}: {sum(v for k, v in stats.items() if k != 'error reports among eligible')} "
          f"commits; " + ", ".join(f"{k} {v}" for k, v in sorted(stats.items(), key=lambda kv:
                                                                    -kv[1])),
          file=sys.stderr)
    print(f"{a.repo}: {len(tasks)} task(s) selected, {new} new, written to {a.out}",
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
