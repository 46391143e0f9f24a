package middleware

import (
	"fmt"
	"net/http"

	"example.com/ingest/internal/config"
)

// Func is one middleware.
type Func func(http.Handler) http.Handler

// Registry builds each named middleware once from the configuration, so
// stateful ones (the throttle) are shared by every route that names them.
type Registry struct {
	byName map[string]Func
	order  []string
}

// NewRegistry registers every middleware ingestd has, outermost first.
func NewRegistry(cfg config.Config) *Registry {
	throttle := NewThrottle(cfg.Throttle.PerSecond, cfg.Throttle.Burst)
	r := &Registry{byName: map[string]Func{}}
	r.register("request-id", RequestID)
	r.register("api-key", APIKey(cfg.APIKeys))
	r.register("body-limit", BodyLimit(cfg.MaxBodyBytes))
	r.register("throttle", throttle.Wrap)
	return r
}

func (r *Registry) register(name string, f Func) {
	r.byName[name] = f
	r.order = append(r.order, name)
}

// Stack wraps h in the named middleware, applied in registration order
// whatever order the names come in.
func (r *Registry) Stack(h http.Handler, names ...string) http.Handler {
	want := map[string]bool{}
	for _, n := range names {
		if _, ok := r.byName[n]; !ok {
			panic(fmt.Sprintf("middleware: unknown %q", n))
		}
		want[n] = true
	}
	for i := len(r.order) - 1; i >= 0; i-- {
		if name := r.order[i]; want[name] {
			h = r.byName[name](h)
		}
	}
	return h
}

// Names lists the registered middleware in the order they wrap.
func (r *Registry) Names() []string { return append([]string(nil), r.order...) }
