from __future__ import annotations

import time

from apiserver import __version__
from apiserver.http import Request, Response

_STARTED = time.time()


def check(request: Request) -> Response:
    return Response(200, {"status": "ok", "version": __version__,
                          "uptime_s": round(time.time() - _STARTED)})
