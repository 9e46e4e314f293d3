package main

import (
	"context"
	"iter"

	"github.com/contentapi/cms"
)

// listIter is the SDK iterator the list measure ranges over.
func listIter(ctx context.Context, t *target, folderID string, opts *cms.ListItemsOptions, readAhead bool) iter.Seq2[*cms.Item, error] {
	return t.client.Folders.ListItemsIter(ctx, folderID, opts)
}
