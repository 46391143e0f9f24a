"""The second stage of redaction: Yelp's detect-secrets, on the lines that still hold a token.

detect-secrets is a maintained detector with plugins for many vendors' credential formats and a
keyword detector for assignments to secret-sounding names. It is not the first stage: measured
on the credential corpus (docs/reliability.md) alone it masks 35 % of the planted credentials
and 24 % of the look-alikes, and its plugins cost about 3.3 s per MB of text (10 s with its scan
pipeline) where the first stage (`redact.py`) costs 0.07 s. So it runs after the first stage,
only on the lines that still hold a random-looking token (letters and digits interleaved:
`candidate_lines`; no line of Flask's or Cobra's code, a few in SymPy's), with every plugin but
those the corpus shows to be wrong here:

- `Base64HighEntropyString` and `HexHighEntropyString` flag every quoted hash — lock-file
  integrity values, git SHAs, checksums, test vectors — 48 of the 200 look-alikes;
- `IPPublicDetector`: a public IP address is not a credential.

A plugin reports a value (sometimes only the part its pattern captures, such as `ghp`); the
whole token around it is masked. detect-secrets is imported on the first candidate line (its
import, with `requests`, costs about a quarter of a second), and never asked to verify anything
over the network. Without it (an install that lacks it), this stage logs once and does nothing.
"""

from __future__ import annotations

import logging
import re
import threading
from collections import Counter
from typing import Any

log = logging.getLogger(__name__)

LEFT_OUT = frozenset({"Base64HighEntropyString", "HexHighEntropyString", "IPPublicDetector"})
"""detect-secrets plugins not used, and why: see the module docstring."""

MIN_RUN = 16
"""A line is a candidate when it holds a run of this many token characters (every credential
format of the plugins used is at least this long)..."""
_RUN = re.compile(rf"[A-Za-z0-9+/_.~=:-]{{{MIN_RUN},}}")
_PIECE = re.compile(r"[A-Za-z0-9]{4,}")
MIN_SWITCHES = 4
"""...whose letters and digits switch between the two at least this often (pieces of pure hex
aside): random tokens do (`x7Kq2mP9…`, `AAX89wckEF-ervpkohEYit5Es`); names with a number do
not (`Line2DBaseSeries`, `matrix2numpy`, `_linear_2eq_order1_type6`), nor versions, dates
and hashes (left to the first stage's rules, which know their surroundings)."""
_SWITCH = re.compile(r"[0-9](?=[A-Za-z])|[A-Za-z](?=[0-9])")
_HEX = re.compile(r"[0-9a-fA-F]+")


def _random_looking(run: str) -> bool:
    switches = 0
    for piece in _PIECE.finditer(run):
        if _HEX.fullmatch(piece.group()):
            continue
        for _ in _SWITCH.finditer(piece.group()):
            switches += 1
            if switches >= MIN_SWITCHES:
                return True
    return False
_TOKEN_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/_.~-")

_lock = threading.Lock()
_loaded: list[Any] | None = None
_filters: dict[str, Any] = {}


def _plugins() -> list[Any]:
    """detect-secrets' plugin instances (all but LEFT_OUT), made once; [] when not installed."""
    global _loaded
    with _lock:
        if _loaded is None:
            try:
                from detect_secrets.core.plugins.util import get_mapping_from_secret_type_to_class
                from detect_secrets.filters import heuristic
            except ImportError as exc:  # pragma: no cover - a declared dependency
                log.warning("detect-secrets is not available (%s): the second stage of "
                            "redaction is off", exc)
                _loaded = []
                return _loaded
            _filters["heuristic"] = heuristic
            classes: list[Any] = list(get_mapping_from_secret_type_to_class().values())
            _loaded = [cls() for name, cls in sorted((c.__name__, c) for c in classes)
                       if name not in LEFT_OUT]
        return _loaded


def candidate_lines(text: str) -> list[int]:
    """Indexes of the lines (split on `\\n`) that hold a random-looking token."""
    out: list[int] = []
    n = last = 0
    for m in _RUN.finditer(text):
        if not _random_looking(m.group()):
            continue
        n += text.count("\n", last, m.start())  # counted on from the last run: linear
        last = m.start()
        if not out or out[-1] != n:
            out.append(n)
    return out


def _kept(value: str, line: str, plugin: Any) -> bool:
    """detect-secrets' own heuristic filters: not a sequence, UUID, template, `$VAR`, id."""
    h = _filters["heuristic"]
    return not (h.is_sequential_string(value) or h.is_potential_uuid(value)
                or h.is_templated_secret(value) or h.is_prefixed_with_dollar_sign(value)
                or h.is_likely_id_string(value, line, plugin))


_NAME_PREFIX = re.compile(r"[A-Za-z][A-Za-z_-]{0,40}=")
"""A value reported with its name (`AccountKey=…`): the name stays visible."""


def _token_spans(line: str, value: str) -> list[tuple[int, int]]:
    """Every occurrence of value in line, widened to the whole token around it."""
    out = []
    name = _NAME_PREFIX.match(value)
    if name:
        value = value[name.end():]
    i = line.find(value)
    while i != -1:
        a, b = i, i + len(value)
        if name:  # widened to the right only: the name and its `=` stay
            while b < len(line) and (line[b] in _TOKEN_CHARS or line[b] == "="):
                b += 1
            out.append((a, b))
            i = line.find(value, i + 1)
            continue
        while a > 0 and line[a - 1] in _TOKEN_CHARS:
            a -= 1
        while b < len(line) and (line[b] in _TOKEN_CHARS or line[b] == "="):
            b += 1
        out.append((a, b))
        i = line.find(value, i + 1)
    return out


def _kind(secret_type: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", secret_type.lower()).strip("-")


MAX_SCAN = 65_536
"""Characters the plugins read per text at most (they cost about 3 s a megabyte): a file with
more random-looking lines than this is a data blob, which the first stage has read whole."""
WINDOW = 256
"""Of a line longer than this, the plugins read only the runs and this much either side."""


def _windows(line: str) -> list[tuple[int, int]]:
    """(start, end) of what the plugins read of a line: all of it, or windows around its runs."""
    if len(line) <= 2 * WINDOW:
        return [(0, len(line))]
    out: list[tuple[int, int]] = []
    for m in _RUN.finditer(line):
        if _random_looking(m.group()):
            a, b = max(0, m.start() - WINDOW), min(len(line), m.end() + WINDOW)
            if out and a <= out[-1][1] and b - out[-1][0] <= 8 * WINDOW:
                out[-1] = (out[-1][0], b)
            else:
                out.append((a, b))
    return out


def redact(text: str, mark: str, counts: Counter[str], masked: list[str] | None = None,
           placeholder=lambda v: False) -> str:
    """The text with what detect-secrets finds on its candidate lines masked as `mark.format(
    kind)`; lines keep their place. `placeholder(v)` vetoes values that are stand-ins."""
    lines_at = candidate_lines(text)
    if not lines_at:
        return text
    plugins = _plugins()
    if not plugins:
        return text
    lines = text.split("\n")
    budget = MAX_SCAN
    for n in lines_at:
        line = lines[n]
        spans: list[tuple[int, int, str]] = []
        for wa, wb in _windows(line):
            if budget <= 0:
                break
            wb = min(wb, wa + budget)  # a run of a megabyte is read up to the budget
            budget -= wb - wa
            piece = line[wa:wb]
            for plugin in plugins:
                for secret in plugin.analyze_line(filename="", line=piece, line_number=n + 1):
                    value = secret.secret_value
                    if not value or placeholder(value) or not _kept(value, piece, plugin):
                        continue
                    kind = _kind(secret.type)
                    spans += [(wa + a, wa + b, kind) for a, b in _token_spans(piece, value)]
        if spans:
            lines[n] = _mask(line, spans, mark, counts, masked)
        if budget <= 0:
            log.debug("detect-secrets stage stopped after %d characters", MAX_SCAN)
            break
    return "\n".join(lines)


def _mask(line: str, spans: list[tuple[int, int, str]], mark: str, counts: Counter[str],
          masked: list[str] | None) -> str:
    """The line with the spans masked; overlapping spans merge into the first."""
    merged: list[tuple[int, int, str]] = []
    for a, b, kind in sorted(spans, key=lambda s: (s[0], -s[1])):
        if merged and a < merged[-1][1]:
            pa, pb, pk = merged[-1]
            merged[-1] = (pa, max(pb, b), pk)
        else:
            merged.append((a, b, kind))
    for a, b, kind in reversed(merged):
        counts[kind] += 1
        if masked is not None:
            masked.append(line[a:b])
        line = line[:a] + mark.format(kind) + line[b:]
    return line
