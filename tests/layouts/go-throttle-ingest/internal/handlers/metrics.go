package handlers

import (
	"math"
	"net/http"
	"sort"

	"example.com/ingest/internal/fx"
	"example.com/ingest/internal/middleware"
	"example.com/ingest/internal/store"
)

type summary struct {
	Name  string  `json:"name"`
	Count int     `json:"count"`
	Min   float64 `json:"min"`
	Max   float64 `json:"max"`
	Mean  float64 `json:"mean"`
}

// Metrics summarises the calling customer's events per event name.
func Metrics(events *store.Events) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		byName := map[string]*summary{}
		for _, e := range events.List(middleware.CustomerFrom(r.Context())) {
			s, ok := byName[e.Name]
			if !ok {
				s = &summary{Name: e.Name, Min: math.Inf(1), Max: math.Inf(-1)}
				byName[e.Name] = s
			}
			s.Count++
			s.Min = math.Min(s.Min, e.Value)
			s.Max = math.Max(s.Max, e.Value)
			s.Mean += (e.Value - s.Mean) / float64(s.Count)
		}
		out := make([]summary, 0, len(byName))
		for _, s := range byName {
			out = append(out, *s)
		}
		sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
		writeJSON(w, http.StatusOK, out)
	})
}

const centsPerThousandEvents = 4 // USD

// Invoice prices this month's events in ?currency= (USD by default).
func Invoice(events *store.Events, rates *fx.Table) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		currency := r.URL.Query().Get("currency")
		if currency == "" {
			currency = "USD"
		}
		n := events.CountSince(middleware.CustomerFrom(r.Context()), monthStart())
		usd := int64(math.Ceil(float64(n) / 1000 * centsPerThousandEvents))
		amount, err := rates.ConvertCents(usd, "USD", currency)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		writeJSON(w, http.StatusOK, map[string]any{"events": n, "amount_minor": amount, "currency": currency})
	})
}
