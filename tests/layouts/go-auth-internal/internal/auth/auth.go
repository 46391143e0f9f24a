// Package auth logs dispatchers in and resolves the dispatcher behind each
// request's access token.
package auth

import (
	"context"
	"errors"
	"time"

	"example.com/fleet/internal/session"
	"example.com/fleet/internal/token"
	"example.com/fleet/pkg/utils"
)

var (
	ErrBadCredentials = errors.New("auth: wrong e-mail or password")
	ErrTokenInvalid   = errors.New("auth: invalid access token")
	ErrTokenExpired   = errors.New("auth: access token expired")
	ErrSessionClosed  = errors.New("auth: session closed")
)

// Principal is the authenticated caller.
type Principal struct {
	UserID    string
	Role      string
	SessionID string
}

// UserChecker verifies a login; implemented by the users repository.
type UserChecker interface {
	CheckPassword(ctx context.Context, email, password string) (userID, role string, err error)
}

type Authenticator struct {
	users    UserChecker
	tokens   *token.Service
	sessions *session.Manager
	clock    utils.Clock
	// grace lets a client whose token just ran out finish in-flight requests.
	grace time.Duration
}

func New(users UserChecker, tokens *token.Service, sessions *session.Manager, clock utils.Clock) *Authenticator {
	return &Authenticator{users: users, tokens: tokens, sessions: sessions, clock: clock, grace: time.Minute}
}

// Login checks the password, opens a session and returns an access token.
func (a *Authenticator) Login(ctx context.Context, email, password string) (string, time.Time, error) {
	userID, role, err := a.users.CheckPassword(ctx, email, password)
	if err != nil {
		return "", time.Time{}, ErrBadCredentials
	}
	s, err := a.sessions.Open(ctx, userID, role)
	if err != nil {
		return "", time.Time{}, err
	}
	return a.tokens.Issue(userID, s.ID, role)
}

// Authenticate resolves the principal behind a raw access token.
func (a *Authenticator) Authenticate(ctx context.Context, raw string) (Principal, error) {
	now := a.clock.Now()
	claims, err := a.tokens.Verify(raw)
	switch {
	case errors.Is(err, token.ErrExpired):
		// accept a token that expired within the grace period, as long as
		// its session is still open
		if !a.sessions.IsOpen(ctx, claims.SessionID, now.Add(-a.grace)) {
			return Principal{}, ErrTokenExpired
		}
	case err != nil:
		return Principal{}, ErrTokenInvalid
	}
	if !a.sessions.IsOpen(ctx, claims.SessionID, now) {
		return Principal{}, ErrSessionClosed
	}
	if err := a.sessions.Touch(ctx, claims.SessionID); err != nil {
		return Principal{}, err
	}
	return Principal{UserID: claims.Subject, Role: claims.Role, SessionID: claims.SessionID}, nil
}

// Logout closes the session behind the principal.
func (a *Authenticator) Logout(ctx context.Context, p Principal) error {
	return a.sessions.Close(ctx, p.SessionID)
}
