// Package store keeps telemetry events in memory, per customer.
package store

import (
	"sort"
	"sync"
	"time"
)

type Event struct {
	ID        int64             `json:"id"`
	Customer  string            `json:"customer"`
	Device    string            `json:"device"`
	Name      string            `json:"name"`
	Value     float64           `json:"value"`
	Tags      map[string]string `json:"tags,omitempty"`
	Timestamp time.Time         `json:"ts"`
}

type Events struct {
	mu     sync.RWMutex
	nextID int64
	byCust map[string][]Event
}

func NewEvents() *Events { return &Events{byCust: map[string][]Event{}} }

// Append stores events for a customer and returns how many were stored.
func (s *Events) Append(customer string, evs []Event) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i := range evs {
		s.nextID++
		evs[i].ID = s.nextID
		evs[i].Customer = customer
		s.byCust[customer] = append(s.byCust[customer], evs[i])
	}
	return len(evs)
}

// List returns a customer's events, oldest first.
func (s *Events) List(customer string) []Event {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := append([]Event(nil), s.byCust[customer]...)
	sort.Slice(out, func(i, j int) bool { return out[i].Timestamp.Before(out[j].Timestamp) })
	return out
}

// CountSince counts a customer's events since t (for invoicing).
func (s *Events) CountSince(customer string, t time.Time) int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	n := 0
	for _, e := range s.byCust[customer] {
		if !e.Timestamp.Before(t) {
			n++
		}
	}
	return n
}
