package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/contentapi/cms"
)

// listed is one item of ls --json.
type listed struct {
	Path string `json:"path"`
	Type string `json:"type"`
	ID   string `json:"id"`
	Size int64  `json:"size,omitempty"`
	SHA1 string `json:"sha1,omitempty"`
}

func cmdLs(ctx context.Context, args []string, stdout, stderr io.Writer, getenv func(string) string) error {
	fs, common := newFlagSet("ls", "ls [-r] [--json] FOLDER_ID", stderr)
	recursive := fs.Bool("r", false, "the whole tree, with paths")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usageError{"ls takes FOLDER_ID"}
	}
	c, err := newClient(getenv, common.appConfig)
	if err != nil {
		return err
	}
	fields := []string{"name", "size", "sha1"}
	var out []listed
	add := func(p string, it *cms.Item) {
		l := listed{Path: p, Type: it.Type, ID: it.ID}
		if it.File != nil {
			l.Size, l.SHA1 = it.File.Size, it.File.SHA1
		} else if it.Folder != nil {
			l.Size = it.Folder.Size
		}
		out = append(out, l)
		if !common.json {
			fmt.Fprintf(stdout, "%-8s %14s %12d  %s\n", l.Type, l.ID, l.Size, l.Path)
		}
	}
	if *recursive {
		for e, err := range c.Folders.Walk(ctx, trimID(pos[0]), &cms.WalkOptions{Fields: fields}) {
			if err != nil {
				return err
			}
			add(e.Path, e.Item)
		}
	} else {
		for it, err := range c.Folders.ListItemsByMarkerIter(ctx, trimID(pos[0]), &cms.ListItemsByMarkerOptions{Fields: fields}) {
			if err != nil {
				return err
			}
			add(it.Name, it)
		}
	}
	if common.json {
		if out == nil {
			out = []listed{}
		}
		b, _ := json.Marshal(out)
		fmt.Fprintf(stdout, "%s\n", b)
	}
	return nil
}
