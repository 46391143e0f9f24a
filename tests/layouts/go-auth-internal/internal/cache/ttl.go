// Package cache is a small in-memory cache whose entries expire.
package cache

import (
	"sync"
	"time"
)

type entry[V any] struct {
	value  V
	expiry time.Time
}

// TTL caches values for a fixed time to live; the latest vehicle positions
// are served from it so the map does not hit the database on every poll.
type TTL[K comparable, V any] struct {
	mu    sync.Mutex
	ttl   time.Duration
	items map[K]entry[V]
	now   func() time.Time
}

func NewTTL[K comparable, V any](ttl time.Duration, now func() time.Time) *TTL[K, V] {
	if now == nil {
		now = time.Now
	}
	return &TTL[K, V]{ttl: ttl, items: map[K]entry[V]{}, now: now}
}

func (c *TTL[K, V]) Get(key K) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.items[key]
	if !ok || !c.now().Before(e.expiry) {
		delete(c.items, key)
		var zero V
		return zero, false
	}
	return e.value, true
}

func (c *TTL[K, V]) Set(key K, value V) {
	c.mu.Lock()
	c.items[key] = entry[V]{value: value, expiry: c.now().Add(c.ttl)}
	c.mu.Unlock()
}

// Sweep drops expired entries and reports how many it removed.
func (c *TTL[K, V]) Sweep() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	now := c.now()
	n := 0
	for k, e := range c.items {
		if !now.Before(e.expiry) {
			delete(c.items, k)
			n++
		}
	}
	return n
}

func (c *TTL[K, V]) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.items)
}
