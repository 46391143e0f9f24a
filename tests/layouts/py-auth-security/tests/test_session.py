from app.security.session import SessionStore
from app.utils import timeutil


def test_idle_session_closes():
    timeutil.freeze(1000.0)
    store = SessionStore(idle_seconds=60)
    session = store.open(1, "patient")
    timeutil.freeze(1060.0)
    assert store.is_open(session.id)
    timeutil.freeze(1061.0)
    assert not store.is_open(session.id)
    timeutil.freeze(None)


def test_close_all_for_user():
    store = SessionStore(idle_seconds=60)
    a = store.open(1, "patient")
    store.open(1, "patient")
    store.open(2, "staff")
    assert store.close_all(1) == 2
    assert not store.is_open(a.id)
