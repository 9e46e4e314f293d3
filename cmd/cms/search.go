package main

import (
	"fmt"

	"github.com/contentapi/cms"
	"github.com/spf13/cobra"
)

// found is one result of search --json.
type found struct {
	Type string `json:"type"`
	ID   string `json:"id"`
	Name string `json:"name"`
}

func (a *app) searchCmd() *cobra.Command {
	var typ, in string
	var limit int
	cmd := &cobra.Command{
		Use:   "search QUERY",
		Short: "Search files and folders by name and content",
		Long: `Search files and folders by name, description and content (as the service
does), in the order it ranks them. --type file|folder keeps one kind, --in FOLDER
searches under one folder, --limit stops after that many (default 100; 0: all).`,
		Args: nArgs(1, 1, "one QUERY"),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			c, err := a.client()
			if err != nil {
				return err
			}
			opts := &cms.SearchOptions{Query: args[0]}
			switch typ {
			case "":
			case kindFile, kindFolder, "web_link":
				opts.Type = cms.ItemType(typ)
			default:
				return usagef("--type is file, folder or web_link, not %q", typ)
			}
			if in != "" {
				id, err := folderID(ctx, c, in)
				if err != nil {
					return err
				}
				opts.AncestorFolderIDs = []string{id}
			}
			var out []found
			for it, err := range c.Search.QueryIter(ctx, opts) {
				if err != nil {
					return err
				}
				if !a.g.filter.match(it.Name, it.Type == kindFolder) {
					continue
				}
				out = append(out, found{Type: it.Type, ID: it.ID, Name: it.Name})
				if limit > 0 && len(out) >= limit {
					break
				}
			}
			if a.g.json {
				if out == nil {
					out = []found{}
				}
				printJSON(a.stdout, out)
				return nil
			}
			for _, f := range out {
				fmt.Fprintf(a.stdout, "%-8s %14s  %s\n", f.Type, f.ID, f.Name)
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&typ, "type", "", "only this kind: file, folder or web_link")
	cmd.Flags().StringVar(&in, "in", "", "only under this folder (an id, folder:ID or a /path)")
	cmd.Flags().IntVar(&limit, "limit", 100, "stop after this many results (0: all)")
	return cmd
}
