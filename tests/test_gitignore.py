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
