"""Language detection and fast structural outlines (definitions with line spans, and imports).

The indexer calls `extract_outline` on every file of a repository, so this module trades parser
precision for speed and robustness: no third-party parsers, only per-language regex tables applied
to the first few hundred characters of each line, plus one linear scan that tracks brace (or, for
Ruby, `def`/`end` keyword) depth to find where a definition ends. Strings and comments are blanked
first so their braces and commented-out code do not count. Patterns are anchored and only look at
the start of a line, strings match with possessive loops, overlong lines are skipped, so the cost
stays linear in the file size; any failure degrades to a partial or empty `Outline`, nothing here
raises.

Conventions:
- Lines are 1-based and end at "\\n", "\\r\\n" or "\\r" (lines.py), nowhere else.
- A definition starts at its first decorator, annotation, attribute (`@x`, `#[x]`, `[X]`) or
  C++ `template <...>` line directly above it, so a region shows them with the definition.
- Names are plain (`refresh`, not `Auth.refresh` or `Foo::refresh`); a function directly inside a
  class-like body (class, interface, trait, impl, extension, object, Ruby module) is a `method`.
- Kinds are those of `Symbol.kind`; traits and protocols are `interface`, Kotlin/Scala objects are
  `class`, Rust `mod x {}` and Ruby modules are `module`, macros (`#define F(x)`, `macro_rules!`)
  are `function` and object-like `#define`s are `constant`.
- Only structural definitions count: top level, or directly in a class/namespace body. Locals
  inside function bodies are skipped (Python keeps nested `def`s, which are real definitions).
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from itertools import accumulate, repeat
from operator import add, mul
from typing import Callable, Mapping

from .lines import normalize
from .models import Outline, Symbol

MAX_SYMBOLS = 2000
MAX_IMPORTS = 500
MAX_TEXT = 16 * 1024 * 1024
"""Bytes of text looked at; the rest of a larger file is ignored."""
MAX_LINE = 5000
"""Longer lines are minified code or data: blanked so they cost nothing and match nothing."""
MAX_TOKENS = 200_000
"""Strings and comments the cleaner rewrites before it gives up and scans the raw text."""
MATCH_WIDTH = 300
"""Definition patterns only look at this many characters of a line (bounds regex work)."""
MAX_HEADER = 30
"""Lines a signature may span before its body brace or its end is found."""
FALLBACK_SPAN = 50
"""Lines a definition may cover when its end cannot be found."""

LANGUAGES: dict[str, str] = {
    ".py": "python", ".pyi": "python", ".pyw": "python",
    ".js": "javascript", ".jsx": "javascript", ".mjs": "javascript", ".cjs": "javascript",
    ".ts": "typescript", ".tsx": "typescript", ".mts": "typescript", ".cts": "typescript",
    ".go": "go",
    ".java": "java",
    ".rs": "rust",
    ".c": "c", ".h": "c",
    ".cc": "cpp", ".cpp": "cpp", ".cxx": "cpp", ".c++": "cpp", ".hpp": "cpp", ".hh": "cpp",
    ".hxx": "cpp", ".h++": "cpp", ".ipp": "cpp", ".tpp": "cpp", ".inl": "cpp", ".cu": "cpp",
    ".cuh": "cpp",
    ".cs": "csharp",
    ".rb": "ruby", ".rake": "ruby", ".gemspec": "ruby", ".ru": "ruby",
    ".php": "php", ".phtml": "php",
    ".kt": "kotlin", ".kts": "kotlin",
    ".swift": "swift",
    ".scala": "scala", ".sc": "scala",
    ".sh": "shell", ".bash": "shell", ".zsh": "shell", ".ksh": "shell",
    ".m": "objective-c", ".mm": "objective-c",
    ".vue": "vue", ".svelte": "svelte",
    ".lua": "lua", ".pl": "perl", ".pm": "perl", ".dart": "dart", ".ex": "elixir",
    ".exs": "elixir", ".groovy": "groovy", ".gradle": "groovy", ".r": "r", ".jl": "julia",
    ".zig": "zig", ".hs": "haskell", ".clj": "clojure", ".proto": "protobuf",
    ".bzl": "starlark", ".star": "starlark", ".mk": "make", ".cmake": "cmake",
    ".sql": "sql",
    ".md": "markdown", ".markdown": "markdown", ".mdx": "markdown",
    ".rst": "rst", ".txt": "text", ".adoc": "asciidoc",
    ".yml": "yaml", ".yaml": "yaml", ".toml": "toml", ".json": "json", ".jsonc": "json",
    ".ini": "ini", ".cfg": "ini", ".xml": "xml", ".html": "html", ".htm": "html",
    ".css": "css", ".scss": "css", ".less": "css", ".csv": "csv", ".dockerfile": "dockerfile",
}

SPECIAL_FILES: dict[str, str] = {
    "makefile": "make", "gnumakefile": "make", "dockerfile": "dockerfile",
    "containerfile": "dockerfile", "rakefile": "ruby", "gemfile": "ruby", "guardfile": "ruby",
    "podfile": "ruby", "vagrantfile": "ruby", "brewfile": "ruby", "fastfile": "ruby",
    "capfile": "ruby", "jenkinsfile": "groovy", "cmakelists.txt": "cmake", "build": "starlark",
    "build.bazel": "starlark", "workspace": "starlark", ".bashrc": "shell",
    ".bash_profile": "shell", ".profile": "shell", ".zshrc": "shell",
}

_NO_OUTLINE = frozenset(
    "markdown rst text asciidoc yaml toml json ini xml html css csv dockerfile sql cmake".split()
)


def language_for(path: str) -> str | None:
    """The language of a path by special file name, then by extension; None when unknown."""
    try:
        name = str(path).replace("\\", "/").rsplit("/", 1)[-1].lower()
    except Exception:
        return None
    if name in SPECIAL_FILES:
        return SPECIAL_FILES[name]
    if name.startswith(("dockerfile", "containerfile")):
        return "dockerfile"
    if name.startswith("makefile"):
        return "make"
    dot = name.rfind(".")
    return LANGUAGES.get(name[dot:]) if dot > 0 else None


# --------------------------------------------------------------------------------------------
# Cleaning: blank strings and comments, keeping line numbers.
# A string becomes "" and a comment a space. Lines that start inside a multi-line token begin with
# \x01, so line scanners can treat them as continuation lines.

_C_LINE = r"//[^\n]*"
_C_BLOCK = r"/\*[\s\S]*?(?:\*/|\Z)"
_JS_BLOCK = r"/\*(?<!\\/\*)[\s\S]*?(?:\*/|\Z)"  # not the `\/*` of a regex literal
# A JS regex literal: `/` right after an operator or opening punctuation (or `return `), so its
# braces and quotes are not code; division follows a name or `)` and is left alone.
_JS_REGEX = (r"/(?:(?<=[(,=:\[!&|?{};>]/)|(?<=[(,=:\[!&|?{};>] /)|(?<=return /))(?![/*])"
             r"(?:[^/\\\n\[]|\\.|\[(?:[^\]\\\n]|\\.)*+\])++/")
_HASH = r"#[^\n]*"
_SH_HASH = r"#(?<![^\s;|&()]#)[^\n]*"  # `#` starts a comment only at the start of a word
_PHP_HASH = r"#(?!\[)[^\n]*"  # `#[Attr]` is an attribute
# Possessive loops and an always-matching end make every string match linear, even unterminated.
# Every alternative starts with a literal character, so the regex engine can skip to candidates
# (an optional prefix or a leading lookbehind makes cleaning several times slower).
_DQ = r'"(?:[^"\\\n]|\\[\s\S]?)*+(?:"|(?=\n)|\Z)'
_SQ = r"'(?:[^'\\\n]|\\[\s\S]?)*+(?:'|(?=\n)|\Z)"
_DQ_ML = r'"(?:[^"\\]|\\[\s\S]?)*+(?:"|\Z)'
_SH_SQ = r"'[^'\n]*+(?:'|(?=\n)|\Z)"
_CHAR = r"'(?:\\[^\n][^'\\\n]{0,8}|[^'\\\n])'"  # strict, so Rust lifetimes are not strings
_BT = r"`(?:[^`\\]|\\[\s\S]?)*+(?:`|\Z)"
_RAW_BT = r"`[^`]*+(?:`|\Z)"
_TDQ = r'"""[\s\S]*?(?:"""|\Z)'
_TSQ = r"'''[\s\S]*?(?:'''|\Z)"
_CS_VERBATIM = r'@\$?"(?:[^"]|"")*+(?:"|\Z)'
_CS_VERBATIM2 = r'\$@"(?:[^"]|"")*+(?:"|\Z)'
_CPP_RAW = r'R"(?P<d>[^()\\\s"]{0,16})\([\s\S]*?(?:\)(?P=d)"|\Z)'
_RUST_RAW = r'r(?P<h>#*)"[\s\S]*?(?:"(?P=h)|\Z)'
_RB_BEGIN = r"=begin(?<=^=begin)\b[\s\S]*?(?:^=end\b[^\n]*|\Z)"


def _cleaner(*parts: str, flags: int = 0) -> re.Pattern[str]:
    """One pattern for a language's strings and comments; a group around it makes `split`
    return the tokens between the text."""
    return re.compile("(" + "|".join(f"(?:{p})" for p in parts) + ")", flags)


_COMMENT_STARTS = ("/", "#", "=")
_KEEP = ('""', " ")  # a string, a comment


def _clean(rx: re.Pattern[str], text: str) -> str:
    """Text with strings emptied and comments blanked; same number of lines.

    Every step is a C call over all tokens (no Python per token: a file can hold 100k of them).
    """
    parts = rx.split(text)
    stride = rx.groups + 1  # the text before a token, then the pattern's groups
    tokens = parts[1::stride]
    if len(tokens) > MAX_TOKENS:
        return text
    keeps = map(_KEEP.__getitem__, map(str.startswith, tokens, repeat(_COMMENT_STARTS)))
    breaks = map(mul, repeat("\n\x01"), map(str.count, tokens, repeat("\n")))
    texts = parts[::stride]
    out = [""] * (2 * len(texts) - 1)
    out[::2] = texts
    out[1::2] = map(add, keeps, breaks)
    return "".join(out)


# --------------------------------------------------------------------------------------------
# Definition rules.


@dataclass(frozen=True)
class _Rule:
    """One definition pattern, matched at the start of a stripped line.

    The pattern names the definition with group `n` and, when the keyword picks the kind, group
    `k` (looked up in `kinds`). `body` says what a brace body opened by the definition is: `func`
    (its insides are skipped), `class` (functions in it are methods), `ns` (transparent).
    """

    pattern: str
    kind: str | None = None
    scope: str = "any"  # top, member (directly in a class body) or any
    body: str | None = None
    kinds: Mapping[str, tuple[str, str | None]] | None = None
    judge: Callable[[Callable[[str], str | None], str, bool], str | None] | None = None
    col0: bool = False  # only at column 0
    ctor: bool = False  # only when the name is the enclosing class's name
    block: bool = False  # Go `const (` / `var (` / `type (` groups


@dataclass
class _Spec:
    """How one language family is cleaned, outlined and mined for imports."""

    cleaner: re.Pattern[str]
    rules: tuple[_Rule, ...]
    imports: Callable[[list[str], list[str]], list[str]]
    annotations: tuple[str, ...] = ()
    ruby: bool = False  # keyword (`def`...`end`) blocks instead of braces
    hook: Callable[..., tuple[str, str, int] | None] | None = None
    bodyless_fallback: bool = False  # no brace body: end at the next definition, not the line

    # Compiled on first use: compiling every language's alternations at import cost a quarter
    # of a second of each command line start, for files of one or two languages.
    @functools.cached_property
    def top_re(self) -> re.Pattern[str]:
        return _combine(self.rules, ("top", "any"))

    @functools.cached_property
    def member_re(self) -> re.Pattern[str]:
        return _combine(self.rules, ("member", "any"))


def _combine(rules: tuple[_Rule, ...], scopes: tuple[str, ...]) -> re.Pattern[str]:
    """One alternation per scope; alternative i is group r{i} with its own n_i/k_i/e_i groups."""
    alts = []
    for i, r in enumerate(rules):
        if r.scope in scopes:
            p = re.sub(r"\(\?P<(\w+)>", lambda m: f"(?P<{m.group(1)}_{i}>", r.pattern)
            alts.append(f"(?P<r{i}>{p})")
    return re.compile("|".join(alts) or r"(?!)")


_ID = r"[^\W\d]\w*"
_JID = r"(?:[^\W\d]|\$)[\w$]*"

_KEYWORDS = frozenset(
    "if else elif for foreach while do switch case catch try finally return function typeof "
    "sizeof throw await yield synchronized unless until".split()
)


def _upper(name: str) -> bool:
    return name.isupper()


def _js_variable(get: Callable[[str], str | None], name: str, member: bool) -> str | None:
    """Exported bindings are API; other module-level ones count only if named like constants."""
    if get("e"):
        return "constant" if get("k") == "const" else "variable"
    return "constant" if _upper(name) else None


def _upper_constant(get: Callable[[str], str | None], name: str, member: bool) -> str | None:
    return "constant" if _upper(name) else None


def _swift_let(get: Callable[[str], str | None], name: str, member: bool) -> str | None:
    """Top-level `let`s and `static let`s are constants; instance `let`s are fields."""
    return "constant" if not member or "static" in (get("*") or "").split() else None


def _c_define(get: Callable[[str], str | None], name: str, member: bool) -> str | None:
    return "function" if get("k") else "constant"


def _ruby_constant(get: Callable[[str], str | None], name: str, member: bool) -> str | None:
    return "class" if get("v") else "constant"


_CLASSY = {"class": ("class", "class"), "interface": ("interface", "class")}

_JS_EXP = r"(?:export\s+(?:default\s+)?)?(?:declare\s+)?"
_JS_RULES = (
    _Rule(_JS_EXP + r"(?:async\s+)?function\b\s*\*?\s*(?P<n>" + _JID + ")", "function", "top",
          "func"),
    _Rule(_JS_EXP + r"(?:abstract\s+)?class\s+(?P<n>" + _JID + ")", "class", "top", "class"),
    _Rule(_JS_EXP + r"interface\s+(?P<n>" + _JID + ")", "interface", "top", "class"),
    _Rule(_JS_EXP + r"type\s+(?P<n>" + _JID + r")\s*(?=[<=])", "type", "top"),
    _Rule(_JS_EXP + r"(?:const\s+)?enum\s+(?P<n>" + _JID + ")", "enum", "top"),
    _Rule(_JS_EXP + r"(?:namespace|module|global)\b", None, "top", "ns"),
    _Rule(_JS_EXP + r"(?:const|let|var)\s+(?P<n>" + _JID + r")\s*(?::[^=]*)?=\s*(?:async\s+)?"
          r"(?:function\b|(?:<[^>]*>\s*)?\([^)]*\)\s*(?::[^=]*)?=>|(?:<[^>]*>\s*)?\(\s*$|"
          + _JID + r"\s*=>)", "function", "top", "func"),
    _Rule(r"(?P<e>export\s+(?:default\s+)?)?(?:declare\s+)?(?P<k>const|let|var)\s+(?P<n>"
          + _JID + ")", "constant", "top", judge=_js_variable),
    # possessive where whitespace meets whitespace: `\s*\??\s*(<…>)?\s*\(` backtracked in
    # cubic time over an aligned field (`private foo<many spaces>: T;`), 12 ms a line
    _Rule(r"(?:@[\w.$]+(?:\([^)]*\))?\s+)*(?:(?:public|private|protected|static|readonly|"
          r"abstract|async|override|declare|accessor|get|set)\s++)*\*?\s*+(?P<n>#?" + _JID
          + r")\s*+\??\s*+(?:<[^>]*>)?\s*+\(", "method", "member", "func"),
    _Rule(r"(?:(?:public|private|protected|static|readonly|override)\s++)*(?P<n>#?" + _JID
          + r")\s*+(?::[^=]*+)?=\s*+(?:async\s++)?(?:\([^)]*\)|" + _JID
          + r")\s*+(?::[^=]*+)?=>", "method", "member", "func"),
)

_GO_RULES = (
    _Rule(r"func\s*\([^)]*\)\s*(?P<n>" + _ID + ")", "method", "top", "func"),
    _Rule(r"func\s+(?P<n>" + _ID + ")", "function", "top", "func"),
    _Rule(r"type\s+(?P<n>" + _ID + r")\s*(?:\[[^\]]*\]\s*)?(?P<k>struct|interface)\b",
          kinds={"struct": ("struct", None), "interface": ("interface", None)}),
    _Rule(r"(?P<k>const|var|type)\s*\(", block=True),
    _Rule(r"type\s+(?P<n>" + _ID + ")", "type"),
    _Rule(r"const\s+(?P<n>" + _ID + ")", "constant"),
    _Rule(r"var\s+(?P<n>" + _ID + ")", "variable"),
)

_J_MODS = (r"(?:@[\w.]+(?:\([^)]*\))?\s+)*(?:(?:public|protected|private|static|final|abstract|"
           r"sealed|non-sealed|strictfp|default|synchronized|native|transient|volatile)\s+)*")
_J_TYPE = r"[\w$.]+(?:\s*<[^()=;{}]*>)?(?:\s*\[\s*\])*"
_JAVA_RULES = (
    _Rule(_J_MODS + r"(?P<k>class|interface|enum|record|@interface)\s+(?P<n>" + _ID + ")",
          kinds={**_CLASSY, "enum": ("enum", "class"), "record": ("class", "class"),
                 "@interface": ("interface", "class")}),
    _Rule(r"(?:(?:public|protected|private)\s+)?(?:static\s+final|final\s+static)\s+" + _J_TYPE
          + r"\s+(?P<n>" + _ID + r")\s*[=;]", "constant", "member"),
    _Rule(_J_MODS + r"(?:<[^()]*?>\s+)?" + _J_TYPE + r"\s+(?P<n>" + _ID + r")\s*\(", "method",
          "member", "func"),
    _Rule(_J_MODS + r"(?P<n>" + _ID + r")\s*\(", "method", "member", "func", ctor=True),
)

_K_MODS = (r"(?:@[\w.:]+(?:\([^)]*\))?\s+)*(?:(?:public|private|protected|internal|open|abstract|"
           r"final|override|sealed|data|inner|value|inline|suspend|operator|infix|tailrec|"
           r"external|expect|actual|lateinit)\s+)*")
_KOTLIN_RULES = (
    _Rule(_K_MODS + r"fun\s+(?:<[^>]*>\s*)?(?:[\w.?]+(?:<[^>]*>)?\??\.)?(?P<n>" + _ID
          + r"|`[^`]+`)\s*[(<]", "function", body="func"),
    _Rule(_K_MODS + r"(?P<k>enum\s+class|annotation\s+class|fun\s+interface|class|interface|"
          r"object)\s+(?P<n>" + _ID + ")",
          kinds={**_CLASSY, "object": ("class", "class"), "enum class": ("enum", "class"),
                 "annotation class": ("class", "class"),
                 "fun interface": ("interface", "class")}),
    _Rule(_K_MODS + r"companion\s+object\b", body="class"),
    _Rule(_K_MODS + r"typealias\s+(?P<n>" + _ID + ")", "type"),
    _Rule(_K_MODS + r"const\s+val\s+(?P<n>" + _ID + ")", "constant"),
    _Rule(_K_MODS + r"(?:val|var)\s+(?P<n>" + _ID + r")\s*[:=]", "constant",
          judge=_upper_constant),
)

_S_MODS = (r"(?:@[\w.]+(?:\([^)]*\))?\s+)*(?:(?:public|private|fileprivate|"
           r"internal|open|final|static|class|override|mutating|nonmutating|convenience|"
           r"required|lazy|weak|unowned|dynamic|indirect|nonisolated|distributed|optional)"
           r"(?:\s*+\([^)]*\))?\s++)*")  # possessive: `\s*(…)?\s+` was quadratic in spaces
_SWIFT_RULES = (
    _Rule(_S_MODS + r"func\s+(?P<n>" + _ID + ")", "function", body="func"),
    _Rule(_S_MODS + r"(?P<n>init|deinit)\b", "method", "member", "func"),
    _Rule(_S_MODS + r"(?P<k>class|struct|enum|protocol|actor)\s+"
          r"(?!(?:func|var|let|subscript|init)\b)(?P<n>" + _ID + ")",
          kinds={"class": ("class", "class"), "struct": ("struct", "class"),
                 "enum": ("enum", "class"), "protocol": ("interface", "class"),
                 "actor": ("class", "class")}),
    _Rule(_S_MODS + r"extension\b", body="class"),
    _Rule(_S_MODS + r"typealias\s+(?P<n>" + _ID + ")", "type"),
    _Rule(_S_MODS + r"let\s+(?P<n>" + _ID + ")", "constant", judge=_swift_let),
)

_SC_MODS = (r"(?:@[\w.]+(?:\([^)]*\))?\s+)*(?:(?:private|protected|final|sealed|abstract|"
            r"implicit|lazy|override|case|inline|transparent|open|opaque|infix)"
            r"(?:\[[\w.]*\])?\s+)*")
_SCALA_RULES = (
    _Rule(_SC_MODS + r"def\s+(?P<n>[\w$]+|`[^`]+`)", "function", body="func"),
    _Rule(_SC_MODS + r"(?P<k>class|trait|object|enum)\s+(?P<n>[\w$]+)",
          kinds={"class": ("class", "class"), "trait": ("interface", "class"),
                 "object": ("class", "class"), "enum": ("enum", "class")}),
    _Rule(_SC_MODS + r"type\s+(?P<n>[\w$]+)", "type"),
    _Rule(_SC_MODS + r"(?:val|var)\s+(?P<n>[A-Z][\w$]*)\s*[:=]", "constant"),
)

_R_VIS = r"(?:pub(?:\s*\([^)]*\))?\s+)?"
_RUST_RULES = (
    _Rule(_R_VIS + r"(?:(?:const|async|unsafe|default|extern(?:\s*\"\")?)\s+)*fn\s+(?P<n>"
          + _ID + ")", "function", body="func"),
    _Rule(_R_VIS + r"(?:(?:unsafe|auto)\s+)*(?P<k>struct|enum|union|trait)\s+(?P<n>" + _ID + ")",
          kinds={"struct": ("struct", None), "enum": ("enum", None), "union": ("struct", None),
                 "trait": ("interface", "class")}),
    _Rule(_R_VIS + r"type\s+(?P<n>" + _ID + ")", "type"),
    _Rule(_R_VIS + r"(?:const|static(?:\s+mut)?)\s+(?P<n>" + _ID + r")\s*:", "constant"),
    _Rule(_R_VIS + r"mod\s+(?P<n>" + _ID + r")\s*(?:\{|$)", "module", body="ns"),
    _Rule(r"(?:default\s+)?(?:unsafe\s+)?impl\b", body="class"),
    _Rule(r"(?:unsafe\s+)?extern\s*(?:\"\"\s*)?\{", body="ns"),
    _Rule(r"macro_rules!\s*(?P<n>" + _ID + ")", "function"),
)

_RUBY_RULES = (
    _Rule(r"(?:(?:private|protected|public|module_function)\s+)?def\s+"
          r"(?:self\s*\.\s*|[A-Z]\w*\s*\.\s*)?(?P<n>" + _ID + r"[?!=]?)", "function", body="func"),
    _Rule(r"class\s*<<", body="class"),
    _Rule(r"class\s+(?:[A-Z]\w*::)*(?P<n>[A-Z]\w*)", "class", body="class"),
    _Rule(r"module\s+(?:[A-Z]\w*::)*(?P<n>[A-Z]\w*)", "module", body="class"),
    _Rule(r"(?P<n>[A-Z]\w*)\s*(?:\|\|)?=(?![=~>])(?P<v>\s*(?:Struct|Class|Data)\."
          r"(?:new|define)\b)?", "constant", body="class", judge=_ruby_constant),
)

_PHP_RULES = (
    _Rule(r"(?:(?:abstract|final|readonly)\s+)*(?P<k>class|interface|trait|enum)\s+(?P<n>"
          + _ID + ")", kinds={**_CLASSY, "trait": ("interface", "class"),
                              "enum": ("enum", "class")}),
    _Rule(r"(?:(?:public|private|protected|static|abstract|final)\s+)*function\s+&?\s*(?P<n>"
          + _ID + r")\s*\(", "function", body="func"),
    _Rule(r"(?:(?:public|private|protected|final)\s+)*const\s+(?:\w+\s+)?(?P<n>" + _ID
          + r")\s*=", "constant"),
    _Rule(r"namespace\s+[\w\\]+\s*\{", body="ns"),
)

_CS_MODS = (r"(?:\[[^\]]*\]\s*)*(?:(?:public|private|protected|internal|static|sealed|abstract|"
            r"partial|readonly|unsafe|new|override|virtual|async|extern|file|required|volatile|"
            r"ref)\s+)*")
_CS_TYPE = r"[\w.]+(?:\s*<[^()=;{}]*>)?\??(?:\s*\[[\s,]*\])*\??"
_CSHARP_RULES = (
    _Rule(_CS_MODS + r"(?P<k>record\s+struct|record\s+class|class|interface|struct|enum|record)"
          r"\s+(?P<n>" + _ID + ")",
          kinds={**_CLASSY, "struct": ("struct", "class"), "enum": ("enum", "class"),
                 "record": ("class", "class"), "record class": ("class", "class"),
                 "record struct": ("struct", "class")}),
    _Rule(r"namespace\s+[\w.]+\s*(?:\{|$)", body="ns"),
    _Rule(_CS_MODS + r"delegate\s+" + _CS_TYPE + r"\s+(?P<n>" + _ID + ")", "type"),
    _Rule(_CS_MODS + r"const\s+" + _CS_TYPE + r"\s+(?P<n>" + _ID + ")", "constant", "member"),
    _Rule(_CS_MODS + _CS_TYPE + r"\s+(?P<n>" + _ID + r")\s*(?:<[^()]*>)?\s*\(", "method",
          "member", "func"),
    _Rule(_CS_MODS + r"(?P<n>" + _ID + r")\s*\(", "method", "member", "func", ctor=True),
)

_C_RULES = (
    _Rule(r"#\s*define\s+(?P<n>" + _ID + r")(?P<k>\()?", "constant", judge=_c_define),
    _Rule(r"(?:(?:typedef|static|extern|const)\s+)*(?:template\s*<[^;{]*>\s*)?"
          r"(?P<k>struct|class|union|enum\s+class|"
          r"enum\s+struct|enum)\s+(?:(?:__attribute__\(\([^)]*\)\)|alignas\([^)]*\)|"
          r"[A-Z][A-Z0-9_]+)\s+)*(?P<n>" + _ID + r")\s*(?:final\s*)?(?:\{|:(?!:)|$)",
          kinds={"struct": ("struct", "class"), "class": ("class", "class"),
                 "union": ("struct", "class"), "enum": ("enum", None),
                 "enum class": ("enum", None), "enum struct": ("enum", None)}),
    _Rule(r"(?:inline\s+)?namespace\b[\w\s:]*\{", body="ns"),
    _Rule(r"extern\s*\"\"\s*\{", body="ns"),
    _Rule(r"typedef\s+[^;{}()]*?\(\s*\*\s*(?P<n>" + _ID + r")\s*\)", "type"),
    _Rule(r"typedef\s+[^;{}()]*?\b(?P<n>" + _ID + r")\s*(?:\[[^\]]*\]\s*)?;", "type"),
    _Rule(r"using\s+(?P<n>" + _ID + r")\s*=", "type"),
)

_SHELL_RULES = (
    _Rule(r"function\s+(?P<n>[^\W\d][\w.:-]*)", "function", body="func"),
    _Rule(r"(?P<n>[^\W\d][\w.:-]*)\s*\(\s*\)", "function", body="func"),
    _Rule(r"(?:(?:export|readonly|declare(?:\s+-\w+)*)\s+)?(?P<n>[A-Z_][A-Z0-9_]*)=",
          "constant", judge=_upper_constant, col0=True),
)

_GENERIC_RULES = (
    _Rule(r"(?:(?:export|public|private|protected|static|async|local|pub|override|final|"
          r"abstract|inline)\s+)*(?:function|func|fn|def|defp|defn|fun|sub|proc|procedure)\s+"
          r"[&*]?(?P<n>[^\W\d][\w$]*(?:[.:][^\W\d][\w$]*)*)", "function", body="func"),
    _Rule(r"(?:(?:export|public|private|abstract|final|data|sealed|open)\s+)*(?P<k>class|"
          r"interface|struct|enum|trait|protocol|module|object|record|defmodule|message|"
          r"service)\s+(?P<n>[^\W\d][\w.:]*)",
          kinds={**_CLASSY, "struct": ("struct", "class"), "enum": ("enum", None),
                 "trait": ("interface", "class"), "protocol": ("interface", "class"),
                 "module": ("module", "class"), "object": ("class", "class"),
                 "record": ("class", "class"), "defmodule": ("module", "class"),
                 "message": ("struct", "class"), "service": ("interface", "class")}),
)


# --------------------------------------------------------------------------------------------
# C/C++ functions have no keyword, so they are recognised by shape instead of by a rule.

_C_HEAD_OK = re.compile(r"[\w\s*&:<>,~\[\]]*")
_C_TYPEISH = re.compile(r"[^\W\d][\w\s*&:<>,]*")
_IDENT = re.compile(r"~?[^\W\d]\w*")
_C_NOT_TYPE = frozenset(
    "return else case goto delete new throw typedef co_return using namespace if while for "
    "switch do sizeof defined static_assert alignof decltype __attribute__ __declspec operator "
    "template public private protected".split()
)
_C_TYPES = frozenset(
    "int char void long short unsigned signed float double bool auto const struct enum union "
    "static inline extern volatile register".split()
)


def _c_function(s: str, clean: list[str], i: int, member: bool, owner: str | None):
    """`type name(` at top level or in a class body: a function, method or prototype."""
    p = s.find("(")
    if p <= 0 or s[0] == "#":
        return None
    head = s[:p]
    if not _C_HEAD_OK.fullmatch(head):
        return None
    toks = head.replace("*", " ").replace("&", " ").split()
    if not toks:
        return None
    name = toks[-1]
    short = name.rsplit("::", 1)[-1]
    bare = short.lstrip("~")
    if (not _IDENT.fullmatch(short) or bare in _C_NOT_TYPE or bare in _C_TYPES
            or bare.isupper()):
        return None
    start = i
    if toks[:-1]:
        if toks[0] in _C_NOT_TYPE:
            return None
    elif "::" in name or (member and bare == owner):
        pass  # constructors and destructors have no return type
    elif len(s) == len(clean[i]) and i > 0:  # GNU style: the return type is on the line above
        prev = clean[i - 1].strip()
        if not (prev and _C_TYPEISH.fullmatch(prev) and prev.split()[0] not in _C_NOT_TYPE):
            return None
        start = i - 1
    else:
        return None
    return short, ("method" if member or "::" in name else "function"), start


# --------------------------------------------------------------------------------------------
# Imports.

_JS_FROM = re.compile(r"""\bfrom\s*(['"])([^'"\n]+)\1""")
_JS_SIDE = re.compile(r"""import\s*(['"])([^'"\n]+)\1""")
_JS_CALL = re.compile(r"""\b(?:require|import)\s*\(\s*(['"])([^'"\n]+)\1\s*\)""")
_GO_ONE = re.compile(r'\s*import\s+(?:[\w.]+\s+)?"([^"\n]+)"')
_GO_ITEM = re.compile(r'\s*(?:[\w.]+\s+)?"([^"\n]+)"')
_JAVA_IMP = re.compile(r"\s*import\s+(?:static\s+)?([\w$]+(?:\.[\w$]+)*(?:\.\*)?)")
_KOTLIN_IMP = re.compile(r"\s*import\s+([\w`]+(?:\.[\w`]+)*(?:\.\*)?)")
_SCALA_IMP = re.compile(r"\s*import\s+(.+)")
_CS_IMP = re.compile(r"\s*(?:global\s+)?using\s+(?:static\s+)?(?:\w+\s*=\s*)?([\w.]+)\s*;")
_SWIFT_IMP = re.compile(r"\s*(?:@[\w.]+(?:\([^)]*\))?\s+)*import\s+(?:(?:typealias|struct|"
                        r"class|enum|protocol|let|var|func)\s+)?([\w.]+)")
_RUST_USE = re.compile(r"\s*(?:pub(?:\s*\([^)]*\))?\s+)?use\s+(.*)")
_RUST_MOD = re.compile(r"\s*(?:pub(?:\s*\([^)]*\))?\s+)?mod\s+(\w+)\s*;")
_RUST_CRATE = re.compile(r"\s*extern\s+crate\s+(\w+)")
_C_INCLUDE = re.compile(r'\s*#\s*(?:include|import)\s*[<"]([^>"\n]+)[>"]')
_RB_REQUIRE = re.compile(r"""\s*(?:require|require_relative|load|autoload)\b[\s(]*"""
                         r"""(?::\w+\s*,\s*)?(['"])([^'"\n]+)\1""")
_PHP_USE = re.compile(r"\s*use\s+(?:function\s+|const\s+)?(.*)")
_PHP_REQ = re.compile(r"""\b(?:require|include)(?:_once)?\b[^;'"\n]*(['"])([^'"\n]+)\1""")
_SH_SOURCE = re.compile(r"""\s*(?:source|\.)\s+(['"]?)([^\s'";|&]+)\1""")
_MK_INCLUDE = re.compile(r"\s*-?s?include\s+(.+)")
_GEN_IMPORT = re.compile(r"""\s*(?:import|from|use|using|require|alias|include)\b\s*+\(?\s*+"""
                         r"""(['"]?)([\w./:\\@-]+)\1""")


def _live(clean: list[str], i: int) -> bool:
    """Whether line i has code outside comments and multi-line strings."""
    t = clean[i].lstrip()
    return bool(t) and t[0] != "\x01"


def _gather(clean: list[str], i: int, stop: str, limit: int = 50) -> str:
    """Line i joined with the following lines up to the one containing `stop`."""
    parts = [clean[i]]
    j = i
    while stop not in parts[-1] and j + 1 < len(clean) and j - i < limit:
        j += 1
        parts.append(clean[j].replace("\x01", " "))
    return " ".join(parts)


def _use_tree(text: str, sep: str) -> list[str]:
    """Paths of a grouped import (`a::b::{c, d::{e}}`, `A\\{B, C}`, `a.b.{C => D}`), prefixes
    included; stops at `;`."""
    text = text.split(";", 1)[0][:2000]
    out: list[str] = []

    def join(prefix: str, part: str) -> str:
        if not prefix:
            return part
        glued = prefix.endswith(sep) or part.startswith(sep)
        return prefix + part if glued else prefix + sep + part

    def walk(pos: int, prefix: str, level: int) -> int:
        while pos < len(text):
            j = pos
            while j < len(text) and text[j] not in ",{}":
                j += 1
            part = re.split(r"\s+as\s+|\s*=>", text[pos:j].strip(), maxsplit=1)[0].strip()
            if j < len(text) and text[j] == "{" and level < 8:
                base = join(prefix, part).rstrip(sep).rstrip(".")
                if base:
                    out.append(base)
                pos = walk(j + 1, base, level + 1)
                while pos < len(text) and text[pos] not in ",}":
                    pos += 1
            else:
                if part == "self" and prefix:
                    out.append(prefix)
                elif part and part not in ("*", "_", "self"):
                    out.append(join(prefix, part).rstrip(sep))
                pos = j
            if pos >= len(text) or text[pos] == "}":
                return pos + 1
            pos += 1
        return pos

    walk(0, "", 0)
    return [p.strip() for p in out if p.strip()]


def _js_imports(raw: list[str], clean: list[str]) -> list[str]:
    out = []
    for i, line in enumerate(raw):
        if not ("import" in line or "require" in line or "from" in line) or not _live(clean, i):
            continue
        s = line.lstrip()[:1000]
        if s.startswith(("import", "export", "}")):
            m = _JS_FROM.search(s) or _JS_SIDE.match(s)
            if m:
                out.append(m.group(2))
        out.extend(m.group(2) for m in _JS_CALL.finditer(s))
    return out


def _go_imports(raw: list[str], clean: list[str]) -> list[str]:
    """Paths of `import "x"` lines and `import (` blocks.

    Only a line that starts with `import` once cleaned begins one, and the word is rare
    elsewhere in code: a search for it in the whole text finds them, so the rest of a file (all
    but its head) costs no Python.
    """
    out: list[str] = []
    cleaned = "\n".join(clean)
    i = pos = 0
    done = -1  # the last line read
    at = cleaned.find("import")
    while at >= 0:
        i += cleaned.count("\n", pos, at)
        pos = at
        at = cleaned.find("import", at + 6)
        if i <= done or clean[i].lstrip()[:6] != "import":
            continue
        done = i
        if re.match(r"import\s*\(", clean[i].strip()):
            out.extend(re.findall(r'"([^"\n]+)"', raw[i]))
            if ")" not in clean[i]:
                done = _go_block(raw, clean, i + 1, out)
        else:
            one = _GO_ONE.match(raw[i])
            if one:
                out.append(one.group(1))
    return out


def _go_block(raw: list[str], clean: list[str], i: int, out: list[str]) -> int:
    """The paths of an import block from line i into `out`; the line that closes it."""
    while i < len(clean) and not clean[i].strip().startswith(")"):
        m = _GO_ITEM.match(raw[i])
        if m and _live(clean, i):
            out.append(m.group(1))
        i += 1
    return i


def _line_imports(rx: re.Pattern[str], needle: str, group: int = 1, raw_text: bool = False):
    """An importer matching `rx` at the start of every live line that contains `needle`."""

    def imports(raw: list[str], clean: list[str]) -> list[str]:
        src = raw if raw_text else clean
        out = []
        for i, line in enumerate(src):
            if needle in line:
                m = rx.match(line[:1000])
                if m and m.group(group) != "var" and _live(clean, i):
                    out.append(m.group(group))
        return out

    return imports


def _scala_imports(raw: list[str], clean: list[str]) -> list[str]:
    out = []
    for line in clean:
        if "import" in line:
            m = _SCALA_IMP.match(line[:1000])
            if m:
                out.extend(_use_tree(m.group(1), "."))
    return out


def _rust_imports(raw: list[str], clean: list[str]) -> list[str]:
    out = []
    for i, line in enumerate(clean):
        if "use" in line:
            m = _RUST_USE.match(line[:1000])
            if m:
                out.extend(_use_tree(_RUST_USE.match(_gather(clean, i, ";")).group(1), "::"))
                continue
        if "mod" in line or "crate" in line:
            m = _RUST_MOD.match(line) or _RUST_CRATE.match(line)
            if m:
                out.append(m.group(1))
    return out


def _php_imports(raw: list[str], clean: list[str]) -> list[str]:
    out = []
    for i, line in enumerate(clean):
        if "use" in line:
            m = _PHP_USE.match(line[:1000])
            if m:
                out.extend(_use_tree(_PHP_USE.match(_gather(clean, i, ";")).group(1), "\\"))
        r = raw[i]
        if ("require" in r or "include" in r) and _live(clean, i):
            out.extend(m.group(2) for m in _PHP_REQ.finditer(r[:1000]))
    return out


def _make_imports(raw: list[str], clean: list[str]) -> list[str]:
    out = []
    for line in clean:
        if "include" in line:
            m = _MK_INCLUDE.match(line)
            if m:
                out.extend(m.group(1).split())
    return out


def _generic_imports(raw: list[str], clean: list[str]) -> list[str]:
    out = []
    for i, line in enumerate(raw):
        if _live(clean, i):
            m = _C_INCLUDE.match(line) or _GEN_IMPORT.match(line[:1000])
            if m:
                out.append(m.group(m.lastindex or 1))
    return out


# --------------------------------------------------------------------------------------------
# Language table.

_JS = _Spec(_cleaner(_JS_BLOCK, _C_LINE, _JS_REGEX, _BT, _DQ, _SQ), _JS_RULES, _js_imports,
            ("@",))
_C = _Spec(_cleaner(_C_BLOCK, _C_LINE, _DQ, _CHAR, _CPP_RAW), _C_RULES,
           _line_imports(_C_INCLUDE, "#", raw_text=True), ("template",), hook=_c_function)
_SPECS: dict[str, _Spec | str] = {
    "python": "python", "starlark": "python", "make": "make",
    "javascript": _JS, "typescript": _JS, "vue": _JS, "svelte": _JS,
    "c": _C, "cpp": _C, "objective-c": _C,
    "go": _Spec(_cleaner(_C_BLOCK, _C_LINE, _RAW_BT, _DQ, _CHAR), _GO_RULES, _go_imports),
    "java": _Spec(_cleaner(_C_BLOCK, _C_LINE, _TDQ, _DQ, _CHAR), _JAVA_RULES,
                  _line_imports(_JAVA_IMP, "import"), ("@",)),
    "kotlin": _Spec(_cleaner(_C_BLOCK, _C_LINE, _TDQ, _DQ, _CHAR), _KOTLIN_RULES,
                    _line_imports(_KOTLIN_IMP, "import"), ("@",)),
    "swift": _Spec(_cleaner(_C_BLOCK, _C_LINE, _TDQ, _DQ), _SWIFT_RULES,
                   _line_imports(_SWIFT_IMP, "import"), ("@",)),
    "scala": _Spec(_cleaner(_C_BLOCK, _C_LINE, _TDQ, _DQ, _CHAR), _SCALA_RULES, _scala_imports,
                   ("@",)),
    "rust": _Spec(_cleaner(_C_BLOCK, _C_LINE, _CHAR, _DQ_ML, _RUST_RAW), _RUST_RULES,
                  _rust_imports, ("#[",)),
    "csharp": _Spec(_cleaner(_C_BLOCK, _C_LINE, _TDQ, _CS_VERBATIM, _CS_VERBATIM2, _DQ, _CHAR),
                    _CSHARP_RULES, _line_imports(_CS_IMP, "using"), ("[",)),
    "php": _Spec(_cleaner(_C_BLOCK, _C_LINE, _PHP_HASH, _DQ, _SQ), _PHP_RULES, _php_imports,
                 ("#[",)),
    "ruby": _Spec(_cleaner(_RB_BEGIN, _HASH, _DQ, _SQ, flags=re.M), _RUBY_RULES,
                  _line_imports(_RB_REQUIRE, "", group=2, raw_text=True), ruby=True),
    "shell": _Spec(_cleaner(_SH_HASH, _DQ, _SH_SQ), _SHELL_RULES,
                   _line_imports(_SH_SOURCE, "", group=2, raw_text=True)),
}
_GENERIC = _Spec(_cleaner(_C_BLOCK, _C_LINE, _SH_HASH, _DQ, _SQ), _GENERIC_RULES,
                 _generic_imports, bodyless_fallback=True)
_PY_CLEANER = _cleaner(_TDQ, _TSQ, _DQ, _SQ, _HASH)
_MK_CLEANER = _cleaner(_HASH)


# --------------------------------------------------------------------------------------------
# Brace (and Ruby keyword) languages: one pass over the cleaned lines.

_NOT_BRACE = re.compile(r"[^{}\n]+")
_NOT_BRACKET = re.compile(r"[^()\[\]{}\n]+")
_ASCII_BRACE = bytes(c for c in range(128) if chr(c) not in "{}\n")  # bytes to delete
_ASCII_BRACKET = bytes(c for c in range(128) if chr(c) not in "()[]{}\n")


def _only(cleaned: str, delete: bytes, rx: re.Pattern[str]) -> list[str]:
    """Per line, just the bracket characters kept by `delete`/`rx`, in order: an ASCII text
    through bytes.translate (a table look-up per byte; str.translate looks up a dict)."""
    if cleaned.isascii():
        return cleaned.encode("ascii").translate(None, delete).decode("ascii").split("\n")
    return rx.sub("", cleaned).split("\n")


_EV_STEP = {"{": 1, "}": -1}
_CONT_END = (",", "(", "[", "=", "=>", "->", "+", "-", "*", "/", "%", "|", "&", ":", ".", "\\",
             "<", "where")
_CONT_NEXT = re.compile(
    r"(?:[{:.?,|=&+]|->|(?:where|throws|extends|implements|with|requires|noexcept)\b)")
_RB_EVENTS = re.compile(
    r"^\s*(?:(?:private|protected|public|module_function)\s+)?"
    r"(?P<o>class|module|def|if|unless|while|until|case|begin|for)\b"
    r"|[=(,]\s*(?P<x>if|unless|case|begin|while|until)\b"
    r"|(?<![.:\w@$])(?P<d>do)\b(?![?!:])"
    r"|(?<![.:\w@$])(?P<c>end)\b(?![?!:])"
)
_RB_HINT = re.compile(r"end|do|if|unless|while|until|case|begin|class|module|def|for")
_RB_ENDLESS_DEF = re.compile(r"\s*(?:(?:private|protected|public)\s+)?def\s+[\w.?!]+"
                             r"(?:\([^)]*\))?\s*=(?!=)")


def _ruby_events(line: str) -> list[str]:
    """Ruby block openers and `end`s of a line as virtual braces, in order."""
    if not _RB_HINT.search(line):
        return []
    evs = []
    loop = False
    for m in _RB_EVENTS.finditer(line):
        if m.group("c"):
            evs.append("}")
        elif m.group("d"):
            if not loop:
                evs.append("{")
        else:
            kw = m.group("o")
            if kw == "def" and _RB_ENDLESS_DEF.match(line):
                continue
            loop = kw in ("while", "until", "for")
            evs.append("{")
    return evs


def _continues(clean: list[str], i: int) -> bool:
    """Whether the statement on line i goes on to the next line (operator, `{`, `where`...)."""
    t = clean[i].rstrip()
    if t.endswith(";"):
        return False
    if t.endswith(_CONT_END):
        return True
    for j in range(i + 1, min(len(clean), i + 4)):
        u = clean[j].lstrip()
        if u:
            return u[0] != "\x01" and _CONT_NEXT.match(u) is not None
    return False


def _annotated_start(clean: list[str], i: int, prefixes: tuple[str, ...]) -> int:
    """Line i moved up over the decorator/annotation/attribute lines directly above it."""
    j = i
    while prefixes and j > 0 and i - j < 20:
        t = clean[j - 1].strip()
        if (not t or not t.startswith(prefixes) or t.endswith((";", "{", "}"))
                or (t[0] == "[" and not t.endswith("]"))):
            break  # not an annotation line (or an annotated field/statement)
        j -= 1
    return j


def _last_code(clean: list[str], start: int, j: int) -> int:
    """The last line in start..j that is not blank."""
    while j > start and not clean[j].strip():
        j -= 1
    return max(start, j)


def _set_end(syms: list[list], tag: list, line: int) -> None:
    """End the tag's symbol on `line` unless a closing brace already did."""
    if tag[1] >= 0 and syms[tag[1]][3] is None:
        syms[tag[1]][3] = line


def _match_rule(spec: _Spec, s: str, member: bool, owner: str | None, cdepth: int):
    """(rule, name, kind) of the definition a stripped line starts, or None."""
    m = (spec.member_re if member else spec.top_re).match(s)
    if m is None:
        return None
    ri = int(m.lastgroup[1:])
    rule = spec.rules[ri]

    def get(g: str) -> str | None:
        if g == "*":
            return m.group()
        try:
            return m.group(f"{g}_{ri}")
        except IndexError:
            return None

    name = get("n")
    kind, body = rule.kind, rule.body
    if rule.kinds:
        kind, body = rule.kinds.get(" ".join(get("k").split()), (kind, body))
    if name is not None:
        name = _tidy(name)
        if not name or name in _KEYWORDS or (rule.ctor and name != owner):
            return None
        if rule.judge is not None:
            kind = rule.judge(get, name, member)
            if kind is None:
                return None
    elif rule.block:
        return rule, None, get("k")
    if kind == "function" and (member or (spec.ruby and cdepth > 0)):
        kind = "method"
    return rule, name, (kind, body)


def _tidy(name: str) -> str:
    """Plain name: backticks dropped, qualification (`a.b`, `A::B`) reduced to the last part."""
    name = name.strip("`")
    if "." in name or ":" in name:
        name = re.split(r"[.:]+", name.rstrip(".:"))[-1]
    return name


class _Blocks:
    """The open blocks of a brace scan.

    Each entry is None or the tag [body, symbol index, name, header indent] of the definition
    whose body it is; `funcs` holds the stack positions of open function bodies (whose insides
    are not outlined) and `classes` counts open class-like bodies.
    """

    __slots__ = ("stack", "funcs", "classes", "syms")

    def __init__(self, syms: list[list]) -> None:
        self.stack: list[list | None] = []
        self.funcs: list[int] = []
        self.classes = 0
        self.syms = syms

    def push(self, tag: list | None) -> None:
        self.stack.append(tag)
        if tag is not None:
            if tag[0] == "func":
                self.funcs.append(len(self.stack) - 1)
            elif tag[0] == "class":
                self.classes += 1

    def pop(self, line: int) -> list | None:
        """Close the innermost block on `line`; a stray closing brace is ignored."""
        if not self.stack:
            return None
        tag = self.stack.pop()
        if tag is not None:
            self._closed(tag, line)
        return tag

    def truncate(self, pos: int, line: int) -> None:
        """Close every block from stack position `pos` inward, ending them on `line`."""
        for tag in reversed(self.stack[pos:]):
            if tag is not None:
                self._closed(tag, line)
        del self.stack[pos:]

    def bulk(self, evs: str | list[str], line: int) -> None:
        """Apply many braces at once (minified or generated lines), without tagging."""
        low = min(accumulate(map(_EV_STEP.__getitem__, evs), initial=0))
        self.truncate(max(0, len(self.stack) + low), line)
        self.stack.extend([None] * (evs.count("{") - evs.count("}") - low))

    def _closed(self, tag: list, line: int) -> None:
        if tag[0] == "func":
            self.funcs.pop()
        elif tag[0] == "class":
            self.classes -= 1
        if tag[1] >= 0:
            self.syms[tag[1]][3] = line


_GROUP = object()  # marks a Go `const (` / `var (` / `type (` group in `_detect` results


def _outline_structured(spec: _Spec, clean: list[str], braces: list[str],
                        syms: list[list]) -> None:
    """Definitions of a brace (or Ruby) file into `syms` as [name, kind, start, end, depth].

    A definition waits as `pend` until its body brace opens (the brace is tagged with it), or
    its header ends (`;`, balanced brackets and no continuation), or MAX_HEADER lines pass.
    """
    blocks = _Blocks(syms)
    funcs, stack = blocks.funcs, blocks.stack  # mutated in place, never rebound
    pend: list | None = None  # [tag, start, base depth, bracket depth, closed on this line]
    group: list | None = None  # Go group: [kind, paren depth, brace depth]
    for i, line in enumerate(clean):
        s = line.lstrip()
        if s and s[0] != "\x01":
            # most lines are inside a function body, indented deeper than its header: _resync
            # would return at once, so it is not called for them (a third of the loop's time)
            if funcs and s[0] not in "})]" and len(line) - len(s) <= stack[funcs[-1]][3]:
                _resync(spec, blocks, s, line, clean, i)
            hit = None
            if group is not None:
                if group[1] == 1 and len(blocks.stack) == group[2] and s[0] != ")":
                    hit = _go_group_item(group[0], s, i)
            elif not blocks.funcs and len(syms) < MAX_SYMBOLS:
                top = blocks.stack[-1] if blocks.stack else None
                hit = _detect(spec, s, line, clean, i, top, blocks.classes)
                if hit is not None and hit[0] is _GROUP:
                    group, hit = [hit[1], 0, len(blocks.stack)], None
            if hit is not None:
                pend = _begin(spec, hit, pend, clean, i, blocks)
        evs = (_ruby_events(line) if s else ()) if spec.ruby else braces[i]
        if len(evs) > 64:
            blocks.bulk(evs, i)
        else:
            for ev in evs:  # blocks.push and blocks.pop, inlined for untagged blocks
                if ev == "{":
                    if pend is not None and len(stack) == pend[2]:
                        blocks.push(pend[0])
                    else:
                        stack.append(None)
                elif stack:
                    tag = stack.pop()
                    if tag is not None:
                        blocks._closed(tag, i)
                        if pend is not None and tag is pend[0]:
                            pend[4] = True  # a body opened and closed on this line
        if pend is not None:
            pend = _settle(pend, blocks.stack, clean, i, syms, spec.bodyless_fallback)
        if group is not None:
            group[1] += line.count("(") - line.count(")")
            if group[1] <= 0:
                group = None


def _detect(spec: _Spec, s: str, line: str, clean: list[str], i: int, top: list | None,
            classes: int):
    """(name, kind, body, start line) of a definition starting on line i, (_GROUP, kind), or
    None; `top` is the tag of the innermost open block."""
    member = top is not None and top[0] == "class"
    owner = top[2] if member else None
    ws = s[:MATCH_WIDTH]
    found = _match_rule(spec, ws, member, owner, classes)
    if found is not None:
        rule, name, kb = found
        if rule.block:
            return _GROUP, {"const": "constant", "var": "variable"}.get(kb, "type")
        if rule.col0 and len(s) != len(line):
            return None
        return name, kb[0], kb[1], i
    if spec.hook is not None:
        h = spec.hook(ws, clean, i, member, owner)
        if h is not None:
            return h[0], h[1], "func", h[2]
    return None


def _resync(spec: _Spec, blocks: _Blocks, s: str, line: str, clean: list[str], i: int) -> None:
    """Close function bodies whose closing brace was lost (a regex literal, an apostrophe in
    JSX text, `#if` branches): a function or class indented no deeper than the enclosing
    function's header cannot be inside it."""
    indent = len(line) - len(s)
    while blocks.funcs:
        pos = blocks.funcs[-1]
        if indent > blocks.stack[pos][3]:
            return
        top = blocks.stack[pos - 1] if pos > 0 else None
        hit = _detect(spec, s, line, clean, i, top, blocks.classes)
        if hit is None or hit[0] is _GROUP or hit[2] not in ("func", "class"):
            return
        blocks.truncate(pos, _last_code(clean, 0, i - 1))


def _begin(spec: _Spec, hit: tuple, pend: list | None, clean: list[str], i: int,
           blocks: _Blocks) -> list:
    """Record a definition (unless it is a bare container like `impl`) and make it pending."""
    name, kind, body, start = hit
    syms = blocks.syms
    if pend is not None:
        _set_end(syms, pend[0], _last_code(clean, pend[1], i - 1))
    idx = -1
    if kind is not None and name and len(syms) < MAX_SYMBOLS:
        idx = len(syms)
        syms.append([name, kind, _annotated_start(clean, start, spec.annotations), None,
                     len(blocks.stack)])
    indent = len(clean[i]) - len(clean[i].lstrip())
    return [[body, idx, name, indent], start, len(blocks.stack), 0, False]


def _settle(pend: list, stack: list, clean: list[str], i: int, syms: list[list],
            fallback: bool) -> list | None:
    """After line i: keep waiting for the pending definition's body, or decide its end."""
    tag, start, base = pend[0], pend[1], pend[2]
    if len(stack) > base and stack[base] is tag:
        return None  # body open; its closing brace sets the end
    if len(stack) < base:
        _set_end(syms, tag, i)
        return None
    line = clean[i]
    pend[3] += line.count("(") + line.count("[") - line.count(")") - line.count("]")
    goes_on = pend[3] > 0 or _continues(clean, i)
    if pend[4]:  # a body opened and closed on this line
        pend[4] = False
        return pend if goes_on else None
    if not goes_on:
        if not fallback:
            _set_end(syms, tag, i)
        return None
    return pend if i - start < MAX_HEADER else None


# Possessive: gofmt pads a group's names into columns, and generated files (zerrors_*.go)
# pad them by tens of spaces, over which `\s*(...)?\s+` backtracked quadratically (half a
# second for one 9k-line file, a quarter of Go's outline time in 60 such files).
_GO_ITEM_RX = re.compile(r"(?P<n>[^\W\d]\w*+)(?:\s*+,\s*+[^\W\d]\w*+)*+"
                         r"(?:(?:\s*+\[[^\]]*+\])?\s++(?P<k>struct|interface)\b)?")


def _go_group_item(kind: str, s: str, i: int):
    """A name declared inside a Go `const (`, `var (` or `type (` group."""
    m = _GO_ITEM_RX.match(s)
    if m is None or m.group("n") == "_":
        return None
    if kind == "type" and m.group("k"):
        kind = m.group("k")
    return m.group("n"), kind, None, i


# --------------------------------------------------------------------------------------------
# Python: indentation decides where definitions end.

_PY_DEF = re.compile(r"(?:async\s+)?(def|class)\s+([^\W\d]\w*)")
_PY_TOP = re.compile(
    r"type\s+(?P<t>[^\W\d]\w*)\s*(?:\[[^\]]*\])?\s*="
    r"|(?P<a>[^\W\d]\w*)\s*:\s*(?:typing\.|t\.)?TypeAlias\s*="
    r"|(?P<c>[A-Z_][A-Z0-9_]*)\s*(?::[^=]*)?=(?!=)"
)
_PY_FROM = re.compile(r"from\s+(\.*+[\w.]*+)\s+import\b(.*)", re.S)  # possessive: dots met dots
_PY_IMPORT = re.compile(r"import\s+(.*)", re.S)
_DOTTED = re.compile(r"\.*[\w.]+")


def _outline_python(clean: list[str], brackets: list[str], syms: list[list],
                    imports: list[str]) -> None:
    """Definitions (with decorator-inclusive starts) and imports of a Python file.

    A definition ends at the last non-blank line before the next statement indented no deeper
    than it; lines inside brackets, after a backslash, or inside multi-line strings never end one.
    """
    stack: list[tuple[int, int, bool]] = []  # (indent, symbol index, is class)
    deltas: dict[str, int] = {}
    last = -1
    dec = -1
    depth = 0
    backslash = False
    for i, line in enumerate(clean):
        s = line.lstrip()
        if not s:
            backslash = False
            continue
        cont = depth > 0 or backslash or s[0] == "\x01"
        b = brackets[i]
        if b:
            d = deltas.get(b)
            if d is None:
                d = deltas[b] = _bracket_delta(b)
            depth = max(0, depth + d)
        backslash = s.endswith("\\")
        if cont:
            last = i
            continue
        indent = len(line) - len(s)
        while stack and stack[-1][0] >= indent:
            _, idx, _ = stack.pop()
            if idx >= 0:
                syms[idx][3] = last
        last = i
        c0 = s[0]
        if c0 == "@":
            if dec < 0:
                dec = i
            continue
        if c0 in "acd":
            m = _PY_DEF.match(s)
            if m:
                is_class = m.group(1) == "class"
                kind = "class" if is_class else (
                    "method" if stack and stack[-1][2] else "function")
                stack.append((indent, _add(syms, m.group(2), kind, dec if dec >= 0 else i),
                              is_class))
                dec = -1
                continue
        dec = -1
        if c0 in "if" and (s.startswith("import") or s.startswith("from")):
            imports.extend(_python_import(clean, i))
        elif indent == 0:
            m = _PY_TOP.match(s)
            if m:
                if m.group("c") is not None:
                    kind, name = ("constant" if _upper(m.group("c")) else None), m.group("c")
                else:
                    kind, name = "type", m.group("t") or m.group("a")
                if kind:
                    stack.append((0, _add(syms, name, kind, i), False))
    for _, idx, _ in stack:
        if idx >= 0:
            syms[idx][3] = last


def _bracket_delta(b: str) -> int:
    return b.count("(") + b.count("[") + b.count("{") - b.count(")") - b.count("]") - b.count("}")


def _add(syms: list[list], name: str, kind: str, start: int) -> int:
    if len(syms) >= MAX_SYMBOLS:
        return -1
    syms.append([name, kind, start, None, 0])
    return len(syms) - 1


def _python_import(clean: list[str], i: int) -> list[str]:
    """Modules of an import statement; `from a import b` gives `a` and `a.b`."""
    text = clean[i].strip()
    j = i
    balance = text.count("(") - text.count(")")
    while (balance > 0 or text.endswith("\\")) and j + 1 < len(clean) and j - i < 100:
        j += 1
        more = clean[j].replace("\x01", " ").strip()
        balance += more.count("(") - more.count(")")
        text = text.rstrip("\\") + " " + more
    text = text.split(";", 1)[0]
    m = _PY_FROM.match(text)
    if m:
        mod = m.group(1)
        out = [mod] if mod else []
        for part in m.group(2).replace("(", " ").replace(")", " ").replace("\\", " ").split(","):
            words = part.split()
            if words and words[0] != "*" and _DOTTED.fullmatch(words[0]):
                out.append(mod + words[0] if mod.endswith(".") else f"{mod}.{words[0]}")
        return out
    m = _PY_IMPORT.match(text)
    if not m:
        return []
    names = (part.split() for part in m.group(1).replace("\\", " ").split(","))
    return [w[0] for w in names if w and _DOTTED.fullmatch(w[0])]


# --------------------------------------------------------------------------------------------
# Make: targets and variables.

_MK_VAR = re.compile(r"(?:export\s+|override\s+)?(?P<n>[A-Za-z_][\w.]*)\s*(?:[:+?!]?=)")
_MK_TARGET = re.compile(r"(?P<n>[A-Za-z0-9_./-][\w./-]*)(?:\s+[\w./-]+)*\s*::?(?!=)")


def _outline_make(raw: list[str], clean: list[str], syms: list[list]) -> None:
    """Targets become functions spanning their recipe; UPPER variables become constants."""
    n = len(clean)
    for i, line in enumerate(clean):
        if not line or line[0] in " \t\x01#" or len(syms) >= MAX_SYMBOLS:
            continue
        m = _MK_VAR.match(line)
        if m:
            if _upper(m.group("n")):
                syms.append([m.group("n"), "constant", i, i, 0])
            continue
        m = _MK_TARGET.match(line)
        if m and not m.group("n").startswith("."):
            j = i
            while j + 1 < n and (raw[j + 1].startswith("\t") or clean[j].rstrip().endswith("\\")):
                j += 1
            syms.append([m.group("n"), "function", i, j, 0])


# --------------------------------------------------------------------------------------------
# Entry point.


def extract_outline(text: str, language: str | None) -> Outline:
    """Definitions (names, kinds, 1-based spans) and imports of one file; never raises.

    `language` is a name from LANGUAGES (as `language_for` returns); unknown names and None get a
    generic keyword pattern set, plain-text kinds (markdown, yaml, json...) an empty outline.
    """
    rows, imports = outline_rows(text, language)
    return Outline(symbols=tuple(Symbol(*r) for r in rows), imports=imports)


OutlineRow = tuple[str, str, int, int]
"""A definition as (name, kind, first line, last line), lines 1-based."""


def outline_rows(text: str, language: str | None) -> tuple[list[OutlineRow], tuple[str, ...]]:
    """extract_outline's definitions as plain rows, for the index: no Symbol per definition
    (a frozen dataclass costs microseconds to make, and a tree has hundreds of thousands)."""
    syms: list[list] = []
    imports: list[str] = []
    n = 0
    raw: list[str] = []
    try:
        if isinstance(text, (bytes, bytearray)):
            text = bytes(text).decode("utf-8", "replace")
        if not isinstance(text, str) or not text:
            return [], ()
        lang = language.lower() if isinstance(language, str) else None
        if lang in _NO_OUTLINE:
            return [], ()
        spec = _SPECS.get(lang, _GENERIC) if lang else _GENERIC
        text, raw = _prepare(text)
        n = len(raw)
        if spec == "python":
            cleaned = _clean(_PY_CLEANER, text)
            brackets = _only(cleaned, _ASCII_BRACKET, _NOT_BRACKET)
            _outline_python(cleaned.split("\n"), brackets, syms, imports)
        elif spec == "make":
            clean = _clean(_MK_CLEANER, text).split("\n")
            _outline_make(raw, clean, syms)
            imports.extend(_make_imports(raw, clean))
        else:
            assert isinstance(spec, _Spec)
            cleaned = _clean(spec.cleaner, text)
            clean = cleaned.split("\n")
            braces = [] if spec.ruby else _only(cleaned, _ASCII_BRACE, _NOT_BRACE)
            _outline_structured(spec, clean, braces, syms)
            imports.extend(spec.imports(raw, clean))
    except Exception:
        pass  # fall through with whatever was found
    return _finish(syms, imports, raw if n else [])


def _prepare(text: str) -> tuple[str, list[str]]:
    """The text and its lines, breaks normalised (lines.normalize), capped in size, overlong
    lines blanked."""
    if len(text) > MAX_TEXT:
        text = text[:MAX_TEXT]
    text = normalize(text)
    lines = text.split("\n")  # with the empty piece after a final break: cleaned texts split alike
    if len(text) > MAX_LINE and max(map(len, lines)) > MAX_LINE:
        lines = [ln if len(ln) <= MAX_LINE else "" for ln in lines]
        text = "\n".join(lines)
    return text, lines


def _finish(syms: list[list], imports: list[str],
            lines: list[str]) -> tuple[list[OutlineRow], tuple[str, ...]]:
    """Symbol rows with every end resolved (bounded fallback), deduplicated, capped imports."""
    syms = syms[:MAX_SYMBOLS]
    n = len(lines)
    following = _next_outer(syms) if any(s[3] is None for s in syms) else []
    out = []
    for k, (name, kind, start, end, _depth) in enumerate(syms):
        try:
            if end is None:
                end = _fallback_end(syms, k, following[k], lines)
            start = max(0, min(start, n - 1))
            end = max(start, min(end, n - 1))
            out.append((str(name), str(kind), start + 1, end + 1))
        except Exception:
            continue
    seen = dict.fromkeys(i.strip() for i in imports if isinstance(i, str) and i.strip())
    return out, tuple(list(seen)[:MAX_IMPORTS])


def _next_outer(syms: list[list]) -> list[int | None]:
    """For each symbol, the index of the next one at the same or an outer depth (one pass)."""
    following: list[int | None] = [None] * len(syms)
    waiting: list[int] = []
    for k in range(len(syms) - 1, -1, -1):
        depth = syms[k][4]
        while waiting and syms[waiting[-1]][4] > depth:
            waiting.pop()
        following[k] = waiting[-1] if waiting else None
        waiting.append(k)
    return following


def _fallback_end(syms: list[list], k: int, nxt: int | None, lines: list[str]) -> int:
    """End of an unterminated definition: before the next one at its depth, at most
    FALLBACK_SPAN lines, trailing blank lines dropped."""
    start = syms[k][2]
    end = min(len(lines) - 1, start + FALLBACK_SPAN)
    if nxt is not None and syms[nxt][2] > start:
        end = min(end, syms[nxt][2] - 1)
    while end > start and not lines[end].strip():
        end -= 1
    return max(start, end)
