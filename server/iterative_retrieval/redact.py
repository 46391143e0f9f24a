"""Redaction: strings that look like credentials are masked before code is handed to a chat.

Secret *files* never reach the index (see `workspace.is_secret`); this module handles secrets
pasted *into* ordinary files: private-key blocks, tokens of well-known formats, and high-entropy
literals assigned to names such as `password`, `secret`, `token` or `api_key`. Each match is
replaced in place by `«redacted: KIND»`, never by a line break, so a region keeps its line count
and its line numbers stay right.

Ordinary code is left alone: only literals are candidates (`password = request.form["password"]`
and `token = get_token()` are not), and a literal assigned to a secret-sounding name must look
random (mixed character classes and enough entropy), so `PASSWORD_FIELD = "password"` stays.

Every pattern is linear in the length of a line (bounded repetitions, anchored name starts), so a
1 MB single-line file costs milliseconds, not a hang; the fuzz tests hold it to that.
"""

from __future__ import annotations

import base64
import binascii
import functools
import math
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING

from . import detectsecrets
from .redact_formats import CONTEXTS, TOKENS, ContextRule
from .textmemo import TextMemo

if TYPE_CHECKING:
    from .models import RetrievalResult

MARK = "«redacted: {}»"
"""What stands in for a secret; the guillemets cannot start a match again (redaction is
idempotent)."""

MIN_LITERAL = 8
"""Shorter literals are too short to be a credential worth hiding (and too common to guess)."""
MIN_ENTROPY = 3.0
"""Bits per character a quoted literal needs (random base64 has about 5.5; `password` 2.75)."""
MIN_ENTROPY_BARE = 3.2
"""Unquoted values (`.env`, YAML, INI lines) need more: they are easier to confuse with code."""
RELATIVE_ENTROPY = 0.85
"""...or this share of the most a value of its length can have, when that is less (short ones)."""

# -- formats: the tables of redact_formats, compiled once ---------------------------------------

_TOKEN_RULES: tuple[tuple[str, tuple[str, ...], re.Pattern[str]], ...] = tuple(
    (f.kind, f.needles, f.compile()) for f in TOKENS)

# `scheme://user:password@host` (RFC 3986 userinfo; the user may be empty, as Redis URLs write
# it, `redis://:pw@host`): the password goes, the rest stays (placeholders are kept).
_URL_CREDENTIALS = re.compile(
    r"(?P<head>\b[a-zA-Z][a-zA-Z0-9+.-]{0,20}://[^\s/:@'\"]{0,128}:)"
    r"(?P<pw>[^\s/@'\"]{3,256})(?=@[^\s@'\"]{1,256})"
)
_BEARER = re.compile(r"(?P<head>\b[Bb]earer[ \t]{1,8})(?P<value>[A-Za-z0-9._~+/-]{20,4096}=*)")

# -- assignments to secret-sounding names ------------------------------------------------------

_SECRET_WORD = (
    r"passw(?:or)?d|passphrase|[_-]pass(?![a-z0-9])|pwd|secret|token|credentials?|api[_-]?key"
    r"|apikey|(?:access|account|auth|secret|private|signing|encryption|master|client|session"
    r"|shared[_-]?access)[_-]?key"
)
# The name starts where a run of name characters starts (the lookbehind), and is at most 40
# characters either side of the secret word: bounded work per run, however long the line.
_NAME = (
    r"(?<![A-Za-z0-9_.$-])"
    rf"(?P<name>[A-Za-z0-9_.$-]{{0,40}}?(?:{_SECRET_WORD})[A-Za-z0-9_$-]{{0,40}})"
)
# A type between the name and `=`: `apiKey: string =` (TypeScript, Kotlin, Rust),
# `apiKey string =` (Go).
_TYPE = r"(?:[ \t]{0,4}:?[ \t]{1,4}[A-Za-z_&*][\w.<>\[\]|?&*]{0,40}(?=[ \t]{0,4}=[^=>]))?"
# No class below matches a line break (\s is excluded where a value is), so no match spans lines.
_QUOTED = re.compile(
    rf"""{_NAME}["'\]]{{0,2}}{_TYPE}[ \t]{{0,16}}(?:=>|:=|==|=|:)[ \t]{{0,16}}"""
    # a fallback after an expression: `password or "…"`, `getenv("X") || "…"`
    r"""(?:[^"'`\n=;]{0,60}?(?:\bor|\|\||\?\?|,)[ \t]{0,8})?[rbuf]?"""
    r"""(?P<q>["'`])(?P<value>[^"'`\\\s]{8,1024})(?P=q)""",
    re.I,
)
# Unquoted values only at the start of a line (`.env`, INI, YAML, properties): in code an
# unquoted right-hand side is an expression, not a secret.
_BARE = re.compile(
    rf"""^(?P<lead>[ \t]{{0,32}}(?:(?:export|ENV|ARG|set)[ \t]+)?){_NAME}[ \t]{{0,16}}[:=]"""
    r"""[ \t]{0,16}"""
    r"""(?P<value>[A-Za-z0-9+/=_~!@#%^&*.-]{12,1024})[ \t\r]*$""",
    re.I | re.M,
)
# In prose (a task, a reason) a `password=…` or `token: …` anywhere in a line gives a value
# (a pasted task is no code, whose unquoted right-hand sides are expressions).
_INLINE = re.compile(
    rf"""{_NAME}[ \t]{{0,4}}[:=][ \t]{{0,4}}"""
    r"""(?P<value>[A-Za-z0-9+/=_~!@#%^&*.-]{12,1024})(?=[\s,;)'"]|$)""",
    re.I,
)
_PLACEHOLDER = re.compile(r"[xX*.#_-]{3,}|<[^>]*>|none|null|nil|undefined|true|false", re.I)
_PLACEHOLDER_WORDS = ("changeme", "change_me", "example", "dummy", "placeholder", "redacted",
                      "replace_me", "replaceme", "your_", "your-")
_WINDOWS_VAR = re.compile(r"%[A-Za-z_][A-Za-z0-9_]*%")
_PLACEHOLDER_RUNS = ("xxxx", "XXXX", "****")
"""Runs of one character that stand in for a value (in one case: `…NXxxxq…` is random)."""


def _placeholder(value: str) -> bool:
    """`xxxxxxxx`, `<your-token>`, `${VAR}`, `%APPDATA%`, `your_api_key_here`: a stand-in."""
    low = value.lower()
    return (
        bool(_PLACEHOLDER.fullmatch(value)) or value.startswith(("$", "{{", "«", "%("))
        # `%APPDATA%`, `%DB_PASSWORD%`: a name between the signs, not `%q9XA6Sv5CUgTki%`
        or bool(_WINDOWS_VAR.fullmatch(value) and _CONSTANT.fullmatch(value[1:-1]))
        or any(w in low for w in _PLACEHOLDER_WORDS)
        or any(w in value for w in _PLACEHOLDER_RUNS)
    )


# Where a secret-sounding name may be: the lines around these (lower-cased) words are examined.
_HINTS = ("pass", "pwd", "secret", "token", "credential", "key")
_LONG_LINE = 8192
"""Longer lines (minified code, data) are examined only in windows around each hint."""
# Names, not secrets: `RSA_1024_BIT`, `utf_8_sig`, `FlowPasswordRequiredResultV2`, `sha256`.
# Camel-case words are a capital and two or more lower-case letters, or an acronym; random
# strings break that shape within a few characters. Possessive, so a failing match is linear.
_CONSTANT = re.compile(
    r"[A-Z0-9]++(?:[_-][A-Z0-9]++)++|[a-z0-9]++(?:[_-][a-z0-9]++)++"
    r"|(?:[_-]?+(?>[A-Z]?[a-z]{2,}|[A-Z]{2,}(?=[A-Z][a-z]|[^A-Za-z]|$)))++[A-Z]?+[0-9]{0,4}+"
)
_UUID = re.compile(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}")
_DOTTED_NAME = re.compile(r"[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+")

# -- private-key blocks ------------------------------------------------------------------------

_PEM_LABEL = r"[A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?"
_PEM_BEGIN = re.compile(rf"-----BEGIN {_PEM_LABEL}-----")
_PEM_END = re.compile(rf"-----END {_PEM_LABEL}-----")
_B64_LINE = re.compile(r"[A-Za-z0-9+/=]{1,4096}")
_PEM_HEADER = re.compile(r"[A-Za-z-]{1,40}:[^\n]{0,200}")
_PEM_MARK = MARK.format("private-key")


def entropy(s: str) -> float:
    """Shannon entropy of a string, in bits per character."""
    if not s:
        return 0.0
    n = len(s)
    return -sum(c / n * math.log2(c / n) for c in Counter(s).values())


def _classes(s: str) -> int:
    """How many of lower-case, upper-case and digits a string mixes (random strings mix them)."""
    return any(c.islower() for c in s) + any(c.isupper() for c in s) + any(c.isdigit() for c in s)


def _key_body(line: str) -> bool:
    """A line inside a private-key block: base64 (maybe in a string literal), a header, blank."""
    s = line.strip().strip("\"'`+,;()").replace("\\n", "").strip("\"'`+,;() \t")
    return not s or bool(_B64_LINE.fullmatch(s) or _PEM_HEADER.fullmatch(s))


def _key_text(s: str) -> bool:
    """At least 16 characters of base64 (maybe in a string literal): the start of a key's body."""
    s = s.strip().strip("\"'`+,;()").replace("\\n", "").strip("\"'`+,;() \t")
    return len(s) >= 16 and bool(_B64_LINE.fullmatch(s))


def looks_random(value: str, bare: bool = False) -> bool:
    """True for a literal that could be a credential: long enough, mixed, high entropy, no words.

    Letters-only values are taken for identifiers or words (`acquireTokenSilent`), values with
    holes for templates, and URLs or paths for what they are.
    """
    if len(value) < (12 if bare else MIN_LITERAL) or any(c.isspace() for c in value):
        return False
    if _UUID.fullmatch(value):
        return len(set(value)) > 4  # random by construction (Heroku and many API keys); not 0000…
    if _placeholder(value) or len(set(value)) <= 2:
        return False
    if _template(value):
        # text with holes is built at run time; a random literal around them is one still
        # (`"KNw5IF4DqI_%s"`), where a template's own text is words (`"token_%s_v2"`)
        literal = _HOLES.sub("", value)
        return literal != value and looks_random(literal, bare)
    if "://" in value or _path(value):
        return False  # a URL or a path (credentials in URLs have their own rule)
    if not any(c.isdigit() for c in value) or _CONSTANT.fullmatch(value):
        return False  # `ResetPasswordFailedState`, `RSA_1024_BIT`, `ResultV2`: names, not secrets
    if bare and (not any(c.isalpha() for c in value) or _DOTTED_NAME.fullmatch(value)):
        return False  # `jinja2.pass_context`, `3600`: code or plain numbers
    # a short value cannot reach the bare threshold often (12 characters: log2 12 = 3.58 bits
    # at most), so it needs the same share of its maximum as a long one
    need = min(MIN_ENTROPY_BARE, RELATIVE_ENTROPY * math.log2(len(value))) if bare else MIN_ENTROPY
    return _classes(value) >= 2 and entropy(value) >= need


# possessive: a segment that is no word fails in linear time
_PATH_SEGMENT = re.compile(r"[\w.~-]{0,11}|[a-z0-9_.-]*+|(?:[A-Z]?+[a-z0-9]++[_.-]?+)++")


def _path(value: str) -> bool:
    """`/etc/ssl/private/x.key`, `./data`, `~/.config`: a path, whose segments are words. A
    base64 value may start with `/` too, and then holds a segment that is no word."""
    return value.startswith(("/", "./", "../", "~/")) and all(
        _PATH_SEGMENT.fullmatch(seg) for seg in value.split("/"))


_PRINTF_HOLE = re.compile(r"(?:^|(?<=[-_.:/=@]))%[sd](?=[-_.:/=@]|$)")
"""A `%s` hole between separators or at an end (`key-%s-v2`, `%s.json`); among letters, digits
and other symbols (`!H%sS4h`, `i%d*`) it is two characters of a random value."""


_HOLES = re.compile(r"\$\{[^}]*\}|\{[^{}]*\}|%\([^)]*\)[sdr]|" + _PRINTF_HOLE.pattern)
"""The holes of a template, as _template finds them."""


def _template(value: str) -> bool:
    """`${x}`, `{x}`, `%s`, `%(x)s`: text with holes is built at run time, not a stored secret."""
    return ("${" in value or ("{" in value and "}" in value) or "%(" in value
            or ("%" in value and _PRINTF_HOLE.search(value) is not None))


def _kind_of(name: str) -> str:
    low = name.lower()
    if "pass" in low or "pwd" in low:
        return "password"
    if "token" in low:
        return "token"
    if "secret" in low:
        return "secret"
    if "key" in low:
        return "key"
    return "credential"


def _mask_value(counts: Counter[str], kind_of: Callable[[re.Match[str]], str], bare: bool = False,
                masked: list[str] | None = None):
    """A `re.sub` callback that masks the `value` group when it looks random."""

    def repl(m: re.Match[str]) -> str:
        value = m.group("value")
        if not looks_random(value, bare):
            return m.group(0)
        kind = kind_of(m)
        counts[kind] += 1
        if masked is not None:
            masked.append(value)
        base = m.start()
        s, e = m.span("value")
        text = m.group(0)
        return text[: s - base] + MARK.format(kind) + text[e - base:]

    return repl


def _password(value: str) -> bool:
    """A value where a password must be (a URL's userinfo, `Password=`, `<password>`): anything
    but a placeholder, a template or variable, or a short plain word such as a local
    database's default password (`postgres:postgres`)."""
    if _placeholder(value) or value.startswith("{") or _template(value):
        return False
    return not (_classes(value) < 2 and len(value) < 16)


def _basic(value: str) -> bool:
    """An HTTP Basic credential: base64 of `user:password` (RFC 7617)."""
    try:
        raw = base64.b64decode(value + "=" * (-len(value) % 4), validate=True)
    except (binascii.Error, ValueError):
        return False
    text = raw.decode("utf-8", errors="replace")
    user, sep, pw = text.partition(":")
    return bool(sep) and "\ufffd" not in text and text.isprintable() and _password(pw)


CHECKS: dict[str, Callable[[str], bool]] = {
    "password": _password,
    "random": looks_random,
    "bare": lambda v: looks_random(v, bare=True),
    "basic": _basic,
}
"""How a context rule judges its value (`redact_formats.ContextRule.check`)."""


def _url_password(counts: Counter[str], masked: list[str] | None = None
                  ) -> Callable[[re.Match[str]], str]:
    def repl(m: re.Match[str]) -> str:
        pw = m.group("pw")
        if not _password(pw):
            return m.group(0)
        counts["url-password"] += 1
        if masked is not None:
            masked.append(pw)
        return m.group("head") + MARK.format("url-password")

    return repl


def _context(rule: ContextRule, counts: Counter[str], masked: list[str] | None
             ) -> Callable[[re.Match[str]], str]:
    """A `re.sub` callback that masks a context rule's `value` group when its check passes."""
    check = CHECKS[rule.check]

    def repl(m: re.Match[str]) -> str:
        value = m.group("value")
        if not check(value):
            return m.group(0)
        counts[rule.kind] += 1
        if masked is not None:
            masked.append(value)
        s, e = m.span("value")
        base = m.start()
        text = m.group(0)
        return text[: s - base] + MARK.format(rule.kind) + text[e - base:]

    return repl


def _mask_keys(text: str, counts: Counter[str],  # noqa: C901 - a line scan with its states
               masked: list[str] | None = None) -> str:
    """Private-key blocks: the BEGIN and END lines stay, each line between is masked."""
    out: list[str] = []
    in_key = False
    # a block known only by a mark (masked before, by this rule or another): its lines were
    # masked then, so an unmasked line in it is one the first pass left alone, unless it is
    # plainly key text (the mark may be the file's own): the second pass leaves the same
    marked = False
    # Lines split as str.splitlines splits them (\r, \u2028, ... too), each keeping its ending.
    raws = text.splitlines(keepends=True)
    for n, raw in enumerate(raws):
        parts = raw.splitlines()
        line = parts[0] if parts else ""
        ending = raw[len(line):]
        if in_key:
            if _PEM_END.search(line):
                in_key = False
                out.append(line + ending)
                continue
            if line == _PEM_MARK or (_key_text(line) or not line.strip() if marked
                                     else _key_body(line)):
                if masked is not None and line.strip() and line != _PEM_MARK:
                    masked.append(line.strip())
                out.append((_PEM_MARK if line.strip() else line) + ending)
                continue
            in_key = False  # not a key body after all: an ordinary line (maybe another BEGIN)
        begin = _PEM_BEGIN.search(line)
        marked = False
        if begin:
            end = _PEM_END.search(line, begin.end())
            if end:  # the whole key on one line (a string with \n escapes)
                if line[begin.end():end.start()].strip():
                    counts["private-key"] += 1
                    if masked is not None:
                        masked.extend(line[begin.end():end.start()].split("\\n"))
                    line = line[: begin.end()] + _PEM_MARK + line[end.start():]
            else:
                tail = line[begin.end():]
                nxt = raws[n + 1].strip() if n + 1 < len(raws) else ""
                if _key_text(tail):  # key text right after BEGIN
                    counts["private-key"] += 1
                    if masked is not None:
                        masked.append(tail.strip())
                    line = line[: begin.end()] + _PEM_MARK
                    in_key = True
                elif tail == _PEM_MARK:  # masked before
                    in_key = marked = True
                elif _key_text(nxt) or (nxt and _PEM_HEADER.fullmatch(nxt)):
                    counts["private-key"] += 1  # a block, not a mention in prose
                    in_key = True
                elif nxt == _PEM_MARK:
                    in_key = marked = True
        out.append(line + ending)
    return "".join(out)


def _spans(text: str, haystack: str, needles: tuple[str, ...], after: int, lines: int = 0
           ) -> list[tuple[int, int]]:
    """Merged (start, end) spans of the lines around every needle found in `haystack`.

    `haystack` is `text` or its lower-case copy (same length). A line longer than `_LONG_LINE`
    (minified code, data) contributes only a window from a little before a needle to `after`
    characters past it, so a 1 MB line is never scanned whole by a rule.
    """
    spans: list[tuple[int, int]] = []
    for needle in needles:
        i = haystack.find(needle)
        while i != -1:
            a = text.rfind("\n", 0, i) + 1
            b = text.find("\n", i)
            for _ in range(lines):  # and the lines after (a value below its name)
                b = text.find("\n", b + 1) if b != -1 else -1
            b = len(text) if b == -1 else b
            if b - a > _LONG_LINE:
                a, b = max(a, i - 128), min(b, i + after)
            spans.append((a, b))
            i = haystack.find(needle, max(b, i + 1))
    spans.sort()
    merged: list[tuple[int, int]] = []
    for a, b in spans:
        if merged and a <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], b))
        else:
            merged.append((a, b))
    return merged


def _lower(text: str) -> str:
    """A lower-case copy of the same length (a few letters lower-case to two characters)."""
    low = text.lower()
    return low if len(low) == len(text) else "".join(c.lower()[:1] or c for c in text)


def _sub_near(
    text: str,
    haystack: str,
    needles: tuple[str, ...],
    edit: Callable[[str, bool], str],
    after: int = 1280,
    lines: int = 0,
) -> str:
    """Apply `edit(piece, whole_line)` to the spans of text around the needles only.

    `haystack` is where the needles are looked for: the text or its `_lower` copy."""
    spans = _spans(text, haystack, needles, after, lines)
    if not spans:
        return text
    out: list[str] = []
    last = 0
    for a, b in spans:
        whole = (a == 0 or text[a - 1] == "\n") and (b == len(text) or text[b] == "\n")
        out.append(text[last:a])
        out.append(edit(text[a:b], whole))
        last = b
    out.append(text[last:])
    return "".join(out)


class _Scan:
    """The text being redacted, its lower-case copy and which needles it holds, worked out
    again only when a rule changed the text (rarely): a rule whose needles are absent costs a
    dictionary look-up, and forty rules share a handful of needles."""

    def __init__(self, text: str) -> None:
        self.text = text
        self._low: str | None = None
        self._has: dict[tuple[str, bool], bool] = {}

    @property
    def low(self) -> str:
        if self._low is None:
            self._low = _lower(self.text)
        return self._low

    def has(self, needles: tuple[str, ...], lower: bool) -> bool:
        for n in needles:
            hit = self._has.get((n, lower))
            if hit is None:
                hit = self._has[(n, lower)] = n in (self.low if lower else self.text)
            if hit:
                return True
        return False

    def sub_near(self, needles: tuple[str, ...], edit: Callable[[str, bool], str],
                 lower: bool = False, after: int = 1280, lines: int = 0) -> None:
        if not self.has(needles, lower):
            return
        out = _sub_near(self.text, self.low if lower else self.text, needles, edit, after, lines)
        if out != self.text:
            self.__init__(out)  # type: ignore[misc]


def _sub(rx: re.Pattern[str], repl: str | Callable[[re.Match[str]], str], piece: str,
         _whole: bool) -> str:
    """An edit for _Scan.sub_near: the rule's pattern replaced in the piece near its needles."""
    return rx.sub(repl, piece)


def redact_text(
    text: str, counts: Counter[str] | None = None, masked: list[str] | None = None,
    second_stage: bool = True, prose: bool = False,
) -> str:
    """The text with every credential-looking string masked; the same lines, in the same places.

    `counts`, when given, receives how many of each kind were masked, and `masked` the values
    themselves (see `Redactor`). `prose` (a task, a reason: no code) masks an unquoted value
    after a secret-sounding name anywhere in a line, not only as a whole `.env` line. Cheap on
    text without secrets: each rule runs only on the lines where its literal needle, or a
    secret-sounding word, occurs, and detect-secrets (the `second_stage`) only on lines that
    still hold a random-looking token.
    """
    counts = counts if counts is not None else Counter()
    if len(text) < MIN_LITERAL:
        return text
    original = text
    if "PRIVATE KEY" in text:
        text = _mask_keys(text, counts, masked)
    scan = _Scan(text)
    for kind, needles, rx in _TOKEN_RULES:

        def token(m: re.Match[str], kind: str = kind) -> str:
            counts[kind] += 1
            if masked is not None:
                masked.append(m.group(0))
            return MARK.format(kind)

        scan.sub_near(needles, functools.partial(_sub, rx, token), after=17000)
    url = _url_password(counts, masked)
    scan.sub_near(("://",), lambda piece, _w: _URL_CREDENTIALS.sub(url, piece))
    bearer = _mask_value(counts, lambda m: "bearer-token", masked=masked)
    scan.sub_near(("earer",), lambda piece, _w: _BEARER.sub(bearer, piece), after=4200)
    for rule in CONTEXTS:
        repl = _context(rule, counts, masked)
        scan.sub_near(rule.needles, functools.partial(_sub, rule.pattern, repl),
                      lower=True, lines=rule.lines)
    named = _mask_value(counts, lambda m: _kind_of(m.group("name")), masked=masked)
    bare = _mask_value(counts, lambda m: _kind_of(m.group("name")), bare=True, masked=masked)

    def assignments(piece: str, whole_lines: bool) -> str:
        piece = _QUOTED.sub(named, piece)
        if prose:
            piece = _INLINE.sub(bare, piece)
        # `^` and `$` of the unquoted rule must be real line ends: whole lines only
        return _BARE.sub(bare, piece) if whole_lines else piece

    scan.sub_near(_HINTS, assignments, lower=True)
    text = scan.text
    if second_stage:  # detect-secrets on the lines that still hold a random-looking token
        text = detectsecrets.redact(text, MARK, counts, masked, _placeholder)
    # the same object when nothing changed: memos keyed by text then find it at once
    return original if text == original else text


_MARKED = re.compile(re.escape(MARK).replace(re.escape("{}"), r"[^»\n]{0,40}"))


def blanked(text: str) -> str:
    """The text with each credential a space: what a task's words are read from, so that no
    piece of a pasted token (`ghp`, `c838347`) is searched for or shown as a keyword."""
    return _MARKED.sub(" ", _redact_words(text)[0])


def summary(counts: Counter[str]) -> str:
    """`2 aws-access-key, 1 password` (empty when nothing was masked)."""
    return ", ".join(f"{n} {k}" for k, n in sorted(counts.items()) if n)


def _redact_keeping(text: str) -> tuple[str, tuple[str, ...]]:
    masked: list[str] = []
    return redact_text(text, masked=masked), tuple(masked)


_redacted = TextMemo(_redact_keeping)
"""A file's redacted text and what was masked in it, between retrievals too: the same top files
come back often."""

def _redact_prose(s: str) -> tuple[str, tuple[str, ...]]:
    """redact_text of prose (a task, a term, a reason), and what it masked (lower-cased)."""
    masked: list[str] = []
    # not the second stage: detect-secrets' keyword detector reads prose such as a reason's
    # "has `PasswordResetError`, `secret_key_rotation`" as an assignment; terms were learned
    # from redacted text, and `Redactor.masked` catches a piece of what the files masked
    return (redact_text(s, masked=masked, second_stage=False, prose=True),
            tuple(m.lower() for m in masked))


_redact_short = functools.lru_cache(maxsize=8192)(_redact_prose)
"""The trace's terms and the reasons' names come back in every cycle and retrieval."""
CACHED_CHARS = 2000
"""Longer strings (a pasted task, up to 200 000 characters) are redacted each time, not kept:
a long-running server would hold thousands of them."""


def _redact_words(s: str) -> tuple[str, tuple[str, ...]]:
    return _redact_short(s) if len(s) <= CACHED_CHARS else _redact_prose(s)


MIN_FRAGMENT = 5
"""A word of an output this long that occurs inside a masked value may be a piece of it (shorter
ones, `key`, `app`, are too common to say anything)…"""
FRAGMENT_CHARS = 8
"""…and is masked when it holds this many of the value's characters, or half of them (a short
password): a shorter piece of a long secret tells nothing of it, and is often a word of the task
itself (a random value that happened to spell `Token` and `Expiry` had a task about token
expiry lose its own words)."""
_WORD = re.compile(rf"[A-Za-z0-9_+/=.~-]{{{MIN_FRAGMENT},}}")


class Redactor:
    """Redaction for one retrieval: the one place where what a retrieval hands out is masked.

    Every file text the loop reads goes through `text`, so nothing is learned from inside a
    masked span (REFINE's feedback, surface forms, used names read the redacted text), and
    `result` masks the finished result as a whole before any surface serialises it: the regions,
    and every word the trace, the reasons and the missing names hold — by the same rules as the
    regions, and by what this retrieval masked in the files it read (a term the index learned
    from a credential's tail is such a fragment).
    """

    def __init__(self) -> None:
        self.masked: set[str] = set()
        """Every value masked in the texts handed out by `text`, lower-cased."""

    def text(self, text: str | None) -> str | None:
        """A file's text as the loop may read it: credentials masked, lines kept."""
        if text is None:
            return None
        out, masked = _redacted(text)
        self.masked.update(m.lower() for m in masked)
        return out

    def words(self, s: str) -> str:
        """A short output string (a term, a reason, a name) with credentials masked."""
        if not s:
            return s
        s, masked = _redact_words(s)
        self.masked.update(masked)
        if not self.masked:
            return s
        return _WORD.sub(self._fragment, s)

    def _fragment(self, m: re.Match[str]) -> str:
        low = m.group().lower()
        n = len(low)
        piece = any(low in v and (n >= FRAGMENT_CHARS or 2 * n >= len(v)) for v in self.masked)
        return MARK.format("credential") if piece else m.group()

    def result(self, result: RetrievalResult) -> RetrievalResult:
        """A copy of a result with credentials masked in every string it hands out but paths."""
        files = []
        for f in result.files:
            files.append(replace(f, regions=[replace(r, text=self.text(r.text) or "")
                                             for r in f.regions]))
        w = self.words
        files = [
            replace(f, reason=w(f.reason), missing=[w(m) for m in f.missing],
                    regions=[replace(r, why=w(r.why)) for r in f.regions])
            for f in files
        ]
        trace = []
        for t in result.trace:
            q = t.query
            query = replace(
                q, keywords=tuple(replace(c, text=w(c.text)) for c in q.keywords),
                focus_areas=tuple(w(a) for a in q.focus_areas),
                follow_up=tuple(w(a) for a in q.follow_up),
                from_branch=tuple(w(a) for a in q.from_branch),
                fallback=tuple(replace(c, text=w(c.text)) for c in q.fallback),
            )
            trace.append(replace(t, query=query, learned=[w(x) for x in t.learned],
                                 gaps=[w(g) for g in t.gaps]))
        return replace(result, task=w(result.task), files=files, trace=trace,
                       warnings=[w(x) for x in result.warnings])


def redact_result(result: RetrievalResult) -> RetrievalResult:
    """A result that comes from outside (a client sends one back to render) masked as a whole."""
    return Redactor().result(result)
