package main

import (
	"fmt"
	"runtime"
	"runtime/debug"

	"github.com/spf13/cobra"
)

// version is the module version the binary was built from ("(devel)" from
// a checkout), with the VCS revision when the build recorded one.
func version() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown"
	}
	v := bi.Main.Version
	if v == "" {
		v = "(devel)"
	}
	for _, s := range bi.Settings {
		if s.Key == "vcs.revision" && len(s.Value) >= 12 {
			v += " " + s.Value[:12]
		}
	}
	return v
}

func (a *app) versionCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the version of cms",
		Args:  nArgs(0, 0, "no arguments"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if a.g.json {
				printJSON(a.stdout, map[string]string{"version": version(), "go": runtime.Version()})
				return nil
			}
			fmt.Fprintf(a.stdout, "cms %s (%s)\n", version(), runtime.Version())
			return nil
		},
	}
}
