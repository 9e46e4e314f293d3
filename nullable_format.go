package cms

import "fmt"

// String prints the field as "left out", "null" or its value, formatted
// with %v. The value's own String method is used, so a Nullable holding a
// SharedLinkRequest prints its password redacted (fmt cannot see the
// methods of unexported fields).
func (n Nullable[T]) String() string {
	switch n.state {
	case nullValue:
		return fmt.Sprint(n.value)
	case nullNull:
		return "null"
	}
	return "left out"
}

// GoString is String, for %#v.
func (n Nullable[T]) GoString() string { return n.String() }
