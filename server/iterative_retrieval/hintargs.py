"""What a caller knows besides the task, from the wire to the engine's `Hints`.

The language server's `retrieve` arguments (`pinned`, `excluded`, `seen`, `activeFile`,
`selection`, `openFiles`, `followUp`; contract.RetrieveOptions) and the MCP tool's `pinned`,
`excluded`, `seen` name files as paths relative to a workspace root, absolute paths, or
`file://` URIs. Each is settled here against the roots searched: a path that names no file
inside one (outside every root, through a symlink that leaves it, another URI scheme, a file
that does not exist) is left out with a note the surface passes on; it is never read.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse

from .models import Hints
from .workspace import is_inside, is_secret

_URI = re.compile(r"[A-Za-z][A-Za-z0-9+.-]+:")
"""A URI's scheme (two letters at least: `C:` is a Windows drive)."""

PATH_LISTS = {"pinned": "pinned", "excluded": "excluded", "seen": "seen",
              "openFiles": "open_files"}
"""The wire's path lists by their `Hints` field."""


def local_path(value: str) -> str | None:
    """A path or a `file://` URI as a filesystem path (None for another URI scheme)."""
    if not _URI.match(value):
        return os.path.expanduser(value) if value.startswith("~") else value
    parsed = urlparse(value)
    if parsed.scheme != "file" or parsed.netloc not in ("", "localhost"):
        return None
    path = unquote(parsed.path)
    if os.name == "nt" and path.startswith("/") and len(path) > 2 and path[2] == ":":
        path = path[1:]
    return path


def place(value: str, roots: Sequence[Path]) -> tuple[str | None, str]:
    """The path to hand the engine (absolute, inside a root) and "" — or None and why not."""
    path = local_path(value)
    if path is None:
        return None, "is not a local file"
    if not path.strip():
        return None, "is empty"
    if "\0" in path:
        return None, "is not a path"
    if os.path.isabs(path):
        candidates = [path]
    else:
        rel = path.replace("\\", "/").lstrip("/")
        if rel in ("", ".", "..") or rel.startswith("../") or "/../" in f"/{rel}/":
            return None, "leaves the workspace folders"
        candidates = [os.path.join(r, rel) for r in roots]
    inside = [c for c in candidates if any(is_inside(r, c) for r in roots)]
    if not inside:
        return None, "is outside the workspace folders searched"
    found = next((c for c in inside if os.path.isfile(c)), None)
    if found is None:
        return None, "names no file in the workspace folders"
    root = next(r for r in roots if is_inside(r, found))
    if is_secret(Path(os.path.realpath(found)).relative_to(root).as_posix()):
        return None, "is a secret file: never read"
    return found, ""


HINT_KEYS = (*PATH_LISTS, "activeFile", "selection", "followUp")
"""Every hint argument's wire name."""


def hints_of(args: Mapping[str, Any], roots: Sequence[Path],
             who: str) -> tuple[Hints | None, list[str]]:
    """`Hints` from checked wire arguments (camelCase keys; lists as tuples), and a note for
    each path left out ("iterativeRetrieval.retrieve: 'pinned' /etc/passwd is outside the
    workspace folders; ignored"). None when the arguments carry no hint."""
    notes: list[str] = []

    def settle(key: str, values: Sequence[str]) -> tuple[str, ...]:
        out = []
        for v in values:
            path, why = place(v, roots)
            if path is None:
                notes.append(f"{who}: '{key}' {v} {why}; ignored")
            elif path not in out:
                out.append(path)
        return tuple(out)

    fields: dict[str, Any] = {
        field: settle(key, args.get(key) or ()) for key, field in PATH_LISTS.items()}
    active = settle("activeFile", [args["activeFile"]] if args.get("activeFile") else [])
    fields["active_file"] = active[0] if active else None
    selection = args.get("selection")
    if active and selection:
        fields["selection"] = (selection["start_line"], selection["end_line"])
    fields["follow_up"] = tuple(args.get("followUp") or ())
    if not any(fields.values()):
        return None, notes
    return Hints(**fields), notes
