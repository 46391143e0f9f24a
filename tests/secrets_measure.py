"""Measuring redaction on the credential corpus: recall and false positives on every output.

`measure()` retrieves each corpus file by its own task and checks every output a surface makes
of the answer; `compare()` redacts the corpus's texts alone with each detector. `python -m
tests.secrets_measure [--seed N] [--compare]` prints the figures docs/reliability.md quotes.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from .secrets_corpus import Corpus, build, write

WINDOW = 8
"""A planted secret counts as leaked when any 8 characters of it in a row reach an output (case
ignored): a learned term, a tail or a key line is a leak too, not only the whole value."""


def leaked(secret: str, output: str) -> bool:
    """Whether any WINDOW characters in a row of the secret occur in the (lower-cased) output."""
    s = secret.lower()
    if len(s) <= WINDOW:
        return s in output
    return any(s[i:i + WINDOW] in output for i in range(len(s) - WINDOW + 1))


# -- measuring ---------------------------------------------------------------------------------

OUTPUTS = ("regions", "trace", "reasons", "text", "json", "markdown", "lsp", "mcp")


def outputs_of(result, roots: list[Path]) -> dict[str, str]:
    """Every output a surface makes of one result, as the surfaces make it."""
    from iterative_retrieval.lsp.commands import result_to_wire
    from iterative_retrieval.render import to_json, to_markdown, to_text

    d = result.to_dict()
    md = to_markdown(result)
    return {
        "regions": "\n".join(r["text"] for f in d["files"] for r in f["regions"]),
        "trace": json.dumps([d["task"], d["trace"]], ensure_ascii=False),
        "reasons": json.dumps([[f["reason"], f["missing"], [r["why"] for r in f["regions"]]]
                               for f in d["files"]], ensure_ascii=False),
        "text": to_text(result, show_regions=True),
        "json": to_json(result),
        "markdown": md,
        "lsp": json.dumps(result_to_wire(result, roots), ensure_ascii=False),
        "mcp": md + json.dumps(d, ensure_ascii=False),  # retrieve_context: text + structured
    }


@dataclass
class Figures:
    """What one measurement found, per output."""

    plants: int = 0
    formats: int = 0
    leaks: dict[str, list[str]] = field(default_factory=lambda: {o: [] for o in OUTPUTS})
    """output → `format: path` of each plant whose secret reached it."""
    lookalike_values: int = 0
    masked: dict[str, list[str]] = field(default_factory=lambda: {o: [] for o in OUTPUTS})
    """output → `category: value` of each look-alike that did not come out as it is."""
    not_found: list[str] = field(default_factory=list)
    """Files of plants and look-alikes the retrieval did not hand out (not measured)."""

    def recall(self, output: str) -> float:
        return 1 - len(self.leaks[output]) / max(self.plants, 1)

    def false_positive_rate(self, output: str) -> float:
        return len(self.masked[output]) / max(self.lookalike_values, 1)

    def table(self) -> str:
        rows = ["| output | recall | leaked | false positives | masked |", "|---|---|---|---|---|"]
        for o in OUTPUTS:
            rows.append(f"| {o} | {100 * self.recall(o):.1f} % | {len(self.leaks[o])} of "
                        f"{self.plants} | {100 * self.false_positive_rate(o):.1f} % | "
                        f"{len(self.masked[o])} of {self.lookalike_values} |")
        return "\n".join(rows)


def measure(corpus: Corpus, root: Path, engine,  # noqa: C901 - one check per output
            sample: Callable[[int], bool] = lambda i: True
            ) -> Figures:
    """Retrieve each corpus file by its task and check every output of the answer.

    The engine should let docs be candidates (`include_tests`): credentials in READMEs and
    Markdown notes are part of the corpus, and a task about them asks for them.

    A plant leaks into an output when any 8 characters of its secret parts occur there; a
    look-alike is masked in an output when its value is missing there although its file was
    handed out with the value's line. `sample(i)` picks which items run (all by default).
    """
    fig = Figures()
    roots = [Path(root)]
    for i, p in enumerate(corpus.plants):
        if not sample(i):
            continue
        fig.plants += 1
        result = engine.retrieve(p.task)
        if not p.secret_file and not any(f.path == p.rel and f.regions for f in result.files):
            fig.not_found.append(p.rel)  # its file was not handed out: its secret not tried
        outs = {k: v.lower() for k, v in outputs_of(result, roots).items()}
        for o in OUTPUTS:
            if any(leaked(s, outs[o]) for s in p.secrets):
                fig.leaks[o].append(f"{p.fmt}: {p.rel}")
    fig.formats = len({p.fmt for i, p in enumerate(corpus.plants) if sample(i)})
    for i, la in enumerate(corpus.lookalikes):
        if not sample(i):
            continue
        result = engine.retrieve(la.task)
        f = next((f for f in result.files if f.path == la.rel), None)
        if f is None or not f.regions:
            fig.not_found.append(la.rel)
            continue
        outs = outputs_of(result, roots)
        lines = la.text.splitlines()
        for v in la.values:
            at = next(n for n, line in enumerate(lines, 1) if v in line)
            if not any(r.start_line <= at <= r.end_line for r in f.regions):
                fig.not_found.append(f"{la.rel}:{at}")
                continue  # measured only where it is handed out
            fig.lookalike_values += 1
            escaped = json.dumps(v, ensure_ascii=False)[1:-1]
            for o in OUTPUTS:
                if o in ("trace", "reasons"):
                    continue  # look-alikes live in regions; the trace is checked for masks below
                if v not in outs[o] and escaped not in outs[o]:
                    fig.masked[o].append(f"{la.category}: {v}")
        for o in ("trace", "reasons"):
            if "«redacted" in outs[o]:
                fig.masked[o].append(f"{la.category}: a term masked in {la.rel}")
    return fig


def compare(corpus: Corpus) -> dict[str, tuple[float, float]]:
    """Redaction alone (no retrieval) of the corpus's texts, by detector: (recall, false
    positive rate) of the first stage, both stages, and detect-secrets alone as its own scan
    runs (every plugin, its default filters), masking the values it reports."""
    from detect_secrets.core.scan import _process_line_based_plugins
    from detect_secrets.settings import default_settings

    from iterative_retrieval.redact import MARK, redact_text

    def ds_alone(rel: str, text: str) -> str:
        lines = list(enumerate(text.splitlines(), 1))
        for secret in _process_line_based_plugins(lines, rel):
            if secret.secret_value:
                text = text.replace(secret.secret_value, MARK.format("ds"))
        return text

    detectors = {
        "first stage (redact.py, redact_formats.py)":
            lambda rel, t: redact_text(t, second_stage=False),
        "both stages (as shipped)": lambda rel, t: redact_text(t),
        "detect-secrets alone": ds_alone,
    }
    plants = [p for p in corpus.plants if not p.secret_file]
    out = {}
    with default_settings():
        for name, fn in detectors.items():
            missed = sum(any(leaked(s, fn(p.rel, p.text).lower()) for s in p.secrets)
                         for p in plants)
            values = masked = 0
            for la in corpus.lookalikes:
                text = fn(la.rel, la.text)
                values += len(la.values)
                masked += sum(v not in text for v in la.values)
            out[name] = (1 - missed / len(plants), masked / values)
    return out


def main() -> None:
    import argparse
    import tempfile

    from iterative_retrieval.config import Settings
    from iterative_retrieval.engine import Engine

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=17)
    ap.add_argument("--keep", metavar="DIR", help="write the corpus here and keep it")
    ap.add_argument("--compare", action="store_true",
                    help="also redact the texts alone with each detector (detect-secrets too)")
    args = ap.parse_args()
    corpus = build(args.seed)
    if args.compare:
        for name, (recall, fp) in compare(corpus).items():
            print(f"{name}: recall {100 * recall:.1f} %, false positives {100 * fp:.1f} %")
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(args.keep or tmp) / "corpus"
        root.mkdir(parents=True)
        write(corpus, root)
        engine = Engine([root], Settings(cache_dir=str(Path(tmp) / "cache"), include_tests=True))
        fig = measure(corpus, root.resolve(), engine)
        engine.close()
    print(f"{fig.plants} planted credentials in {fig.formats} formats; "
          f"{fig.lookalike_values} look-alike values in {len(corpus.lookalikes)} files "
          f"({len(fig.not_found)} files not handed out: {fig.not_found})")
    print(fig.table())
    for o in OUTPUTS:
        for what in fig.leaks[o]:
            print(f"leaked into {o}: {what}")
        for what in fig.masked[o]:
            print(f"masked in {o}: {what}")


if __name__ == "__main__":
    main()
