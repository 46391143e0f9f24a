package handlers

import (
	"encoding/json"
	"net/http"
	"time"

	"example.com/ingest/internal/middleware"
	"example.com/ingest/internal/store"
)

// IngestEvents accepts a JSON array of events for the calling customer.
func IngestEvents(events *store.Events) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var batch []store.Event
		if err := json.NewDecoder(r.Body).Decode(&batch); err != nil {
			http.Error(w, "body must be a JSON array of events", http.StatusBadRequest)
			return
		}
		for i := range batch {
			if batch[i].Name == "" || batch[i].Device == "" {
				http.Error(w, "every event needs a name and a device", http.StatusBadRequest)
				return
			}
			if batch[i].Timestamp.IsZero() {
				batch[i].Timestamp = time.Now().UTC()
			}
		}
		n := events.Append(middleware.CustomerFrom(r.Context()), batch)
		writeJSON(w, http.StatusAccepted, map[string]int{"accepted": n})
	})
}

// ListEvents pages through the calling customer's events (?limit=&offset=).
func ListEvents(events *store.Events, pageSize int) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		page, err := store.ParsePage(r.URL.Query(), pageSize, 10*pageSize)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		all := events.List(middleware.CustomerFrom(r.Context()))
		start, end := page.Window(len(all))
		writeJSON(w, http.StatusOK, map[string]any{
			"items": all[start:end], "total": len(all), "limit": page.Limit, "offset": page.Offset,
		})
	})
}
