"""An issue template's boilerplate, taken out of a pasted issue before it is read.

Most projects' issues are written into a template: GitHub's default bug report (`**Describe the
bug**`, "Steps to reproduce the behavior: 1. Go to '...'", "- OS: [e.g. iOS]"), issue forms
(`### Expected behavior` over `_No response_`), and each project's own sections (Bug summary,
Code for reproduction, Versions). Left in, the template's words outnumbered the reporter's:
on the development set's tasks pasted into two such templates, R@5 fell from .860 to .745,
and the template's first heading was read as the task's title. Removed here are

- headings (markdown `#`, a line in bold, a short line ending with a colon) made only of a
  template's words, whatever the project;
- the placeholders GitHub's templates ship with, left unfilled;
- environment lines (`- OS: Ubuntu 22.04`, `Python version: 3.11`, `**Sphinx version:** 7.1`)
  and an issue form's environment fields (`### Operating system` over `macOS 14.1`).

A heading that says anything else (`### Session cookie not refreshed`) stays, and so does
every line of the reporter's own.
"""

from __future__ import annotations

import re

TEMPLATE_WORDS = frozenset(
    """
    a an and any are as be by can did do does for from have how i if in is it my of on or our
    the this to was we what when where which why with would you your
    describe described description summary bug bugs problem problems issue issues report
    steps step reproduce reproducing reproduction reproducible repro minimal example examples
    mcve mre code snippet sample expected expect expectation expectations actual actually
    behavior behaviour behaviors results result outcome outcomes output outputs happened happen
    happens instead current currently screenshots screenshot desktop smartphone device please
    complete completed following information info additional extra context details detail
    environment environments versions version os operating system systems platform python
    package packages installation installed install dependencies dependency project tools tool
    checklist proposed proposal solution solutions alternatives alternative considered feature
    request related motivation notes note other logs log traceback error errors message messages
    stack trace configuration config command commands used relevant backend jupyter kernel
    browser browsers node npm yarn runtime architecture arch hardware software setup system's
    prerequisites confirm confirmation search searched existing duplicate duplicates
    possible possibly fix fixes workaround workarounds suggestion suggestions idea ideas
    question questions comments comment anything else question title task tasks
    """.split()
)
"""Words a template's headings are made of: a heading of only these is the template's."""

ENV_KEYS = frozenset(
    """
    os operating system platform python version versions browser device backend kernel distro
    distribution architecture arch installation installed node npm yarn pnpm runtime environment
    hardware cpu gpu ram memory java jdk go rust rustc cargo compiler interpreter shell terminal
    ide editor package packages library dependencies extensions plugins addons extra tools
    """.split()
)
"""Words an environment line's key is made of (`Operating system`, `Node version`); a key that
ends in "version" (`Sphinx version`, `pytest version`) is one too."""

_WORD_RE = re.compile(r"[A-Za-z][A-Za-z']*")
_HEADING_RE = re.compile(
    r"^[ \t]*(?:#{1,6}[ \t]+(?P<h>[^\n]+?)[ \t#]*"  # ### Expected behavior
    r"|(?:\*\*|__)(?P<b>[^\n*_]+?)(?:\*\*|__)[ \t]*:?"  # **To Reproduce**, **Versions**:
    r"|(?P<c>[A-Za-z][^\n:]{0,60}):)[ \t]*$",  # Steps to reproduce:
    re.M,
)
_ENV_RE = re.compile(
    r"^[ \t]*(?:[-*+][ \t]+)?(?:\*\*|__)?(?P<k>[A-Za-z][\w .()/-]{0,40}?)[ \t]*(?:\*\*|__)?"
    r"[ \t]*:[ \t]*(?:\*\*|__)?[ \t]*(?P<v>[^\n]{0,80})$",
    re.M,
)
# an issue form's environment field: `### Operating system`, then its answer (`macOS 14.1`)
_ENV_FIELD_RE = re.compile(
    r"^[ \t]*#{1,6}[ \t]+(?P<k>[A-Za-z][\w .()/-]{0,40}?)[ \t#]*\n(?P<a>(?:[ \t]*\n)*"
    r"(?:[ \t]*[^\s#][^\n]*(?:\n|$)){1,3})",
    re.M,
)
_PLACEHOLDERS = (
    re.compile(r"^[ \t]*_No response_[ \t]*$", re.M),  # an issue form's empty answer
    # `- OS: [e.g. iOS]`, ` - Browser [e.g. chrome, safari]`: the line, then what is left
    re.compile(r"^[ \t]*(?:[-*+][ \t]+)?[\w .]{0,30}:?[ \t]*\[e\.g\.[^\]\n]*\][ \t]*$",
               re.M | re.I),
    re.compile(r"\[e\.g\.[^\]\n]*\]", re.I),
    re.compile(r"A clear and concise description of what[^\n]*", re.I),
    re.compile(r"Steps to reproduce the behaviou?r:?", re.I),
    re.compile(r"^[ \t]*\d+\.[ \t]*(?:Go to|Click on|Scroll down to)[ \t]*['\"‘“]?\.{2,}['\"’”]?"
               r"[ \t]*$", re.M | re.I),
    re.compile(r"^[ \t]*\d+\.[ \t]*See error[ \t]*$", re.M | re.I),
    re.compile(r"If applicable, add screenshots to help explain your problem\.?", re.I),
    re.compile(r"Add any other context (?:or screenshots )?about the (?:problem|feature request)"
               r" here\.?", re.I),
    re.compile(r"\((?:please )?complete the following information\)", re.I),
    re.compile(r"Is your feature request related to a problem\? Please describe\.?", re.I),
    re.compile(r"Ex\. I'm always frustrated when \[\.\.\.\]", re.I),
)


def _template_only(s: str) -> bool:
    words = [w.lower().strip("'") for w in _WORD_RE.findall(s)]
    return bool(words) and all(w in TEMPLATE_WORDS for w in words)


def _heading(m: re.Match[str]) -> str:
    body = m.group("h") or m.group("b") or m.group("c") or ""
    if m.group("c") is not None and len(_WORD_RE.findall(body)) > 6:
        return m.group()  # a sentence that ends with a colon
    return "" if _template_only(body) else m.group()


def _env_line(m: re.Match[str]) -> str:
    key = [w.lower() for w in _WORD_RE.findall(m.group("k"))]
    value = m.group("v")
    if not _env_key(key) or len(_WORD_RE.findall(value)) > 6:
        return m.group()
    if key[-1] == "version" or re.search(r"\d", value) or len(_WORD_RE.findall(value)) <= 3:
        return ""
    return m.group()


def _env_key(words: list[str]) -> bool:
    return bool(words) and len(words) <= 4 and (
        words[-1] == "version" or all(w in ENV_KEYS for w in words))


def _env_field(m: re.Match[str]) -> str:
    key = [w.lower() for w in _WORD_RE.findall(m.group("k"))]
    answer = m.group("a")
    if not _env_key(key) or any(len(_WORD_RE.findall(ln)) > 8 for ln in answer.splitlines()):
        return m.group()
    return "\n" * m.group().count("\n")


def strip_template(text: str) -> str:
    """The text without its template's headings, placeholders and environment lines (the
    same number of lines: a line taken out is left empty)."""
    for rx in _PLACEHOLDERS:
        text = rx.sub("", text)
    text = _ENV_FIELD_RE.sub(_env_field, text)
    text = _ENV_RE.sub(_env_line, text)
    return _HEADING_RE.sub(_heading, text)
