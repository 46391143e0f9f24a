// Package vehicles keeps the fleet's vehicles and their last known positions.
package vehicles

import (
	"errors"
	"math"
	"time"
)

var ErrUnknownVehicle = errors.New("vehicles: unknown vehicle")

type Vehicle struct {
	ID       string `json:"id"`
	Plate    string `json:"plate"`
	Model    string `json:"model"`
	Capacity int    `json:"capacity_kg"`
	Active   bool   `json:"active"`
}

type Position struct {
	VehicleID string    `json:"vehicle_id"`
	Lat       float64   `json:"lat"`
	Lon       float64   `json:"lon"`
	SpeedKmh  float64   `json:"speed_kmh"`
	At        time.Time `json:"at"`
}

const earthRadiusKm = 6371.0

// DistanceKm is the great-circle distance between two positions.
func DistanceKm(a, b Position) float64 {
	rad := func(d float64) float64 { return d * math.Pi / 180 }
	dLat := rad(b.Lat - a.Lat)
	dLon := rad(b.Lon - a.Lon)
	h := math.Sin(dLat/2)*math.Sin(dLat/2) + math.Cos(rad(a.Lat))*math.Cos(rad(b.Lat))*math.Sin(dLon/2)*math.Sin(dLon/2)
	return 2 * earthRadiusKm * math.Asin(math.Sqrt(h))
}

// Stale reports whether a position is too old to show as live.
func (p Position) Stale(now time.Time, maxAge time.Duration) bool {
	return now.Sub(p.At) > maxAge
}
