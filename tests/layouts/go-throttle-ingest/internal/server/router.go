// Package server mounts ingestd's handlers behind their middleware.
package server

import (
	"net/http"

	"example.com/ingest/internal/config"
	"example.com/ingest/internal/fx"
	"example.com/ingest/internal/handlers"
	"example.com/ingest/internal/middleware"
	"example.com/ingest/internal/store"
)

// NewRouter returns the root handler: every route with its middleware stack.
func NewRouter(cfg config.Config, events *store.Events, rates *fx.Table) http.Handler {
	mw := middleware.NewRegistry(cfg)
	mux := http.NewServeMux()

	public := []string{"request-id"}
	customer := []string{"request-id", "api-key"}
	writes := []string{"request-id", "api-key", "body-limit"}

	mux.Handle("GET /healthz", mw.Stack(handlers.Health(), public...))
	mux.Handle("POST /v1/events", mw.Stack(handlers.IngestEvents(events), writes...))
	mux.Handle("GET /v1/events", mw.Stack(handlers.ListEvents(events, cfg.PageSize), customer...))
	mux.Handle("GET /v1/metrics", mw.Stack(handlers.Metrics(events), customer...))
	mux.Handle("GET /v1/invoice", mw.Stack(handlers.Invoice(events, rates), customer...))
	return mux
}
