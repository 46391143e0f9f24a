"""What kind of file a path is: source, test, doc, example, config or tool.

The index stores each file's kind with it (so that reading the file list classifies nothing);
tests, docs and examples are candidates only when the task is about them, and config and the
project's own tooling weigh less (signals.py).
"""

from __future__ import annotations

import re

_TEST_DIR_RE = re.compile(
    r"(^|/)(tests?|testing|testsuite|test_?suites?|__tests__|__mocks__|spec|specs|testdata|test_utils|e2e"
    r"|test-d|test-?dts|dts-?tests?)(/|$)"
)


def is_test_folder(name: str) -> bool:
    """Whether a folder's name is one that holds tests (`tests`, `__tests__`, `spec`, `e2e`…)."""
    return _TEST_DIR_RE.fullmatch(name.lower()) is not None


_DOC_NAME_RE = re.compile(
    r"(^|/)(changes|changelog|history|news|authors|contributors|license|licence|copying|notice|readme|todo)([._-][^/]*)?$"
)
_TEST_FILE_RE = re.compile(
    r"(^|/)(test_[^/]*|[^/]*_test\.[a-z]+|[^/]*\.(test|spec)(-d)?\.[a-z]+|conftest\.py"
    r"|(tests?|specs?)\.[cm]?[jt]sx?|tests?\.rs|[^/]*Tests?\.(java|cs|kt))$"
)
"""`.test-d.ts` and the folders `test-d/`, `test-dts/`: type tests (tsd's and vitest's
typecheck conventions), checked by the compiler instead of run. A script named `test.js` is its
package's tests (AVA's convention: execa, got), a Rust `tests.rs` its module's `mod tests`;
Python's `test.py` is left out, as it is often a module of test helpers."""
_DOC_DIR_RE = re.compile(r"(^|/)(docs?|documentation|man)(/|$)")
_EXAMPLE_DIR_RE = re.compile(
    r"(^|(?<!\bcom)(?<!\borg)(?<!\bnet)(?<!\bio)(?<!\bdev)/)"
    r"(examples?|samples?|demos?|fixtures?|benchmarks?|bench(es|suite)?|sandbox(es)?|playgrounds?)(/|$)")
_EXAMPLE_WORDS = ("example", "sample", "demo", "fixture", "bench", "sandbox", "playground")
"""Every match of _EXAMPLE_DIR_RE contains one of these. A package named by a reverse domain
(`src/main/java/org/example/App.java`: Gradle's and Maven's default `org.example`, and
`com.example`) is the project's code, not a folder of examples."""
_TOOL_CONFIG_RE = re.compile(
    r"(^|/)([^/]+\.(config|conf)\.[cm]?[jt]s|\.[^/]+\.[cm]?[jt]s|(gruntfile|gulpfile)\.[cm]?[jt]s"
    r"|[^/]+\.(gemspec|podspec)|(rake|gem|pod|vagrant|guard|cap|brew|jenkins)file"
    r"|(setup|noxfile|fabfile|conanfile)\.py|(build|settings)\.gradle(\.kts)?"
    r"|(gnu)?makefile|dockerfile|justfile|cmakelists\.txt)$"
)
"""Build, lint, test-runner and package settings written as scripts (rollup.config.js,
karma.conf.js, .eslintrc.cjs, .dependency-cruiser.js — a script named as a dotfile is a tool's
settings —, Gruntfile.js, x.gemspec, Rakefile, setup.py, build.gradle,
Makefile, Dockerfile): code by language, configuration by purpose."""
_TOOL_DIR_RE = re.compile(r"^(scripts?|tools?|devtools?|contrib|hack|ci|\.github|\.circleci)/")
"""The project's own tooling at its top level (release scripts, code generators, CI helpers):
code, but rarely where a change to the project's behaviour goes."""
_DOC_LANGS = {"markdown", "rst", "text", "asciidoc"}
_CONFIG_LANGS = {"yaml", "toml", "json", "ini", "xml"}


_CATALOG_RE = re.compile(r"(^|/)lc_messages/|\.pot?$")
"""gettext's translation catalogs (`locale/fr/LC_MESSAGES/app.po`, and what is built from them
there, `sphinx.js`): the project's messages in other languages, text for translators. Sphinx
ships sixty; their words (and the folder name `LC_MESSAGES` a task named) filled a task's list."""


CLASSIFIER_VERSION = "11"
"""Bump with any change to classify(): an index stored by another version is re-classified when
it is opened (a kind is stored with its file so that reading the file list classifies nothing)."""


def classify(rel: str, lang: str | None) -> str:
    """Whether a path is source, test, doc, example, config or tool (tests and docs rarely
    need edits).

    It runs on every file of every retrieval's file list: each pattern is tried only when the
    path holds a word that any of its matches must contain (a substring test costs far less).
    """
    low = rel.lower()
    if ("test" in low or "spec" in low or "mock" in low or "e2e" in low) and (
        _TEST_FILE_RE.search(low) or _TEST_DIR_RE.search(low)
    ):
        return "test"
    if lang in _DOC_LANGS or (("doc" in low or "man" in low) and _DOC_DIR_RE.search(low)) or (
        (".po" in low or "lc_messages" in low) and _CATALOG_RE.search(low)) or (
        (lang is None or lang in _DOC_LANGS) and _DOC_NAME_RE.search(low)
    ):
        return "doc"
    if any(w in low for w in _EXAMPLE_WORDS) and _EXAMPLE_DIR_RE.search(low):
        return "example"
    if lang in _CONFIG_LANGS or lang is None or (
        ("conf" in low or "rc." in low or "file" in low or "spec" in low or "setup" in low
         or "gradle" in low or "cmake" in low or "/." in low or low[:1] == ".")
        and _TOOL_CONFIG_RE.search(low)
    ):
        return "config"
    if _TOOL_DIR_RE.match(low):
        return "tool"
    return "source"
