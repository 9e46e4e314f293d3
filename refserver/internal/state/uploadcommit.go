package state

import "github.com/contentapi/cms/refserver/internal/blob"

// KeepFinalContent records blob as the finished content of ss when the
// session is still live (a later commit reuses it), reporting whether it
// was.
func (s *Tx) KeepFinalContent(ss *Session, blob blob.Info) bool {
	return s.Sessions.Update(ss.ID, func(ss *Session) { ss.Final = &blob })
}

// Describe sets the description of f.
func (s *Tx) Describe(f *Item, description string) {
	s.Items.Update(f.Typ, f.ID, func(f *Item) { f.SetDescription(description) })
}
