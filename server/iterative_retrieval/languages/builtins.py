"""Methods of a language's own types and standard objects (`list.append`, `str.format`,
`Array.prototype.push`, `console.log`).

A call `x.append(...)` names no project file: the receiver is most likely a list. When a project
class happens to define `append` too, a definition link from every such call to that class
pointed a Python task's context at the wrong file (graph.py). Python's are read from the
interpreter's own types; JavaScript's are the ECMAScript built-ins, the DOM's and Node's
commonest methods (`createHash(…).update(token)`, `stream.pipe(…)`).
"""

from __future__ import annotations

import collections
import io
import logging
import pathlib
import re


def _python() -> frozenset[str]:
    types = (list, dict, set, frozenset, str, bytes, bytearray, tuple, int, float, complex,
             object, io.TextIOWrapper, io.BytesIO, logging.Logger, re.Pattern, re.Match,
             pathlib.Path, collections.deque, collections.OrderedDict, collections.Counter)
    return frozenset(n for t in types for n in dir(t) if not n.startswith("_"))


_JAVASCRIPT = frozenset("""
    push pop shift unshift slice splice concat join reverse sort indexOf lastIndexOf includes
    find findIndex findLast findLastIndex filter map reduce reduceRight forEach some every keys
    values entries flat flatMap fill copyWithin toString toLocaleString valueOf hasOwnProperty
    isPrototypeOf propertyIsEnumerable charAt charCodeAt codePointAt startsWith endsWith padStart
    padEnd repeat replace replaceAll split substring substr toLowerCase toUpperCase trim
    trimStart trimEnd match matchAll search localeCompare normalize then catch finally
    delete clear apply call bind warn error info debug trace assign freeze create
    defineProperty getPrototypeOf getOwnPropertyNames stringify parse test exec toFixed
    addEventListener removeEventListener dispatchEvent querySelector querySelectorAll
    getElementById appendChild removeChild insertBefore setAttribute getAttribute
    removeAttribute createElement preventDefault stopPropagation emit once removeListener
    resolve reject race allSettled update digest pipe write
""".split())

BUILTIN_METHODS: dict[str, frozenset[str]] = {"python": _python(), "javascript": _JAVASCRIPT}
"""Language family (detect.family) → the method names its own types define."""


def is_builtin_method(family: str | None, name: str) -> bool:
    """Whether `name` is a method of the family's own types."""
    return family is not None and name in BUILTIN_METHODS.get(family, ())
