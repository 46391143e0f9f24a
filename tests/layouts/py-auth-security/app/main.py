"""Application factory and route table."""

from __future__ import annotations

from starlette.applications import Starlette
from starlette.routing import Route

from app.cache.ttl import TTLCache
from app.config import get_config
from app.routes import appointments, auth
from app.security.session import SessionStore
from app.services.auth import AuthService


def create_app() -> Starlette:
    config = get_config()
    app = Starlette(routes=[
        Route("/auth/login", auth.login, methods=["POST"]),
        Route("/auth/renew", auth.renew, methods=["POST"]),
        Route("/auth/logout", auth.logout, methods=["POST"]),
        Route("/appointments", appointments.list_appointments, methods=["GET"]),
        Route("/appointments", appointments.create_appointment, methods=["POST"]),
    ])
    app.state.sessions = SessionStore(idle_seconds=config.session_idle_seconds)
    app.state.auth = AuthService(config, app.state.sessions)
    app.state.calendar = []
    app.state.practitioners = TTLCache(ttl_seconds=config.cache_ttl_seconds)
    return app
