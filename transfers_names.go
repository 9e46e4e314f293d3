package cms

import (
	"errors"
	"path/filepath"
	"strings"
)

// ErrUnsafeName is matched (errors.Is) by an *UnsafeNameError: a name the
// service sent that cannot be used as a local file name without writing
// outside the target directory.
var ErrUnsafeName = errors.New("cms: not a safe local file name")

// UnsafeNameError is a name sent by the service that downloads refuse to
// write (Transfers.DownloadFile, DownloadDir): empty, "." or "..", a path
// ("a/b", "../x", "/x", `a\b`, "C:x"), a NUL byte, or a name the local
// system reserves (filepath.IsLocal). Nothing is written for it.
type UnsafeNameError struct {
	Name   string
	Reason string
}

// Error quotes the name and says why it is refused.
func (e *UnsafeNameError) Error() string {
	return "cms: refusing to write " + quoteArg(e.Name) + " locally: " + e.Reason
}

// Is matches ErrUnsafeName.
func (e *UnsafeNameError) Is(target error) bool { return target == ErrUnsafeName }

// checkLocalName is the one check of a name the service sent before it
// becomes a local file or directory name (downloads of a tree and of one
// file): it must be a single, local path element.
func checkLocalName(name string) error {
	reason := ""
	switch {
	case name == "":
		reason = "empty"
	case name == "." || name == "..":
		reason = "not a name"
	case strings.ContainsRune(name, 0):
		reason = "contains a NUL byte"
	case strings.ContainsAny(name, `/\`):
		reason = `contains "/" or "\"`
	case filepath.VolumeName(name) != "" || filepath.IsAbs(name):
		reason = "an absolute path"
	case !filepath.IsLocal(name) || filepath.Base(name) != name:
		reason = "not a local name on this system"
	}
	if reason != "" {
		return &UnsafeNameError{Name: name, Reason: reason}
	}
	return nil
}
