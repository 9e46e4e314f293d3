package main

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/contentapi/cms"
	"github.com/spf13/cobra"
)

// listed is one item of ls --json.
type listed struct {
	Path string `json:"path"`
	Type string `json:"type"`
	ID   string `json:"id"`
	Size int64  `json:"size,omitempty"`
	SHA1 string `json:"sha1,omitempty"`
}

func (a *app) lsCmd() *cobra.Command {
	var recursive bool
	cmd := &cobra.Command{
		Use:   "ls [FOLDER]",
		Short: "List a folder's items (-r: the whole tree, with paths)",
		Long: `List a folder's items, sorted by name; -r the whole tree with paths, depth
first (each folder followed by what is in it), the same order every run.
FOLDER is a folder id, folder:ID or a /path; the root (0) by default.`,
		Args: nArgs(0, 1, "at most one FOLDER"),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			c, err := a.client()
			if err != nil {
				return err
			}
			arg := "0"
			if len(args) == 1 {
				arg = args[0]
			}
			id, err := folderID(ctx, c, arg)
			if err != nil {
				return err
			}
			fields := []string{"name", "size", "sha1"}
			var out []listed
			add := func(p string, it *cms.Item) {
				if !a.g.filter.match(p, it.Type == kindFolder) {
					return // a walk asked the filter already; this is for one folder's items
				}
				l := listed{Path: p, Type: it.Type, ID: it.ID}
				if it.File != nil {
					l.Size, l.SHA1 = it.File.Size, it.File.SHA1
				} else if it.Folder != nil {
					l.Size = it.Folder.Size
				}
				if a.g.json {
					out = append(out, l)
				} else {
					fmt.Fprintf(a.stdout, "%-8s %14s %12d  %s\n", l.Type, l.ID, l.Size, l.Path)
				}
			}
			if recursive {
				// Ordered: depth first, by name within a folder, each folder
				// followed by what is in it, the same every run (a plain walk
				// is concurrent); printed as it goes. A folder the filter
				// leaves out is not listed.
				for e, err := range c.Folders.Walk(ctx, id, &cms.WalkOptions{Fields: fields, Ordered: true, Filter: a.g.filter.treeFilter()}) {
					if err != nil {
						return err
					}
					add(e.Path, e.Item)
				}
			} else {
				// One folder's items, sorted by name (byte order) as the
				// walk sorts them.
				var items []*cms.Item
				for it, err := range c.Folders.ListItemsByMarkerIter(ctx, id, &cms.ListItemsByMarkerOptions{Fields: fields}) {
					if err != nil {
						return err
					}
					items = append(items, it)
				}
				slices.SortFunc(items, func(x, y *cms.Item) int { return strings.Compare(x.Name, y.Name) })
				for _, it := range items {
					add(it.Name, it)
				}
			}
			if a.g.json {
				if out == nil {
					out = []listed{}
				}
				b, _ := json.Marshal(out)
				fmt.Fprintf(a.stdout, "%s\n", b)
			}
			return nil
		},
	}
	cmd.Flags().BoolVarP(&recursive, "recursive", "r", false, "the whole tree, with paths")
	return cmd
}
