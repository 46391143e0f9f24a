"""A built-in table of programming synonyms, for task words the codebase does not use.

Tasks say "rate limit" where code says "throttle"; REFINE tries these only for concepts with
little or no evidence in the index, so they never drown the task's own words.
"""

from __future__ import annotations

from .tokenize import stem

_GROUPS = (
    "rate limit|ratelimit|throttle|throttling|quota|backoff|bucket",
    "auth|authentication|authenticate|login|logon|signin|credential|jwt|token|oauth|session",
    "authorization|authorize|permission|role|acl|policy|access|grant",
    "delete|remove|destroy|erase|purge|drop|unlink",
    "create|add|insert|new|make|build|register",
    "update|modify|change|edit|patch|mutate",
    "config|configuration|settings|options|preferences|conf|env",
    "error|exception|failure|fault|panic|err",
    "log|logger|logging|trace|debug",
    "cache|memoize|memo|lru|ttl",
    "expiry|expire|expiration|ttl|timeout|deadline|lifetime",
    "retry|retries|backoff|attempt",
    "user|account|member|profile|principal",
    "database|db|sql|store|repository|persistence|orm",
    "request|req|http|endpoint|route|handler",
    "response|res|reply|result",
    "route|router|routing|endpoint|url|path",
    "middleware|interceptor|filter|hook|plugin",
    "send|emit|dispatch|publish|notify",
    "receive|consume|subscribe|listen|handle",
    "email|mail|smtp|notification",
    "payment|billing|invoice|charge|checkout|stripe",
    "search|query|find|lookup|filter",
    "parse|parser|tokenize|lex|decode",
    "serialize|serialization|encode|marshal|dump|json",
    "deserialize|unmarshal|load|decode",
    "validate|validation|validator|check|verify|sanitize",
    "upload|attachment|file|blob",
    "schedule|scheduler|cron|job|task|queue|worker",
    "test|spec|fixture|mock",
    "print|printer|render|format|display|output",
    "command|cmd|cli|flag|argument|arg",
    "completion|complete|autocomplete|suggest",
    "password|passwd|secret|hash|bcrypt",
    "encrypt|encryption|cipher|crypto",
    "connection|conn|socket|client|pool",
    "thread|concurrency|lock|mutex|async|goroutine",
    "memory|leak|alloc|allocation|gc",
    "performance|slow|latency|speed|optimize",
    "pagination|paginate|page|offset|cursor",
    "i18n|locale|translation|translate|localization",
    "signal|event|listener|callback|observer",
    "template|view|render|jinja",
    "blueprint|module|app|application",
)


def _build() -> dict[str, tuple[str, ...]]:
    table: dict[str, list[str]] = {}
    for line in _GROUPS:
        words = [w.strip() for w in line.split("|") if w.strip()]
        for w in words:
            key = stem(w.replace(" ", ""))
            bucket = table.setdefault(key, [])
            for other in words:
                if other != w and other not in bucket:
                    bucket.append(other)
        # multi-word heads ("rate limit") are also reachable by their parts joined
    return {k: tuple(v) for k, v in table.items()}


_TABLE = _build()


def synonyms(word: str) -> tuple[str, ...]:
    """Programming synonyms of a word (by stem), nearest first; empty when none are known."""
    return _TABLE.get(stem(word.replace(" ", "").replace("_", "").replace("-", "")), ())
