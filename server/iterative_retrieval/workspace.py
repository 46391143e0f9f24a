"""Which files of a root are in scope: git's view, ignore files, default and secret excludes.

Everything that decides whether a path may be read or returned lives here, so that containment
(never outside the root) and secrecy (never a key or `.env`) are enforced in one place.
"""

from __future__ import annotations

import os
import re
import stat as st_
import subprocess
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from .config import PROJECT_IGNORE_FILE
from .credential_files import is_data
from .gitignore import GitIgnore
from .lines import split_lines

# Default excludes, split by shape so that the check per file is a few set look-ups: it runs on
# every file of every refresh, and generic glob matching costs milliseconds per file.
EXCLUDED_DIRS = frozenset(
    """
    .git .hg .svn .bzr _darcs node_modules bower_components jspm_packages .venv venv virtualenv
    .tox .nox site-packages __pycache__ .mypy_cache .pytest_cache .ruff_cache .cache
    .parcel-cache .next .nuxt .svelte-kit .turbo .gradle .idea .vscode-test build dist out
    target bin obj coverage htmlcov .eggs .terraform .serverless .aws .ssh .gnupg vendor
    xcuserdata
    """.split()
)
EXCLUDED_NAMES = frozenset(
    """
    package-lock.json npm-shrinkwrap.json yarn.lock pnpm-lock.yaml Cargo.lock poetry.lock
    Pipfile.lock composer.lock Gemfile.lock go.sum uv.lock .coverage .DS_Store Thumbs.db
    """.split()
)
EXCLUDED_SUFFIXES = tuple(
    """
    .lock .min.js .min.css .map .bundle.js .chunk.js .pb.go _pb2.py _pb2_grpc.py .g.dart
    .pyc .pyo .class .o .a .so .dylib .dll .exe .jar .war .whl .zip .tar .gz .tgz .bz2 .xz
    .7z .rar .png .jpg .jpeg .gif .bmp .ico .webp .svg .pdf .psd .mp3 .mp4 .wav .ogg .mov
    .avi .woff .woff2 .ttf .eot .otf .sqlite .sqlite3 .db .bin .dat .pkl .npy .npz .parquet
    .onnx .pt .h5 .egg-info .pbxproj .xcscheme .xcworkspacedata .xcuserstate
    """.split()
)
"""Lock files, minified and generated code, binaries and data; and Xcode's project files
(`project.pbxproj`, schemes), which the IDE writes: they list every file of the project by
name, so they matched a task's words as often as the code did (a fresh draw had one in the top
5 of 8 of its 30 Swift tasks), and no task edits them by hand."""

SECRET_NAMES = frozenset(
    """
    .env .envrc .netrc _netrc .npmrc .yarnrc .yarnrc.yml .pypirc .pgpass .my.cnf .htpasswd
    credentials
    .git-credentials .dockercfg .vault-token .boto .s3cfg .terraformrc .token .secrets kubeconfig
    token.json
    """.split()
)
SECRET_SUFFIXES = (
    ".env", ".pem", ".key", ".p12", ".pfx", ".jks", ".keystore", ".crt", ".cer", ".der",
    ".ppk", ".kdbx", ".tfstate", ".tfstate.backup", ".tfvars", ".asc", ".gpg", ".kubeconfig",
)
SECRET_PREFIXES = ("id_rsa", "id_dsa", "id_ecdsa", "id_ed25519", ".env.", "credentials.",
                   "secrets.", "service-account", "kubeconfig.")
SECRET_DIRS = frozenset({".aws", ".ssh", ".gnupg", ".kube", ".docker", ".azure", ".m2"})
SECRET_FOLDERS = frozenset({"secrets", "credentials"})
"""Folders that by convention hold secrets (Docker and Compose secrets, mounted credentials):
every file in them is secret except program source. An SDK's `credentials/` package (the
providers of aws-sdk-go, say) is code a task may need; a secret pasted into it is redacted."""
_SECRET_JSON_RE = re.compile(
    r"((credential|secret)s?|service[-_]?account|adminsdk|sa[-_]key)[^/]*\.(json|ya?ml)$", re.I
)
_SECRET_JSON_ENDS = (".json", ".yaml", ".yml", ".json\n", ".yaml\n", ".yml\n")
"""How a name _SECRET_JSON_RE matches ends (`$` also matches before a final newline)."""
# Cloud and CLI tools' credential stores kept under a config folder (a copied home folder).
_SECRET_PATH_RE = re.compile(
    r"(^|/)\.config/(gcloud|gh|hub|doctl|op|helm/repositories)(/|$)|(^|/)\.composer/auth\.json$"
    r"|(^|/)\.config/gh/hosts\.ya?ml$"
)
# Example files document variables and are safe to show.
_SECRET_ALLOW = frozenset({".env.example", ".env.sample", ".env.template", ".env.dist"})


class WorkspaceError(ValueError):
    """A root that cannot be used (missing, not a folder)."""


@dataclass(frozen=True)
class WorkspaceFile:
    """A file in scope: its path relative to the root (forward slashes) and absolute path."""

    rel: str
    abs: str
    stat: os.stat_result | None = field(default=None, compare=False, repr=False)
    """Its os.stat() as the listing saw it, so a refresh needs no second system call."""
    secret: bool = False
    """A secret file (by name, folder or link target): listed only to be counted, never read."""


def check_root(root: str | os.PathLike[str]) -> Path:
    """The root's real path, or a WorkspaceError that says what is wrong with it."""
    p = Path(root).expanduser()
    if not p.exists():
        raise WorkspaceError(f"root does not exist: {root}")
    if not p.is_dir():
        raise WorkspaceError(f"root is not a folder: {root}")
    return p.resolve()


def is_inside(root: Path, path: str | os.PathLike[str]) -> bool:
    """True when path, with symlinks resolved, lies inside root (root itself excluded)."""
    try:
        real = os.path.realpath(path)
    except (OSError, ValueError):
        return False
    if os.name == "nt":  # case-insensitive paths: let pathlib compare them
        p = Path(real)
        return p != root and root in p.parents
    # a string prefix test, as pathlib's would be on POSIX, without building Path objects
    base = os.fspath(root)
    return real.startswith(base if base.endswith("/") else base + "/") and real != base


def is_secret(rel: str) -> bool:
    """Files that hold keys, tokens or credentials: never indexed, read or returned."""
    folder, _, name = rel.rpartition("/")
    return _secret(rel, name, folder_flags(folder))


def secret_target(root: Path, path: str | os.PathLike[str]) -> bool:
    """True when a path inside root leads, through a symlink on the way, to a secret file:
    `settings.py -> .env` is judged by its target too. (A target outside root is refused by
    `is_inside`.) Costs a realpath: for single paths, and links the listing finds."""
    try:
        real = os.path.realpath(path)
    except (OSError, ValueError):
        return False
    base = os.fspath(root)
    base = base if base.endswith(os.sep) else base + os.sep
    if real == os.path.abspath(path) or not real.startswith(base):
        return False
    return is_secret(real[len(base):].replace(os.sep, "/"))


def is_default_excluded(rel: str) -> bool:
    """Tool folders, dependencies, build output, lock files, minified, generated and binary
    files, and copies of a third-party library's release."""
    folder, _, name = rel.rpartition("/")
    return _default_excluded(name, folder_flags(folder))


FolderFlags = tuple[bool, bool, bool, bool, bool]
"""What a relative folder says of every file in it: (default-excluded, a secrets folder such as
.ssh, a .kube folder, a `secrets/` or `credentials/` folder, an unpacked release such as
`jquery-ui-1.12.1/`); the same for all its files, so a listing works it out once per folder."""

_WEB_ASSETS = (".js", ".mjs", ".cjs", ".css")
_VERSIONED_NAME_RE = re.compile(r"[a-z][\w.]*?[-.]v?\d+\.\d+\.\d+(?:[-.]\w+)*\.\w+$", re.I)
_RELEASE_FOLDER_RE = re.compile(r"[a-z][\w.-]*?-v?\d+\.\d+\.\d+", re.I)
"""A script or style sheet whose name or folder carries a release's version
(`jquery-3.2.1.js`, `underscore-1.13.1.js`, `jquery-ui-1.12.1/jquery-ui.js`) is a copy of a
third-party library the project ships, as node_modules or a `.min.js` is: no task changes it,
and its thousands of common names made it every Python task's "related" file (Sphinx)."""


def folder_flags(folder: str) -> FolderFlags:
    """FolderFlags of a relative folder ('' for the root)."""
    parts = folder.split("/") if folder else []
    return (
        not EXCLUDED_DIRS.isdisjoint(parts) or ".egg-info/" in folder + "/",
        not SECRET_DIRS.isdisjoint(parts),
        bool(parts) and parts[-1] == ".kube",
        not SECRET_FOLDERS.isdisjoint(p.lower() for p in parts),
        any(_RELEASE_FOLDER_RE.fullmatch(p) for p in parts),
    )


def _secret(rel: str, name: str, flags: FolderFlags) -> bool:
    if name in _SECRET_ALLOW:
        return False
    low = name.lower()
    return (
        low in SECRET_NAMES
        or low.endswith(SECRET_SUFFIXES)
        or low.startswith(SECRET_PREFIXES)
        or flags[1]
        # the patterns run only on names and paths that hold a word every match contains
        or (low.endswith(_SECRET_JSON_ENDS) and bool(_SECRET_JSON_RE.search(low)))
        or (flags[2] and low == "config")
        or ((".config/" in rel or ".composer/" in rel) and bool(_SECRET_PATH_RE.search(rel)))
        or (flags[3] and not is_source(name))
    )


def is_source(name: str) -> bool:
    """Whether a file name is program source (not data, configuration or text)."""
    return not is_data(name)


def _default_excluded(name: str, flags: FolderFlags) -> bool:
    if flags[0]:
        return True
    low = name.lower()
    return (
        name in EXCLUDED_NAMES
        or low.endswith(EXCLUDED_SUFFIXES)
        or ".generated." in low
        or (low.endswith(_WEB_ASSETS) and (flags[4] or bool(_VERSIONED_NAME_RE.match(low))))
    )


class Scope:
    """Decides which relative paths of one root are in scope."""

    def __init__(self, root: Path, include: Iterable[str] = (), exclude: Iterable[str] = ()):
        self.root = root
        self.include = GitIgnore(list(include)) if include else None
        lines = list(exclude) + _read_lines(root / PROJECT_IGNORE_FILE)
        self.exclude = GitIgnore(lines) if lines else None

    def admits(self, rel: str) -> bool:
        """Whether one path is in scope (for buffers and file events): by name, and by the
        target of a symlink on its way."""
        folder, _, name = rel.rpartition("/")
        return self._admits(rel, name, folder_flags(folder)) and not secret_target(
            self.root, os.path.join(self.root, rel))

    def _admits(self, rel: str, name: str, flags: FolderFlags) -> bool:
        return not _secret(rel, name, flags) and self._wanted(rel, name, flags)

    def _wanted(self, rel: str, name: str, flags: FolderFlags) -> bool:
        """In scope but for secrecy: not default-excluded, not excluded, included."""
        if _default_excluded(name, flags):
            return False
        if self.exclude is not None and self.exclude.match_file(rel):
            return False
        return self.include is None or self.include.match_file(rel)

    # C901: git's listing or the walk, then each file's checks (excluded, secret, link target,
    # scope), cheapest first, in one generator over every file of the root.
    def files(self, with_secrets: bool = False) -> Iterator[WorkspaceFile]:  # noqa: C901
        """Files in scope: git's tracked + untracked-not-ignored, else a gitignore-aware walk.

        `with_secrets`: secret files too, marked `secret` (the index counts them, reads none).
        """
        rels: Iterable[str] | None = _git_files(self.root)
        listed = rels is not None
        if rels is None:
            rels = _walk(self.root)  # it enters no symlinked folder: no folder check needed
        root = str(self.root)
        prefix = root if root.endswith(os.sep) else root + os.sep
        # A folder on the way may be a symlink out of the root too (git lists the files it
        # once tracked there): one check per folder, from its parent's when that is inside.
        folders: dict[str, bool] = {}
        folders_linked: dict[str, bool] = {}
        """Folders with a symlink on their way (their files are judged by their real path)."""
        resolved = os.path.realpath(root) == root

        def inside(folder: str) -> bool:
            known = folders.get(folder)
            if known is not None:
                return known
            parent, _, name = folder.rpartition("/")
            # inside a folder that is inside the root, a plain name that is no link stays inside
            if resolved and name not in ("", ".", "..") and (not parent or inside(parent)) \
                    and not os.path.islink(prefix + folder):
                known = True
                folders_linked[folder] = bool(parent) and folders_linked.get(parent, False)
            else:
                known = is_inside(self.root, os.path.join(root, folder))
                folders_linked[folder] = True
            folders[folder] = known
            return known

        flags_of: dict[str, FolderFlags] = {}
        for rel in rels:
            folder, _, name = rel.rpartition("/")  # os.path.dirname, for the paths listed here
            flags = flags_of.get(folder)
            if flags is None:
                flags = flags_of[folder] = folder_flags(folder)
            if not self._wanted(rel, name, flags):
                continue
            secret = _secret(rel, name, flags)
            if secret and not with_secrets:
                continue
            if listed and folder and not inside(folder):
                continue
            ab = prefix + rel  # os.path.join, for a relative path
            try:
                st = os.lstat(ab)  # the one system call per file of a refresh
                if st_.S_ISLNK(st.st_mode) or (listed and folder and folders_linked.get(folder)):
                    if not is_inside(self.root, ab):
                        continue  # a symlink out of the root is never followed
                    if not secret and secret_target(self.root, ab):
                        if not with_secrets:
                            continue  # `settings.py -> .env`: judged by its target too
                        secret = True
                    st = os.stat(ab)
            except OSError:
                continue  # deleted since it was listed, or a dangling link
            if st_.S_ISREG(st.st_mode):  # not a submodule's folder, a socket or a pipe
                yield WorkspaceFile(rel, ab, st, secret)


def _read_lines(path: Path) -> list[str]:
    try:
        return split_lines(path.read_text(encoding="utf-8", errors="replace"))
    except OSError:
        return []


def _git_files(root: Path) -> list[str] | None:
    """Paths git would show (tracked + untracked not ignored), or None when root is not a repo."""
    if not (root / ".git").exists() and not _inside_git(root):
        return None
    try:
        out = subprocess.run(
            ["git", "-c", "core.quotepath=off", "ls-files", "-z", "--cached", "--others",
             "--exclude-standard", "--deduplicate"],
            cwd=root, capture_output=True, timeout=60, check=True,
        ).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    # deleted files and submodules are left out by Scope.files, which stats every path anyway
    return [raw.decode("utf-8", "surrogateescape") for raw in out.split(b"\0") if raw]


def _inside_git(root: Path) -> bool:
    return any((p / ".git").exists() for p in root.parents)


def _walk(root: Path) -> Iterator[str]:
    """A walk that honours every .gitignore (nested too); symlinked folders are not entered.

    Top-down like os.walk (a folder's files, sorted, then its folders, sorted), on scandir's
    entries: the entry says whether it is a symbolic link, and the relative folder is carried
    down instead of recomputed (relpath and islink per folder were most of a warm refresh).
    An explicit stack, not recursion: a path yielded from nested generators passes through
    each of them, which cost more than the scan itself on deep trees.
    """
    stack: list[tuple[str, str, list[tuple[str, GitIgnore]]]] = [(os.fspath(root), "", [])]
    while stack:
        dirpath, rel_dir, specs = stack.pop()
        scanned = _scan(dirpath)
        if scanned is None:
            continue  # unreadable, or vanished: skipped, as os.walk skips it
        dirs, filenames = scanned
        if rel_dir and ("pyvenv.cfg" in filenames or "pyvenv.cfg" in dirs):
            continue  # a virtualenv is not source
        if ".gitignore" in filenames:
            lines = _read_lines(Path(dirpath) / ".gitignore")
            if lines:
                base = rel_dir + "/" if rel_dir else ""
                specs = [*specs, (base, GitIgnore(lines))]
        head = rel_dir + "/" if rel_dir else ""
        keep = []
        for d in sorted(dirs):
            rel = head + d
            if d in EXCLUDED_DIRS or d.endswith(".egg-info") or d in SECRET_DIRS \
                    or (specs and _ignored(specs, rel + "/")):
                continue
            if dirs[d]:
                continue  # symlinked folders are not entered
            keep.append((os.path.join(dirpath, d), rel, specs))
        for f in sorted(filenames):
            rel = head + f
            if not specs or not _ignored(specs, rel):
                yield rel
        stack.extend(reversed(keep))  # popped in sorted order


def _ignored(specs: list[tuple[str, GitIgnore]], probe: str) -> bool:
    """Whether a .gitignore on the way ignores `probe` (a folder ends with '/')."""
    return any(s.match_file(probe[len(base):]) for base, s in specs if probe.startswith(base))


def _scan(dirpath: str) -> tuple[dict[str, bool], list[str]] | None:
    """(folder name → is a symbolic link, other names) of one folder, as os.walk sorts them:
    an entry that is a folder or a link to one is a folder; None when it cannot be read."""
    dirs: dict[str, bool] = {}
    files: list[str] = []
    try:
        with os.scandir(dirpath) as it:
            for entry in it:
                try:
                    is_dir = entry.is_dir()
                except OSError:
                    is_dir = False
                if not is_dir:
                    files.append(entry.name)
                    continue
                try:
                    dirs[entry.name] = entry.is_symlink()
                except OSError:
                    dirs[entry.name] = False
    except OSError:
        return None
    return dirs, files
