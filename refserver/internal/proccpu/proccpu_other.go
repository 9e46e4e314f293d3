//go:build !unix

// Package proccpu reads the CPU time the process has used, for the
// reference server's benchmarks: on a shared machine it varies less than
// the wall time they also report.
package proccpu

import "time"

// Used is the CPU time the process has used; here the system does not
// tell it (false).
func Used() (time.Duration, bool) { return 0, false }
