//go:build unix

package main

import (
	"syscall"
	"time"
)

// processCPU is the CPU time the process has used (getrusage RUSAGE_SELF).
func processCPU() (cpuTimes, error) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return cpuTimes{}, err
	}
	return cpuTimes{time.Duration(ru.Utime.Nano()), time.Duration(ru.Stime.Nano())}, nil
}
