package state

import (
	"log/slog"
	"time"

	"github.com/contentapi/cms/refserver/internal/blob"
)

// NewMemory returns a state on env held only in memory, ready to change:
// its item indexes, the enterprise's principals (InitPrincipals) and the
// empty state of every resource (InitResources), with no persistence and
// no webhook delivery (env.Deliver may stay nil). A nil env.Now is the
// system clock, a nil env.Log discards and a nil env.Store is a blob store
// in memory. It is what the server's rooms
// (internal/governance, internal/metadata) are exercised on without HTTP;
// refserver's newServer builds its state in the same steps, with OAuth
// between the principals and the resources.
func NewMemory(env *Env) (*State, error) {
	if env.Now == nil {
		env.Now = time.Now
	}
	if env.Log == nil {
		env.Log = slog.New(slog.DiscardHandler)
	}
	if env.Store == nil {
		env.Store = blob.NewMemory()
	}
	st := New(env)
	var err error
	st.Update(func(tx *Tx) {
		tx.InitItemIndexes()
		if err = tx.InitPrincipals(); err != nil {
			return
		}
		tx.InitResources()
		tx.EventsOn = true
	})
	if err != nil {
		return nil, err
	}
	return st, nil
}
