// Package config loads ingestd's JSON configuration.
package config

import (
	"encoding/json"
	"fmt"
	"os"
)

type Throttle struct {
	PerSecond float64 `json:"per_second"`
	Burst     int     `json:"burst"`
}

type Config struct {
	Addr         string            `json:"addr"`
	APIKeys      map[string]string `json:"api_keys"` // key -> customer id
	MaxBodyBytes int64             `json:"max_body_bytes"`
	Throttle     Throttle          `json:"throttle"`
	PageSize     int               `json:"page_size"`
	RatesFile    string            `json:"rates_file"`
}

func Default() Config {
	return Config{
		Addr:         ":9000",
		MaxBodyBytes: 1 << 20,
		Throttle:     Throttle{PerSecond: 50, Burst: 100},
		PageSize:     100,
		RatesFile:    "rates.json",
	}
}

func Load(path string) (Config, error) {
	cfg := Default()
	f, err := os.Open(path)
	if err != nil {
		return cfg, err
	}
	defer f.Close()
	if err := json.NewDecoder(f).Decode(&cfg); err != nil {
		return cfg, fmt.Errorf("config: %s: %w", path, err)
	}
	if len(cfg.APIKeys) == 0 {
		return cfg, fmt.Errorf("config: %s: no api_keys", path)
	}
	if cfg.Throttle.PerSecond <= 0 || cfg.Throttle.Burst < 1 {
		return cfg, fmt.Errorf("config: %s: throttle needs per_second > 0 and burst >= 1", path)
	}
	return cfg, nil
}
