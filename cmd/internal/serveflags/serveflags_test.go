package serveflags

import (
	"flag"
	"io"
	"slices"
	"testing"

	"github.com/contentapi/cms/cmd/internal/memgoal"
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

func TestMemoryHeadroomFlag(t *testing.T) {
	if got := parse(t).MemoryHeadroom; got != memgoal.DefaultHeadroom {
		t.Errorf("MemoryHeadroom = %d by default, want %d", got, memgoal.DefaultHeadroom)
	}
	c := parse(t, "-memory-headroom", "0")
	if c.MemoryHeadroom != 0 || c.Validate() != nil {
		t.Errorf("-memory-headroom 0: %d, %v; want 0 (Go's default) and valid", c.MemoryHeadroom, c.Validate())
	}
	if err := parse(t, "-memory-headroom", "-1").Validate(); err == nil {
		t.Error("-memory-headroom -1 is valid, want an error")
	}
}
