package session

import (
	"context"
	"sync"
)

// Store persists sessions. The server uses Postgres; tests use MemoryStore.
type Store interface {
	Get(ctx context.Context, id string) (*Session, error)
	Put(ctx context.Context, s *Session) error
	ListByUser(ctx context.Context, userID string) ([]*Session, error)
}

type MemoryStore struct {
	mu   sync.RWMutex
	byID map[string]Session
}

func NewMemoryStore() *MemoryStore { return &MemoryStore{byID: map[string]Session{}} }

func (m *MemoryStore) Get(_ context.Context, id string) (*Session, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	s, ok := m.byID[id]
	if !ok {
		return nil, ErrNotFound
	}
	return &s, nil
}

func (m *MemoryStore) Put(_ context.Context, s *Session) error {
	m.mu.Lock()
	m.byID[s.ID] = *s
	m.mu.Unlock()
	return nil
}

func (m *MemoryStore) ListByUser(_ context.Context, userID string) ([]*Session, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	var out []*Session
	for _, s := range m.byID {
		if s.UserID == userID {
			s := s
			out = append(out, &s)
		}
	}
	return out, nil
}
