// Package fx converts invoice amounts using daily currency exchange rates.
package fx

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
)

// Table holds exchange rates against USD: 1 USD = Rates[c] units of c.
type Table struct {
	Date  string             `json:"date"`
	Rates map[string]float64 `json:"rates"`
}

func LoadTable(path string) (*Table, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var t Table
	if err := json.Unmarshal(b, &t); err != nil {
		return nil, fmt.Errorf("fx: %s: %w", path, err)
	}
	if t.Rates == nil {
		t.Rates = map[string]float64{}
	}
	t.Rates["USD"] = 1
	return &t, nil
}

// Rate is the exchange rate from one currency to another.
func (t *Table) Rate(from, to string) (float64, error) {
	f, ok := t.Rates[from]
	if !ok {
		return 0, fmt.Errorf("fx: no rate for %s", from)
	}
	g, ok := t.Rates[to]
	if !ok {
		return 0, fmt.Errorf("fx: no rate for %s", to)
	}
	return g / f, nil
}

// ConvertCents converts an amount in minor units, rounding half away from zero.
func (t *Table) ConvertCents(amount int64, from, to string) (int64, error) {
	r, err := t.Rate(from, to)
	if err != nil {
		return 0, err
	}
	return int64(math.Round(float64(amount) * r)), nil
}
