// Package benchref is the hand-written client the SDK's benchmarks measure
// it against (cmd/cmsbench and the root package's benchmarks): plain
// net/http requests with the bearer token, answers decoded by
// encoding/json into small structs holding the fields a program reads.
package benchref

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// Mini is an item as the reference reads it from any record.
type Mini struct {
	Type string `json:"type"`
	ID   string `json:"id"`
	Name string `json:"name"`
}

// File is what the reference reads of GET /files/{id}.
type File struct {
	Mini
	Size       int64  `json:"size"`
	SHA1       string `json:"sha1"`
	ETag       string `json:"etag"`
	Parent     Mini   `json:"parent"`
	ModifiedAt string `json:"modified_at"`
}

// Folder is what the reference reads of POST /folders.
type Folder struct {
	Mini
	ETag   string `json:"etag"`
	Parent Mini   `json:"parent"`
}

// ItemsPage is what the reference reads of GET /folders/{id}/items.
type ItemsPage struct {
	TotalCount int    `json:"total_count"`
	Offset     int    `json:"offset"`
	Limit      int    `json:"limit"`
	Entries    []Mini `json:"entries"`
}

// JSON sends one request through hc with the bearer token (and body, ""
// for none, as JSON) and decodes the answer into out (nil: the body is
// read and dropped). An answer of 300 or above is an error.
func JSON(ctx context.Context, hc *http.Client, token, method, url, body string, out any) error {
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, url, rd)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+token)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := hc.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 300 {
		b, _ := io.ReadAll(resp.Body)
		return fmt.Errorf("%s %s: %s %s", method, url, resp.Status, b)
	}
	if out == nil {
		_, err = io.Copy(io.Discard, resp.Body)
		return err
	}
	return json.NewDecoder(resp.Body).Decode(out)
}
