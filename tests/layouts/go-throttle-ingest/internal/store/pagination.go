package store

import (
	"fmt"
	"net/url"
	"strconv"
)

// Page is a limit/offset window over a list.
type Page struct {
	Limit  int
	Offset int
}

// ParsePage reads ?limit= and ?offset=, applying the default limit and
// refusing limits above max.
func ParsePage(q url.Values, defaultLimit, max int) (Page, error) {
	p := Page{Limit: defaultLimit}
	if v := q.Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return Page{}, fmt.Errorf("limit must be a positive integer")
		}
		if n > max {
			return Page{}, fmt.Errorf("limit must be at most %d", max)
		}
		p.Limit = n
	}
	if v := q.Get("offset"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return Page{}, fmt.Errorf("offset must be zero or more")
		}
		p.Offset = n
	}
	return p, nil
}

// Window returns the [start, end) indexes of the page in a list of n items.
func (p Page) Window(n int) (start, end int) {
	start = p.Offset
	if start > n {
		start = n
	}
	end = start + p.Limit
	if end > n {
		end = n
	}
	return start, end
}
