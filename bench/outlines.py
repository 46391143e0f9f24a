"""The regex outlines (languages/) against tree-sitter: symbol accuracy and time.

    pip install -e '.[treesitter]'
    python -m bench.outlines --work /tmp/bench-work [--json out.json]

For Python the ground truth is `ast`: every `def` and `class` at any depth (the outline keeps
nested ones), from its first decorator to its last line, and the module-level UPPER_CASE
constants and type aliases. For Go, JavaScript and TypeScript, tree-sitter's tree is the
reference, read with the outline's conventions (top-level declarations and class members; in
JavaScript and TypeScript also function declarations inside function bodies and object
literals' functions, wherever they are).
A definition counts as found when its name and first line agree; its span is right when its
last line agrees too. Times are one core's, over the same files: the regex outline as the index
runs it, tree-sitter's parse alone, and parse plus reading the definitions off the tree.

The per-language grammar wheels (tree-sitter-python, -javascript, -typescript, -go) carry
their compiled grammars; tree-sitter-language-pack downloads them at run time and fails
offline. docs/design.md ("Outlines") records the figures and the decision.
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import time
import warnings
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from iterative_retrieval.languages import language_for, outline_rows

Def = tuple[str, int, int]
"""(name, first line, last line), 1-based."""

LANGS = ("python", "go", "javascript", "typescript")


@dataclass
class Tally:
    """One language's counts."""

    files: int = 0
    bytes: int = 0
    truth: int = 0
    found: int = 0
    """Reference definitions the outline has (name and first line)."""
    extra: int = 0
    """Outline definitions the reference does not have."""
    spans: int = 0
    """Found definitions whose last line agrees too."""
    ts_found: int = 0
    """For Python: ast definitions tree-sitter has (its own accuracy against the ground truth)."""
    ts_extra: int = 0
    ts_spans: int = 0
    seconds: dict[str, float] = field(default_factory=lambda: {"regex": 0.0, "parse": 0.0,
                                                               "parse+read": 0.0})

    def row(self, lang: str) -> dict[str, object]:
        mb = self.bytes / 1e6
        out: dict[str, object] = {
            "language": lang, "files": self.files, "MB": round(mb, 1),
            "reference definitions": self.truth,
            "recall": _share(self.found, self.truth),
            "precision": _share(self.found, self.found + self.extra),
            "span exact": _share(self.spans, self.found),
        }
        if lang == "python":
            out.update({"tree-sitter recall": _share(self.ts_found, self.truth),
                        "tree-sitter precision": _share(self.ts_found,
                                                        self.ts_found + self.ts_extra),
                        "tree-sitter span exact": _share(self.ts_spans, self.ts_found)})
        for k, v in self.seconds.items():
            out[f"{k} MB/s"] = round(mb / v, 1) if v else None
        return out


def _share(a: int, b: int) -> float | None:
    return round(a / b, 4) if b else None


# -- references -------------------------------------------------------------------------------


def ast_defs(text: str) -> list[Def] | None:
    """Python's own parser: the definitions the outline's conventions ask for."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return None
    out: list[Def] = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            start = min([node.lineno, *(d.lineno for d in node.decorator_list)])
            out.append((node.name, start, node.end_lineno or node.lineno))
    for node in tree.body:
        target = None
        if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name):
            target = node.targets[0].id
            if not target.isupper():
                continue
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            target = node.target.id
            alias = "TypeAlias" in ast.unparse(node.annotation)
            if not (target.isupper() or alias) or node.value is None:
                continue
        if target is not None:
            out.append((target, node.lineno, node.end_lineno or node.lineno))
    return out


def _parsers() -> dict[str, object]:
    import tree_sitter as ts
    import tree_sitter_go as go
    import tree_sitter_javascript as js
    import tree_sitter_python as py
    import tree_sitter_typescript as tsx

    return {
        "python": ts.Parser(ts.Language(py.language())),
        "go": ts.Parser(ts.Language(go.language())),
        "javascript": ts.Parser(ts.Language(js.language())),
        "typescript": ts.Parser(ts.Language(tsx.language_typescript())),
        "tsx": ts.Parser(ts.Language(tsx.language_tsx())),
    }


def _line(node, end: bool = False) -> int:  # noqa: ANN001 - a tree-sitter Node
    return (node.end_point if end else node.start_point)[0] + 1


def _text(node) -> str:  # noqa: ANN001
    return node.text.decode("utf-8", "replace") if node is not None else ""


def ts_defs(lang: str, root) -> list[Def]:  # noqa: ANN001, C901 - one case per node type
    """tree-sitter's definitions, read with the outline's conventions."""
    out: list[Def] = []

    def add(name_node, node, start_node=None) -> None:  # noqa: ANN001
        name = _text(name_node)
        if name:
            out.append((name, _line(start_node or node), _line(node, end=True)))

    def walk(node, top: bool, in_class: bool) -> Iterator[None]:  # noqa: ANN001, C901
        t = node.type
        if lang == "python":
            if t in ("function_definition", "class_definition"):
                parent = node.parent
                start = parent if parent is not None and parent.type == "decorated_definition" \
                    else node
                add(node.child_by_field_name("name"), node, start)
            elif t == "expression_statement" and top and node.named_child_count == 1:
                a = node.named_children[0]
                left = a.child_by_field_name("left") if a.type == "assignment" else None
                if left is not None and left.type == "identifier":
                    name, ann = _text(left), _text(a.child_by_field_name("type"))
                    if (name.isupper() or "TypeAlias" in ann) and \
                            a.child_by_field_name("right") is not None:
                        add(left, node)
            for c in node.named_children:
                yield from walk(c, top=t == "module", in_class=False)
            return
        if lang == "go":
            if t in ("function_declaration", "method_declaration") or t == "type_spec":
                add(node.child_by_field_name("name"), node)
            elif t in ("const_spec", "var_spec") and top:
                for n in node.children_by_field_name("name"):
                    out.append((_text(n), _line(node), _line(node, end=True)))
            descend = t in ("source_file", "type_declaration", "const_declaration",
                            "var_declaration")
            for c in node.named_children if descend else ():
                yield from walk(c, top=True, in_class=False)
            return
        # javascript, typescript
        if t in ("function_declaration", "generator_function_declaration", "class_declaration",
                 "abstract_class_declaration", "interface_declaration", "function_signature",
                 "type_alias_declaration", "enum_declaration"):
            add(node.child_by_field_name("name"), node, _exported(node))
        elif t in ("method_definition", "method_signature", "abstract_method_signature") \
                and in_class:
            add(node.child_by_field_name("name"), node)
        elif t in ("lexical_declaration", "variable_declaration") and top:
            for d in node.named_children:
                if d.type != "variable_declarator":
                    continue
                name, value = d.child_by_field_name("name"), d.child_by_field_name("value")
                fn = value is not None and value.type in ("arrow_function", "function_expression",
                                                          "function")
                if name is not None and name.type == "identifier" and (
                        fn or _exported(node) is not node or _text(name).isupper()):
                    add(name, node, _exported(node))
        classy = t in ("class_body", "interface_body", "object_type")
        descend = t in ("program", "export_statement", "class_declaration",
                        "abstract_class_declaration", "interface_declaration", "class_body",
                        "interface_body", "internal_module", "statement_block", "module",
                        "ambient_declaration", "expression_statement")
        for c in node.named_children if descend else ():
            inside = t in ("program", "export_statement", "internal_module", "statement_block",
                           "module", "ambient_declaration", "expression_statement")
            yield from walk(c, top=inside, in_class=classy)

    for _ in walk(root, top=True, in_class=False):
        pass
    if lang not in ("python", "go"):
        # function declarations inside function bodies too, as Python's nested defs, and an
        # object literal's functions (methods, and keys whose value is a function or an arrow
        # with a block body) wherever the object is
        known = {(d[0], d[1]) for d in out}
        stack = [root]
        while stack:
            node = stack.pop()
            t = node.type
            if t in ("function_declaration", "generator_function_declaration"):
                name = node.child_by_field_name("name")
                if name is not None and (_text(name), _line(node)) not in known:
                    add(name, node)
            elif t == "method_definition" and node.parent is not None \
                    and node.parent.type == "object":
                add(node.child_by_field_name("name"), node)
            elif t == "pair":
                key, value = node.child_by_field_name("key"), node.child_by_field_name("value")
                body = value.child_by_field_name("body") if value is not None else None
                if key is not None and key.type == "property_identifier" and value is not None \
                        and (value.type in ("function_expression", "function") or (
                            value.type == "arrow_function" and body is not None
                            and body.type == "statement_block")):
                    add(key, node)
            stack.extend(node.named_children)
    return out


def _exported(node):  # noqa: ANN001, ANN202
    """The export statement around a declaration (it starts the definition), else the node."""
    parent = node.parent
    return parent if parent is not None and parent.type == "export_statement" else node


# -- the run -----------------------------------------------------------------------------------


def files(work: Path, limit: int) -> Iterator[tuple[Path, str]]:
    """Source files of one tree per repository of the benchmark (the trees share most files)."""
    seen: set[str] = set()
    for tree in sorted(p for p in work.iterdir() if p.is_dir()):
        repo = tree.name.split("@")[0]
        if repo in seen:
            continue
        seen.add(repo)
        n = 0
        for dirpath, _, names in os.walk(tree):
            for name in sorted(names):
                p = Path(dirpath) / name
                lang = language_for(str(p))
                if lang in LANGS and not p.is_symlink() and n < limit:
                    n += 1
                    yield p, lang


def compare(found: list[Def], truth: list[Def]) -> tuple[int, int, int]:
    """(found, extra, spans): reference definitions found by (name, first line), outline
    definitions the reference lacks, found ones whose last line agrees."""
    ref = {(n, s): e for n, s, e in truth}
    got = {(n, s): e for n, s, e in found}
    hits = ref.keys() & got.keys()
    return len(hits), len(got.keys() - ref.keys()), sum(1 for k in hits if ref[k] == got[k])


def run(paths: list[tuple[Path, str]]) -> dict[str, Tally]:
    parsers = _parsers()
    tallies = {lang: Tally() for lang in LANGS}
    for path, lang in paths:
        data = path.read_bytes()
        text = data.decode("utf-8", "replace")
        t = tallies[lang]
        t0 = time.perf_counter()
        rows, _ = outline_rows(text, lang)
        t1 = time.perf_counter()
        parser = parsers["tsx" if path.suffix == ".tsx" else lang]
        tree = parser.parse(data)  # type: ignore[attr-defined]
        t2 = time.perf_counter()
        ts = ts_defs(lang, tree.root_node)
        t3 = time.perf_counter()
        regex = [(n, s, e) for n, _, s, e in rows]
        truth = ast_defs(text) if lang == "python" else ts
        if truth is None:
            continue  # Python that this Python cannot parse
        t.files += 1
        t.bytes += len(data)
        t.seconds["regex"] += t1 - t0
        t.seconds["parse"] += t2 - t1
        t.seconds["parse+read"] += t3 - t1
        t.truth += len(truth)
        found, extra, spans = compare(regex, truth)
        t.found, t.extra, t.spans = t.found + found, t.extra + extra, t.spans + spans
        if lang == "python":
            found, extra, spans = compare(ts, truth)
            t.ts_found, t.ts_extra = t.ts_found + found, t.ts_extra + extra
            t.ts_spans += spans
    return tallies


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.outlines",
                                 description=__doc__.split("\n")[0])
    ap.add_argument("--work", default="/tmp/bench-work", help="folder of the materialized trees")
    ap.add_argument("--limit", type=int, default=100_000, help="files per tree at most")
    ap.add_argument("--extra", action="append", default=[], metavar="DIR",
                    help="more folders of sources (JavaScript and TypeScript: the trees have "
                         "Python and Go); default: examples/ and client-vscode/src/")
    ap.add_argument("--json", help="write the table here")
    args = ap.parse_args(argv)
    paths = list(files(Path(args.work), args.limit))
    repo = Path(__file__).resolve().parents[1]
    for extra in args.extra or [repo / "examples", repo / "client-vscode" / "src"]:
        paths += [(p, lang) for p in sorted(Path(extra).rglob("*"))
                  if (lang := language_for(str(p)) or "") in LANGS and p.is_file()
                  and "node_modules" not in p.relative_to(extra).parts]
    rows = [t.row(lang) for lang, t in run(paths).items() if t.files]
    keys = list(dict.fromkeys(k for r in rows for k in r))
    print("| " + " | ".join(keys) + " |")
    print("|" + "---|" * len(keys))
    for r in rows:
        print("| " + " | ".join("" if r.get(k) is None else str(r.get(k)) for k in keys) + " |")
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
