"""Which language a path is written in: by special file name, then by extension."""

from __future__ import annotations

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

NO_OUTLINE = frozenset(
    "markdown rst text asciidoc yaml toml json ini xml html css csv dockerfile sql cmake".split()
)

FAMILIES: dict[str, str] = {
    "typescript": "javascript", "vue": "javascript", "svelte": "javascript",
    "cpp": "c", "objective-c": "c",
    "kotlin": "jvm", "java": "jvm", "scala": "jvm", "groovy": "jvm",
}
"""Languages whose files call each other's definitions; any other language is its own."""


def family(language: str | None) -> str | None:
    """The language family a file's names are defined in: a Python file calls no `append` of
    a JavaScript file beside it. None: any family, for an unknown language and for
    configuration and markup (tox.ini's `filterwarnings` names a Python class)."""
    return FAMILIES.get(language, language) if language and language not in NO_OUTLINE \
        else None


def language_for(path: str) -> str | None:
    """The language of a path by special file name, then by extension; None when unknown."""
    name = str(path).replace("\\", "/").rsplit("/", 1)[-1].lower()
    if name in SPECIAL_FILES:
        return SPECIAL_FILES[name]
    if name.startswith(("dockerfile", "containerfile")):
        return "dockerfile"
    if name.startswith("makefile"):
        return "make"
    dot = name.rfind(".")
    return LANGUAGES.get(name[dot:]) if dot > 0 else None
