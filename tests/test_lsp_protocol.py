"""The server's argument and settings checks, as pure functions (no server process)."""

from __future__ import annotations

import pytest

from iterative_retrieval.lsp.protocol import (
    ParamsError,
    parse_config,
    parse_no_args,
    parse_render,
    parse_retrieve,
    path_from_root_param,
    patterns_under,
    settings_to_wire,
)
from iterative_retrieval.render import to_markdown


def test_retrieve_arguments_are_typed():
    """A full argument object becomes typed values (a single glob is accepted as a list)."""
    args = parse_retrieve(({"task": "fix it", "maxCycles": 2, "budget": 3000.0, "maxFiles": 5,
                            "include": "src/**", "exclude": ["*.md", " "], "includeTests": True,
                            "root": " /ws "},))
    assert (args.task, args.max_cycles, args.budget, args.max_files) == ("fix it", 2, 3000, 5)
    assert args.include == ("src/**",) and args.exclude == ("*.md",)
    assert args.include_tests is True and args.root == "/ws"


@pytest.mark.parametrize(("value", "message"), [
    (True, "must be an integer from 1 to 10, got true"),
    (2.5, "must be an integer from 1 to 10, got 2.5"),
    (11, "must be from 1 to 10, got 11"),
    (None, None),
])
def test_max_cycles_checks(value, message):
    """maxCycles refuses booleans, fractions and out-of-range numbers; null means the default."""
    if message is None:
        assert parse_retrieve(({"task": "x", "maxCycles": value},)).max_cycles is None
        return
    with pytest.raises(ParamsError, match=message):
        parse_retrieve(({"task": "x", "maxCycles": value},))


def test_config_keeps_good_values_and_reports_bad_ones():
    """Bad settings are left out with a warning naming the default; foreign keys are only noted."""
    values, report = parse_config({"iterativeRetrieval": {
        "maxCycles": 4, "budget": -1, "include": "src/**", "includeTests": "yes",
        "cacheDir": "relative/dir", "server": {"command": []},
    }}, "test")
    assert values == {"max_cycles": 4, "include": ("src/**",)}
    assert len(report.warnings) == 3
    assert any("budget" in w and "(8000)" in w for w in report.warnings)
    assert any("cacheDir must be an absolute folder path" in w for w in report.warnings)
    assert report.ignored == [
        "test: setting iterativeRetrieval.server is not the server's; ignored "
        "(the server reads maxCycles, budget, maxFiles, include, exclude, includeTests, cacheDir, "
        "redactSecrets, gitSignals, gitBase, editorSignals)"
    ]
    assert settings_to_wire(values) == {"maxCycles": 4, "include": ["src/**"]}


@pytest.mark.parametrize("raw", [None, {}, {"iterativeRetrieval": None}])
def test_empty_config_is_no_config(raw):
    """No settings at all is not a problem."""
    values, report = parse_config(raw, "test")
    assert values == {} and report.warnings == []


def test_config_that_is_not_an_object():
    """A section that is not an object is one warning, and the defaults."""
    values, report = parse_config(["maxCycles", 3], "test")
    assert values == {} and "expected an object" in report.warnings[0]


def test_status_takes_nothing_or_an_empty_object():
    """status and reindex accept no argument, null or {} and refuse anything else."""
    for ok in ((), (None,), ({},)):
        parse_no_args(ok, "iterativeRetrieval.status")
    with pytest.raises(ParamsError, match="unknown parameter"):
        parse_no_args(({"x": 1},), "iterativeRetrieval.status")


@pytest.mark.parametrize(("prefix", "patterns", "expected"), [
    ("src/auth", ("*.ts",), ("src/auth/**/*.ts",)),
    ("src/auth", ("/lib/x.ts", "lib/"), ("src/auth/lib/x.ts", "src/auth/**/lib/")),
    ("pkg", ("!keep.py", "a/b/**"), ("!pkg/**/keep.py", "pkg/a/b/**")),
])
def test_patterns_under_a_subfolder(prefix, patterns, expected):
    """Globs written for a subfolder are rewritten relative to its workspace root."""
    assert patterns_under(prefix, patterns) == expected


@pytest.mark.parametrize(("value", "expected"), [
    ("/ws/a", "/ws/a"),
    ("file:///ws/a%20b", "/ws/a b"),
])
def test_root_param_paths(value, expected):
    """A root is an absolute path or a file URI."""
    assert path_from_root_param(value) == expected


@pytest.mark.parametrize("value", ["relative/dir", "https://example.com/x", "untitled:1"])
def test_root_param_refused(value):
    """Relative paths and other URI schemes are refused."""
    with pytest.raises(ParamsError):
        path_from_root_param(value)


def test_render_a_result_object():
    """A retrieve result sent back to renderContext renders like the original."""
    req = parse_render(({"result": {
        "task": "Fix expiry", "roots": ["/ws"], "files": [{
            "path": "src/a.ts", "relevance": 0.9, "reason": "defines `a`", "missing": ["B"],
            "cycle": 1, "regions": [{"start_line": 1, "end_line": 2, "text": "const a = 1;\n"}],
        }],
    }},))
    text = to_markdown(req.result)
    assert text.startswith("## Context for: Fix expiry")
    assert "| 1 | 0.90 (high) | `src/a.ts` | defines `a` |" in text
    assert "```typescript\nconst a = 1;\n" in text


def test_render_result_errors_name_the_field():
    """A malformed result says which field is wrong."""
    with pytest.raises(ParamsError, match=r"'result.files\[0\].regions\[0\].text' must be"):
        parse_render(({"result": {"task": "t", "files": [
            {"path": "a", "relevance": 1, "regions": [{"start_line": 1, "end_line": 1}]},
        ]}},))
    # a truthy value of the wrong type where an array belongs (found by the fuzz test)
    with pytest.raises(ParamsError, match=r"'result.files\[0\].regions' must be an array"):
        parse_render(({"result": {"task": "", "files": [{"regions": True}]}},))
    for roots in (True, 3, "a/b"):
        req = parse_render(({"result": {"task": "t", "files": [], "roots": roots}},))
        assert req.result.roots == []
