package serveflags

import (
	"flag"
	"io"
	"slices"
	"testing"
)

// parse registers the flags on a fresh set and parses args.
func parse(t *testing.T, args ...string) *Config {
	t.Helper()
	fs := flag.NewFlagSet("test", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	c := Register(fs)
	if err := fs.Parse(args); err != nil {
		t.Fatalf("Parse(%q): %v", args, err)
	}
	return c
}

func TestListFlagsDropSpacesAndEmptyEntries(t *testing.T) {
	c := parse(t, "-webhook-allow-hosts", " a, ,b ", "-webhook-allow-hosts", "c",
		"-cors-origins", " http://x:1 ,, http://y ")
	if got, want := c.Options.WebhookAllowedHosts, []string{"a", "b", "c"}; !slices.Equal(got, want) {
		t.Errorf("WebhookAllowedHosts = %q, want %q", got, want)
	}
	if got, want := c.Options.CORSOrigins, []string{"http://x:1", "http://y"}; !slices.Equal(got, want) {
		t.Errorf("CORSOrigins = %q, want %q", got, want)
	}
}

func TestSeparateIDSpacesFlag(t *testing.T) {
	if parse(t).Options.SeparateIDSpaces {
		t.Error("SeparateIDSpaces is set without the flag")
	}
	if !parse(t, "-separate-id-spaces").Options.SeparateIDSpaces {
		t.Error("-separate-id-spaces did not set SeparateIDSpaces")
	}
}
