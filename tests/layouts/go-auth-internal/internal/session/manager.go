// Package session keeps dispatchers' login sessions. Access tokens name their
// session; a token is only good while that session is open.
package session

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"time"

	"example.com/fleet/pkg/utils"
)

var ErrNotFound = errors.New("session: not found")

type Session struct {
	ID       string
	UserID   string
	Role     string
	OpenedAt time.Time
	LastSeen time.Time
	ClosedAt *time.Time
}

type Manager struct {
	store Store
	idle  time.Duration
	clock utils.Clock
}

func NewManager(store Store, idle time.Duration, clock utils.Clock) *Manager {
	return &Manager{store: store, idle: idle, clock: clock}
}

func newID() string {
	b := make([]byte, 18)
	if _, err := rand.Read(b); err != nil {
		panic(err)
	}
	return hex.EncodeToString(b)
}

// Open starts a session for a user who just proved who they are.
func (m *Manager) Open(ctx context.Context, userID, role string) (*Session, error) {
	now := m.clock.Now()
	s := &Session{ID: newID(), UserID: userID, Role: role, OpenedAt: now, LastSeen: now}
	return s, m.store.Put(ctx, s)
}

// IsOpen reports whether the session was open at time at: it exists, had not
// been closed by then, and had been used within the idle timeout.
func (m *Manager) IsOpen(ctx context.Context, id string, at time.Time) bool {
	s, err := m.store.Get(ctx, id)
	if err != nil {
		return false
	}
	if s.ClosedAt != nil && !s.ClosedAt.After(at) {
		return false
	}
	return at.Sub(s.LastSeen) <= m.idle
}

// Touch records activity, pushing the idle timeout back.
func (m *Manager) Touch(ctx context.Context, id string) error {
	s, err := m.store.Get(ctx, id)
	if err != nil {
		return err
	}
	s.LastSeen = m.clock.Now()
	return m.store.Put(ctx, s)
}

// Close ends a session (logout).
func (m *Manager) Close(ctx context.Context, id string) error {
	s, err := m.store.Get(ctx, id)
	if err != nil {
		return err
	}
	if s.ClosedAt == nil {
		now := m.clock.Now()
		s.ClosedAt = &now
	}
	return m.store.Put(ctx, s)
}

// CloseAll ends every open session of a user, e.g. after a password change.
func (m *Manager) CloseAll(ctx context.Context, userID string) (int, error) {
	sessions, err := m.store.ListByUser(ctx, userID)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, s := range sessions {
		if s.ClosedAt == nil {
			if err := m.Close(ctx, s.ID); err != nil {
				return n, err
			}
			n++
		}
	}
	return n, nil
}
