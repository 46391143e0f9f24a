package payments

import (
	"testing"
	"time"
)

func TestCardValidThroughExpiryMonth(t *testing.T) {
	c := CardToken{ExpMonth: 2, ExpYear: 2028}
	if c.Expired(time.Date(2028, 2, 29, 23, 59, 0, 0, time.UTC)) {
		t.Fatal("card should still be valid on the last day of its month")
	}
	if !c.Expired(time.Date(2028, 3, 1, 0, 0, 0, 0, time.UTC)) {
		t.Fatal("card should be expired from the next month on")
	}
}

func TestExpiringBefore(t *testing.T) {
	now := time.Date(2030, 5, 10, 0, 0, 0, 0, time.UTC)
	cards := []CardToken{{Token: "a", ExpMonth: 5, ExpYear: 2030}, {Token: "b", ExpMonth: 12, ExpYear: 2030}}
	got := ExpiringBefore(cards, now, now.AddDate(0, 1, 0))
	if len(got) != 1 || got[0].Token != "a" {
		t.Fatalf("got %+v", got)
	}
}
