package state

func (s *Tx) representations(it *Item) map[string]any { return map[string]any{"entries": []any{}} }
