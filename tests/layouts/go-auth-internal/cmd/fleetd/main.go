package main

import (
	"context"
	"flag"
	"log"
	"net/http"
	"time"

	"example.com/fleet/internal/api"
	"example.com/fleet/internal/auth"
	"example.com/fleet/internal/config"
	"example.com/fleet/internal/session"
	"example.com/fleet/internal/token"
	"example.com/fleet/internal/vehicles"
	"example.com/fleet/pkg/utils"
)

type noUsers struct{}

func (noUsers) CheckPassword(context.Context, string, string) (string, string, error) {
	return "", "", auth.ErrBadCredentials
}

func main() {
	addr := flag.String("addr", "", "listen address (overrides FLEET_ADDR)")
	flag.Parse()
	cfg, err := config.Load()
	if err != nil {
		log.Fatal(err)
	}
	if *addr != "" {
		cfg.Addr = *addr
	}
	clock := utils.SystemClock{}
	sessions := session.NewManager(session.NewMemoryStore(), cfg.SessionIdle, clock)
	tokens := token.NewService(cfg.SigningKey, cfg.Issuer, cfg.AccessTTL, clock)
	authn := auth.New(noUsers{}, tokens, sessions, clock)
	fleet := vehicles.NewService(cfg.PositionTTL)

	srv := &http.Server{
		Addr:              cfg.Addr,
		Handler:           api.Routes(authn, fleet),
		ReadHeaderTimeout: 5 * time.Second,
	}
	log.Printf("fleetd listening on %s", cfg.Addr)
	log.Fatal(srv.ListenAndServe())
}
