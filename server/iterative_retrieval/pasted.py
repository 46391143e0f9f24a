"""What a pasted task carries besides the reporter's words, taken out before it is read.

Most projects' issues are written into a template: GitHub's default bug report (`**Describe the
bug**`, "Steps to reproduce the behavior: 1. Go to '...'", "- OS: [e.g. iOS]"), issue forms
(`### Expected behavior` over `_No response_`), and each project's own sections (Bug summary,
Code for reproduction, Versions). Left in, the template's words outnumbered the reporter's:
on the development set's tasks pasted into two such templates, R@5 fell from .860 to .745,
and the template's first heading was read as the task's title. Removed here are

- headings (markdown `#`, a line in bold, a short line ending with a colon) made only of a
  template's words, whatever the project, and a pull request template's check-list section;
- the placeholders GitHub's templates ship with, left unfilled;
- environment lines (`- OS: Ubuntu 22.04`, `Python version: 3.11`, `**Sphinx version:** 7.1`)
  and an issue form's environment fields (`### Operating system` over `macOS 14.1`);
- a tracker's metadata (Jira's `Priority: Major`, `Affects Version/s: 2.3.1`) and the keys of
  its fields (`Summary:`, `Description:`, `Component/s:`, whose value stays);
- what a copy of the issue's web page brings (`jane opened this issue on Mar 3, 2024 · 5
  comments`, the side panel's `Assignees` / `No one assigned` / `3 participants`), and its
  decoration: emoji shortcodes (`:bug:`, which gitmoji titles commits with; `:white_check_mark:`
  read as an identifier) and pasted images (`![image](…)`, `<img alt="Screenshot" …>`);
- e-mail addresses (read as dotted names) and a mail reply's `On … wrote:` line;
- a commit's trailers and a converted history's marks, a pasted `git log`'s commit, author
  and date lines, commit ids and addresses (`8edbfe3…`, `0x7f3a9b2c`), a terminal's colours,
  Rust's panic boilerplate, pip's output, an interpreter's banner atop a pasted session
  (Python's, IPython's) and its look at a package's `__version__`, and HTML comments
  (`_NOISE_RES`, `_ANSI_RE`, `_GIT_LOG_RE`); below the title, what bots and the review page
  write into a squash merge (`_SQUASH_RES`).

A heading that says anything else (`### Session cookie not refreshed`) stays, and so does
every line of the reporter's own. query.py reads what is left.
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

TRACKER_KEYS = frozenset({
    "priority", "severity", "status", "resolution", "reporter", "assignee", "assignees",
    "labels", "label", "milestone", "sprint", "issue type", "votes", "watchers", "created",
    "updated", "resolved", "due date", "story points", "epic link", "affects version/s",
    "fix version/s", "affects versions", "fix versions",
})
"""An issue tracker's metadata fields (Jira's `Priority:`, `Affects Version/s:`): below the
first line (a commit's `status: …` is its component) and with a short value, the line goes."""

PAGE_WORDS = frozenset(
    """
    open closed merged draft assignees assigned labels projects milestone milestones development
    participants participant reviewers linked notifications subscribe unsubscribe none yet no
    one branches or pull requests edited comments comment reactions successfully merging may
    close these issues fields lock conversation
    """.split()
)
"""Words of the side panel a copy of an issue's web page brings along (`Assignees`, `No one
assigned`, `No branches or pull requests`, `3 participants`)."""

_WORD_RE = re.compile(r"[A-Za-z][A-Za-z']*")
# a copy of an issue's web page: who did what, when
_PAGE_EVENT_RE = re.compile(
    r"^[ \t]*@?[\w.-]+[ \t]+(?:opened this (?:issue|pull request)|commented|mentioned this "
    r"(?:issue|pull request)|(?:added|removed) (?:the )?[\w ./-]{0,40}labels?|closed this|"
    r"reopened this|self-assigned this|linked a pull request|changed the title|"
    r"referenced this issue)\b[^\n]*$",
    re.M,
)
_DATE_RE = re.compile(r"\b(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)[a-z]*\.?"
                      r"[ \t]+\d{1,2}(?:st|nd|rd|th)?,?[ \t]+\d{4}\b")
_LINE_RE = re.compile(r"^[^\n]*$", re.M)
# `Summary: …`, `**Expected behavior**: …`, `Component/s: auth`: the key, not what follows
_KEY_RE = re.compile(
    r"^([ \t]*(?:[-*+][ \t]+)?)(?:\*\*|__)?(?P<k>[A-Za-z][A-Za-z /']{0,30}?)(?:\*\*|__)?"
    r"[ \t]*:[ \t]*(?=\S)",
    re.M,
)
# Possessive, and a heading's text ends in a character that is no space or `#`: `# a`, 6,000
# spaces and `x` took 210 s when the text, the trailing marks and the line's end shared the run
_HEADING_RE = re.compile(
    r"^[ \t]*+(?:#{1,6}[ \t]++(?P<h>[^\n]*?[^ \t#\n])[ \t#]*+"  # ### Expected behavior
    r"|(?:\*\*|__)(?P<b>[^\n*_]+?)(?:\*\*|__)[ \t]*+:?"  # **To Reproduce**, **Versions**:
    r"|(?P<c>[A-Za-z][^\n:]{0,60}):)[ \t]*$",  # Steps to reproduce:
    re.M,
)
# A pull request template's check-list section (`## Checklist`, `**Checklist**`): its boxes go
# with the line rule below, but not what the boxes' items go on to say in their own sub-items
# (aiohttp's "name it `<issue_id>.<type>` … `.feature`", "add yourself to `CONTRIBUTORS.txt`"),
# whose words became a squash merge's keywords. The section is its list: items, their
# continuation lines and blank lines, up to a heading or a paragraph after a blank line.
_CHECKLIST_HEAD_RE = re.compile(
    r"^[ \t]*+(?:#{1,6}[ \t]++|\*\*|__)?[^\w\n]{0,8}+check-?list(?:\*\*|__)?:?[ \t]*+$",
    re.M | re.I)
_LIST_ITEM_RE = re.compile(r"[ \t]*+(?:[-*+]|\d{1,3}[.)])[ \t]")
_HEADING_START_RE = re.compile(r"[ \t]*+(?:#|\*\*|__)")


def _without_checklists(text: str) -> str:
    """The text with each check-list section's lines left empty (_CHECKLIST_HEAD_RE)."""
    if _CHECKLIST_HEAD_RE.search(text) is None:
        return text
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        if not _CHECKLIST_HEAD_RE.fullmatch(lines[i]):
            i += 1
            continue
        lines[i] = ""
        i += 1
        after_blank = False
        while i < len(lines):
            line = lines[i]
            if line.strip():
                if not (_LIST_ITEM_RE.match(line) or (
                        not after_blank and not _HEADING_START_RE.match(line))):
                    break
                after_blank = False
            else:
                after_blank = True
            lines[i] = ""
            i += 1
    return "\n".join(lines)


_ENV_RE = re.compile(  # possessive where spaces meet spaces (quadratic in a run of them)
    r"^[ \t]*+(?:[-*+][ \t]+)?(?:\*\*|__)?(?P<k>[A-Za-z][\w .()/-]{0,40}?)[ \t]*+(?:\*\*|__)?"
    r"[ \t]*+:[ \t]*+(?:\*\*|__)?[ \t]*+(?P<v>[^\n]{0,80})$",
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
    re.compile(r"^[ \t]*+(?:[-*+][ \t]+)?[\w .]{0,30}:?[ \t]*+\[e\.g\.[^\]\n]{0,200}\][ \t]*$",
               re.M | re.I),
    re.compile(r"\[e\.g\.[^\]\n]{0,200}\]", re.I),
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


_DECORATION = (
    # an emoji's shortcode (`:bug:`, `:white_check_mark:`; gitmoji titles commits with them)
    re.compile(r"(?<![\w:\[]):[a-z0-9_+-]{2,40}:(?![\w:\]])"),  # not `a[:n:]`, `[:alpha:]`
    # an e-mail address (a contact, a reply's header) read as dotted names: jane, doe, com
    # (from a token's start only, and bounded: tried inside a long dotted token it was
    # quadratic)
    re.compile(r"<?(?<![\w.+-])[\w.+-]{1,64}@[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63}){0,8}"
               r"\.[A-Za-z]{2,24}\b>?"),
    re.compile(r"^[ \t>]*On [^\n]{5,120} wrote:[ \t]*$", re.M),  # a mail reply's header
    # a pasted image or screenshot (`![image](https://…)`, `<img alt="Screenshot" src=…>`),
    # not an image in a snippet of the reporter's markup (`<img src={logo}>`)
    re.compile(r"!\[[^\]\n]{0,200}\]\(https?://[^)\s]{1,500}\)"),
    re.compile(r"<img\b[^>]{0,1000}?\bsrc=[\"']https?://[^>]{0,1000}>", re.I),
)


# Issue-template and environment noise: it names packages and versions, not the code to change.
_NOISE_RES = (
    re.compile(r"<!--.*?-->", re.S),
    # pip and conda list rows (a local version's `+g95b8e1a.dirty`, a location, a build and a
    # channel); not a sentence that starts like one (`Python 3.x complains about …`). Possessive
    # and bounded: the version's parts could be split between its groups in as many ways as it
    # has dots, and `1.1.1…` over a 40 kB line took 20 s
    re.compile(r"^[ \t]*[\w.\-\[\]]++[ \t]++v?\d++(?:\.\d++){1,8}+(?:[a-z]++\d*+)?+"
               r"(?:[+!\-.]\w++){0,8}+(?:[ \t]++\S++){0,3}+[ \t]*+$", re.M),
    re.compile(r"^.*\b(?:Installing collected packages|Successfully installed|Requirement already"
               r" satisfied|Collecting |Downloading |Using cached)\b.*$", re.M),
    re.compile(r"^.*\bplatform \w+ -- Python .*$", re.M),
    re.compile(r"^hypothesis profile '[^'\n]*' -> .*$", re.M),  # a plugin's line in pytest's header
    # an interpreter's banner atop a pasted session (Python's, IPython's), and a session's
    # look at a package's version (`In [7]: sympy.__version__`)
    re.compile(r"^[ \t]*Python \d+\.\d+\.\d+\S*+[ \t]++(?:\|[^|\n]*+\|[ \t]*+)?\([^)\n]*+\)[ \t]*$",
               re.M),
    re.compile(r"^[ \t]*\[(?:GCC|Clang|MSC|PyPy)[^\]\n]*+\] on \w+[ \t]*$", re.M),
    re.compile(r"^[ \t]*Type (?:[\"']help[\"'], )?[\"']copyright[\"'], [\"']credits[\"'] or "
               r"[\"']license[\"'] for more information\.?[ \t]*$", re.M),
    re.compile(r"^[ \t]*IPython \d+\.\d+\.\d+\S* -- An enhanced Interactive Python\..*$", re.M),
    re.compile(r"^[ \t]*(?:\?|%quickref|help|object\?)[ \t]+-> (?:Introduction and overview of "
               r"IPython's features|Quick reference|Python's own help system|Details about).*$",
               re.M),
    re.compile(r"^[ \t]*(?:>>>|In \[\d+\]:)[ \t]*(?:import [\w.]+[ \t]*;[ \t]*)?"
               r"[\w.]+\.__version__[ \t]*$", re.M),
    re.compile(r"^[ \t]*[-*][ \t]*\[[ xX]\].*$", re.M),  # template check-lists
    re.compile(r"^[-=_]{3,}(?! ?(?:FAIL|PASS|SKIP|BENCH)\b).*$", re.M),  # not Go's `--- FAIL:`
    # Rust's panic message around its location, and its standard note
    re.compile(r"thread '[^'\n]{0,100}' panicked at "),
    re.compile(r"^note: run with `RUST_BACKTRACE=[^\n]*$", re.M),
    # a commit's trailers name people and review systems (`Signed-off-by: A <a@b.org>`); a
    # history converted from Mercurial or Subversion carries its own (`--HG--` and its
    # `branch : trunk` lines, `git-svn-id:`, `[svn]`); CI tags (`[skip ci]`) are no task words
    re.compile(r"^[ \t]*(?:Signed-off-by|Co-authored-by|Reviewed-by|Acked-by|Tested-by|"
               r"Reported-by|Suggested-by|Helped-by|Approved-by|Cc|Change-Id|Reviewed-on|"
               r"git-svn-id)[ \t]*:.*$", re.M | re.I),
    re.compile(r"^--HG--[ \t]*$(?:\n[ \t]*[\w-]+ : .*$)*", re.M),
    # a commit id, object id or address (`8edbfe3…`, `0x7f3a9b2c`), whose letter runs
    # (`edbfe`) are no words. Only at a token's start: linear over a hex dump
    re.compile(r"(?<![\w./#-])(?:0x)?(?=[0-9a-f]*[a-f])(?=[0-9a-f]*\d)[0-9a-f]{7,64}"
               r"(?![\w/-]|\.\w)"),
    re.compile(r"\[(?:svn|skip ci|ci skip|no ci|skip actions|actions skip)\]", re.I),
)

# A squash merge's list of the pull request's commits holds what bots and the review page
# wrote: pre-commit.ci's fix-ups (and its link), GitHub's "Apply suggestions from code review",
# merges of the base branch. Their words (`pre`, `commit`, `hooks`) named the linter's config
# file first. Only below the title: "Apply suggestions from code review" as the whole task, on
# a branch, asks for the work at hand (the git signals), and a task about pre-commit says so.
_SQUASH_RES = (
    re.compile(r"^[ \t]*(?:[-*][ \t]*)?\[pre-commit\.ci\][ \t]*auto fixes from pre-commit\.com "
               r"hooks[ \t]*$", re.M | re.I),
    re.compile(r"^[ \t]*for more information, see https://pre-commit\.ci/?[ \t]*$", re.M | re.I),
    re.compile(r"^[ \t]*(?:[-*][ \t]*)?Apply suggestions? from code review[ \t]*$", re.M | re.I),
    re.compile(r"^[ \t]*(?:[-*][ \t]*)?Merge (?:remote-tracking )?branch '[^'\n]{1,200}'"
               r"(?: of [^\s]{1,200})?(?: into [^\s]{1,200})?[ \t]*$", re.M),
)

# a pasted `git log` (what a squash merge's message holds): its commit, author and date lines,
# each as git writes it, so that "commit 1a2b3c4 broke the parser" keeps its words; read before
# the e-mail addresses go
_GIT_LOG_RE = re.compile(
    r"^[ \t]*(?:commit [0-9a-f]{7,40}(?:[ \t]+\([^)\n]*\))?|(?:Author|Commit):[ \t][^\n<]*"
    r"<[^>\n]*>|(?:Author|Commit)?Date:[ \t]+(?:(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) |\d{4}-\d\d-\d\d)"
    r"[^\n]*|Merge:(?:[ \t]+[0-9a-f]{7,40}){2,}|Squashed commit of the following:)[ \t]*$",
    re.M)

# a terminal's colours in a pasted log or CI output (`\x1b[1;31m`), and the same codes whose
# escape character the copy lost (`[31m`): left in, they glued to paths (`31msrc/app.py`)
_ANSI_RE = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b[()][0-9A-Za-z]|\x1b[=>78]"
                      r"|\[\d{1,3}(?:;\d{1,3})*m(?!\])|\[m(?![\]A-Za-z])")  # not `[man]`, `[main]`


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
    if m.start() > 0 and " ".join(m.group("k").lower().split()) in TRACKER_KEYS and \
            len(_WORD_RE.findall(value)) <= 3:
        return ""
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


def _page_line(m: re.Match[str]) -> str:
    words = [w.lower() for w in _WORD_RE.findall(m.group())]
    if words and len(words) <= 6 and all(w in PAGE_WORDS for w in words):
        return ""
    return m.group()


SECTION_KEYS = frozenset(
    """
    summary description problem steps expected actual environment context details notes
    motivation reproduction outcome behavior behaviour result results output workaround
    solution proposal question component components
    """.split()
)
"""One-word keys of a report's fields (`Summary:`); a commit's `fix:` or `docs:` is a header."""


def _key(m: re.Match[str]) -> str:
    k = m.group("k").lower().strip()
    words = _WORD_RE.findall(k)
    if k == "component/s" or (len(words) > 1 and _template_only(k)) or k in SECTION_KEYS:
        return m.group(1)
    return m.group()


def strip_pasted(text: str) -> str:
    """The text without its template's headings, placeholders and environment lines, what a
    copy of its web page or tracker brings along, and the noise above (the same number of
    lines: a line taken out is left empty or blank). Windows line ends are read as `\n`: the
    rules end at a line's end, and a `\r` before it hid a pasted `pip list`."""
    text = _GIT_LOG_RE.sub("", _ANSI_RE.sub("", text.replace("\r\n", "\n")))
    for rx in (*_PLACEHOLDERS, *_DECORATION):
        text = rx.sub("", text)
    text = _PAGE_EVENT_RE.sub("", _DATE_RE.sub("", text))
    text = _ENV_FIELD_RE.sub(_env_field, text)
    text = _ENV_RE.sub(_env_line, text)
    text = _without_checklists(text)
    text = _HEADING_RE.sub(_heading, text)
    text = _KEY_RE.sub(_key, text)
    text = _LINE_RE.sub(_page_line, text)
    for rx in _NOISE_RES:
        text = rx.sub(" ", text)
    end = text.find("\n", len(text) - len(text.lstrip()))  # the title's end
    head, body = (text, "") if end < 0 else (text[:end], text[end:])
    for rx in _SQUASH_RES:
        body = rx.sub(" ", body)
    return head + body
