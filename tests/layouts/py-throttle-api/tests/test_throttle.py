from apiserver.http import Request, Response
from apiserver.middleware.throttle import Throttler, throttle
from apiserver.utils.clock import FakeClock


def request(addr="10.0.0.1"):
    return Request("GET", "/v1/search", {"q": "x"}, {}, remote_addr=addr)


def test_burst_then_refused():
    clock = FakeClock()
    handler = throttle(Throttler(burst=2, per_minute=60, clock=clock))(lambda r: Response(200))
    assert handler(request()).status == 200
    assert handler(request()).status == 200
    refused = handler(request())
    assert refused.status == 429
    assert refused.headers["Retry-After"] == "1"


def test_bucket_drains_over_time():
    clock = FakeClock()
    t = Throttler(burst=1, per_minute=60, clock=clock)
    assert t.admit("a") == (True, 0.0)
    assert t.admit("a")[0] is False
    clock.advance(1.0)
    assert t.admit("a")[0] is True


def test_clients_are_separate():
    clock = FakeClock()
    handler = throttle(Throttler(burst=1, per_minute=60, clock=clock))(lambda r: Response(200))
    assert handler(request("10.0.0.1")).status == 200
    assert handler(request("10.0.0.2")).status == 200
