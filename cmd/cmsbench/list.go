package main

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/contentapi/cms"
	"github.com/contentapi/cms/internal/benchref"
)

// measureList lists a folder of -items files with pages of -page items,
// -list-passes times in a row, through the SDK's iterator and through the
// hand-written client (marker pages decoded into small structs), and
// reports the items per second over all passes. The two alternate which
// goes first from run to run.
func measureList(ctx context.Context, t *target, c config, i int, emit func(result) error) error {
	folderID, err := ensureFolder(ctx, t, fmt.Sprintf("bench-list-%d", c.items), c.items)
	if err != nil {
		return err
	}
	total := float64(c.items * c.listPasses)
	sdk := func() error {
		probe := startProbe()
		start := time.Now()
		opts := &cms.ListItemsOptions{Limit: c.pageSize}
		for range c.listPasses {
			n := 0
			for _, err := range listIter(ctx, t, folderID, opts, c.readAhead) {
				if err != nil {
					return err
				}
				n++
			}
			if n != c.items {
				return fmt.Errorf("listed %d items, want %d", n, c.items)
			}
		}
		elapsed := time.Since(start)
		r := result{Name: "list", Impl: "go-sdk", Items: c.items, PageSize: c.pageSize, Seconds: elapsed.Seconds(), ItemsPerSecond: total / elapsed.Seconds()}
		probe.end(&r)
		return emit(r)
	}
	raw := func() error {
		start := time.Now()
		for range c.listPasses {
			n, err := rawList(ctx, t, folderID, c.pageSize)
			if err != nil {
				return err
			}
			if n != c.items {
				return fmt.Errorf("raw listing found %d items, want %d", n, c.items)
			}
		}
		elapsed := time.Since(start)
		return emit(result{Name: "list", Impl: "net/http", Items: c.items, PageSize: c.pageSize, Seconds: elapsed.Seconds(), ItemsPerSecond: total / elapsed.Seconds()})
	}
	order := []func() error{sdk, raw}
	if i%2 == 1 {
		order[0], order[1] = raw, sdk
	}
	for _, run := range order {
		if err := run(); err != nil {
			return err
		}
	}
	return nil
}

// rawList pages through a folder with marker paging, decoding each entry
// into a small struct (type, id, name), and counts the entries.
func rawList(ctx context.Context, t *target, folderID string, pageSize int) (int, error) {
	n, marker := 0, ""
	for {
		q := url.Values{"usemarker": {"true"}, "limit": {strconv.Itoa(pageSize)}}
		if marker != "" {
			q.Set("marker", marker)
		}
		var page struct {
			Entries    []benchref.Mini `json:"entries"`
			NextMarker *string         `json:"next_marker"`
		}
		if err := rawJSON(ctx, t, http.MethodGet, t.baseURL+"/folders/"+folderID+"/items?"+q.Encode(), "", &page); err != nil {
			return n, err
		}
		n += len(page.Entries)
		if page.NextMarker == nil || *page.NextMarker == "" {
			return n, nil
		}
		marker = *page.NextMarker
	}
}

// rawJSON is the reference's request (benchref.JSON) on t's transport
// and token.
func rawJSON(ctx context.Context, t *target, method, u, body string, out any) error {
	return benchref.JSON(ctx, t.raw, t.token, method, u, body, out)
}

// ensureFolder returns the id of a folder in the root holding n small
// files, creating and filling it the first time (16 uploads at once).
func ensureFolder(ctx context.Context, t *target, name string, n int) (string, error) {
	for it, err := range t.client.Folders.ListItemsIter(ctx, "0", nil) {
		if err != nil {
			return "", err
		}
		if it.Type == "folder" && it.Name == name {
			page, _, err := t.client.Folders.ListItems(ctx, it.ID, &cms.ListItemsOptions{Limit: 1})
			if err != nil {
				return "", err
			}
			if page.TotalCount == n {
				return it.ID, nil
			}
			return "", fmt.Errorf("folder %s holds %d items, want %d", name, page.TotalCount, n)
		}
	}
	f, _, err := t.client.Folders.Create(ctx, &cms.CreateFolderRequest{Name: name, Parent: cms.FolderRef{ID: "0"}}, nil)
	if err != nil {
		return "", err
	}
	next := make(chan int)
	errs := make(chan error, 16)
	var wg sync.WaitGroup
	for range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range next {
				body := fmt.Sprintf("item %d\n", k)
				_, _, err := t.client.Files.UploadInOneRequest(ctx, f.ID, fmt.Sprintf("file-%06d.txt", k), strings.NewReader(body), int64(len(body)), nil)
				if err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	var ferr error
feed:
	for k := range n {
		select {
		case next <- k:
		case ferr = <-errs:
			break feed
		}
	}
	close(next)
	wg.Wait()
	if ferr == nil {
		select {
		case ferr = <-errs:
		default:
		}
	}
	if ferr != nil {
		return "", errors.Join(errors.New("filling "+name), ferr)
	}
	return f.ID, nil
}
