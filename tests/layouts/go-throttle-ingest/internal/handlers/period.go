package handlers

import "time"

// monthStart is the first instant of the current UTC month.
func monthStart() time.Time {
	now := time.Now().UTC()
	return time.Date(now.Year(), now.Month(), 1, 0, 0, 0, 0, time.UTC)
}
