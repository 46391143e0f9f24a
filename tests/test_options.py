"""The command-line options a task names, and the code that declares them (options.py)."""

from __future__ import annotations

import pytest

from iterative_retrieval.options import MAX_OPTIONS, declared, task_options
from iterative_retrieval.query import parse_task


def test_the_long_options_a_task_names():
    task = ("pytest --collect-only needs a one char shortcut; `--fixtures` and --dry_run too.\n"
            "Not -x, nor --x, nor a dash -- in prose, nor a--b, nor ---yaml")
    assert task_options(task) == ("collect-only", "fixtures", "dry_run")
    assert parse_task(task).options == ("collect-only", "fixtures", "dry_run")
    many = " ".join(f"--opt{i}" for i in range(MAX_OPTIONS + 3))
    assert len(task_options(many)) == MAX_OPTIONS


DECLARATIONS = {
    # pytest's addoption over several lines, the name on a line of its own
    "pytest": 'def pytest_addoption(parser):\n    group = parser.getgroup("collect")\n'
              '    group.addoption(\n        "--collectonly",\n        "--collect-only",\n'
              '        action="store_true",\n    )\n',
    "argparse": 'p.add_argument("--collect_only", action="store_true")\n',
    "click": '@click.option("--collect-only", is_flag=True)\ndef main(collect_only): ...\n',
    "commander": "program\n  .option('-c, --collect-only <dir>', 'collect only')\n",
    "yargs": "yargs.option('collect-only', { type: 'boolean' })\n",
    "ruby": 'opts.on("-c", "--collect-only", "Collect only") do |v|\n',
    "picocli": '@Option(names = {"-c", "--collect-only"}, description = "collect")\n',
    "pflag": 'rootCmd.PersistentFlags().BoolVarP(&only, "collect-only", "c", false, "x")\n',
    "go flag": 'var only = flag.Bool("collect-only", false, "collect only")\n',
    "urfave": '\t\t&cli.BoolFlag{\n\t\t\tName:  "collect-only",\n\t\t\tUsage: "collect",\n',
    "clap": '.arg(Arg::new("only").long("collect-only").action(ArgAction::SetTrue))\n',
}


@pytest.mark.parametrize("name", list(DECLARATIONS))
def test_a_declaration_in_each_library(name):
    text = "# header\n" * 5 + DECLARATIONS[name]
    found = declared(text, ("collect-only",))
    assert [o for o, _ in found] == ["collect-only"], name
    line = found[0][1]
    assert "collect" in text.splitlines()[line - 1].lower(), (name, line)


@pytest.mark.parametrize("text", [
    'rec = self.inline_run("--collect-only", *args)\n',  # a use, not a declaration
    'log.info("--collect-only was given")\n',
    'rootCmd.Flags().StringVar(&out, "output", "", "collect-only file")\n',  # its help text
    'name = "collect-only"\nprint(name)\n',  # a bare name with no option around it
    'p.add_argument("--collect-only-tests")\n',  # another option
    '"""Run with --collect-only to list them."""\n',
])
def test_what_is_no_declaration(text):
    assert declared(text, ("collect-only",)) == []


def test_a_negated_option_is_found_where_its_pair_is_declared():
    click = '@click.option("--color/--no-color", default=True)\n'
    assert declared(click, ("no-color",)) == [("no-color", 1)]
    assert declared(click, ("color",)) == [("color", 1)]
    argparse = 'p.add_argument("--color", action=argparse.BooleanOptionalAction)\n'
    assert declared(argparse, ("no-color",)) == [("no-color", 1)]
    assert declared('p.add_argument("--notify")\n', ("no-tify",)) == []
    assert declared('p.add_argument("--color")\n', ("nocolor",)) == []


def test_the_declaration_is_found_whatever_the_separator():
    assert declared('p.add_argument("--dry-run")\n', ("dry_run",)) == [("dry_run", 1)]
    assert declared("x = 1\nparser.addoption('--FIXTURES')\n", ("fixtures",)) == [("fixtures", 2)]
