package main

import (
	"bufio"

	"github.com/spf13/cobra"
)

func (a *app) catCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "cat FILE",
		Short: "Write a file's content to standard output",
		Long: `Write a file's content to standard output, streamed (never whole in memory)
and checked against its SHA-1. FILE is a file id, file:ID or a /path.`,
		Args: nArgs(1, 1, "one FILE"),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			c, err := a.client()
			if err != nil {
				return err
			}
			it, err := resolveArg(ctx, c, args[0], fileOnly)
			if err != nil {
				return err
			}
			w := bufio.NewWriterSize(a.stdout, 256<<10)
			if _, _, err := c.Files.DownloadTo(ctx, it.id(), w, nil); err != nil {
				return err
			}
			return w.Flush()
		},
	}
}
