package cms

import (
	"bytes"
	"encoding/json"
)

// Nullable is a field of an update request that can be left out, set to a
// value, or set to an explicit JSON null. The zero value is "left out": with
// the `json:",omitzero"` tag the field is not sent at all, so the service
// keeps what it has. Use Set for a value and Null for null, which the
// service gives a meaning for some fields (for example `enterprise: null`
// rolls a user out of the enterprise, `configurable_permissions: null`
// turns off every permission of a group admin).
type Nullable[T any] struct {
	value T
	state nullState
}

type nullState uint8

const (
	nullOmitted nullState = iota
	nullValue
	nullNull
)

// Set returns a Nullable that sends v.
func Set[T any](v T) Nullable[T] { return Nullable[T]{value: v, state: nullValue} }

// Null returns a Nullable that sends an explicit JSON null.
func Null[T any]() Nullable[T] { return Nullable[T]{state: nullNull} }

// IsZero reports whether the field is left out (what `omitzero` asks).
func (n Nullable[T]) IsZero() bool { return n.state == nullOmitted }

// IsNull reports whether the field is an explicit null.
func (n Nullable[T]) IsNull() bool { return n.state == nullNull }

// Get returns the value and whether one is set (false when left out or null).
func (n Nullable[T]) Get() (T, bool) { return n.value, n.state == nullValue }

// MarshalJSON writes the value, or null for a Null (and for a left-out
// field that is marshalled without omitzero).
func (n Nullable[T]) MarshalJSON() ([]byte, error) {
	if n.state != nullValue {
		return []byte("null"), nil
	}
	return json.Marshal(n.value)
}

// UnmarshalJSON reads null as Null and anything else as a value.
func (n *Nullable[T]) UnmarshalJSON(b []byte) error {
	if bytes.Equal(bytes.TrimSpace(b), []byte("null")) {
		*n = Null[T]()
		return nil
	}
	var v T
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*n = Set(v)
	return nil
}

// Ptr returns a pointer to v, for the pointer fields of update requests
// where the zero value is a change (a *string set to "" clears a text, a
// *bool set to false turns a flag off) and nil leaves the field out.
func Ptr[T any](v T) *T { return &v }
