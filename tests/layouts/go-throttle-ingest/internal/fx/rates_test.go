package fx

import "testing"

func TestConvert(t *testing.T) {
	tbl := &Table{Rates: map[string]float64{"USD": 1, "EUR": 0.9, "JPY": 150}}
	got, err := tbl.ConvertCents(1000, "USD", "EUR")
	if err != nil || got != 900 {
		t.Fatalf("got %d %v", got, err)
	}
	if _, err := tbl.Rate("USD", "XXX"); err == nil {
		t.Fatal("expected an error for an unknown currency")
	}
}
