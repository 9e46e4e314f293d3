package cms

import (
	"context"
	"net/http"
)

// The services call the API through this one family: callAPI sends a
// request to the API root and decodes the record answered, getAPI and
// deleteAPI are its GET and DELETE, and getMarkerPage and withNextMarker
// fetch a marker page. A service method is its argument checks plus one call
// here; options that travel as headers (if-match, if-none-match, boxapi)
// implement headerSetter. (Uploads and downloads, with their multipart and
// redirected requests, build theirs with newRequest and do.)

// jsonPatch wraps a body sent as application/json-patch+json (instance and
// template schema updates).
type jsonPatch struct{ ops any }

// headerSetter is implemented by options that travel as headers besides
// the query (a shared link's boxapi header).
type headerSetter interface {
	setHeaders(http.Header) error
}

// callAPI sends method to the API path of segments and decodes the answer
// into a new T. opts (nil for none) is the query, and sets headers too when
// it is a headerSetter; body (nil for none) is the JSON body, or the
// JSON-Patch body a jsonPatch wraps.
func callAPI[T any](ctx context.Context, c *Client, method string, body, opts any, segments ...string) (*T, *Response, error) {
	r, err := c.apiRequest(method, body, opts, segments)
	if err != nil {
		return nil, nil, err
	}
	v := new(T)
	resp, err := c.do(ctx, r, v)
	if err != nil {
		return nil, resp, err
	}
	return v, resp, nil
}

// getAPI sends a GET of the API path of segments with opts as query and
// decodes the answer (a record or a page) into a new T.
func getAPI[T any](ctx context.Context, c *Client, opts any, segments ...string) (*T, *Response, error) {
	return callAPI[T](ctx, c, http.MethodGet, nil, opts, segments...)
}

// deleteAPI sends a DELETE of the API path of segments with opts as query;
// the answer has no record to read.
func deleteAPI(ctx context.Context, c *Client, opts any, segments ...string) (*Response, error) {
	r, err := c.apiRequest(http.MethodDelete, nil, opts, segments)
	if err != nil {
		return nil, err
	}
	return c.do(ctx, r, nil)
}

// getMarkerPage checks the page size (limit), gets one marker page of the
// API path of segments with opts as query, and copies its next marker to
// the Response.
func getMarkerPage[T any](ctx context.Context, c *Client, limit int, opts any, segments ...string) (*MarkerPage[T], *Response, error) {
	if err := checkLimit(limit); err != nil {
		return nil, nil, err
	}
	return withNextMarker(getAPI[MarkerPage[T]](ctx, c, opts, segments...))
}

// withNextMarker passes a marker page through, copying its next marker to
// the Response: withNextMarker(getAPI[MarkerPage[T]](...)).
func withNextMarker[T any](page *MarkerPage[T], resp *Response, err error) (*MarkerPage[T], *Response, error) {
	if err != nil {
		return nil, resp, err
	}
	resp.NextMarker = page.NextMarker
	return page, resp, nil
}

// apiRequest builds a request of the API root: path, query, headers, body.
func (c *Client) apiRequest(method string, body, opts any, segments []string) (*request, error) {
	r, err := c.newRequest(method, c.cfg.baseURL, opts, segments...)
	if err != nil {
		return nil, err
	}
	if h, ok := opts.(headerSetter); ok {
		if err := h.setHeaders(r.header); err != nil {
			return nil, err
		}
	}
	switch b := body.(type) {
	case nil:
	case jsonPatch:
		err = r.setJSONPatch(b.ops)
	default:
		err = r.setJSON(b)
	}
	if err != nil {
		return nil, err
	}
	return r, nil
}
