package vehicles

import (
	"context"
	"sort"
	"sync"
	"time"

	"example.com/fleet/internal/cache"
)

type Service struct {
	mu        sync.RWMutex
	vehicles  map[string]Vehicle
	positions *cache.TTL[string, Position]
}

func NewService(positionTTL time.Duration) *Service {
	return &Service{vehicles: map[string]Vehicle{}, positions: cache.NewTTL[string, Position](positionTTL, nil)}
}

func (s *Service) Register(v Vehicle) {
	s.mu.Lock()
	s.vehicles[v.ID] = v
	s.mu.Unlock()
}

func (s *Service) Report(_ context.Context, p Position) error {
	s.mu.RLock()
	_, ok := s.vehicles[p.VehicleID]
	s.mu.RUnlock()
	if !ok {
		return ErrUnknownVehicle
	}
	s.positions.Set(p.VehicleID, p)
	return nil
}

// Live lists active vehicles with a recent position, sorted by plate.
func (s *Service) Live(_ context.Context) []Position {
	s.mu.RLock()
	defer s.mu.RUnlock()
	var out []Position
	for id, v := range s.vehicles {
		if !v.Active {
			continue
		}
		if p, ok := s.positions.Get(id); ok {
			out = append(out, p)
		}
	}
	sort.Slice(out, func(i, j int) bool { return s.vehicles[out[i].VehicleID].Plate < s.vehicles[out[j].VehicleID].Plate })
	return out
}

func (s *Service) List() []Vehicle {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := make([]Vehicle, 0, len(s.vehicles))
	for _, v := range s.vehicles {
		out = append(out, v)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}
