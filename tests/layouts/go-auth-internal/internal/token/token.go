// Package token mints and verifies the access tokens dispatchers send with
// every request.
package token

import (
	"errors"
	"fmt"
	"time"

	"example.com/fleet/pkg/utils"
)

var (
	// ErrExpired is returned together with the claims, so callers can still see
	// which session an expired token belonged to.
	ErrExpired = errors.New("token: expired")
	ErrInvalid = errors.New("token: invalid")
)

// Claims of an access token.
type Claims struct {
	utils.StandardClaims
	SessionID string `json:"sid"`
	Role      string `json:"role"`
	Use       string `json:"use"`
}

// ExpiresAtTime is the `exp` claim as a time.Time.
func (c Claims) ExpiresAtTime() time.Time { return time.Unix(c.ExpiresAt, 0) }

type Service struct {
	key    []byte
	issuer string
	ttl    time.Duration
	skew   time.Duration
	clock  utils.Clock
}

func NewService(key []byte, issuer string, ttl time.Duration, clock utils.Clock) *Service {
	return &Service{key: key, issuer: issuer, ttl: ttl, skew: 15 * time.Second, clock: clock}
}

// Issue mints an access token for a session; it returns the token and its expiry.
func (s *Service) Issue(userID, sessionID, role string) (string, time.Time, error) {
	now := s.clock.Now()
	exp := now.Add(s.ttl)
	claims := Claims{
		StandardClaims: utils.StandardClaims{
			Subject:   userID,
			Issuer:    s.issuer,
			IssuedAt:  now.Unix(),
			ExpiresAt: exp.Unix(),
		},
		SessionID: sessionID,
		Role:      role,
		Use:       "access",
	}
	raw, err := utils.EncodeJWT(claims, s.key)
	if err != nil {
		return "", time.Time{}, fmt.Errorf("token: encode: %w", err)
	}
	return raw, exp, nil
}

// Verify checks signature, issuer and use, then expiry. An expired but
// otherwise valid token yields its claims and ErrExpired.
func (s *Service) Verify(raw string) (Claims, error) {
	var claims Claims
	if err := utils.DecodeJWT(raw, s.key, &claims); err != nil {
		return Claims{}, fmt.Errorf("%w: %v", ErrInvalid, err)
	}
	if claims.Issuer != s.issuer || claims.Use != "access" || claims.SessionID == "" {
		return Claims{}, ErrInvalid
	}
	if s.clock.Now().After(claims.ExpiresAtTime().Add(s.skew)) {
		return claims, ErrExpired
	}
	return claims, nil
}
