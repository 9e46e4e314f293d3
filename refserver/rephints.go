package refserver

import (
	"net/http"

	"github.com/contentapi/cms/refserver/internal/state"
	"github.com/contentapi/cms/refserver/internal/wire"
)

// repHints reads the request's X-Rep-Hints header (state/rephints.go):
// nil when it is absent, 400 bad_request when it is malformed.
func repHints(r *http.Request) (state.RepHints, *wire.Error) {
	return state.ParseRepHints(r.Header.Get("X-Rep-Hints"))
}

// withRepHints narrows the representations field of the items in the
// reply fn makes to what hints ask (nil hints: fn as it is).
func withRepHints(hints state.RepHints, fn func(tx *state.Tx) (state.Reply, *wire.Error)) func(tx *state.Tx) (state.Reply, *wire.Error) {
	if hints == nil {
		return fn
	}
	return func(tx *state.Tx) (state.Reply, *wire.Error) {
		rep, aerr := fn(tx)
		if aerr == nil {
			state.FilterRepresentations(rep.Body, hints)
		}
		return rep, aerr
	}
}
