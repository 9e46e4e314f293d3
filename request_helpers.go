package cms

import (
	"context"
	"net/http"
)

// The resources share these few request shapes, so every service method is
// its argument checks plus one call here.

// doRecord performs r and decodes its JSON answer into a new T.
func doRecord[T any](ctx context.Context, c *Client, r *request) (*T, *Response, error) {
	v := new(T)
	resp, err := c.do(ctx, r, v)
	if err != nil {
		return nil, resp, err
	}
	return v, resp, nil
}

// sendRecord sets body (nil for none) as the JSON body of r, performs it
// and decodes the answer into a new T.
func sendRecord[T any](ctx context.Context, c *Client, r *request, body any) (*T, *Response, error) {
	if body != nil {
		if err := r.setJSON(body); err != nil {
			return nil, nil, err
		}
	}
	return doRecord[T](ctx, c, r)
}

// sendJSON sends method to the API path of segments with opts as query and
// an optional JSON body, and decodes the record answered into a new T.
func sendJSON[T any](ctx context.Context, c *Client, method string, body, opts any, segments ...string) (*T, *Response, error) {
	r, err := c.newRequest(method, c.cfg.baseURL, opts, segments...)
	if err != nil {
		return nil, nil, err
	}
	return sendRecord[T](ctx, c, r, body)
}

// getJSON sends a GET of the API path of segments with opts as query and
// decodes the answer (a record or a page) into a new T.
func getJSON[T any](ctx context.Context, c *Client, opts any, segments ...string) (*T, *Response, error) {
	return sendJSON[T](ctx, c, http.MethodGet, nil, opts, segments...)
}

// deleteByID sends a DELETE of one record.
func deleteByID(ctx context.Context, c *Client, opts any, segments ...string) (*Response, error) {
	r, err := c.newRequest(http.MethodDelete, c.cfg.baseURL, opts, segments...)
	if err != nil {
		return nil, err
	}
	return c.do(ctx, r, nil)
}
