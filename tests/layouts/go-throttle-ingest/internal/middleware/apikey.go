package middleware

import (
	"context"
	"net"
	"net/http"
)

type customerKey struct{}

// CustomerFrom returns the customer id APIKey stored for the request.
func CustomerFrom(ctx context.Context) string {
	c, _ := ctx.Value(customerKey{}).(string)
	return c
}

// APIKey resolves the X-Api-Key header to a customer, or answers 401.
func APIKey(keys map[string]string) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			customer, ok := keys[r.Header.Get("X-Api-Key")]
			if !ok {
				http.Error(w, "unknown api key", http.StatusUnauthorized)
				return
			}
			next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), customerKey{}, customer)))
		})
	}
}

// CustomerKey identifies the caller by customer, falling back to the remote address.
func CustomerKey(r *http.Request) string {
	if c := CustomerFrom(r.Context()); c != "" {
		return "customer:" + c
	}
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	return "addr:" + host
}
