package refserver

import (
	"bytes"
	"encoding/json"

	"github.com/contentapi/cms/refserver/internal/wire"
)

// decodeParams decodes query_params with numbers kept as json.Number.
func decodeParams(raw map[string]json.RawMessage) (map[string]any, *wire.Error) {
	out := make(map[string]any, len(raw))
	for k, r := range raw {
		dec := json.NewDecoder(bytes.NewReader(r))
		dec.UseNumber()
		var v any
		if err := dec.Decode(&v); err != nil {
			return nil, wire.BadRequest("Invalid query_params.%s", k)
		}
		out[k] = v
	}
	return out, nil
}
