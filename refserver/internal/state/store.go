package state

import (
	"context"

	"github.com/contentapi/cms/refserver/internal/blob"
)

// NewAssembly starts an assembly in the server's store.
func (s *Env) NewAssembly(ctx context.Context, size int64) (blob.Assembly, error) {
	if a, ok := s.Store.(blob.Assembler); ok {
		return a.NewAssembly(ctx, size)
	}
	return blob.NewParts(s.Store, size), nil
}
