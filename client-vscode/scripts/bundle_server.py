"""Put the language server and its dependencies into `bundled/libs` for one VS Code target.

The extension runs `python -m iterative_retrieval serve` with `bundled/libs` first on PYTHONPATH,
so any Python 3.11+ runs the server without a pip install (the layout of Microsoft's Python tools
extension template). Native dependencies (rapidfuzz, pydantic-core) come as one wheel per CPython
version and platform: their extension modules carry the ABI in the file name
(`_pydantic_core.cpython-312-x86_64-linux-gnu.so`), so the wheels for 3.11 to 3.14 unpack into one
folder side by side, and each Python loads its own. All versions are pinned from one resolution,
so the pure-Python files are the same whichever wheel wrote them.

    python3 scripts/bundle_server.py [--target linux-x64]   # default: this machine's target

Needs uv (`pip install uv`; the project's test extra has it) and the package index. Writes
`bundled/libs` and `bundled/manifest.json` (target, Python versions, pinned packages).
"""

from __future__ import annotations

import argparse
import json
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
REPO = HERE.parent
PACKAGE = REPO / "server" / "iterative_retrieval"
PYTHONS = ["3.11", "3.12", "3.13", "3.14"]

# VS Code's platform targets (vsce package --target) and uv's name for each. glibc 2.28 on
# Linux, as VS Code itself needs since 1.86.
TARGETS = {
    "linux-x64": "x86_64-manylinux_2_28",
    "linux-arm64": "aarch64-manylinux_2_28",
    "alpine-x64": "x86_64-unknown-linux-musl",
    "alpine-arm64": "aarch64-unknown-linux-musl",
    "darwin-x64": "x86_64-apple-darwin",
    "darwin-arm64": "aarch64-apple-darwin",
}
# Not Windows yet: mcp needs pywin32 there, whose per-version files (pywin32.pth, its DLLs named
# after the Python version) do not share one folder, and a .pth on PYTHONPATH is not read.


def host_target() -> str:
    """This machine's VS Code target (what `vsce package --target` calls it)."""
    system = {"Linux": "linux", "Darwin": "darwin", "Windows": "win32"}[platform.system()]
    arch = {"x86_64": "x64", "AMD64": "x64", "aarch64": "arm64", "arm64": "arm64"}[platform.machine()]
    if system == "linux" and Path("/etc/alpine-release").exists():
        system = "alpine"
    return f"{system}-{arch}"


def uv() -> list[str]:
    """uv, as a module of this Python or on PATH."""
    try:
        import uv as _uv  # noqa: F401

        return [sys.executable, "-m", "uv"]
    except ImportError:
        found = shutil.which("uv")
        if not found:
            sys.exit("bundle_server.py needs uv: pip install uv")
        return [found]


def run(cmd: list[str]) -> str:
    p = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if p.returncode:
        sys.exit(f"bundle_server.py: {' '.join(cmd)} failed:\n{p.stdout}\n{p.stderr}")
    return p.stdout


def merge(src: Path, dest: Path) -> None:
    """Copy src's files into dest. A file both have must be the same (one resolution pins every
    version), except a wheel's own records (RECORD, WHEEL name the wheel's Python tag)."""
    for f in src.rglob("*"):
        rel = f.relative_to(src)
        if f.is_dir() or "__pycache__" in rel.parts or rel.parts[0] == "bin":
            continue
        out = dest / rel
        if out.exists():
            if out.read_bytes() != f.read_bytes() and not rel.parts[0].endswith(".dist-info"):
                sys.exit(f"bundle_server.py: {rel} differs between Python versions")
            continue
        out.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(f, out)


def bundle(target: str, out: Path) -> dict:
    deps = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["dependencies"]
    platform_name = TARGETS[target]
    libs = out / "libs"
    shutil.rmtree(out, ignore_errors=True)
    libs.mkdir(parents=True)
    with tempfile.TemporaryDirectory() as tmp:
        reqs = Path(tmp) / "requirements.in"
        reqs.write_text("\n".join(deps) + "\n")
        lock = Path(tmp) / "requirements.txt"
        # One resolution for every Python and platform: the same versions everywhere.
        run([*uv(), "pip", "compile", "-q", "--universal", "--python-version", PYTHONS[0],
             "--only-binary", ":all:", "--no-header", "--no-annotate", "-o", str(lock), str(reqs)])
        for version in PYTHONS:
            part = Path(tmp) / f"py{version}"
            run([*uv(), "pip", "install", "-q", "--target", str(part), "--python-platform",
                 platform_name, "--python-version", version, "--only-binary", ":all:",
                 "--no-compile", "-r", str(lock)])
            merge(part, libs)
        pinned = sorted(ln.split(";")[0].strip() for ln in lock.read_text().splitlines()
                        if ln.strip() and not ln.startswith("#"))
    # The server itself, as source: its C accelerator is optional and left out (the same
    # results in Python), so one copy serves every Python version and platform.
    shutil.copytree(PACKAGE, libs / "iterative_retrieval",
                    ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.pyd", "*.c", "*.egg-info"))
    version = re.search(r'^__version__ = "([^"]+)"', (PACKAGE / "__init__.py").read_text(), re.MULTILINE)
    manifest = {"target": target, "platform": platform_name, "pythons": PYTHONS,
                "server": version.group(1) if version else "?", "packages": pinned}
    (out / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n")
    return manifest


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--target", default=None, choices=sorted(TARGETS),
                        help="VS Code target (default: this machine's)")
    parser.add_argument("--out", type=Path, default=HERE / "bundled")
    args = parser.parse_args()
    target = args.target or host_target()
    manifest = bundle(target, args.out)
    size = sum(f.stat().st_size for f in (args.out / "libs").rglob("*") if f.is_file())
    print(f"bundled the server {manifest['server']} for {target} (Python "
          f"{', '.join(manifest['pythons'])}): {len(manifest['packages'])} packages, "
          f"{size / 1e6:.1f} MB in {args.out / 'libs'}")


if __name__ == "__main__":
    main()
