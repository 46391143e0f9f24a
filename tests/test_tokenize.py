"""Identifier-aware tokenization and the light stemmer."""

import re
from collections import Counter

import pytest

from iterative_retrieval import tokenize
from iterative_retrieval.tokenize import (
    identifier_terms,
    path_terms,
    split_identifier,
    stem,
    stemmed_terms,
    term_counts,
)


@pytest.mark.parametrize(
    "ident, parts",
    [
        ("getUserById", ["get", "user", "by", "id"]),
        ("rate_limiter", ["rate", "limiter"]),
        ("HTTPServerError", ["http", "server", "error"]),
        ("jwt-utils", ["jwt", "utils"]),
        ("sha256sum", ["sha256", "sum"]),
        ("parseV2Config", ["parse", "v2", "config"]),
        ("__init__", ["init"]),
    ],
)
def test_split_identifier(ident, parts):
    """Compounds split at case, underscore, dash and digit boundaries, lower-cased."""
    assert split_identifier(ident) == parts


def test_identifier_terms_keep_the_whole():
    """A compound yields its parts and its joined whole, so both word and exact queries match."""
    assert identifier_terms("refreshToken") == ["refresh", "token", "refreshtoken"]
    assert identifier_terms("token") == ["token"]


def test_an_acronym_s_plural_in_a_name_is_the_acronym():
    """`allowedURLs`, `userIDs`: the acronym and its plural's `s` (too short to be a term), as
    a task's "URLs" is the word url; not `UR` + `Ls`. An acronym before a capitalised word
    (`HTTPServer`), and a lower-case word after one (`UIsettings`), split as before."""
    assert identifier_terms("allowedURLs") == ["allowed", "url", "allowedurls"]
    assert identifier_terms("getAPIsList") == ["api", "list", "getapislist"]
    assert identifier_terms("userIDs") == ["user", "id", "userids"]
    assert identifier_terms("HTTPServer") == ["http", "server", "httpserver"]
    assert split_identifier("UIsettings") == ["u", "isettings"]
    assert term_counts("allowedURLs = parseURL(url)")["url"] == 3


def test_path_terms_split_folders_and_name():
    """Paths contribute folder and file-name terms, without the extension."""
    assert path_terms("src/auth/jwt-utils.ts") == ["src", "auth", "jwt", "utils", "jwtutils"]


@pytest.mark.parametrize(
    "group",
    [
        ["expiry", "expires", "expired", "expiration", "expire"],
        ["token", "tokens"],
        ["throttle", "throttling", "throttled"],
        ["authenticate", "authenticated", "authentication"],
        ["validate", "validation"],
        # a word ending in -er keeps meeting itself after another suffix
        ["render", "renderer", "renderers", "rendering", "rendered"],
        ["register", "registered", "registering", "registers"],
        ["buffer", "buffered", "buffers", "buffering"],
        ["order", "ordered", "ordering", "orders"],
    ],
)
def test_stem_merges_variants(group):
    """Inflections and derivations of one word share a stem."""
    assert len({stem(w) for w in group}) == 1


@pytest.mark.parametrize("a, b", [("class", "clas"), ("status", "statu"), ("user", "use")])
def test_stem_does_not_mangle_short_or_s_words(a, b):
    """Words ending in ss/us keep their s; short words are left alone."""
    assert stem(a) != b


def test_long_digit_runs_tokenize_in_linear_time():
    """A file of 100k digits (Go's compress/testdata/pi.txt) is one pass, not one per position.

    The old pattern re-scanned the run from every digit: minutes for one such file.
    """
    text = "3." + "1415926535" * 10_000 + "\n2x 7up 12.5abc\n"
    assert term_counts(text) == Counter({"2x": 1, "up": 1, "7up": 1, "abc": 1, "5abc": 1})


@pytest.mark.parametrize(
    "text",
    [
        "getUserById(x_1, $el) 3dTexture 42 0x1F",
        "naïve café_au_lait Straße x\u00a0y z\u2028w",  # non-ASCII letters and spaces separate runs
        "caf\xe9 na\xefve",  # latin-1 decoded
        "lone \udcff surrogate\udcffhere",  # what surrogateescape decoding leaves
        "tab\tnl\nvt\x0bff\x0cfs\x1cend\r\n",
        "",
    ],
)
def test_runs_are_the_regex_runs(text):
    """The byte-table runs are exactly what the pattern [A-Za-z0-9_$]+ finds."""
    assert tokenize._runs(text) == re.findall(r"[A-Za-z0-9_$]+", text)


def test_memo_keeps_two_generations():
    """A full memo starts a new generation; entries in use move back, the others are dropped."""
    calls = []
    memo = tokenize._Memo(lambda k: calls.append(k) or k.upper(), 4)  # generations of 2
    assert [memo[k] for k in "abc"] == ["A", "B", "C"]  # c starts a new generation
    assert memo["a"] == "A"  # from the old generation, not computed again
    assert memo["d"] == "D"  # a new generation: b, unused since, is dropped
    assert memo["a"] == "A" and memo["b"] == "B"
    assert calls == ["a", "b", "c", "d", "b"]
    assert len(memo) + len(memo.old) <= 4


@pytest.mark.parametrize(
    "name", ["getUserById", "HTTPServer2Go", "fooFoo", "_1_2", "a$b", "x" * 81, "Tokens", "is_ok"]
)
def test_stemmed_terms_of_a_run_name_match_the_generic_path(name):
    """A name taken from the run memo gets the terms split_identifier's path gives it."""
    generic = tuple(stem(t) for t in identifier_terms(name)) if len(name) <= 80 else ()
    assert stemmed_terms(name) == generic
