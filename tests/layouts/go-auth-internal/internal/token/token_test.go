package token

import (
	"errors"
	"testing"
	"time"

	"example.com/fleet/pkg/utils"
)

func TestIssueVerify(t *testing.T) {
	clock := utils.NewManualClock(time.Unix(1_700_000_000, 0))
	s := NewService([]byte("0123456789abcdef0123456789abcdef"), "fleet", 10*time.Minute, clock)
	raw, exp, err := s.Issue("u1", "s1", "dispatcher")
	if err != nil {
		t.Fatal(err)
	}
	claims, err := s.Verify(raw)
	if err != nil || claims.SessionID != "s1" || claims.ExpiresAt != exp.Unix() {
		t.Fatalf("claims %+v err %v", claims, err)
	}
}

func TestExpiredKeepsClaims(t *testing.T) {
	clock := utils.NewManualClock(time.Unix(1_700_000_000, 0))
	s := NewService([]byte("0123456789abcdef0123456789abcdef"), "fleet", time.Minute, clock)
	raw, _, _ := s.Issue("u1", "s1", "dispatcher")
	clock.Advance(2 * time.Minute)
	claims, err := s.Verify(raw)
	if !errors.Is(err, ErrExpired) || claims.SessionID != "s1" {
		t.Fatalf("claims %+v err %v", claims, err)
	}
}
