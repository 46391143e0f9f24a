package cache

import (
	"testing"
	"time"
)

func TestEntriesExpire(t *testing.T) {
	now := time.Unix(1000, 0)
	c := NewTTL[string, int](time.Minute, func() time.Time { return now })
	c.Set("truck-7", 42)
	if v, ok := c.Get("truck-7"); !ok || v != 42 {
		t.Fatalf("got %v %v", v, ok)
	}
	now = now.Add(time.Minute)
	if _, ok := c.Get("truck-7"); ok {
		t.Fatal("entry should have expired")
	}
}

func TestSweep(t *testing.T) {
	now := time.Unix(0, 0)
	c := NewTTL[int, int](time.Second, func() time.Time { return now })
	c.Set(1, 1)
	c.Set(2, 2)
	now = now.Add(2 * time.Second)
	if n := c.Sweep(); n != 2 || c.Len() != 0 {
		t.Fatalf("swept %d, %d left", n, c.Len())
	}
}
