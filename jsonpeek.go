package cms

// topLevelString returns the value of a top-level key of the JSON object b
// when it is a string without escapes; ok is false otherwise (no such key,
// another kind of value, escapes, or b is not an object). It only skips
// over the other members, validating nothing: callers decode b fully
// afterwards, which rejects what is malformed.
func topLevelString(b []byte, key string) (string, bool) {
	v, ok := topLevelBytes(b, key)
	return string(v), ok
}

// topLevelBytes is topLevelString giving the value as a slice of b (no
// copy): a caller that only compares it allocates nothing.
func topLevelBytes(b []byte, key string) ([]byte, bool) {
	i := skipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return nil, false
	}
	i++
	for {
		i = skipSpace(b, i)
		if i >= len(b) || b[i] != '"' {
			return nil, false
		}
		start := i
		next, plain := scanString(b, i)
		if next < 0 {
			return nil, false
		}
		i = skipSpace(b, next)
		if i >= len(b) || b[i] != ':' {
			return nil, false
		}
		i = skipSpace(b, i+1)
		if plain && string(b[start+1:next-1]) == key {
			if i >= len(b) || b[i] != '"' {
				return nil, false
			}
			end, plainV := scanString(b, i)
			if end < 0 || !plainV {
				return nil, false
			}
			return b[i+1 : end-1], true
		}
		if i = skipValue(b, i); i < 0 {
			return nil, false
		}
		i = skipSpace(b, i)
		if i >= len(b) || b[i] != ',' {
			return nil, false
		}
		i++
	}
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// scanString reads the string starting at b[i] == '"'. It returns the
// index after the closing quote (-1 if there is none) and whether the
// string had no escapes.
func scanString(b []byte, i int) (int, bool) {
	plain := true
	for j := i + 1; j < len(b); j++ {
		switch b[j] {
		case '\\':
			plain = false
			j++
		case '"':
			return j + 1, plain
		}
	}
	return -1, false
}

// skipValue returns the index after the value starting at b[i], -1 if it
// does not end.
func skipValue(b []byte, i int) int {
	depth := 0
	for i < len(b) {
		switch c := b[i]; c {
		case '"':
			next, _ := scanString(b, i)
			if next < 0 {
				return -1
			}
			i = next
			if depth == 0 {
				return i
			}
			continue
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth < 0 {
				return -1
			}
			if depth == 0 {
				return i + 1
			}
		case ',', ' ', '\t', '\n', '\r', ':':
			if depth == 0 {
				return i
			}
		}
		i++
	}
	if depth == 0 {
		return i
	}
	return -1
}
