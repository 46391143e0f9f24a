package middleware

import (
	"math"
	"net/http"
	"strconv"
	"sync"
	"time"
)

// Throttle admits at most PerSecond requests per second per key, allowing
// bursts of up to Burst requests: each key earns allowance over time, up to
// Burst, and spends one unit per request.
type Throttle struct {
	PerSecond float64
	Burst     int
	KeyFunc   func(*http.Request) string
	Now       func() time.Time

	mu      sync.Mutex
	clients map[string]*allowance
}

type allowance struct {
	left float64
	last time.Time
}

func NewThrottle(perSecond float64, burst int) *Throttle {
	return &Throttle{PerSecond: perSecond, Burst: burst, KeyFunc: CustomerKey, Now: time.Now,
		clients: map[string]*allowance{}}
}

// Allow spends one unit of the key's allowance. When none is left it returns
// false and how long until one is earned.
func (t *Throttle) Allow(key string) (bool, time.Duration) {
	t.mu.Lock()
	defer t.mu.Unlock()
	now := t.Now()
	a, ok := t.clients[key]
	if !ok {
		a = &allowance{left: float64(t.Burst), last: now}
		t.clients[key] = a
	}
	a.left = math.Min(float64(t.Burst), a.left+now.Sub(a.last).Seconds()*t.PerSecond)
	a.last = now
	if a.left < 1 {
		wait := time.Duration((1 - a.left) / t.PerSecond * float64(time.Second))
		return false, wait
	}
	a.left--
	return true, 0
}

// Forget drops keys idle long enough to have a full allowance again.
func (t *Throttle) Forget() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	full := time.Duration(float64(t.Burst) / t.PerSecond * float64(time.Second))
	n := 0
	for k, a := range t.clients {
		if t.Now().Sub(a.last) >= full {
			delete(t.clients, k)
			n++
		}
	}
	return n
}

// Wrap is the HTTP middleware: 429 with Retry-After once a key is out of allowance.
func (t *Throttle) Wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ok, wait := t.Allow(t.KeyFunc(r))
		if !ok {
			w.Header().Set("Retry-After", strconv.Itoa(int(math.Ceil(wait.Seconds()))))
			http.Error(w, "too many requests", http.StatusTooManyRequests)
			return
		}
		next.ServeHTTP(w, r)
	})
}
