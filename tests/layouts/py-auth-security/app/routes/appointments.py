"""/appointments endpoints."""

from __future__ import annotations

from datetime import datetime

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from app.routes.auth import current_identity
from app.services.auth import AuthError
from app.services.booking import BookingError, book, list_for_patient


async def list_appointments(request: Request) -> Response:
    try:
        identity = current_identity(request)
    except AuthError as exc:
        return JSONResponse({"error": exc.code}, status_code=401)
    items = list_for_patient(request.app.state.calendar, identity.user_id)
    return JSONResponse([{"id": a.id, "starts_at": a.starts_at.isoformat(), "minutes": a.minutes,
                          "status": a.status} for a in items])


async def create_appointment(request: Request) -> Response:
    try:
        identity = current_identity(request)
    except AuthError as exc:
        return JSONResponse({"error": exc.code}, status_code=401)
    body = await request.json()
    try:
        appt = book(request.app.state.calendar, identity.user_id, int(body["practitioner_id"]),
                    datetime.fromisoformat(body["starts_at"]), int(body.get("minutes", 20)))
    except (BookingError, KeyError, ValueError) as exc:
        return JSONResponse({"error": str(exc)}, status_code=400)
    return JSONResponse({"id": appt.id}, status_code=201)
