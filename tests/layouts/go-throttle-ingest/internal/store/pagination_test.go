package store

import (
	"net/url"
	"testing"
)

func TestParsePageDefaults(t *testing.T) {
	p, err := ParsePage(url.Values{}, 100, 1000)
	if err != nil || p.Limit != 100 || p.Offset != 0 {
		t.Fatalf("got %+v %v", p, err)
	}
}

func TestParsePageRejectsLargeLimit(t *testing.T) {
	if _, err := ParsePage(url.Values{"limit": {"1001"}}, 100, 1000); err == nil {
		t.Fatal("expected an error")
	}
}

func TestWindow(t *testing.T) {
	start, end := Page{Limit: 10, Offset: 95}.Window(100)
	if start != 95 || end != 100 {
		t.Fatalf("got %d..%d", start, end)
	}
}
