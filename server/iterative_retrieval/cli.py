"""The command line: `retrieve` a task's context, `index` a root, `serve` the LSP, `mcp`.

Kept free of pygls and lsprotocol imports on the `retrieve` path: they cost half a second of start.
Exit status: 0 success, 1 internal error, 2 bad input (missing root, empty task, bad option).
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

from . import __version__
from .config import (
    BUDGET,
    CACHE_DIR,
    EXCLUDE,
    GIT_BASE,
    GIT_SIGNALS,
    INCLUDE,
    INCLUDE_TESTS,
    MAX_CYCLES,
    MAX_FILES,
    MAX_TASK_CHARS,
    SNIFF_BYTES,
    Setting,
    Settings,
    task_problem,
)
from .contract import FORMATS

if TYPE_CHECKING:
    from .models import Hints

EXIT_BAD_INPUT = 2


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # one line, exit 2, like the other bad inputs
        self.exit(EXIT_BAD_INPUT, f"{self.prog}: error: {message}\n")


def _help(s: Setting) -> str:
    """A setting's doc as a one-line help text (argparse formats `%` itself)."""
    return s.doc.replace("`", "").replace("%", "%%")


def _int_option(p: argparse.ArgumentParser, s: Setting, metavar: str) -> None:
    p.add_argument(f"--{s.name.replace('_', '-')}", type=int, default=s.default,
                   metavar=metavar, help=f"{_help(s)} {s.low}–{s.high} (default %(default)s)")


def _common(p: argparse.ArgumentParser) -> None:
    """The options of every command that reads the index: the roots and which files count."""
    p.add_argument("--root", action="append", metavar="PATH",
                   help="workspace root (repeatable; default: the current folder)")
    p.add_argument("--cache-dir", metavar="DIR", help=_help(CACHE_DIR))
    p.add_argument("--exclude", action="append", default=[], metavar="GLOB",
                   help=f"{_help(EXCLUDE)} Repeatable.")
    p.add_argument("--include", action="append", default=[], metavar="GLOB",
                   help=f"{_help(INCLUDE)} Repeatable.")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress on stderr")


def _retrieval(p: argparse.ArgumentParser) -> None:
    """The options of one retrieval (config.SETTINGS)."""
    _int_option(p, MAX_CYCLES, "N")
    _int_option(p, BUDGET, "TOKENS")
    _int_option(p, MAX_FILES, "N")
    tests = p.add_mutually_exclusive_group()
    tests.add_argument("--tests", dest="include_tests", action="store_const", const=True,
                       help=f"let tests, docs and fixtures be candidates ({_help(INCLUDE_TESTS)})")
    tests.add_argument("--no-tests", dest="include_tests", action="store_const", const=False,
                       help="never return tests, docs and fixtures")
    p.add_argument("--no-redact", dest="redact", action="store_false",
                   help="hand out credential-looking strings (keys, tokens, passwords) as they "
                        "are; by default they are masked as «redacted: kind»")
    _git(p)


def _git(p: argparse.ArgumentParser) -> None:
    """The git signals' options: a retrieval's, and the MCP server's for all its calls."""
    p.add_argument("--no-git-signals", dest="git_signals", action="store_false",
                   help=f"turn off the git signals ({_help(GIT_SIGNALS)})")
    p.add_argument("--git-base", metavar="REF", help=_help(GIT_BASE))


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="iterative-retrieval",
        description="Find the files and code regions a coding task needs.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    r = sub.add_parser("retrieve", help="rank the files a task needs, with reasons and regions")
    r.add_argument("task", nargs="?", help="the task in plain words; '-' reads it from stdin")
    r.add_argument("--task-file", metavar="FILE", help="read the task from FILE (pasted issues)")
    _common(r)
    _retrieval(r)
    fmt = r.add_mutually_exclusive_group()
    fmt.add_argument("--format", choices=("text", *FORMATS), default="text",
                     help="text (a ranked table, default), markdown for a chat, json "
                          "(docs/json-schema.md) or xml (one <document> per file)")
    fmt.add_argument("--json", dest="format", action="store_const", const="json",
                     help="the same as --format json")
    fmt.add_argument("--markdown", dest="format", action="store_const", const="markdown",
                     help="the same as --format markdown")
    r.add_argument("--regions", action="store_true", help="print the code regions too")
    r.add_argument("--pin", action="append", default=[], metavar="PATH",
                   help="always hand out this file (repeatable), marked pinned")
    r.add_argument("--exclude-file", action="append", default=[], metavar="PATH",
                   help="never hand out or search this file (repeatable)")
    r.add_argument("--focus", metavar="PATH",
                   help="the file you are working in: evidence, as an editor's active file is")

    e = sub.add_parser("explain", help="how relevant one file is to a task, and why")
    e.add_argument("path", help="the file: relative to a root, or absolute inside one")
    e.add_argument("task", nargs="?", help="the task in plain words; '-' reads it from stdin")
    e.add_argument("--task-file", metavar="FILE", help="read the task from FILE")
    _common(e)
    _retrieval(e)
    e.add_argument("--json", action="store_true", help="one JSON object "
                   "(docs/schema/explanation.schema.json)")

    i = sub.add_parser("index", help="build or refresh the index of the roots and print counts")
    _common(i)
    i.add_argument("--json", action="store_true")

    s = sub.add_parser("serve", help="run the language server (stdio by default)")
    s.add_argument("--tcp", metavar="HOST:PORT", help="listen on TCP instead of stdio")

    m = sub.add_parser("mcp", help="run the MCP server over stdio")
    m.add_argument("--root", metavar="PATH", help="workspace root (default: the current folder)")
    m.add_argument("--cache-dir", metavar="DIR", help=_help(CACHE_DIR))
    m.add_argument("--no-redact", dest="redact", action="store_false",
                   help="do not mask credential-looking strings in the regions handed to the agent")
    _git(m)
    return parser


TASK_BYTES = 4 * MAX_TASK_CHARS
"""Bytes read of a task file or stdin: enough for MAX_TASK_CHARS characters of UTF-8, and a
bound on what a multi-gigabyte log, or /dev/zero, given by mistake can cost."""


def _read_task(args: argparse.Namespace) -> str:
    """The task's text: invalid UTF-8 is replaced, but binary data (NUL bytes, as in an image
    or an archive given by mistake) is refused rather than searched for chance words. Of a
    longer file or stream, a little over the limit is read: the caller cuts it and says so."""
    if args.task_file:
        try:
            with open(args.task_file, "rb") as fh:
                data, source = fh.read(TASK_BYTES + 1), f"task file {args.task_file}"
        except OSError as exc:
            raise ValueError(f"cannot read task file {args.task_file}: {exc.strerror}") from exc
    elif args.task == "-":
        data, source = sys.stdin.buffer.read(TASK_BYTES + 1), "task on stdin"
    else:
        return args.task or ""
    if b"\0" in data[:SNIFF_BYTES]:
        raise ValueError(f"the {source} is binary, not text: give the task in plain words")
    return data.decode("utf-8", errors="replace")


def _progress_printer(quiet: bool):
    """Index progress on a terminal, at most five lines a second; with
    ITERATIVE_RETRIEVAL_PROGRESS=1, also elsewhere and every step, for a program that reads
    them (a test that kills the indexer half-way must see the half-way step)."""
    forced = _force_progress()
    if quiet or not sys.stderr.isatty() and not forced:
        return None
    state = {"last": 0.0}

    def progress(done: int, total: int) -> None:
        now = time.monotonic()
        if forced or done == total or now - state["last"] > 0.2:
            state["last"] = now
            end = "\n" if done == total else "\r"
            print(f"indexing {done}/{total} files", end=end, file=sys.stderr, flush=True)

    return progress


def _force_progress() -> bool:
    import os

    return os.environ.get("ITERATIVE_RETRIEVAL_PROGRESS") == "1"


def _settings(args: argparse.Namespace) -> Settings:
    s = Settings(
        exclude=tuple(args.exclude or ()),
        include=tuple(args.include or ()),
        cache_dir=args.cache_dir,
    )
    if args.command in ("retrieve", "explain"):
        s = s.merged(
            max_cycles=args.max_cycles, budget=args.budget, max_files=args.max_files,
            include_tests=args.include_tests, redact_secrets=args.redact,
            git_signals=args.git_signals,
            git_base=args.git_base.strip() if args.git_base is not None else None,
        )
    return s.validated()


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr,
                        format="iterative-retrieval: %(levelname)s: %(message)s")
    if args.command == "serve":
        from .lsp.server import run as run_lsp

        return run_lsp(args.tcp)
    if args.command == "mcp":
        from .mcp_server import run as run_mcp

        return run_mcp(args.root, args.cache_dir, redact=args.redact,
                       git_signals=args.git_signals, git_base=args.git_base)
    from . import heap

    heap.short_run()
    # A root whose name is not UTF-8 is printed with backslash escapes (valid JSON too).
    sys.stdout.reconfigure(errors="backslashreplace")  # type: ignore[union-attr]
    try:
        return _run(args)
    except BrokenPipeError:  # `| head` closed stdout: not an error of ours
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except (ValueError, OSError) as exc:
        print(f"iterative-retrieval: error: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        return 130


def _run(args: argparse.Namespace) -> int:
    from .engine import Engine

    settings = _settings(args)
    roots = args.root or ["."]
    task = ""
    if args.command in ("retrieve", "explain"):
        task = _read_task(args)
        if not task.strip():
            raise ValueError(f"the task {task_problem(task)}")
        if len(task) > MAX_TASK_CHARS:  # a log piped in whole: its start is read, and said so
            print(f"iterative-retrieval: the task is longer than {MAX_TASK_CHARS} characters; "
                  "only its start is read", file=sys.stderr)
            task = task[:MAX_TASK_CHARS]  # what the loop reads, and so what the output echoes
    engine = Engine(roots, settings)
    progress = _progress_printer(args.quiet)
    stats = engine.refresh(progress=progress)
    if args.command == "index":
        if args.json:
            print(json.dumps([s.to_dict() for s in stats], indent=2))
        else:
            for root, s in zip(engine.roots, stats, strict=True):
                skipped = ", ".join(f"{k} {v}" for k, v in sorted(s.skipped.items())) or "none"
                print(f"{root}: {s.files} files ({s.indexed} read, {s.unchanged} unchanged, "
                      f"{s.removed} removed; skipped: {skipped}) in {s.seconds:.2f}s")
        return 0
    from .render import explanation_text, render, to_text

    if args.command == "explain":
        out = engine.explain(args.path, task, refresh=False)
        print(json.dumps(out, indent=2, ensure_ascii=False) if args.json
              else explanation_text(out))
    else:
        result = engine.retrieve(task, refresh=False, hints=_hints(args, engine.roots))
        print(to_text(result, show_regions=args.regions) if args.format == "text"
              else render(result, args.format))
    engine.close()
    return 0


def _hints(args: argparse.Namespace, roots: list[Path]) -> Hints | None:
    """--pin, --exclude-file and --focus as the engine's hints, checked as the language
    server and MCP check theirs (hintargs.place): a path is relative to the current folder or
    to a root; one outside the roots, missing or secret is left out, and stderr says so."""
    from .hintargs import place
    from .models import Hints

    def settle(flag: str, values: list[str]) -> tuple[str, ...]:
        out: list[str] = []
        for value in values:
            here = os.path.abspath(value) if value and os.path.exists(value) else value
            path, why = place(here, roots)
            if path is None:
                print(f"iterative-retrieval: {flag} {value!r} {why}; ignored", file=sys.stderr)
            elif path not in out:
                out.append(path)
        return tuple(out)

    focus = settle("--focus", [args.focus] if args.focus is not None else [])
    hints = Hints(pinned=settle("--pin", args.pin), excluded=settle("--exclude-file",
                                                                    args.exclude_file),
                  active_file=focus[0] if focus else None)
    return hints if hints != Hints() else None
