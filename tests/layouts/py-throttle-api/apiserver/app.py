"""WSGI entry point."""

from __future__ import annotations

import argparse
import logging
from wsgiref.simple_server import make_server

from apiserver.http import Request, error
from apiserver.routing import setup_routes
from apiserver.services.documents import DocumentStore
from apiserver.services.exchange_rates import ExchangeRates
from apiserver.settings import from_env

log = logging.getLogger(__name__)


def create_app(settings=None, store=None, rates=None):
    settings = settings or from_env()
    router = setup_routes(settings, store or DocumentStore.from_directory("archive"),
                          rates or ExchangeRates.bundled())

    def app(environ, start_response):
        try:
            response = router.dispatch(Request.from_environ(environ))
        except Exception:
            log.exception("unhandled error")
            response = error(500, "internal", "something went wrong")
        status, headers, body = response.encode()
        start_response(status, headers)
        return [body]

    return app


def main() -> None:
    parser = argparse.ArgumentParser(prog="docsearch-api")
    parser.add_argument("--port", type=int, default=8000)
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO)
    with make_server("", args.port, create_app()) as server:
        log.info("listening on %s", args.port)
        server.serve_forever()
