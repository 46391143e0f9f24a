package main

import (
	"flag"
	"log"
	"net/http"
	"time"

	"example.com/ingest/internal/config"
	"example.com/ingest/internal/fx"
	"example.com/ingest/internal/server"
	"example.com/ingest/internal/store"
)

func main() {
	path := flag.String("config", "ingest.json", "configuration file")
	flag.Parse()
	cfg, err := config.Load(*path)
	if err != nil {
		log.Fatal(err)
	}
	rates, err := fx.LoadTable(cfg.RatesFile)
	if err != nil {
		log.Fatalf("loading exchange rates: %v", err)
	}
	srv := &http.Server{
		Addr:              cfg.Addr,
		Handler:           server.NewRouter(cfg, store.NewEvents(), rates),
		ReadHeaderTimeout: 5 * time.Second,
		WriteTimeout:      30 * time.Second,
	}
	log.Printf("ingestd listening on %s", cfg.Addr)
	log.Fatal(srv.ListenAndServe())
}
