"""Language detection and fast structural outlines (definitions with line spans, and imports).

The indexer outlines every file of a repository, so this package trades parser precision for
speed and robustness: no third-party parsers (docs/design.md has the figures against
tree-sitter), only per-language regex tables applied to the first few hundred characters of
each line, plus one linear scan that tracks brace (or, for Ruby, `def`/`end` keyword) depth to
find where a definition ends. Strings and comments are blanked first so their braces and
commented-out code do not count. Patterns are anchored and only look at the start of a line,
strings match with possessive loops, overlong lines are skipped, so the cost stays linear in
the file size.

One module per job: `detect` (a path's language), `clean` (strings and comments blanked),
`rules` (the rule records a family is described by), `braces` (the scan of brace languages),
`imports` (what import finders share), `definitions` (the record outliners fill, and the
bounds), `outline` (the entry point, and `prose_lines`: the lines that are only comments or
strings), and one module per language family: `python`, `make`,
`javascript`, `go`, `jvm` (Java, Kotlin, Scala), `swift`, `rust`, `c` (C, C++, Objective-C),
`csharp`, `php`, `ruby`, `shell`, `generic` (every other language).

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

from .definitions import MAX_IMPORTS, MAX_SYMBOLS
from .detect import LANGUAGES, SPECIAL_FILES, language_for
from .outline import OutlineRow, extract_outline, outline_rows

__all__ = ["LANGUAGES", "MAX_IMPORTS", "MAX_SYMBOLS", "SPECIAL_FILES", "OutlineRow",
           "extract_outline", "language_for", "outline_rows"]
