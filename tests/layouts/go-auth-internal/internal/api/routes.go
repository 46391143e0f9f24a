// Package api wires the HTTP routes.
package api

import (
	"encoding/json"
	"errors"
	"net/http"

	"example.com/fleet/internal/auth"
	"example.com/fleet/internal/vehicles"
)

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// Routes builds the server's handler.
func Routes(a *auth.Authenticator, fleet *vehicles.Service) http.Handler {
	mux := http.NewServeMux()

	mux.HandleFunc("POST /login", func(w http.ResponseWriter, r *http.Request) {
		var body struct{ Email, Password string }
		if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
			http.Error(w, "bad json", http.StatusBadRequest)
			return
		}
		tok, exp, err := a.Login(r.Context(), body.Email, body.Password)
		if errors.Is(err, auth.ErrBadCredentials) {
			http.Error(w, err.Error(), http.StatusUnauthorized)
			return
		} else if err != nil {
			http.Error(w, "internal error", http.StatusInternalServerError)
			return
		}
		writeJSON(w, http.StatusCreated, map[string]any{"access_token": tok, "expires_at": exp.Unix()})
	})

	mux.Handle("POST /logout", a.Require(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p, _ := auth.FromContext(r.Context())
		_ = a.Logout(r.Context(), p)
		w.WriteHeader(http.StatusNoContent)
	})))

	mux.Handle("GET /vehicles", a.Require(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p, err := paginate(fleet.List(), r.URL.Query().Get("page_token"), 50)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		writeJSON(w, http.StatusOK, p)
	})))

	mux.Handle("GET /positions/live", a.Require(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, fleet.Live(r.Context()))
	})))

	mux.Handle("POST /positions", a.RequireRole("device", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var pos vehicles.Position
		if err := json.NewDecoder(r.Body).Decode(&pos); err != nil {
			http.Error(w, "bad json", http.StatusBadRequest)
			return
		}
		if err := fleet.Report(r.Context(), pos); err != nil {
			http.Error(w, err.Error(), http.StatusNotFound)
			return
		}
		w.WriteHeader(http.StatusAccepted)
	})))

	return mux
}
