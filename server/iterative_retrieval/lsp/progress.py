"""Work-done progress that worker threads can report to, and that the client can cancel.

The engine calls its `progress`/`report` callbacks from a worker thread; every notification is
handed to the event loop with `call_soon_threadsafe`, so they go out in the order they were made
and `end` always comes last. The token is the client's `workDoneToken` when it gave one, else one
created with `window/workDoneProgress/create` when the client supports it, else there is no
progress at all (every method is then a no-op).
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import os
import uuid
from concurrent.futures import Future
from typing import TYPE_CHECKING

from lsprotocol import types

if TYPE_CHECKING:
    from pygls.lsp.server import LanguageServer

log = logging.getLogger(__name__)

SLOW_STEP = float(os.environ.get("ITERATIVE_RETRIEVAL_LSP_SLOW", "0") or 0)
"""Debugging aid: seconds to pause after each progress step of a retrieve or an index, to watch
(or cancel) a retrieve, or talk to the server while it indexes. A cancelled retrieve stops
pausing at once."""
HOLD_TASKS_WITH = os.environ.get("ITERATIVE_RETRIEVAL_LSP_HOLD", "")
"""Debugging aid: a retrieve whose task contains this text holds at its first progress step
until it is cancelled, so that a client (a test) can cancel a request certainly in flight
whatever the machine's speed."""

WORK_DONE_TOKEN: contextvars.ContextVar[types.ProgressToken | None] = contextvars.ContextVar(
    "work_done_token", default=None
)
"""The `workDoneToken` of the executeCommand request being handled (pygls does not pass it on)."""


def client_supports_progress(ls: LanguageServer) -> bool:
    caps = ls.client_capabilities
    return bool(caps and caps.window and caps.window.work_done_progress)


class WorkProgress:
    """One progress bar: `begin` once, `report` from any thread, `end` once."""

    def __init__(self, ls: LanguageServer, token: types.ProgressToken | None):
        self._ls = ls
        self.token = token
        self._loop = asyncio.get_running_loop()
        self._percentage = 0
        self._ended = False
        self._cancel: Future | None = None

    @classmethod
    async def start(
        cls,
        ls: LanguageServer,
        title: str,
        message: str | None = None,
        token: types.ProgressToken | None = None,
        cancellable: bool = False,
    ) -> WorkProgress:
        """Begin a progress on the client's token, or on a new one when the client allows it."""
        if token is None and client_supports_progress(ls):
            new = f"iterative-retrieval/{uuid.uuid4()}"
            try:
                await ls.work_done_progress.create_async(new)
                token = new
            except Exception as exc:  # noqa: BLE001 - the client refused: no progress bar
                log.warning("window/workDoneProgress/create failed: %s", exc)
        wp = cls(ls, token)
        if token is not None:
            ls.work_done_progress.begin(token, types.WorkDoneProgressBegin(
                title=title, message=message, cancellable=cancellable, percentage=0,
            ))
            wp._cancel = ls.work_done_progress.tokens.get(token)
        return wp

    def cancelled(self) -> bool:
        """True once the client sent `window/workDoneProgress/cancel` for this token."""
        return self._cancel is not None and self._cancel.cancelled()

    def report(self, message: str, percentage: int | None = None) -> None:
        """Thread-safe; the percentage never goes backwards."""
        if self.token is None:
            return
        if percentage is not None:
            self._percentage = max(self._percentage, min(100, int(percentage)))
        value = types.WorkDoneProgressReport(message=message, percentage=self._percentage)
        self._loop.call_soon_threadsafe(self._send_report, value)

    def _send_report(self, value: types.WorkDoneProgressReport) -> None:
        if not self._ended and self.token is not None:
            self._ls.work_done_progress.report(self.token, value)

    def end(self, message: str) -> None:
        """Call on the event loop, after the work's future is done."""
        if self.token is None or self._ended:
            return
        self._ended = True
        self._ls.work_done_progress.end(self.token, types.WorkDoneProgressEnd(message=message))
        # pygls keeps every token forever; a client that reuses its token must start fresh.
        self._ls.work_done_progress.tokens.pop(self.token, None)
