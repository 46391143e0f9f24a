from hub.core.sessions import SessionManager
from hub.lib import clock


def test_idle_timeout_and_refresh():
    t = [0.0]
    clock.set_source(lambda: t[0])
    try:
        sessions = SessionManager(idle_seconds=100, absolute_seconds=1000)
        s = sessions.start(1)
        t[0] = 90
        assert sessions.is_open(s.sid, refresh=True)
        t[0] = 180
        assert sessions.is_open(s.sid)
        t[0] = 291
        assert not sessions.is_open(s.sid)
    finally:
        clock.set_source(None)


def test_end_all():
    sessions = SessionManager(idle_seconds=100, absolute_seconds=1000)
    a, b = sessions.start(1), sessions.start(1)
    assert sessions.end_all(1) == 2
    assert not sessions.is_open(a.sid) and not sessions.is_open(b.sid)
