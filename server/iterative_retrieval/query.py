"""Read a task the way an engineer reads an issue: strongest evidence first.

File paths and stack-trace frames outweigh identifiers in backticks or code blocks, which outweigh
quoted messages, which outweigh plain words. A long pasted issue must not drown its few strong
signals in hundreds of weak words, so each kind is capped and repeated mentions add weight.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from dataclasses import replace

from .config import MAX_TASK_CHARS, ablated
from .index.classify import classify, is_test_folder
from .models import Concept, Frame, Query
from .options import task_options
from .pasted import strip_pasted
from .scope import as_folder
from .search import installed_tail
from .tokenize import CODE_STOP, identifier_terms, split_identifier, stem

W_PATH, W_FRAME, W_IDENT, W_CODE, W_QUOTED, W_WORD = 3.0, 3.0, 2.0, 1.3, 1.5, 1.0
W_SCOPE = 2.0
"""A conventional-commit scope (`fix(http): …`) names the part of the code the change is in."""
W_PHRASE, MAX_PHRASES = 1.0, 12
"""Two or three words in a row, searched as one name: as much as a word, where a file says it
(a phrase is evidence for the files that name it, never a shortfall of those that do not:
evaluate.py leaves it out of the task's mass)."""
PHRASE_SCAN = 4000
"""The task's first this many characters are read for phrases (each costs an index lookup) and
for the command-line options it names (options.py)."""
_PHRASE_RUN_RE = re.compile(r"(?<![A-Za-z])[A-Za-z]++(?: ++[A-Za-z]++)+")
"""Only from a word's start: from inside a long word it scanned the rest again (quadratic)."""
_COMPOUND_RE = re.compile(r"(?<![A-Za-z0-9_])[A-Za-z]++(?:-[A-Za-z]++)++")
"""A hyphenated word (`f-strings`, `time-out`, `--dry-run`): prose writes with a hyphen what
code writes as one word or one name (`fstring`, `timeout`, `dry_run`)."""
MAX_COMPOUND_PARTS = 3
"""A longer chain (`long-winded-run-on`) is a phrase of prose, not a name."""
MAX_IDENTS, MAX_WORDS, MAX_PATHS = 30, 24, 12
W_GENERIC, MAX_GENERIC = 0.6, 6
"""The task's generic words (verbs, issue vocabulary), searched only when nothing else matched."""

ENGLISH_STOP = frozenset(
    """
    a about above after again against all also am an and any are aren't as at be because been
    before being below between both but by can cannot could did didn't do does doesn't doing don't
    down during each few for from further had has have having he her here hers him his how i i'm
    if in into is isn't it it's its itself just let's me might more most must my myself no nor not
    now of off on once only or other ought our ours out over own same she should so some such than
    that that's the their theirs them then there these they this those through to too under until
    up very was wasn't we were what when where which while who whom why will with won't would you
    your yours yourself e.g i.e etc via per vs may need needs want wants like seem seems seemed
    still yet already always never sometimes instead rather however though although actually
    currently even well really please thanks thank hi hello maybe since
    """.split()
)
# The vocabulary of issues and tasks: words that say little about which code is meant, unless the
# task says nothing else (`fix the add op for vgo`): then they are its last clue.
TASK_NOISE = frozenset(
    """
    get gets got getting make makes made use uses used using way ways thing things something
    anything everything lot lots new one two three first second issue issues problem problems bug
    bugs fix fixes fixed fixing add adds added adding implement implements implemented
    implementing support supports supported work works working worked broken break breaks
    expected expect behavior behaviour correct correctly incorrect wrong right output result
    results example examples case cases code line lines file files call calls called return
    returns returned value values run running runs see try tried trying able unable following
    follows shown show shows print error errors true false none null python version time times
    possible test tests traceback recent last feat chore wip
    """.split()
)
STOP_WORDS = ENGLISH_STOP | TASK_NOISE
# Verbs that describe the change rather than the code: dropped from the keywords.
TASK_VERBS = frozenset(
    "fix add implement create update change remove refactor improve make write allow enable "
    "disable handle resolve investigate debug rename move clean cleanup ensure prevent".split()
)

_OPERATION_VERBS = TASK_VERBS - frozenset(
    "fix change improve refactor implement make investigate ensure prevent".split())
"""Task verbs that, as nouns, name an operation of the code ("the rename", "in debug mode"),
not the work itself ("a fix", "a change is needed")."""
_NAMING_WORDS = frozenset(
    "when if the an that whose of with after before during while on in by via from for its "
    "whenever unless".split())
"""Words after which a task verb is a noun, the name of an operation ("when rename creates";
"a" too, which _WORD_RE does not read)."""


_SENTENCE_GAP_RE = re.compile(r"[\n.!?:;]")
_COMMAND_AFTER_RE = re.compile(r"[ \t]+(?:sub)?commands?\b", re.I)
"""After a task verb that is not the sentence's first word, the noun that makes the verb a
command's name ("Fix add command picking up prereleases": poetry's `add` command)."""


def _naming(gap: str, prev: str) -> bool:
    """Whether a task verb after `prev` (and `gap`, the text between) is a noun: "when rename
    creates", "a rename option"."""
    gap = gap.strip()
    return gap.lower() == "a" or not gap and prev in _NAMING_WORDS


_FENCE_RE = re.compile(r"```[^\n]*\n(.*?)(?:```|$)", re.S)
_INLINE_RE = re.compile(r"`([^`\n]{1,200})`")
_PY_FRAME_RE = re.compile(r'File "([^"]+)", line (\d+)(?:, in ([\w<>.]+))?')
# The function part is bounded: unbounded, it scanned the rest of the line from every "at ", and
# a 200 kB one-line paste of prose took 53 s to parse (about 1 s now).
_JS_FRAME_RE = re.compile(r"at (?:([\w$.<>\[\] ]{1,200}?) \()?"
                          r"((?:[A-Za-z]:)?[\w./\\@-]+\.\w+):(\d+)(?::\d+)?\)?")
# A browser's or bundler's frame names its file by URL (`webpack-internal:///./src/a.tsx:42`,
# `http://localhost:5173/src/a.ts?t=17…:12`): read as the path, without scheme, host and query.
_URL_LOCATION_RE = re.compile(
    r"[a-z][\w+.-]{0,30}://[^/\s()'\"]{0,100}/(?:\./)?([\w.@/-]{1,300}?\.\w{1,5})"
    r"(?:\?[^\s:()'\"]{0,200})?(?=:\d)")
# .NET: `at Shop.Billing.InvoiceService.ComputeTotal() in C:\src\Shop\InvoiceService.cs:line 42`;
# a generic method or type says its parameters: `Execute[TResult](…)`, `Policy`1.Execute(…)`
_DOTNET_FRAME_RE = re.compile(
    r"\bat ((?:[\w.`<>]|\[[^\]\n]{0,100}\]){1,200})\([^()\n]{0,200}\) in "
    r"((?:[A-Za-z]:)?[\\/][^\n:]{1,300}?\.\w{1,5}):line (\d+)")
_DOTNET_GENERIC_RE = re.compile(r"\[[^\]]*\]|`\d+")
_NATIVE_FN_RE = re.compile(
    r"(?:\bin|0x[0-9A-Fa-f]+:|^[ \t]*#\d+)[ \t]+([A-Za-z_~][\w:~]*)(?:[ \t]*\([^()\n]*\))?"
    r"[ \t]*(?:at[ \t]*|\()?$", re.M)
"""A native frame's function, before its file: gdb's `#0  0x7f in jv_parse (s=0x0) at src/jv.c:87`
(or `#0  jv_parse (…) at …`), a sanitizer's `#1 0x4a in fmt::v10::write include/fmt/format.h:17:5`,
valgrind's `at 0x4C2: jv_free (jv.c:1410)`."""
NATIVE_FN_SPAN = 400
"""How far before a native frame's file its function is looked for (its arguments included)."""
_GO_FN_RE = re.compile(r"^[ \t]*(?:created by )?[\w./-]*?\.(?:\(\*?\w+\)\.)?(\w+)\([^()\n]*\)"
                       r"(?: in goroutine \d+)?[ \t]*$", re.M)
"""A Go panic's function, on the line above its file: `echo/v4.(*Echo).ServeHTTP(0xc0, …)`."""
_DART_PACKAGE_RE = re.compile(r"\bpackage:[A-Za-z_][\w.]*/(?=[\w.@/-]+\.dart:\d)")
"""Dart's `package:shelf_router/src/router.dart:152:7` is the package's lib/src/router.dart."""
# IPython and Jupyter: `~/env/site-packages/pkg/mod.py in func(self, x)`, its line on the
# `--> 220` arrow below
_IPY_FRAME_RE = re.compile(r"^[ \t]*(\S+\.pyx?) in ([\w.<>]+)\(", re.M)
_IPY_ARROW_RE = re.compile(r"^-*>[ \t]*(\d+)", re.M)
_FRAME_IN_RE = re.compile(r"(?::\d+)?:[ \t]*in[ \t]+[`'‘\"]?(?:block in )?([A-Za-z_][\w.]*[?!]?)")
_PATH_LINE_RE = re.compile(r"(?<![\w/.:@-])(/?(?:[\w.@-]+/)*[\w@-][\w.@-]*\.[A-Za-z]{1,5}):(\d+)")
# File extensions that make a bare name (`tokens.py`, `Cart.vue`) a path, and a `name.ext:12` a
# frame
_CODE_EXTS = ("py|pyi|js|jsx|mjs|cjs|ts|tsx|mts|cts|vue|svelte|go|rs|java|kt|kts|scala|groovy|cs|"
              "fs|rb|php|c|h|cc|cpp|cxx|hh|hpp|hxx|m|mm|swift|dart|lua|ex|exs|erl|hs|clj|cljs|ml|"
              "pl|pm|r|jl|zig|sh")
_PROSE_EXTS = {"m", "r", "pl", "pm", "fs", "ml"}
"""A bare `x.m` or `x.pl` in prose is more often something else: a path only with its line."""
_NAME_EXTS = "|".join([e for e in _CODE_EXTS.split("|") if e not in _PROSE_EXTS] + [
    "sql", "proto", "gradle", "html", "css", "scss", "md", "rst", "toml", "yaml", "yml", "json",
    "cfg", "ini"])
# a path is no call (`response.json()`), but PHP's frames write `src/Invoice.php(17)`; a bare
# name may have dots inside (`reply.d.ts`, `index.test.js`, `vite.config.ts`)
_PATH_RE = re.compile(r"(?<![\w/.:@-])((?:\.{0,2}/)?(?:[\w.@][\w.@-]*/)+[\w@.-]+"
                      r"|[\w-]+(?:\.[\w-]+)*\.(?:" + _NAME_EXTS + r"))(?![\w/])(?!\((?!\d+\)))")
# C:\Users\me\proj\src\a.py and src\billing\tax.py, read as the paths they are
# (from a token's start only: tried after every `.` of a long dotted token, it was quadratic)
_WIN_PATH_RE = re.compile(r"(?<![\w\\/.@-])(?:[A-Za-z]:\\)?(?:[\w.@-]+\\)+[\w.@-]+"
                          r"\.[A-Za-z]\w{0,4}\b")
# a permalink to a file, `https://github.com/o/r/blob/main/src/a.py#L42-L50` (GitLab `/-/blob/`,
# Bitbucket `/src/`): the path after the ref, and its first line
_BLOB_URL_RE = re.compile(
    r"\bhttps?://[\w.-]+/[\w.-]+/[\w.-]+/(?:-/)?(?:blob|src)/[\w.-]+/([\w./@-]+\.\w{1,5})"
    r"(?:#L?(\d+)(?:-L?\d+)?)?")
# JVM: `at com.acme.billing.Invoice$Line.total(Invoice.java:42)`, the package its folders;
# a `java.base/` module prefix is dropped, the platform's own frames (`java.lang.Thread`) too
_JVM_FRAME_RE = re.compile(r"\bat (?:[\w.-]+/)?((?:[a-z_][\w]*\.)*)([\w$]+)\.([\w$<>]+)"
                           r"\(([\w$-]+\.(?:java|kt|kts|scala|groovy)):(\d+)\)")
_JVM_PLATFORM = ("java.", "javax.", "jdk.", "sun.", "com.sun.", "kotlin.", "scala.")
_WORD_PAIR_RE = re.compile(r"[A-Za-z]{2,}/[A-Za-z]{2,}")
_TEX_QUOTE_RE = re.compile(r"``([^`'\n]{1,200})''")
_INSTANCE_METHOD_RE = re.compile(r"(?<![\w#/.])((?:[A-Z]\w*::)*[A-Z]\w*)#([a-z_]\w*)")
"""`Site#process`, `Jekyll::Site#process`: Ruby's (and many API docs') name for an instance
method, the type's member as `Site.process` says it."""
_PROTOTYPE_RE = re.compile(r"(?<=\w)\.prototype\.(?=[A-Za-z_$])")
"""`Foo.prototype.bar`: JavaScript's method `bar` of `Foo`, no name `prototype` of the code's."""
_PREDICATE_ARITY_RE = re.compile(r"(?<![\w/.?!])((?:[A-Za-z_]\w*\.)*[a-z_]\w*)[?!]/\d\b")
"""`valid?/1`, `Plug.Conn.halted?/1`: Elixir's predicate (or bang function) with its arity, the
call `valid()` (the path pattern stops at the `?`, and the name was a plain word)."""
_PROTOCOLS = frozenset("http https tls ssl spdy quic tcp udp".split())
"""`http/2`: a protocol's version, not a function's arity."""
_QUOTED_RE = re.compile(r"(?<![\w])[\"“']([^\"”'\n]{6,160})[\"”'](?![\w])")
_IDENT_RE = re.compile(r"\b[A-Za-z_][A-Za-z0-9_]*(?:(?:\.|::)[A-Za-z_][A-Za-z0-9_]*)*\b(\()?")
"""A name, dotted or qualified as C++, Rust, Ruby and PHP qualify it (`fmt::printf`,
`Foo::bar()`), with the call's parenthesis if any (`_qualified` reads the `::`)."""
# `type(scope)!: subject`, the Conventional Commits header that many projects title commits,
# pull requests and changelog lines with; the type says what kind of change, the scope where.
_TYPES = frozenset(
    "feat feature fix bugfix hotfix refactor perf chore doc docs test tests build ci style revert "
    "type types deps security compat dx wip improvement".split())
"""The kinds of change a header or a tag names (`fix(http): …`, `[feat] …`)."""
_HEADER_RE = re.compile(
    r"^[ \t]*(" + "|".join(sorted(_TYPES, key=len, reverse=True)) +
    r")(?:\(([^()\n]{1,80})\))?!?:[ \t]+",
)  # lower-case, as the convention writes it: "Test: …" opening an issue is not a header
# `ignore: fix handling of **`, `net/http: …`, `zsh-completion: …`: the component prefix that
# Linux, Go, git and many others title commits with. Tags (BUG:, ENH:) and issue-template
# labels (Description:) are not components.
_COMPONENT_RE = re.compile(r"^[ \t]*([A-Za-z][\w./-]{1,40}):[ \t]+(?=\S)")
_NOT_COMPONENTS = frozenset(
    """
    bug bugfix fix fixes fixed feat feature enh enhancement doc docs maint tst bld api dep rev sty
    wip note notes update minor misc cleanup release version merge revert hotfix security
    breaking perf test tests chore refactor style build ci description summary problem issue
    question title context environment steps expected actual error traceback exception
    edit proposal request motivation example examples output input result results usage re fwd
    todo important hint tip warning caution info debug reason cause solution workaround
    """.split()
)
# `NoMethodError: …`, `System.NullReferenceException: …`, `panic: …` open an error report: what
# was raised, not the component a fix is in
_RAISED_RE = re.compile(r"(Error|Exception|Warning|Exit|Interrupt|Fault)$|^(panic|fatal|thread)$")
_CAPITALIZED_RE = re.compile(r"(?<=[a-z0-9,;)] )[A-Z][a-z]{2,}+(?!\w|[.:/-]++\w)")
"""A capitalized word after a lower-case one, a digit or a comma: inside a sentence, where
English capitalizes names (`to Component in`), not a sentence's first word; a whole word, not
the head of `Foo.bar`, `Foo::Bar` or `Foo/bar`. Possessive: a long word ending in a digit cost
quadratic time (20 s for 20,000 letters)."""
_WORD_RE = re.compile(r"[A-Za-z][a-z]+(?:'[a-z]+)?|[a-z]{2,}|\b[A-Z]{2,6}s?\b")
_TEST_TASK_RE = re.compile(
    r"\b(add|write|update|fix|improve|missing|extend|flaky|more|new)\s+(unit\s+|integration\s+|e2e\s+|regression\s+)?tests?\b"
    r"|\btest (coverage|suite|case)s?\b|\bconftest\b",
    re.I,
)
_TYPES_TASK_RE = re.compile(
    r"\b(types?|typings?|typed|typescript|tsd|d\.ts|interfaces?|generics?|overloads?"
    r"|stubs?|pyi)\b", re.I)
"""A task about types may change a declaration file; one about behaviour changes the code
(`tsconfig.json` is the compiler's configuration, not a declaration)."""
_DOC_TASK_RE = re.compile(r"\b(docs?|documentation|readme|docstrings?|changelog|typo)\b", re.I)
_CODE_EXT = re.compile(r"\.(" + _CODE_EXTS + r")$")
# Other tools' ways of writing a file's line, read as `path:line`: compilers and PHP's stack
# (`src/cart.ts(12,5): error TS2322`, `Program.cs(12,5)`, `#0 src/Cart.php(17): …`; a bare
# name's one-letter extension, `obj.m(2)`, is a call), PHP's `in Cart.php on line 12`,
# Swift's `file Shop/Cart.swift, line 42`
_LOCATION_RES = (
    re.compile(r"(?<![\w/.\\@-])((?:[A-Za-z]:)?[/\\]?(?:[\w.@-]+[/\\])+[\w@-][\w.@-]*\.(?:"
               + _CODE_EXTS + r")|[\w@-][\w.@-]*\.(?:"
               + "|".join(e for e in _CODE_EXTS.split("|") if len(e) > 1)
               + r"))\((\d+)(?:,\s*\d+)?\)"),
    # from a token's start only, lazily: tried at every character, a long dotted token was
    # scanned again from each (a 120 kB one took 110 s)
    re.compile(r"(?<![\w./\\@-])((?:[A-Za-z]:)?[\w./\\@-]+?\.\w{1,5}) on line (\d+)"),
    re.compile(r"\bfile ((?:[\w.@-]+/)*[\w.@-]+\.\w{1,5}), line (\d+)"),
)


def looks_like_identifier(tok: str) -> bool:
    """Code-shaped: snake_case, camelCase, PascalCase with an inner capital, dotted, or
    CONST_CASE."""
    base = tok.rstrip("()")
    if "." in base:
        return all(p for p in base.split("."))
    if "_" in base.strip("_"):
        return True
    if base[-1:] == "s" and base[:-1].isupper() and len(base) > 2:
        return False  # an acronym's plural (APIs, URLs, IDs) is a word
    if re.search(r"[a-z][A-Z]", base) or re.search(r"[A-Z]{2,}[a-z]", base):
        return True
    return tok.endswith("()")


# C901: the task's kinds of evidence, read in order (header, frames, paths, code, quotes,
# words); each branch adds one kind.
def parse_task(task: str, include_tests: bool | None = None) -> Query:  # noqa: C901
    """Build the first cycle's query from the task text."""
    text = _WIN_PATH_RE.sub(_posix_path, _strip_noise(task[:MAX_TASK_CHARS]))
    text = _BLOB_URL_RE.sub(_blob_path, text)
    if "://" in text:
        text = _URL_LOCATION_RE.sub(r"\1", text)
    text = _JVM_FRAME_RE.sub(_jvm_frame, text)
    for location_re in _LOCATION_RES:
        text = location_re.sub(r"\1:\2", text)
    kind, scopes, text = conventional_header(text)
    frames = _frames(text)
    code_blocks = [_strip_locations(b) for b in _FENCE_RE.findall(text)]
    prose = _strip_locations(_FENCE_RE.sub(" ", text))
    inline = _INLINE_RE.findall(prose)

    concepts: dict[str, Concept] = {}

    def add(c: Concept) -> None:
        key = (c.kind + ":" + c.text.lower() if c.kind in ("path", "frame", "scope")
               else c.text.lower())
        prev = concepts.get(key)
        if prev is None or prev.weight < c.weight:
            concepts[key] = c if prev is None else Concept(
                c.text, c.kind, max(c.weight, prev.weight) + 0.25, c.terms)
        else:
            concepts[key] = Concept(prev.text, prev.kind, prev.weight + 0.25, prev.terms)

    # 1. frames and paths; an installed package's frame (site-packages/pkg/x.py) may be this
    # very project, so it counts too, at half weight: its suffix matches only if it is
    # Python tracebacks end where the error was raised, JS stacks start there: the frames
    # nearest the error weigh most
    py_order = bool(_PY_FRAME_RE.search(text)) or _mostly_python(frames)
    last_seen = {fr.path: i for i, fr in enumerate(frames)}
    paths_in_order = sorted(last_seen, key=last_seen.__getitem__)
    if not py_order:
        paths_in_order.reverse()
    n = len(paths_in_order)
    for i, path in enumerate(paths_in_order[-MAX_PATHS * 3 :]):
        closeness = (i + 1) / min(n, MAX_PATHS * 3)
        installed = _installed(path)
        weight = W_FRAME * (0.5 if installed else 1.0) * (0.6 + 0.6 * closeness)
        add(Concept(path, "frame", weight, tuple(_path_stems(path))))
    for fr in frames:
        if fr.function and not fr.function.startswith("<"):  # <module>, <lambda>, <anonymous>
            installed = _installed(fr.path)
            add(_ident_concept(fr.function, W_CODE if installed else W_IDENT))
    frame_paths = {fr.path for fr in frames}
    for p in _paths(text)[:MAX_PATHS]:
        if p in frame_paths or _installed(p) or any(
                f.endswith("/" + p) for f in frame_paths):  # a frame's file name, read apart
            continue
        add(Concept(p, "path", W_PATH, tuple(_path_stems(p))))

    # a module's dotted path the reporter writes (`sympy.core.mul`, `printing.pretty`) is a scope,
    # its path (`(sympy/core/mul)`: its file or package); not one a code block imports, the
    # reproducer's, seldom the fix's
    for mod in [] if ablated("scope") else _module_paths(prose)[:MAX_PATHS]:
        add(Concept(f"({mod.replace('.', '/')})", "scope", W_SCOPE, ()))

    # the header's scope: where the change is (matched against paths), and its words as such
    for sc in [] if ablated("scope") else scopes:
        add(Concept(f"({sc})", "scope", W_SCOPE, ()))  # its own text: `http` may be a word too
        if _CODE_EXT.search(sc):  # `fix(middleware.ts): …` names its file (or `next.js` a part)
            add(Concept(sc, "path", W_PATH, tuple(_path_stems(sc))))
        elif looks_like_identifier(sc):
            add(_ident_concept(sc, W_CODE))
        elif re.fullmatch(r"[A-Za-z]{3,}", sc) and sc.lower() not in STOP_WORDS:
            add(Concept(sc.lower(), "word", W_WORD * 1.3, (stem(sc.lower()),)))

    # the title says what the issue is about (its names and words count more)
    title = prose.strip().split("\n", 1)[0]

    # 2. identifiers: backticks and code blocks count most, then code-shaped words in prose
    ident_counts: Counter[str] = Counter()
    in_words: set[str] = set()
    """Names the task says in its own words (backticks, prose), not in a pasted log."""
    for snippet in inline:
        for m in _IDENT_RE.finditer(snippet):
            tok = _qualified(m.group().rstrip("("))
            ident_counts[tok] += 3
            in_words.add(tok)
    # in code blocks only code-shaped names and calls count: logs are full of plain words
    for block in code_blocks:
        for m in _IDENT_RE.finditer(block):
            tok = _qualified(m.group().rstrip("("))
            if looks_like_identifier(tok) or m.group(1) or "::" in m.group():
                ident_counts[tok] += 1
    for m in _IDENT_RE.finditer(prose):
        tok = _qualified(m.group().rstrip("("))
        if looks_like_identifier(tok) or (m.group(1) and len(tok) >= 3) or "::" in m.group():
            ident_counts[tok] += 2
            in_words.add(tok)
    # a name the task's code uses that its title says as a word ("Wrong Derivative kind
    # attribute" over `Derivative(A, x)`) is what the task is about, as if in backticks
    title_words = set(re.findall(r"[A-Za-z_][A-Za-z0-9_]{2,}", title))
    for tok in [t for t in ident_counts if t in title_words and t not in in_words]:
        ident_counts[tok] += 2
        in_words.add(tok)
    idents = _rank_identifiers(ident_counts)
    for ident, n in idents[:MAX_IDENTS]:
        weight = W_IDENT if n >= 2 else W_CODE
        for part in _dotted_parts(ident):
            add(_ident_concept(part, weight))
    # a type's member the task says in its words, not one a pasted traceback's frames pass by
    members = tuple(dict.fromkeys(pair for ident, _ in idents[:MAX_IDENTS]
                                  if ident in in_words and (pair := _member(ident))))

    # 3. quoted messages (error strings appear verbatim in code)
    for q in _QUOTED_RE.findall(prose)[:8]:
        terms = [stem(t) for t in _words_terms(q)]
        if len(terms) >= 2 and " " in q.strip():
            add(Concept(q, "quoted", W_QUOTED, tuple(terms)))

    # 4. plain words, ranked by repetition; task verbs and stop words dropped (the task's generic
    # words are kept aside, to be searched only if nothing else matches)
    word_counts: Counter[str] = Counter()
    generic_counts: Counter[str] = Counter()
    first_form: dict[str, str] = {}
    # the title's words count as if repeated
    words_text = title + "\n" + title + "\n" + prose
    prev_end, prev = 0, ""
    for m in _WORD_RE.finditer(words_text):
        w = m.group().lower()
        # "when rename creates a coord", "the update method": a task verb after a determiner
        # or conjunction names the operation, as the code does (Dataset.rename)
        gap = words_text[prev_end:m.start()]
        named = w in _OPERATION_VERBS and (_naming(gap, prev) or (
            prev_end > 0 and not _SENTENCE_GAP_RE.search(gap)
            and _COMMAND_AFTER_RE.match(words_text, m.end()) is not None))
        prev_end, prev = m.end(), w
        if m.group()[-1] == "s" and m.group()[:-1].isupper():
            w = w[:-1]  # APIs -> api; not HTTPS, DNS, TLS, CORS (acronyms ending in S)
        elif "'" in w and w not in ENGLISH_STOP:  # there's -> there, user's -> user; isn't is stop
            w = "" if w.endswith("n't") else w.split("'", 1)[0]
        if len(w) < 3 or w in ENGLISH_STOP or looks_like_identifier(m.group()):
            continue
        s = stem(w)
        (generic_counts if not named and (w in TASK_NOISE or w in TASK_VERBS)
         else word_counts)[s] += 1
        first_form.setdefault(s, w)
    # `slice/array` names no file it is sure of, and a quoted message is searched whole: their
    # words count as words too
    seen_terms = {t for c in concepts.values()
                  if c.kind != "quoted" and not _WORD_PAIR_RE.fullmatch(c.text) for t in c.terms}
    for s, n in word_counts.most_common(MAX_WORDS):
        if s in seen_terms:
            continue
        add(Concept(first_form[s], "word", W_WORD * (1 + 0.15 * min(n - 1, 4)), (s,)))
    seen_terms.update(t for c in concepts.values() for t in c.terms)
    fallback = tuple(
        Concept(first_form[s], "word", W_GENERIC, (s,))
        for s, _ in generic_counts.most_common(MAX_GENERIC)
        if s not in seen_terms and s not in CODE_STOP
    )

    # 5. words in a row, as the one name code would write them
    said = {t for c in concepts.values() for t in c.terms}
    words = {c.terms[0]: c.text for c in concepts.values() if c.kind == "word"}
    if not ablated("phrases"):
        joined = _compounds(title + "\n" + prose, said, words)
        said |= {c.terms[0] for c in joined}
        for phrase in joined + _phrases(title + "\n" + prose, said)[:MAX_PHRASES - len(joined)]:
            add(phrase)

    lowered = text.lower()
    if include_tests is None:
        # a frame in a test file (not any path that says "test": `_pytest/runner.py`)
        include_tests = kind.startswith("test") or bool(_TEST_TASK_RE.search(text)) or any(
            classify((installed_tail(fr.path) or fr.path).lower(), None) == "test"
            for fr in frames)
    about_docs = kind.startswith("doc") or bool(_DOC_TASK_RE.search(lowered[:400]))
    return Query(
        keywords=tuple(concepts.values()),
        frames=tuple(frames),
        include_tests=include_tests or about_docs,
        about_types=bool(_TYPES_TASK_RE.search(" ".join([*scopes, text]))),
        fallback=fallback,
        capitalized=_capitalized(prose),
        called=_called(prose),
        members=members,
        options=task_options(text[:PHRASE_SCAN]),
    )


_CALLED_RE = re.compile(
    r"\b([a-z][a-z0-9_]{2,})[ \t]+(?:function|method|func|property|attribute|decorator"
    r"|fixture|hook|classmethod|staticmethod)\b")
"""A lower-case word the prose calls a function, a method, a fixture… (`return uuid from
tokenize function`, `the apart function gives`, `the tmp_path fixture`): a name, said without
the backticks or parentheses that would make it one. One function: "helper functions",
"the builtin functions" are kinds of them."""


TITLE_CASE_SHARE = 0.6
"""A line whose words have a capital this often is in Title Case: its capitals say nothing."""
CAPITALIZED_DEFINERS = 5
"""A capitalized word (or one called a function) is a name when at most this many files define
it so: `Component` in preact's core, not a word every module of a large tree defines."""


def _capitalized(prose: str) -> tuple[str, ...]:
    """The capitalized words inside the prose's sentences, but not on a line in Title Case
    ("Declaring That a Logger Can Throw an Exception"), where every word has its capital."""
    out: dict[str, None] = {}
    for line in prose.splitlines():
        words = [w for w in re.findall(r"[A-Za-z]{3,}", line) if w.lower() not in ENGLISH_STOP]
        if len(words) >= 3 and sum(w[0].isupper() for w in words) >= TITLE_CASE_SHARE * len(words):
            continue
        for m in _CAPITALIZED_RE.finditer(line):
            if m.group().lower() not in ENGLISH_STOP:
                out[m.group()] = None
    return tuple(out)[:MAX_IDENTS]


def _called(prose: str) -> tuple[str, ...]:
    """The words the prose calls a function or a method (_CALLED_RE)."""
    out = dict.fromkeys(m.group(1) for m in _CALLED_RE.finditer(prose)
                        if m.group(1) not in ENGLISH_STOP and m.group(1) not in CODE_STOP)
    return tuple(out)[:MAX_IDENTS]


def _compounds(text: str, taken: set[str], word_of: dict[str, str]) -> list[Concept]:
    """The task's hyphenated words, each a phrase searched as its parts joined ("f-strings" is
    `fstring`), at most MAX_PHRASES. Each stands in for the task's words among its parts
    (`word_of`: stem → the word's concept): code that says `fstring` says what "f-strings"
    means better than code that says `string`."""
    out: list[Concept] = []
    taken = set(taken)
    for compound in _COMPOUND_RE.findall(text[:PHRASE_SCAN]):
        parts = compound.lower().split("-")
        joined = stem("".join(parts))
        if len(parts) > MAX_COMPOUND_PARTS or len(joined) < 4 or joined in taken \
                or all(w in ENGLISH_STOP for w in parts):
            continue
        taken.add(joined)
        parts_said = tuple(dict.fromkeys(word_of[t] for p in parts if (t := stem(p)) in word_of))
        out.append(Concept(compound.lower(), "phrase", W_PHRASE, (joined,), parts_said))
        if len(out) >= MAX_PHRASES:
            break
    return out


def _phrases(text: str, taken: set[str]) -> list[Concept]:
    """The task's runs of two and three words (no stop word among them), each joined as the
    one name code would write it: "worker start timeout" is WORKER_START_TIMEOUT's whole term,
    "token expiry" tokenExpiry's. The longer first, at most MAX_PHRASES; most are names no
    file has, and cost one index lookup each."""
    out: list[Concept] = []
    taken = set(taken)
    for run in _PHRASE_RUN_RE.findall(text[:PHRASE_SCAN]):
        words = run.lower().split()
        for size in (3, 2):
            for i in range(len(words) - size + 1):
                gram = words[i:i + size]
                if any(len(w) < 2 or w in ENGLISH_STOP for w in gram):
                    continue
                joined = stem("".join(gram))
                if joined in taken:
                    continue
                taken.add(joined)
                out.append(Concept(" ".join(gram), "phrase", W_PHRASE, (joined,)))
                if len(out) >= MAX_PHRASES:
                    return out
    return out


UNKNOWN_PART_SHARE = 1.0
"""Each word of a task identifier that the code never says whole weighs this share of it
(measured 2026-12-02: 1.0 beat 0.5 on the development and the three held-out sets)."""


def said_phrases(query: Query, known: Callable[[str], bool]) -> Query:
    """The query without the phrases no file says as one name: most of a task's word runs are
    none, and the trace should show the few that are."""
    kept = tuple(c for c in query.keywords if c.kind != "phrase" or known(c.terms[0]))
    return replace(query, keywords=kept) if len(kept) != len(query.keywords) else query


def defined_names(query: Query, definers: Callable[[str], int],
                  folders: Callable[[], frozenset[str]]) -> Query:
    """The task's words that read as names, when the code defines them so, become names: its
    capitalized words inside a sentence, defined with that very capital (`…ref properties to
    Component in the constructor`, `the Headers class`), and the words it calls a function or
    a method (`from tokenize function`). The file that defines one implements what the task
    names, not merely one more file that says the word. `definers` counts the files defining a
    name, case and all. A folder's name is the project's or a package's ("by default Flask
    will…", "for Cowboy 1"): the class named after it is seldom what the task means. A word
    too common to be a keyword (`on Error type`) is added as the name."""
    if not query.capitalized and not query.called:
        return query
    names = {n.lower(): n for n in (*query.capitalized, *query.called)
             if n.lower() not in folders()}
    out: list[Concept] = []
    changed = False
    for c in query.keywords:
        name = names.get(c.text) if c.kind == "word" else None
        if name is not None and 0 < definers(name) <= CAPITALIZED_DEFINERS:
            changed = True
            c = _ident_concept(name, max(c.weight, W_CODE))
        out.append(c)
    # a word too common to search that the task writes as a name (`on Error type`, where the
    # code's type is `Error`) is that name
    said = {c.text.lower() for c in query.keywords}
    promoted = {low for low, name in names.items()
                if low not in said and 0 < definers(name) <= CAPITALIZED_DEFINERS}
    if not promoted:
        return replace(query, keywords=tuple(out)) if changed else query
    out.extend(_ident_concept(names[low], W_CODE) for low in promoted)
    return replace(query, keywords=tuple(out),
                   fallback=tuple(c for c in query.fallback if c.text not in promoted))


_NOT_MODULES = frozenset(("test", "tests", "python"))
MODULE_NAMED = 2
"""A generic word (`traceback`, `error`) is the task's keyword when at most this many source
files are named after it: then it names a module (rich's traceback.py)."""


def named_modules(query: Query, modules: Callable[[str], int]) -> Query:
    """The task's generic words, kept aside (`fix traceback for missing frame file`), that name
    one of the code's modules: keywords, as the task's other words. `modules` counts the files
    named after a word."""
    # not a verb of the change (`remove`: poetry's remove.py command), nor "test", which says
    # the task is about tests (utils/test.py is a module of helpers), nor the language
    # ("pickling objects (Python>=3.5)": utils/python.py)
    named = [c for c in query.fallback if c.text not in TASK_VERBS and c.text not in _NOT_MODULES
             and 0 < modules(c.text) <= MODULE_NAMED]
    if not named:
        return query
    return replace(query, keywords=query.keywords + tuple(
                       Concept(c.text, "word", W_WORD, c.terms) for c in named),
                   fallback=tuple(c for c in query.fallback if c not in named))


_TESTED_NAME_RES = (
    (re.compile(r"^test_(.+)(\.py)$"), r"\1\2"), (re.compile(r"^(.+)_tests?(\.py)$"), r"\1\2"),
    (re.compile(r"^(.+)_test(\.go)$"), r"\1\2"),
    (re.compile(r"^(.+)\.(?:test|spec)(\.[cm]?[jt]sx?)$"), r"\1\2"),
    (re.compile(r"^(.+)Tests?(\.(?:java|kt|cs))$"), r"\1\2"),
    (re.compile(r"^(.+)_spec(\.rb)$"), r"\1\2"),
)
TESTED_SHARE = 0.5
"""What the module a named test tests weighs, against the test's own path: the task names
its test, and the code it tests is where the change most often is."""


def subject_of_test(test_path: str) -> tuple[str, str] | None:
    """The module a test file tests, by the naming conventions (`pkg/tests/test_views.py` →
    `pkg/views.py`; `views_test.go`, `views.test.ts` beside it): its path without the test
    folders, and its bare file name."""
    folders, _, name = test_path.rpartition("/")
    for rx, sub in _TESTED_NAME_RES:
        if rx.match(name):
            subject = rx.sub(sub, name)
            kept = [f for f in folders.split("/") if f and not is_test_folder(f)]
            return "/".join([*kept, subject]), subject
    return None


def modules_of_named_tests(query: Query, tests_named: Callable[[str], list[str]],
                           sources: Callable[[str], list[str]]) -> Query:
    """The modules that the tests the task names test (a squash's "* Update
    networkx/classes/tests/test_reportviews.py"): paths of the task, at a share of the test's
    weight. `tests_named` gives the project's test files a mentioned path matches (none for a
    reporter's own test file), `sources` the source files a path matches."""
    said = {c.text for c in query.keywords}
    added: list[Concept] = []
    tested: list[tuple[str, str]] = []
    for c in query.keywords:
        if c.kind not in ("path", "frame"):
            continue
        for test in tests_named(c.text):
            subject = subject_of_test(test)
            if subject is None:
                continue
            path, name = subject
            found = sources(path) or sources(name)
            if len(found) == 1 and found[0] not in said:
                said.add(found[0])
                added.append(Concept(found[0], "path", c.weight * TESTED_SHARE,
                                     tuple(_path_stems(found[0]))))
                tested.append((found[0], test))
    if not added:
        return query
    return replace(query, keywords=query.keywords + tuple(added),
                   tested=query.tested + tuple(tested))


def unknown_identifiers_as_words(query: Query, known: Callable[[str], bool]) -> Query:
    """The task's compound identifiers that no file says whole (a name the task introduces,
    `MousetrapDisplayDuration`; a misremembered one) become their words: the code says those
    apart, and each keeps its own rarity instead of sharing the commonest part's."""
    out: list[Concept] = []
    # a part that is a name the task says on its own (`da.reshape` beside
    # `test_reshape_not_implemented_error`) is that name already, not a word beside it
    taken = {t for c in query.keywords for t in (c.terms if c.kind != "identifier"
                                                  else c.terms[-1:])}
    changed = False
    for c in query.keywords:
        parts = split_identifier(c.text)
        if c.kind != "identifier" or len(parts) < 2 or len(c.terms) < 2 \
                or c.terms[-1] != stem("".join(parts)) or known(c.terms[-1]):
            out.append(c)
            continue
        changed = True
        for part in parts:
            s = stem(part)
            if len(part) < 3 or part in CODE_STOP or part in ENGLISH_STOP or part.isdigit() \
                    or s in taken:
                continue
            taken.add(s)
            out.append(Concept(part, "word", c.weight * UNKNOWN_PART_SHARE, (s,)))
    return replace(query, keywords=tuple(out)) if changed else query


_URL_RE = re.compile(r"\b\w+://\S+")
# `[i18n][man] add missing deunicode()`, `[ext/napoleon] …`, `[Http] …`: the tags many projects
# title commits and issues with; `[fix]`, `[feat]` say what kind of change, the others where
_TAGS_RE = re.compile(r"^[ \t]*((?:\[[A-Za-z][\w./ -]{0,40}\][ \t]*)+)(?=\S)")
_TAG_RE = re.compile(r"\[([^\]]+)\]")


def _bracket_tags(tags: str) -> tuple[str, list[str]]:
    """The kind of change the first tag that names one says (`[fix]`, else ""), and the tags
    that say where (`[man]`, `[ext/napoleon]`): not a kind of change, nor an issue's label
    (`[BUG]`, `[Feature Request]`)."""
    kind, scopes = "", list[str]()
    for tag in _TAG_RE.findall(tags):
        low = tag.strip().lower()
        if low in _TYPES:
            kind = kind or low
        elif low not in _NOT_COMPONENTS and " " not in low:
            scopes.extend(s for s in re.split(r"[/,]+", tag.strip()) if s)
    return kind, scopes[:4]


def conventional_header(text: str) -> tuple[str, list[str], str]:
    """(type, scopes, text without the header) of a `fix(http): …` first line, else ("", [], text).

    The prefix is cut so that `fix(` does not read as a call; `a/b`, `a,b` and `a b` are several
    scopes (`compiler-core/v-on` is a package and a file), and `a/b` is also the path itself.
    A component prefix (`ignore: …`, `net/http: …`) gives its scopes and no type, and stays in
    the text; so do a title's bracket tags (`[ext/napoleon] …`), and a `[fix]` among them gives
    the type.
    """
    m = _HEADER_RE.match(text)
    if m is None:
        tags = _TAGS_RE.match(text)
        if tags is not None:
            return (*_bracket_tags(tags.group(1)), text)
        c = _COMPONENT_RE.match(text)
        name = c.group(1) if c else ""
        if c is None or name.lower() in _NOT_COMPONENTS or name.isupper() or \
                _RAISED_RE.search(name):
            return "", [], text
        # the component's words stay in the text: `diophantine: …` also says diophantine
        return "", _with_path(name, [s for s in name.split("/") if s]), text
    said = (m.group(2) or "").strip("`'\" ")
    scopes = [s for s in re.split(r"[/,|\s`'\"]+", said) if re.search(r"[A-Za-z0-9]", s)]
    return m.group(1).lower(), _with_path(said, scopes), text[m.end():]


def _with_path(said: str, parts: list[str]) -> list[str]:
    """A scope written as a path (`router/trie-router`, `hooks/slog`) names the folder (or the
    file) at that path as well as each of its parts: the path first (scope.as_folder), at most
    4 in all."""
    if re.fullmatch(r"[\w.-]+(?:/[\w.-]+)+", said) and len(parts) > 1:
        return [as_folder(said), *parts][:4]
    return parts[:4]


def _strip_locations(text: str) -> str:
    """Frames, paths and URLs are read on their own; their parts are not identifiers or words."""
    text = _URL_RE.sub(" ", text)
    text = _PY_FRAME_RE.sub(lambda m: " " + (m.group(3) or "") + " ", text)
    text = _JS_FRAME_RE.sub(lambda m: " " + (m.group(1) or "") + " ", text)
    text = _DOTNET_FRAME_RE.sub(lambda m: " " + m.group(1) + " ", text)
    text = _PATH_LINE_RE.sub(" ", text)
    return _PATH_RE.sub(_path_words, text)


def _blob_path(m: re.Match) -> str:
    """A permalink as the `path:line` (or path) it points at."""
    return f" {m.group(1)}:{m.group(2)} " if m.group(2) else f" {m.group(1)} "


def _jvm_frame(m: re.Match) -> str:
    """A JVM frame as the Node-style frame the frame reader knows (`at total (a/b/X.java:42)`)."""
    package = m.group(1)
    if package.startswith(_JVM_PLATFORM):
        return " "
    folders = package.replace(".", "/")
    # a constructor (`<init>`) is its class's name
    method = m.group(2).rsplit("$", 1)[-1] if m.group(3).startswith("<") else m.group(3)
    return f"at {method} ({folders}{m.group(4)}:{m.group(5)})"


def _posix_path(m: re.Match) -> str:
    """A Windows path with forward slashes, its drive dropped: `/Users/me/proj/src/a.py`."""
    p = m.group().replace("\\", "/")
    return p[2:] if p[1:2] == ":" else p


def _path_words(m: re.Match) -> str:
    """`slice/array`, `uri/query`: two words with a slash may be a path, and are words too;
    names a slash joins (`Conn.fetch/Conn.halt`) are names, and a name's arity says it is a
    function (`put_status/2` → `put_status()`)."""
    p = m.group(1)
    if _joined_names(p):
        return " " + re.sub(r"/\d+$", "()", p).replace("/", " ") + " "
    return " " + p.replace("/", " ") + " " if _WORD_PAIR_RE.fullmatch(p) else " "


def _joined_names(p: str) -> bool:
    """`Conn.async_assign/Conn.await_assign`, `Plug.Conn.send_resp/3`, `put_resp_header/3`,
    `strftime/1` (Elixir's, Erlang's and jq's name/arity): names a slash joins, no path. Every
    part but an arity has a dot, and what follows the last one is no file extension; or it is
    one snake_case name and its arity, or one lower-case word of three letters or more and its
    one-digit arity (not `HTTP/2`, `http/2`, `x/4`, `mins/60`)."""
    segs = p.strip("/").split("/")
    if len(segs) < 2:
        return False
    if segs[-1].isdigit():
        arity = segs.pop()
        if len(segs) == 1 and (re.fullmatch(r"[a-z]\w*_\w+", segs[0]) or (
                len(arity) == 1 and re.fullmatch(r"[a-z][a-z0-9]{2,}", segs[0])
                and segs[0] not in _PROTOCOLS)):
            return True  # `response_content_type/1`, `strftime/1`: a bare name and its arity
    return all("." in s for s in segs) and segs[-1].rsplit(".", 1)[1].lower() not in _FILE_EXTS


def _strip_noise(text: str) -> str:
    text = strip_pasted(text)
    # ``TeX-style quotes'' (old mail and docstrings): a message, not code; left as they are, the
    # backticks paired across the prose between them and made its words identifiers
    text = _TEX_QUOTE_RE.sub(r'"\1"', text)
    text = _PREDICATE_ARITY_RE.sub(r"\1()", text)
    return _PROTOTYPE_RE.sub(".", _INSTANCE_METHOD_RE.sub(r"\1.\2", text))


def _ident_concept(ident: str, weight: float) -> Concept:
    terms = identifier_terms(ident)
    parts = [stem(t) for t in terms]
    return Concept(ident, "identifier", weight, tuple(dict.fromkeys(parts)))


_FILE_EXTS = frozenset(_NAME_EXTS.split("|")) | {"txt", "lock", "log", "csv", "xml", "exe"}
_MODULE_RE = re.compile(
    r"(?<![\w./\\-])([a-z_][a-z0-9_]*(?:\.[a-z_][a-z0-9_]*)+)(?:\.[A-Za-z_]\w*)*(?!\w)")
_NAMESPACE_RE = re.compile(r"(?<![\w./\\:-])([A-Z][A-Za-z0-9]*(?:(?:\.|::)[A-Z][A-Za-z0-9]*)+)"
                           r"(?![\w:]|\.[A-Z])")
"""`Plug.Static`, `Plug.Session.COOKIE`, `Net::HTTP`: a module named by its capitalized
namespaces (Elixir, Ruby), which live in `plug/static.ex`, `net/http.rb`."""
_WORD_IN_NAME_RE = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z0-9]+|[A-Z]+[0-9]*")


def _module_paths(text: str) -> list[str]:
    """`sympy.core.mul.Mul` → `sympy.core.mul`: the lower-case dotted head of a name, when it
    has two parts or more and no receiver, file extension or one-letter part (`self.x`,
    `setup.py`, e.g.)."""
    out: list[str] = []
    for m in _MODULE_RE.finditer(text):
        parts = m.group(1).split(".")
        if parts[0] in CODE_STOP or parts[-1] in _FILE_EXTS or min(map(len, parts)) < 2:
            continue
        if m.group(1) not in out:
            out.append(m.group(1))
    for m in _NAMESPACE_RE.finditer(text):
        parts = re.split(r"\.|::", m.group(1))
        if parts[0].lower() in CODE_STOP or min(map(len, parts)) < 2:
            continue
        # as the file is named: `CSRFProtection` in csrf_protection.ex
        mod = ".".join("_".join(_WORD_IN_NAME_RE.findall(p)).lower() for p in parts)
        if mod not in out:
            out.append(mod)
    return out


def _qualified(name: str) -> str:
    """A name qualified with `::` as a dotted one: its type stays its owner (`Logger::reset` →
    Logger.reset), a namespace or crate does not (`fmt::format_to`, `tokio::spawn`: the
    project's or the language's own, said by every file)."""
    if "::" not in name:
        return name
    parts = name.split("::")
    return f"{parts[-2]}.{parts[-1]}" if parts[-2][:1].isupper() else parts[-1]


def _dotted_parts(ident: str) -> list[str]:
    """`flask.helpers.send_file` → its last part and the one before it; module prefixes are too
    generic."""
    if "." not in ident:
        return [ident]
    parts = ident.split(".")
    # a receiver (`self.x`, `this.x`, `cls.x`) is no name of the code's
    owner = parts[-2]
    return [parts[-1]] + ([owner] if len(owner) > 2 and identifier_terms(owner) else [])


def _member(ident: str) -> tuple[str, str] | None:
    """(type, member) of a name qualified with a type (`Request.get_json`), else None: its
    owner (as _dotted_parts reads it) is capitalized, not a module (`flask.helpers.send_file`)
    nor a receiver (`self.x`)."""
    parts = _dotted_parts(ident)
    return (parts[1], parts[0]) if len(parts) == 2 and parts[1][:1].isupper() else None


def _rank_identifiers(counts: Counter[str]) -> list[tuple[str, int]]:
    out = []
    for ident, n in counts.most_common():
        low = ident.lower()
        if low in STOP_WORDS or len(ident) < 2:
            continue
        if not identifier_terms(ident.split(".")[-1]):
            continue
        out.append((ident, n))
    return out


def _words_terms(s: str) -> list[str]:
    out = []
    for m in _WORD_RE.finditer(s):
        out.extend(identifier_terms(m.group()))
    return out


def _path_stems(path: str) -> list[str]:
    name = path.replace("\\", "/").rsplit("/", 1)[-1]
    stem_name = name.rsplit(".", 1)[0]
    return [stem(t) for t in identifier_terms(stem_name)] or [stem(stem_name.lower())]


def _mostly_python(frames: list[Frame]) -> bool:
    """Python tracebacks in any format (pytest's `path.py:12: in f` too) end at the error;
    every other language's stack starts there."""
    py = sum(fr.path.endswith((".py", ".pyx")) for fr in frames)
    return py * 2 > len(frames)


def _function_at(text: str, start: int, end: int) -> str | None:
    """The function of the frame whose `path:line` is text[start:end], where its tool writes it."""
    # after it: pytest's `src/x.py:12: in renew`, Ruby's `x.rb:12:in 'renew'`
    after = _FRAME_IN_RE.match(text, end)
    if after:
        return after.group(1).split(".")[-1]
    # …before it, in a native frame: gdb, the sanitizers, valgrind (within a bounded stretch: a
    # long line of `x.js:1`s was read again from its start for each, 270 s for 200 kB)
    cut = max(0, start - NATIVE_FN_SPAN)
    lo = text.rfind("\n", cut, start) + 1 or cut
    window = text[lo:start]
    if "0x" in window or "in " in window or "#" in window:
        before = _NATIVE_FN_RE.search(text, lo, start)
        if before:
            return before.group(1).split("::")[-1]
    # …or on the line above, in a Go panic: `pkg.(*Echo).ServeHTTP(0xc0, …)`, then `\t/x.go:662`
    if lo and text[lo - 1] == "\n" and not window.strip():
        top = max(0, lo - 1 - NATIVE_FN_SPAN)
        above = _GO_FN_RE.match(text, text.rfind("\n", top, lo - 1) + 1 or top, lo - 1)
        if above:
            return above.group(1)
    return None


def _frames(text: str) -> list[Frame]:
    frames: list[Frame] = []
    for path, line, fn in _PY_FRAME_RE.findall(text):
        frames.append(Frame(_clean_path(path), int(line), fn or None))
    for m in _IPY_FRAME_RE.finditer(text):
        nxt = _IPY_FRAME_RE.search(text, m.end())
        arrow = _IPY_ARROW_RE.search(text, m.end(), nxt.start() if nxt else len(text))
        frames.append(Frame(_clean_path(m.group(1)), int(arrow.group(1)) if arrow else None,
                            m.group(2).split(".")[-1]))
    for fn, path, line in _JS_FRAME_RE.findall(text):
        if path.startswith("node:") or "/" not in path and "." not in path:
            continue
        frames.append(Frame(_clean_path(path), int(line),
                            (fn or "").split(".")[-1].strip() or None))
    for fn, path, line in _DOTNET_FRAME_RE.findall(text):
        name = _DOTNET_GENERIC_RE.sub("", fn).split(".")[-1]
        frames.append(Frame(_clean_path(path), int(line), name or None))
    dart = _DART_PACKAGE_RE.sub(" lib/", text)
    for m in _PATH_LINE_RE.finditer(dart):
        path, line = m.groups()
        if _CODE_EXT.search(path):
            named = _function_at(dart, m.start(), m.end())
            frames.append(Frame(_clean_path(path), int(line), named))
    # one frame per place, the first found, named by whichever reading named its function
    # (gdb's `… in jv_parse (s=0x0) at src/jv.c:87` is also a JavaScript-shaped `at src/jv.c:87`)
    first: dict[tuple[str, int | None], int] = {}
    out: list[Frame] = []
    for fr in frames:
        key = (fr.path, fr.line)
        if key not in first:
            first[key] = len(out)
            out.append(fr)
        elif fr.function and not out[first[key]].function:
            out[first[key]] = fr
    # the project's own frames first; standard-library frames never name project files
    out = [fr for fr in out if not _STDLIB_RE.search(fr.path)]
    return sorted(out, key=lambda fr: _installed(fr.path))


_STDLIB_RE = re.compile(r"/lib/python\d[\d.]*/(?!site-packages|dist-packages)"
                        r"|^<frozen|^<string>|^internal/|^node:"
                        # Go's own (GOROOT/src/net/http/…, not GOPATH/src/github.com/…), Rust's
                        r"|(?:^|/)(?:go|Go|go-?[\d.]+)(?:/[\d.]+)?/(?:libexec/)?src/(?![\w-]+\.[\w.-]+/)"
                        r"|^/rustc/[0-9a-f]+/")


def _installed(path: str) -> bool:
    """A copy installed by a package manager (search.installed_tail): it may be this very
    project, at half weight."""
    return installed_tail(path) is not None


def _paths(text: str) -> list[str]:
    out: list[str] = []
    for m in _PATH_RE.finditer(text):
        p = m.group(1).rstrip(".,:;)")
        if p.startswith(("http", "www.")) or "://" in text[max(0, m.start() - 8) : m.start() + 3]:
            continue
        if "/" in p and not re.search(r"[A-Za-z]", p.rsplit("/", 1)[-1]):
            continue
        if "/" in p and not _CODE_EXT.search(p) and (
                max(map(len, p.split("/"))) <= 1 or p.endswith("/s")):
            continue  # N/A, I/O, w/o; file/s, Version/s
        if p.count("/") == 0 and not _CODE_EXT.search(p) and "." not in p:
            continue
        if _joined_names(p):
            continue
        if "/" not in p and p.count(".") > 1 and p.endswith((".py", ".pyi")):
            # a Python module has no dots in its name: `sympy.core.mul.py` is its dotted path
            stem, ext = p.rsplit(".", 1)
            p = stem.replace(".", "/") + "." + ext
        if p not in out:
            out.append(_clean_path(p))
    return out


def _clean_path(p: str) -> str:
    p = p.replace("\\", "/")
    while p.startswith("./"):
        p = p[2:]
    return p

