"""The command-line options a task names, and where the code declares them.

An issue that names an option (`pytest --fixtures` should show scopes, `--collect-only` needs a
short form) is most often about the code that declares it: the `addoption("--fixtures", …)` of
the plugin that implements it, not the helper that passes `"--fixtures"` to a subprocess nor
the files that only say "fixtures". The words cannot tell the two apart; the declaration can.

A declaration is the option's name as a string literal in a call or a definition that says it
declares an option: argparse's `add_argument`, optparse's `add_option`, pytest's `addoption`,
click's and typer's `option`, commander's `.option('-f, --foo <x>')`, Ruby's `opts.on`, picocli's
`@Option(names = …)`, clap's `.long("foo")`, Go's pflag and flag packages (`Flags().StringVarP(&v,
"foo", …)`, `flag.Bool("foo", …)`) and urfave/cli's `Name: "foo"` in a `…Flag{}`. The call may
span lines (`addoption(` on one line, the names on the next), so the few lines before the name
count as its context. A negated option (`--no-color`) is declared as itself, in click's pair
(`'--color/--no-color'`), or as the option a library negates for it (argparse's
`BooleanOptionalAction`).
"""

from __future__ import annotations

import re

MAX_OPTIONS = 5
"""A task naming more options than this is pasting a command line, not asking about one."""
CONTEXT_LINES = 3
"""Lines before the option's name that may hold the call declaring it."""

_OPTION_RE = re.compile(r"(?<![\w-])--([a-z][a-z0-9]++(?:[-_][a-z0-9]++)*+)(?![\w-])", re.I)
"""`--collect-only`, `--dry_run`: a long option (short ones, `-x`, say too little)."""
_DECLARES_RE = re.compile(
    r"(?i)\b(add_?argument|add_?option|addoption|option|options|flags?|argument|arg)\b"
    r"|\.on\(|\blong\b"
)
"""The context of a dashed name that declares it (`"--foo"` in `addoption(…)`)."""
_DECLARES_BARE_RE = re.compile(
    r"\bFlags?\(\)|\bflag\.\w+\(|Var\w*\(&|\bName:\s*[\"`]|\.long\(|\blong\s*="
    r"|\.option\(\s*['\"]"
)
"""The context of a bare name that declares it: the Go and Rust libraries and yargs name an
option without its dashes (`Flags().StringVar(&cfg, "config", …)`, `.long("config")`)."""


def task_options(text: str) -> tuple[str, ...]:
    """The long options a text names, without their dashes, in order, at most MAX_OPTIONS (the
    caller bounds the text: query.py reads a task's first PHRASE_SCAN characters)."""
    names = dict.fromkeys(m.lower() for m in _OPTION_RE.findall(text))
    return tuple(names)[:MAX_OPTIONS]


def declared(text: str, options: tuple[str, ...]) -> list[tuple[str, int]]:
    """(option, 1-based line) of each of `options` the text declares, at its first declaration."""
    out: list[tuple[str, int]] = []
    for name in options:
        # `--no-color` is declared as itself, as click's `'--color/--no-color'`, or as `--color`
        # with a negation the library adds (argparse's BooleanOptionalAction)
        forms = [name, name[3:]] if re.match(r"no[-_]\w", name) else [name]
        spelled = "|".join("[-_]".join(map(re.escape, re.split(r"[-_]", f))) for f in forms)
        # dashed, as the option is typed (`'-f, --foo <x>'`, `"--foo="`, `'--foo/--no-foo'`), or
        # bare and quoted
        literal = re.compile(r"[\"'`](?:(?:-\w,\s*|--[\w-]++/)?(--)(?:" + spelled + r")"
                             r"(?=[\"'`=\s,<\[/])|(?:" + spelled + r")[\"'`])", re.I)
        for m in literal.finditer(text):
            start = text.rfind("\n", 0, m.start()) + 1
            for _ in range(CONTEXT_LINES):
                if start == 0:
                    break
                start = text.rfind("\n", 0, start - 1) + 1
            end = text.find("\n", m.end())
            context = text[start:end if end >= 0 else len(text)]
            if (_DECLARES_RE if m.group(1) else _DECLARES_BARE_RE).search(context):
                out.append((name, text.count("\n", 0, m.start()) + 1))
                break
    return out
