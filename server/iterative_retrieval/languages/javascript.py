"""JavaScript and TypeScript (and the scripts of Vue and Svelte files): definitions and imports."""

from __future__ import annotations

import re

from .clean import BT, C_LINE, DQ, JS_BLOCK, JS_REGEX, SQ, cleaner
from .imports import live
from .rules import JID, Getter, Rule, Spec, upper


def _variable(get: Getter, name: str, member: bool) -> str | None:
    """Exported bindings are API; other module-level ones count only if named like constants."""
    if get("e"):
        return "constant" if get("k") == "const" else "variable"
    return "constant" if upper(name) else None


def _assigned(get: Getter, name: str, member: bool) -> str | None:
    """`Reply.prototype.hijack = function`, `app.use = function use`, `exports.compile = …`:
    CommonJS code defines its API by assignment (`module.exports = …` names nothing)."""
    if name in ("exports", "prototype"):
        return None
    return "method" if ".prototype." in (get("*") or "") else "function"


_EXP = r"(?:export\s+(?:default\s+)?)?(?:declare\s+)?"
RULES: tuple[Rule, ...] = (
    Rule(_EXP + r"(?:async\s+)?function\b\s*\*?\s*(?P<n>" + JID + ")", "function", "top",
          "func", inner=True),
    # `export default class extends Base {`: an anonymous class is the module's `default`
    Rule(r"export\s+(?P<n>default)\s+(?:abstract\s+)?class\b(?=\s*(?:extends\b|implements\b|\{))",
         "class", "top", "class"),
    Rule(_EXP + r"(?:abstract\s+)?class\s+(?!(?:extends|implements)\b)(?P<n>" + JID + ")",
         "class", "top", "class"),
    Rule(_EXP + r"interface\s+(?P<n>" + JID + ")", "interface", "top", "class"),
    Rule(_EXP + r"type\s+(?P<n>" + JID + r")\s*(?=[<=])", "type", "top"),
    Rule(_EXP + r"(?:const\s+)?enum\s+(?P<n>" + JID + ")", "enum", "top"),
    # not `module.exports = …`: that is CommonJS, no namespace
    Rule(_EXP + r"(?:namespace|module|global)\b(?!\s*[.=(])", None, "top", "ns"),
    Rule(_EXP + r"(?:const|let|var)\s+(?P<n>" + JID + r")\s*(?::[^=]*)?=\s*(?:async\s+)?"
          r"(?:function\b|(?:<[^>]*>\s*)?\([^)]*\)\s*(?::[^=]*)?=>|(?:<[^>]*>\s*)?\(\s*$|"
          + JID + r"\s*=>)", "function", "top", "func"),
    Rule(r"(?:[\w$]+\.)+(?P<n>" + JID + r")\s*=\s*(?:async\s+)?(?:function\b|(?:<[^>]*>\s*)?"
         r"\([^)]*\)\s*(?::[^=]*)?=>|" + JID + r"\s*=>)", "function", "top", "func",
         judge=_assigned),
    Rule(r"(?P<e>export\s+(?:default\s+)?)?(?:declare\s+)?(?P<k>const|let|var)\s+(?P<n>"
          + JID + ")", "constant", "top", judge=_variable),
    # possessive where whitespace meets whitespace: `\s*\??\s*(<…>)?\s*\(` backtracked in
    # cubic time over an aligned field (`private foo<many spaces>: T;`), 12 ms a line
    Rule(r"(?:@[\w.$]+(?:\([^)]*\))?\s+)*(?:(?:public|private|protected|static|readonly|"
          r"abstract|async|override|declare|accessor|get|set)\s++)*\*?\s*+(?P<n>#?" + JID
          + r")\s*+\??\s*+(?:<[^>]*>)?\s*+\(", "method", "member", "func"),
    Rule(r"(?:(?:public|private|protected|static|readonly|override)\s++)*(?P<n>#?" + JID
          + r")\s*+(?::[^=]*+)?=\s*+(?:async\s++)?(?:\([^)]*\)|" + JID
          + r")\s*+(?::[^=]*+)?=>", "method", "member", "func"),
    # an object literal's functions, at the top or inside a function (a factory's `return {
    # goto: (href) => {…} }`, fastify's instance): `name: function`, `name: (…) => {`,
    # `name(…) {`, `async name(…) {`, `get name() {`; an arrow member only with a block body (a
    # type literal's `cb: (e) => void` is none), and no parentheses in a method's parameters
    # (`describe('x', function () {` and `it('y', () => {` are calls)
    Rule(r"(?P<n>" + JID + r")\s*:\s*(?:async\s+)?function\b", "method", "any", "func",
         inner=True),
    Rule(r"(?P<n>" + JID + r")\s*:\s*(?:async\s+)?(?:\([^()]*\)|" + JID
         + r")\s*(?::[^=]*)?=>\s*\{\s*$", "method", "any", "func", inner=True),
    Rule(r"(?:async\s+)?(?:(?:get|set)\s+)?\*?\s*(?P<n>" + JID
         + r")\s*\([^()]*\)\s*(?::[^{}=()]*)?\{\s*$", "method", "any", "func", inner=True),
    # …and one whose body is on its line (`onError(err) { log(err) },`, Vue's `mounted() {}`,
    # `onData: (c) => { push(c) },`, not a type literal's `make: () => { id: string },`)
    Rule(r"(?:async\s+)?(?:(?:get|set)\s+)?\*?\s*(?P<n>" + JID
         + r")\s*\([^()]*\)\s*(?::[^{}=()]*)?\{[^{}]*\}\s*,?\s*$", "method", "any", "func",
         inner=True),
    Rule(r"(?P<n>" + JID + r")\s*:\s*(?:async\s+)?(?:\([^()]*\)|" + JID
         + r")\s*(?::[^=]*)?=>\s*\{(?!\s*[\w$]+\??\s*:)[^{}]*\}\s*,?\s*$", "method", "any",
         "func", inner=True),
)


def _inner_gate(s: str) -> bool:
    """Every `inner` rule's line says `function`, opens a block at its end or holds one whole:
    most lines in a function body do none of these, and skip the regex."""
    end = s.rstrip()
    return end.endswith("{") or "function" in s or (end.endswith(("}", "},")) and "{" in end)


_JS_FROM = re.compile(r"""\bfrom\s*(['"])([^'"\n]+)\1""")
_JS_SIDE = re.compile(r"""import\s*(['"])([^'"\n]+)\1""")
_JS_CALL = re.compile(r"""\b(?:require|import)\s*\(\s*(['"])([^'"\n]+)\1\s*\)""")


def _imports(raw: list[str], clean: list[str]) -> list[str]:
    out = []
    for i, line in enumerate(raw):
        if not ("import" in line or "require" in line or "from" in line) or not live(clean, i):
            continue
        s = line.lstrip()[:1000]
        if s.startswith(("import", "export", "}")):
            m = _JS_FROM.search(s) or _JS_SIDE.match(s)
            if m:
                out.append(m.group(2))
        out.extend(m.group(2) for m in _JS_CALL.finditer(s))
    return out


SPEC = Spec(cleaner(JS_BLOCK, C_LINE, JS_REGEX, BT, DQ, SQ), RULES, _imports, ("@",),
            inner_gate=_inner_gate)

NODE_BUILTINS = frozenset(
    "assert async_hooks buffer child_process cluster console constants crypto dgram dns domain "
    "events fs http http2 https inspector module net os path perf_hooks process punycode "
    "querystring readline repl stream string_decoder timers tls trace_events tty url util v8 "
    "vm wasi worker_threads zlib".split())
"""Node's own modules (`require('http')`, `from 'node:fs/promises'`): an import of one names
no file of the project, even axios's lib/adapters/http.js."""
