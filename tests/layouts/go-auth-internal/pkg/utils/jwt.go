// Package utils holds small helpers shared by the fleet packages: JWT
// encoding and a clock that tests can control.
package utils

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"strings"
)

var (
	ErrMalformedJWT = errors.New("jwt: malformed")
	ErrBadSignature = errors.New("jwt: signature mismatch")
	ErrUnsupported  = errors.New("jwt: unsupported algorithm")
)

// StandardClaims are the registered claims fleet relies on; times are Unix seconds.
type StandardClaims struct {
	Subject   string `json:"sub"`
	Issuer    string `json:"iss"`
	IssuedAt  int64  `json:"iat"`
	ExpiresAt int64  `json:"exp"`
}

type jwtHeader struct {
	Alg string `json:"alg"`
	Typ string `json:"typ"`
}

var b64 = base64.RawURLEncoding

func sign(key []byte, input string) []byte {
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte(input))
	return mac.Sum(nil)
}

// EncodeJWT serialises claims as a compact HS256 JWS.
func EncodeJWT(claims any, key []byte) (string, error) {
	head, err := json.Marshal(jwtHeader{Alg: "HS256", Typ: "JWT"})
	if err != nil {
		return "", err
	}
	body, err := json.Marshal(claims)
	if err != nil {
		return "", err
	}
	input := b64.EncodeToString(head) + "." + b64.EncodeToString(body)
	return input + "." + b64.EncodeToString(sign(key, input)), nil
}

// DecodeJWT checks the signature and unmarshals the payload into claims.
// It does not look at the expiry: callers compare ExpiresAt themselves.
func DecodeJWT(token string, key []byte, claims any) error {
	parts := strings.Split(token, ".")
	if len(parts) != 3 {
		return ErrMalformedJWT
	}
	rawHead, err := b64.DecodeString(parts[0])
	if err != nil {
		return ErrMalformedJWT
	}
	var head jwtHeader
	if err := json.Unmarshal(rawHead, &head); err != nil {
		return ErrMalformedJWT
	}
	if head.Alg != "HS256" {
		return ErrUnsupported
	}
	sig, err := b64.DecodeString(parts[2])
	if err != nil {
		return ErrMalformedJWT
	}
	if !hmac.Equal(sig, sign(key, parts[0]+"."+parts[1])) {
		return ErrBadSignature
	}
	body, err := b64.DecodeString(parts[1])
	if err != nil {
		return ErrMalformedJWT
	}
	if err := json.Unmarshal(body, claims); err != nil {
		return ErrMalformedJWT
	}
	return nil
}
