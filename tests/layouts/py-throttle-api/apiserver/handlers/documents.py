"""GET /v1/documents/<doc_id>."""

from __future__ import annotations

from apiserver.http import Handler, Request, Response, error
from apiserver.services.documents import DocumentStore


def make_get(store: DocumentStore) -> Handler:
    def get(request: Request) -> Response:
        doc = store.get(request.context["params"]["doc_id"])
        if doc is None:
            return error(404, "not_found", "no such document")
        return Response(200, {"id": doc.id, "title": doc.title, "body": doc.body,
                              "updated": doc.updated})
    return get
