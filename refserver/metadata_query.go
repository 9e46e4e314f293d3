package refserver

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"

	"github.com/contentapi/cms/refserver/internal/mdquery"
	"github.com/contentapi/cms/refserver/internal/metadata"
	"github.com/contentapi/cms/refserver/internal/state"
	"github.com/contentapi/cms/refserver/internal/wire"
)

const (
	defaultQueryLimit = 100
	maxQueryLimit     = 100
)

// bodyHash fingerprints a query body without its marker, independent of
// whitespace and member order.
func bodyHash(b []byte) string {
	var m map[string]json.RawMessage
	if json.Unmarshal(b, &m) != nil {
		return ""
	}
	delete(m, "marker")
	canon, _ := json.Marshal(m)
	sum := sha256.Sum256(canon)
	return hex.EncodeToString(sum[:12])
}

// executeMetadataQuery serves POST /metadata_queries/execute_read: 200
// {entries, limit, next_marker}. Entries are the files and folders below
// ancestor_folder_id ("0" = everything the caller can see), not in the
// trash, that hold an instance of the from template matching the query, in
// order_by order (default: the order the instances were created). limit is
// 1..100, default 100 (0 means the default); a larger one is 400
// bad_request.
func (s *Server) executeMetadataQuery(w http.ResponseWriter, r *http.Request, p *state.Principal) error {
	if aerr := wire.RequireJSONContentType(r.Header.Get("Content-Type")); aerr != nil {
		return aerr
	}
	raw, aerr := wire.ReadBody(r.Body)
	if aerr != nil {
		return aerr
	}
	var body metadata.QueryBody
	if aerr := wire.DecodeJSON(bytes.NewReader(raw), &body); aerr != nil {
		return aerr
	}
	if body.From == nil {
		return wire.BadRequest("Missing required field: from")
	}
	if body.AncestorFolderID == nil {
		return wire.BadRequest("Missing required field: ancestor_folder_id")
	}
	limit := defaultQueryLimit
	if body.Limit != nil && *body.Limit != 0 {
		limit = *body.Limit
	}
	if limit < 0 || limit > maxQueryLimit {
		return wire.BadRequest("limit must be between 0 and %d", maxQueryLimit)
	}
	scope, key, aerr := metadata.ParseFrom(s.st.Env, *body.From)
	if aerr != nil {
		return aerr
	}
	var query string
	if body.Query != nil {
		query = *body.Query
	}
	tree, qerr := mdquery.Parse(query)
	if qerr != nil {
		return wire.Errorf(http.StatusBadRequest, metadata.CodeInvalidQuery, "Invalid query: %s", qerr.Msg)
	}
	params, aerr := decodeParams(body.QueryParams)
	if aerr != nil {
		return aerr
	}
	hash := bodyHash(raw)

	return s.change(w, func(tx *state.Tx) (state.Reply, *wire.Error) {
		return metadata.ExecuteMetadataQuery(tx, scope, key, body, tree, params, p, hash, limit)
	})
}
