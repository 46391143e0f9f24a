package middleware

import (
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

func TestThrottleBurstThenRefuse(t *testing.T) {
	now := time.Unix(0, 0)
	th := NewThrottle(1, 2)
	th.Now = func() time.Time { return now }
	h := th.Wrap(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	codes := []int{}
	for i := 0; i < 3; i++ {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", "/v1/events", nil))
		codes = append(codes, rec.Code)
	}
	if codes[0] != 200 || codes[1] != 200 || codes[2] != http.StatusTooManyRequests {
		t.Fatalf("codes %v", codes)
	}
}

func TestThrottleRefills(t *testing.T) {
	now := time.Unix(0, 0)
	th := NewThrottle(2, 1)
	th.Now = func() time.Time { return now }
	if ok, _ := th.Allow("k"); !ok {
		t.Fatal("first request refused")
	}
	if ok, wait := th.Allow("k"); ok || wait != 500*time.Millisecond {
		t.Fatalf("second request: ok=%v wait=%v", ok, wait)
	}
	now = now.Add(500 * time.Millisecond)
	if ok, _ := th.Allow("k"); !ok {
		t.Fatal("refilled request refused")
	}
}
