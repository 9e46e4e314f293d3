package state

// Restriction limits a downscoped token to scopes and maybe one item.
type Restriction struct {
	Scopes []string
	// Kind and ID name the one file or folder the token is limited to
	// (kind "" for none).
	Kind, ID string
}
