package main

import (
	"context"
	"iter"

	"github.com/contentapi/cms"
)

// listIter is the SDK iterator the list measure ranges over; -read-ahead
// (the default) asks it to fetch one page ahead.
func listIter(ctx context.Context, t *target, folderID string, opts *cms.ListItemsOptions, readAhead bool) iter.Seq2[*cms.Item, error] {
	o := *opts
	o.ReadAhead = readAhead
	return t.client.Folders.ListItemsIter(ctx, folderID, &o)
}
