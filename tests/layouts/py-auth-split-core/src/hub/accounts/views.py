"""HTTP views for signing in and out."""

from __future__ import annotations

from flask import Blueprint, current_app, g, jsonify, request

from hub.accounts.login import LoginRequired, WrongPassword, authenticate_request, sign_in, sign_out

bp = Blueprint("accounts", __name__, url_prefix="/accounts")


def _deps():
    return current_app.config["HUB_SETTINGS"], current_app.config["HUB_SESSIONS"]


@bp.before_app_request
def load_member():
    g.member = None
    if request.headers.get("Authorization"):
        settings, sessions = _deps()
        try:
            g.member = authenticate_request(request.headers["Authorization"], settings, sessions)
        except LoginRequired:
            g.member = None


@bp.post("/sign-in")
def sign_in_view():
    body = request.get_json(force=True, silent=True) or {}
    settings, sessions = _deps()
    try:
        token = sign_in(body.get("email", ""), body.get("password", ""), settings, sessions)
    except WrongPassword:
        return jsonify(error="wrong email or password"), 401
    return jsonify(access_token=token, expires_in=settings.access_token_seconds), 201


@bp.post("/sign-out")
def sign_out_view():
    if g.member is None:
        return jsonify(error="not signed in"), 401
    sign_out(g.member, _deps()[1])
    return "", 204
