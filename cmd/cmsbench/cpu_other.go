//go:build !unix

package main

import "errors"

// processCPU is not measured here: getrusage is Unix's.
func processCPU() (cpuTimes, error) {
	return cpuTimes{}, errors.New("the cpu measure needs getrusage (Unix)")
}
