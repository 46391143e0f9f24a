// Package config reads the server's settings from the environment.
package config

import (
	"fmt"
	"os"
	"strconv"
	"time"
)

type Config struct {
	Addr          string
	DatabaseURL   string
	SigningKey    []byte
	Issuer        string
	AccessTTL     time.Duration
	SessionIdle   time.Duration
	PositionTTL   time.Duration
	PaymentAPIURL string
}

func duration(name string, def time.Duration) (time.Duration, error) {
	raw := os.Getenv(name)
	if raw == "" {
		return def, nil
	}
	secs, err := strconv.Atoi(raw)
	if err != nil || secs <= 0 {
		return 0, fmt.Errorf("%s: want a positive number of seconds, got %q", name, raw)
	}
	return time.Duration(secs) * time.Second, nil
}

func Load() (Config, error) {
	key := os.Getenv("FLEET_SIGNING_KEY")
	if len(key) < 32 {
		return Config{}, fmt.Errorf("FLEET_SIGNING_KEY must be at least 32 characters")
	}
	cfg := Config{
		Addr:          envOr("FLEET_ADDR", ":8080"),
		DatabaseURL:   envOr("DATABASE_URL", "postgres://localhost/fleet?sslmode=disable"),
		SigningKey:    []byte(key),
		Issuer:        envOr("FLEET_ISSUER", "fleet"),
		PaymentAPIURL: envOr("PAYMENT_API_URL", "https://payments.example.invalid"),
	}
	var err error
	if cfg.AccessTTL, err = duration("ACCESS_TTL_SECONDS", 10*time.Minute); err != nil {
		return Config{}, err
	}
	if cfg.SessionIdle, err = duration("SESSION_IDLE_SECONDS", 4*time.Hour); err != nil {
		return Config{}, err
	}
	if cfg.PositionTTL, err = duration("POSITION_TTL_SECONDS", 2*time.Minute); err != nil {
		return Config{}, err
	}
	return cfg, nil
}

func envOr(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}
