"""The optional C accelerator counts terms exactly as the pure-Python path does, and both count
what the readable reference (tokenize.reference_term_counts) says a text's terms are.

setup.py builds `_speedups` wherever a C compiler is found (optional: without one the install
goes on and tokenize uses Python). Both paths run here on the same texts: real source files,
awkward strings and generated ones, and the memo's failure modes.
"""

import os
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from iterative_retrieval import tokenize

try:
    from iterative_retrieval import _speedups
except ImportError:  # pragma: no cover - depends on the machine
    _speedups = None

REPO = Path(__file__).resolve().parents[1]
CAP = 6

needs_c = pytest.mark.skipif(
    _speedups is None and shutil.which("cc") is None and shutil.which("gcc") is None,
    reason="no C compiler here, so the accelerator was not built",
)


@pytest.fixture(scope="module")
def c():
    """The built accelerator; with a compiler present, a missing build is a failure."""
    if _speedups is None:
        pytest.fail("a C compiler is present but iterative_retrieval._speedups was not built: "
                    "reinstall with `pip install -e .` and read the compiler's output")
    return _speedups


def _c_counts(c, text: str, cap: int) -> dict[str, int]:
    return c.count_terms(text, cap)


def _same(c, text: str) -> None:
    """Equal counts, in the same order (the body text is built in that order), capped or not;
    and the reference's counts."""
    assert dict(tokenize.reference_term_counts(text)) == dict(tokenize._py_counts(text, None))
    for cap in (CAP, 0):
        want = tokenize._py_counts(text, cap or None)
        got = _c_counts(c, text, cap)
        assert list(got.items()) == list(want.items()), (cap, text[:200])


@needs_c
def test_the_index_uses_the_accelerator(c):
    """Where it is built, tokenize counts with it (the point of building it)."""
    assert tokenize._speedups is c
    assert tokenize.term_counts_upto("getUserById user", CAP) == {
        "user": 2, "id": 1, "getuserbyid": 1}


@needs_c
def test_real_source_files_count_alike(c):
    """Every source and document file of this project, in several languages and sizes."""
    files = [p for top in ("server", "tests", "docs", "bench", "client-vscode/src", "examples")
             for p in sorted((REPO / top).rglob("*"))
             if p.is_file() and p.suffix in {".py", ".ts", ".md", ".c", ".json", ".mjs", ".sh"}]
    assert len(files) > 50
    for p in files:
        _same(c, p.read_text("utf-8", "surrogateescape"))


@needs_c
@pytest.mark.parametrize(
    "text",
    [
        "",
        "   \n\t ",
        "getUserById(x_1, $el) 3dTexture 42 0x1F",
        "naïve café_au_lait Straße x\u00a0y z\u2028w",  # 1-byte kind with non-ASCII letters
        "łódź getUser ĳ",  # 2-byte kind
        "emoji 😀token😀Token tokens",  # 4-byte kind
        "lone \udcff surrogate\udcffhere",  # what surrogateescape decoding leaves
        "fooFoo fooFoo fooFoo",  # a run whose terms repeat within it
        "allowedURLs getAPIsList userIDs2 URLs2x UIsettings ABs Ss SSs URLsMap",  # plurals
        "token " * 50 + "Token " * 3 + "getToken " * 9,  # counts across runs, some over the cap
        "x" * 100_000,  # one long run (over 80 characters: no terms)
        "a1 " * 20_000,  # many distinct-looking but equal runs
        " ".join(f"name{i}" for i in range(5000)),  # the table grows many times
    ],
    ids=lambda text: repr(text[:24]),
)
def test_awkward_texts_count_alike(c, text):
    _same(c, text)


_ALPHABET = "aAbBsSzZ09_$ -.\n\t(){}\u00e9\u0142\U0001f600\udcff"


@needs_c
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.text(alphabet=_ALPHABET, max_size=300))
def test_generated_texts_count_alike(c, text):
    _same(c, text)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=_ALPHABET, max_size=300))
def test_the_fast_python_path_counts_what_the_reference_says(text):
    """Without the accelerator too: the run-by-run Python path gives the reference's counts,
    and capped, each count cut at the cap."""
    want = tokenize.reference_term_counts(text)
    assert dict(tokenize._py_counts(text, None)) == dict(want)
    capped = tokenize._py_counts(text, CAP)
    assert {t: min(n, CAP) for t, n in capped.items()} == {t: min(n, CAP) for t, n in want.items()}


def _configure(c, cache_size):
    c.configure(sorted(tokenize.CODE_STOP), tokenize._STEM_SUFFIXES, tokenize.MIN_PART,
                tokenize.MAX_TOKEN, tokenize.MAX_NAME, tokenize._MIN_STEM, cache_size)


@needs_c
def test_random_identifier_soup_counts_alike(c):
    """Many files' worth of camelCase, snake_case, digits and punctuation, with a run cache so
    small that it is cleared before most texts."""
    rng = random.Random(7)
    words = ["get", "user", "by", "id", "HTTP", "server", "token", "expire", "rate", "limit",
             "x", "2", "v2", "_", "$", "the", "if", "Parse", "JSON", "utf8"]
    seps = [" ", "\n", "(", ").", ", ", "_", "", "::"]
    _configure(c, 16)
    try:
        for _ in range(200):
            text = "".join(rng.choice(words) + rng.choice(seps) for _ in range(rng.randrange(400)))
            _same(c, text)
    finally:
        _configure(c, tokenize.CACHE_MAX)


@needs_c
def test_bad_arguments_raise_instead_of_crashing(c):
    """Wrong types and settings raise Python errors; nothing leaks or dies."""
    with pytest.raises(TypeError):
        c.count_terms(b"bytes", CAP)
    with pytest.raises(TypeError):
        c.count_terms("text")
    with pytest.raises(ValueError):
        _configure(c, 0)
    with pytest.raises(TypeError):
        c.configure(None, (), 2, 40, 80, 4, 10)
    _configure(c, tokenize.CACHE_MAX)  # a failed configure leaves it unusable until redone
    assert c.count_terms("token tokens", 0) == {"token": 2}


@needs_c
def test_long_runs_and_every_string_kind_count_alike(c):
    """Runs longer than the cache keeps (computed each time), in texts of 1, 2 and 4 bytes
    per character, with digits-first runs whose names lie past the first 80 characters."""
    long_names = ["9" * 300 + "getUser_" + "x" * 300 + "$tail",
                  "1" * 257 + "abc", "get" + "User" * 80, "A" * 300]
    for extra in ("", "ł", "😀"):
        _same(c, (" ".join(long_names) + extra + " ") * 3)


def test_pure_python_switch_gives_the_same_index(tmp_path):
    """IR_PURE_PYTHON=1 turns the accelerator off; the index it builds has the same rows."""
    src = tmp_path / "src"
    src.mkdir()
    (src / "auth.py").write_text("def refreshToken(user_id):\n    return getUserById(user_id)\n")
    (src / "notes.md").write_text("Tokens expire; refresh them.\n" * 3)
    code = (
        "import sys, json\n"
        "from iterative_retrieval import index, tokenize\n"
        "rows = [index.to_row(index.read_and_parse((p, sys.argv[1] + '/' + p, 1, 1, 10**6)))\n"
        "        for p in ('auth.py', 'notes.md')]\n"
        "print(json.dumps([tokenize._speedups is None, [r[8:11] for r in rows]]))\n"
    )
    out = {}
    for pure in ("", "1"):
        env = {**os.environ, "IR_PURE_PYTHON": pure}
        res = subprocess.run([sys.executable, "-c", code, str(src)], env=env, check=True,
                             capture_output=True, text=True)
        out[pure] = res.stdout
    import json

    pure_flag, pure_rows = json.loads(out["1"])
    default_flag, default_rows = json.loads(out[""])
    assert pure_flag is True
    assert default_flag is (_speedups is None)
    assert pure_rows == default_rows
    assert "refreshtoken" in pure_rows[0][2]


def _py_run_terms(run: str) -> tuple[str, ...]:
    return tuple(tokenize._run_terms(run).split())


@needs_c
def test_run_terms_of_this_projects_names_match_python(c):
    """A new run's terms, computed in C, equal the Python ones for every run of the project."""
    runs = set()
    for top in ("server", "tests", "docs", "bench", "client-vscode/src", "examples"):
        for p in (REPO / top).rglob("*"):
            if p.is_file() and p.stat().st_size < 2_000_000:
                runs.update(tokenize._runs(p.read_bytes().decode("utf-8", "replace")))
    assert len(runs) > 5000
    assert [r for r in runs if c.run_terms(r) != _py_run_terms(r)] == []


@needs_c
@pytest.mark.parametrize(
    "run",
    ["HTTPServer", "HTTPServer2Go", "ABCdef", "ABC", "Abc", "aB", "AB1c", "A1b", "getUserById",
     "fooFoo", "is_ok", "__init__", "_1_2", "a$b", "$", "_", "$$a", "3dTexture", "3d$x", "12$ab",
     "0x1F", "0xDEADbeef", "9", "123", "007bond_x9", "1_2_3a", "x" * 80, "x" * 81, "X" * 81,
     "Ab" * 41, "9" + "a" * 90, "a" * 40 + "B" * 3, "Tokens", "statuses", "classes", "boxes",
     "hashes", "analyses", "buses", "expiries", "ratelimiter", "queries", "ized", "iz",
     "get", "GET", "Get", "getGet", "the_if_else", "utf8", "sha256sum", "v2", "V2Config"],
)
def test_run_terms_of_awkward_names_match_python(c, run):
    assert c.run_terms(run) == _py_run_terms(run)


@needs_c
@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.text(alphabet="aeiouyszxhbdgtrnAESZXTY019_$", min_size=1, max_size=90))
def test_run_terms_of_generated_names_match_python(c, run):
    assert c.run_terms(run) == _py_run_terms(run)


@needs_c
def test_run_terms_refuses_what_is_not_a_run(c):
    with pytest.raises(ValueError):
        c.run_terms("two words")
    with pytest.raises(ValueError):
        c.run_terms("café")
    with pytest.raises(TypeError):
        c.run_terms(b"bytes")
    assert c.run_terms("") == ()


@needs_c
def test_body_text_matches_python(c):
    """The body column made in C equals the Python join, for real counts and odd ones."""
    cases = [
        {},
        {"token": 1},
        {"token": 9, "user": 6, "id": 5, "x": 0},
        {"naïve": 2, "łódź": 1, "😀": 3, "plain": 7},  # every string kind
        tokenize.term_counts_upto((REPO / "server/iterative_retrieval/index/store.py").read_text(), CAP),
        tokenize.term_counts((REPO / "README.md").read_text()),
        {"last": 0, "first": 2},
    ]
    for counts in cases:
        for cap in (1, CAP, 1000):
            assert c.body_text(counts, cap) == tokenize._py_capped_text(counts, cap), counts
    assert tokenize.capped_text({"a": 3}, 2) == "a a"


@needs_c
def test_body_text_refuses_bad_input(c):
    with pytest.raises(TypeError):
        c.body_text([("a", 1)], CAP)
    with pytest.raises(TypeError):
        c.body_text({1: 2}, CAP)
    with pytest.raises(TypeError):
        c.body_text({"a": "2"}, CAP)
    with pytest.raises(ValueError):
        c.body_text({"a": 1}, 0)
