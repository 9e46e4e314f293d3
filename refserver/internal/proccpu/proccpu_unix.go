//go:build unix

// Package proccpu reads the CPU time the process has used, for the
// reference server's benchmarks: on a shared machine it varies less than
// the wall time they also report.
package proccpu

import (
	"syscall"
	"time"
)

// Used is the CPU time the process has used (user and system, every
// thread), and whether the system told it.
func Used() (time.Duration, bool) {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
