// Package handlers holds ingestd's HTTP handlers.
package handlers

import (
	"encoding/json"
	"net/http"
	"time"
)

var started = time.Now()

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func Health() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, map[string]any{"status": "ok", "uptime_s": int(time.Since(started).Seconds())})
	})
}
