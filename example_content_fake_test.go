package cms_test

import (
	"encoding/json"
	"log"
	"net/http"
	"net/http/httptest"
	"sync"

	"github.com/contentapi/cms"
)

// contentFakeClient returns a client of a canned fake of the content calls
// the examples make (file updates and locks, collaborations, versions,
// comments, shared links), until the reference server has them.
func contentFakeClient() (*cms.Client, func()) {
	var mu sync.Mutex
	var collabs []map[string]any
	answer := func(w http.ResponseWriter, status int, v any) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_ = json.NewEncoder(w).Encode(v)
	}
	fail := func(w http.ResponseWriter, status int, code string) {
		answer(w, status, map[string]any{"type": "error", "status": status, "code": code, "message": code})
	}
	read := func(r *http.Request) map[string]any {
		var body map[string]any
		_ = json.NewDecoder(r.Body).Decode(&body)
		return body
	}
	mux := http.NewServeMux()
	mux.HandleFunc("PUT /2.0/files/{id}", func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("If-Match") == "0" {
			fail(w, http.StatusPreconditionFailed, "precondition_failed")
			return
		}
		body := read(r)
		f := map[string]any{"id": r.PathValue("id"), "type": "file", "etag": "2", "name": "report.pdf", "parent": map[string]any{"id": "0", "type": "folder"}}
		if name, ok := body["name"]; ok {
			f["name"] = name
		}
		if p, ok := body["parent"]; ok {
			f["parent"] = p
		}
		if l, ok := body["lock"].(map[string]any); ok {
			f["lock"] = map[string]any{"id": "1", "type": "lock", "expired_at": l["expires_at"], "is_download_prevented": l["is_download_prevented"]}
		} else if _, ok := body["lock"]; ok {
			f["lock"] = nil
		}
		if l, ok := body["shared_link"].(map[string]any); ok {
			_, pw := l["password"]
			f["shared_link"] = map[string]any{"url": "https://cms.example/s/f" + r.PathValue("id"), "access": l["access"], "is_password_enabled": pw}
		}
		answer(w, http.StatusOK, f)
	})
	mux.HandleFunc("GET /2.0/shared_items", func(w http.ResponseWriter, r *http.Request) {
		switch r.Header.Get("Boxapi") {
		case "shared_link=https://cms.example/s/f5&shared_link_password=Review-2030":
			answer(w, http.StatusOK, map[string]any{"id": "5", "type": "file", "name": "report.pdf"})
		case "shared_link=https://cms.example/s/f5", "shared_link=https://cms.example/s/f5&shared_link_password=Wrong-2030":
			fail(w, http.StatusForbidden, "incorrect_shared_item_password")
		default:
			fail(w, http.StatusNotFound, "not_found")
		}
	})
	mux.HandleFunc("POST /2.0/collaborations", func(w http.ResponseWriter, r *http.Request) {
		body := read(r)
		by, _ := body["accessible_by"].(map[string]any)
		c := map[string]any{"id": "c1", "type": "collaboration", "item": body["item"], "role": body["role"], "status": "pending",
			"accessible_by": map[string]any{"id": "12", "type": "user", "name": "", "login": by["login"]}}
		mu.Lock()
		collabs = append(collabs, c)
		mu.Unlock()
		answer(w, http.StatusCreated, c)
	})
	mux.HandleFunc("GET /2.0/folders/{id}/collaborations", func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		answer(w, http.StatusOK, map[string]any{"entries": collabs, "limit": 100, "next_marker": nil})
	})
	mux.HandleFunc("GET /2.0/files/{id}/versions", func(w http.ResponseWriter, r *http.Request) {
		answer(w, http.StatusOK, map[string]any{"total_count": 2, "limit": 100, "offset": 0, "entries": []any{
			map[string]any{"id": "v2", "type": "file_version", "version_number": "2", "modified_by": map[string]any{"id": "12", "type": "user", "name": "Colleague"}},
			map[string]any{"id": "v1", "type": "file_version", "version_number": "1", "modified_by": map[string]any{"id": "11", "type": "user", "name": "Ann"}},
		}})
	})
	mux.HandleFunc("POST /2.0/files/{id}/versions/current", func(w http.ResponseWriter, r *http.Request) {
		answer(w, http.StatusCreated, map[string]any{"id": "v4", "type": "file_version", "version_number": "4"})
	})
	mux.HandleFunc("POST /2.0/comments", func(w http.ResponseWriter, r *http.Request) {
		body := read(r)
		answer(w, http.StatusCreated, map[string]any{"id": "k1", "type": "comment", "message": body["message"],
			"tagged_message": body["tagged_message"], "item": body["item"], "is_reply_comment": false})
	})
	srv := httptest.NewServer(mux)
	c, err := cms.NewClient(cms.WithToken("example-token"), cms.WithBaseURL(srv.URL+"/2.0"), cms.WithUploadURL(srv.URL+"/api/2.0"))
	if err != nil {
		log.Fatal(err)
	}
	return c, srv.Close
}
