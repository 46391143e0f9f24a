"""Gitignore-style patterns: the quick tests answer exactly what pathspec's gitignore
matching answers."""

from __future__ import annotations

import itertools

import pathspec

from iterative_retrieval.gitignore import GitIgnore, path_matcher


def test_gitignore_quick_test_agrees_with_pathspec():
    """GitIgnore answers what pathspec's gitignore matching answers: its quick test of names,
    suffixes, prefixes and the remaining patterns only lets through paths that may match."""
    lines = ["*.o", "!keep.o", "build/", "/dist", "modules.order", ".tmp*", "*.c.[012]*.*",
             "docs/**/*.md", "a/b", "\\#*\\#", "*~", "**/gen/", "foo[0-9]", "# comment", "",
             "!important/", "*.min.js", "tmp/**", "x\\ y"]
    paths = ["a.o", "src/a.o", "keep.o", "src/keep.o", "build/x.c", "src/build/y.c", "build",
             "dist/a", "src/dist/a", "modules.order", "x/modules.order", ".tmp_versions/a",
             "src/.tmpfile", "k.c.0r.t", "docs/a/b.md", "docs/b.md", "src/docs/a.md", "a/b",
             "a/b/c", "x/a/b", "#x#", "d/#y#", "f~", "src/gen/a.py", "gen/b", "foo1", "foo12",
             "important/a.o", "app.min.js", "tmp/a", "src/tmp/a", "x y", "src/main.c",
             "README", "weird\nname.o"]
    for n in (1, 2, 3):
        for combo in itertools.combinations(lines, n):
            ours = GitIgnore(list(combo))
            spec = pathspec.PathSpec.from_lines("gitignore", combo)
            for p in paths:
                assert ours.match_file(p) == spec.match_file(p), (combo, p)
    # the quick test is in play for the usual patterns: most paths never reach pathspec
    usual = GitIgnore(["*.o", "modules.order", ".tmp*", "/vmlinux", "*.c.[012]*.*"])
    assert not usual._may_match("drivers/gpu/drm/main.c")
    assert usual._may_match("drivers/gpu/drm/main.o") and usual._may_match("vmlinux")


def test_path_matcher_agrees_with_gitignore_patterns():
    """The loop's folder and path patterns are prefix tests; they answer what pathspec's
    gitignore matching answers, and any real glob is left to pathspec."""
    paths = ["src/auth/jwt.py", "src/auth/deep/x.py", "src/authz/a.py", "src/auth", "auth/jwt.py",
             "a/src/auth/jwt.py", "src/time/time.go", "src/time/time.go/inner", "src/time/time.gox",
             "docs/a b/c.md", "README.md", "lib/[x]/y.py"]
    lines = ["src/auth/**", "src/time/time.go", "/src/auth/**", "docs/a b/**", "src/*/jwt.py",
             "*.md", "lib/[x]/**", "!src/auth/**", "auth", "src/auth/", "src/auth/**/x.py"]
    for n in (1, 2):
        for combo in itertools.combinations(lines, n):
            spec = pathspec.PathSpec.from_lines("gitignore", combo)
            ours = path_matcher(combo)
            for p in paths:
                assert ours(p) == spec.match_file(p), (combo, p)


def test_patterns_with_many_stars_cost_linear_time_and_match_as_pathspec_does():
    """`*a*a*a*a*b` over long names of a's took pathspec's regex a minute for 2000 paths (it
    tried every placement of the literals); the rewritten one answers at once, and over random
    patterns and paths every answer is pathspec's own."""
    import random
    import time

    lines = ["*a*a*a*a*b", "!*a*a*a*a*ab", "src/*x*y*z"]
    paths = ["src/" + "a" * 60 + f"/file{i}" + "a" * 40 + ".ts" for i in range(2000)]
    ignore = GitIgnore(lines)
    start = time.perf_counter()
    assert not any(map(ignore.match_file, paths))
    assert time.perf_counter() - start < 10.0
    assert ignore.match_file("x/aXaXaXaXb") and not ignore.match_file("x/aXaXaXaXab")
    assert ignore.match_file("src/xxyyzz") and not ignore.match_file("lib/xxyyzz")

    rnd = random.Random(11)
    atoms = ["*", "*", "*", "**", "?", "a", "b", "ab", "a.b", "/", "[ab]", "[!a]", "\\*", "-"]
    names = ["a", "b", "ab", "ba", "aab", "a.b", "xa", "aaab", "abab", ".a", "a-b", "*", "aaaa"]
    compared = 0
    for _ in range(600):
        lines = ["!" * (rnd.random() < 0.15) + "".join(rnd.choice(atoms)
                 for _ in range(rnd.randint(1, 8))) for _ in range(rnd.randint(1, 3))]
        reference = pathspec.PathSpec.from_lines("gitignore", lines)
        ours = GitIgnore(lines).spec
        for _ in range(20):
            path = "/".join("".join(rnd.choice(names) for _ in range(rnd.randint(1, 3)))
                            for _ in range(rnd.randint(1, 4)))
            assert ours.match_file(path) == reference.match_file(path), (lines, path)
            compared += 1
    assert compared == 12_000


def test_pathspec_still_writes_what_gitignore_py_reads():
    """The contract with pathspec (pinned <2 in pyproject.toml): gitignore.py reads the text of
    pathspec's private regexes to sort patterns into its quick tests. Each shape it expects,
    and each API it calls, is here; a pathspec release that changes one fails this test before
    the quick tests can answer wrongly."""
    import re
    from importlib.metadata import version

    from pathspec.pattern import RegexPattern
    from pathspec.util import lookup_pattern, normalize_file

    from iterative_retrieval.gitignore import _ANY_FOLDER, _NAMED_GROUP, _SEGMENT_END

    assert version("pathspec").split(".")[0] == "1"
    make = lookup_pattern("gitignore")

    def body(line: str) -> str:
        p = make(line)
        assert p.include is True and isinstance(p.regex, re.Pattern)
        src = _NAMED_GROUP.sub("(?:", p.regex.pattern)
        assert src.startswith(_ANY_FOLDER) and src.endswith(_SEGMENT_END), src
        return src[len(_ANY_FOLDER):-len(_SEGMENT_END)]

    # a name anywhere: ^(?:.+/)?BODY(?:/|$), BODY a literal, `[^/]*` + literal, literal + `[^/]*`
    assert body("modules.order") == r"modules\.order"
    assert body("*.o") == r"[^/]*\.o"
    assert body(".tmp*") == r"\.tmp[^/]*"
    # anchored or spanning folders: not that shape (tried on the whole path)
    for line in ("/dist", "docs/**/*.md", "build/"):
        src = make(line).regex.pattern
        assert not (src.startswith(_ANY_FOLDER) and src.endswith(_SEGMENT_END)), line
    # negation and comments, and the lines pathspec refuses (ValueError)
    assert make("!keep.o").include is False and make("# c").include is None
    for bad in ("\\", "!"):
        try:
            make(bad)
        except ValueError:
            continue
        raise AssertionError(f"{bad!r} was accepted")
    # the APIs: a RegexPattern of a compiled regex in a PathSpec with the simple backend
    spec = pathspec.PathSpec([RegexPattern(re.compile(r"^(?:.+/)?x(?:/|$)"), True)],
                             backend="simple")
    assert spec.match_file("a/x") and not spec.match_file("a/y")
    assert normalize_file("./a/b") == "a/b"
