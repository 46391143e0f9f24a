package api

import (
	"encoding/base64"
	"errors"
	"strconv"
	"strings"
)

var errBadPageToken = errors.New("api: malformed page token")

// A page token is an opaque cursor: the base64 of "offset:size". Clients pass
// back the nextPageToken of the previous response to get the next page.
func encodePageToken(offset, size int) string {
	return base64.RawURLEncoding.EncodeToString([]byte(strconv.Itoa(offset) + ":" + strconv.Itoa(size)))
}

func decodePageToken(token string) (offset, size int, err error) {
	raw, err := base64.RawURLEncoding.DecodeString(token)
	if err != nil {
		return 0, 0, errBadPageToken
	}
	parts := strings.SplitN(string(raw), ":", 2)
	if len(parts) != 2 {
		return 0, 0, errBadPageToken
	}
	if offset, err = strconv.Atoi(parts[0]); err != nil || offset < 0 {
		return 0, 0, errBadPageToken
	}
	if size, err = strconv.Atoi(parts[1]); err != nil || size < 1 || size > 500 {
		return 0, 0, errBadPageToken
	}
	return offset, size, nil
}

type page[T any] struct {
	Items         []T    `json:"items"`
	NextPageToken string `json:"next_page_token,omitempty"`
}

// paginate slices items for the page named by token (first page when empty).
func paginate[T any](items []T, token string, defaultSize int) (page[T], error) {
	offset, size := 0, defaultSize
	if token != "" {
		var err error
		if offset, size, err = decodePageToken(token); err != nil {
			return page[T]{}, err
		}
	}
	if offset > len(items) {
		offset = len(items)
	}
	end := offset + size
	if end > len(items) {
		end = len(items)
	}
	p := page[T]{Items: items[offset:end]}
	if end < len(items) {
		p.NextPageToken = encodePageToken(end, size)
	}
	return p, nil
}
