package main

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
)

// startSelf starts this program again with env added to its environment
// (which names the role it plays: a ceiling server, a reference server,
// a discarding receiver) and returns the first line it prints on standard
// output, its address or startup line, with a function that kills it and
// waits for it. what names the child in errors.
func startSelf(what string, env ...string) ([]byte, func(), error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, nil, err
	}
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), env...)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, nil, err
	}
	stop := func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }
	line, err := bufio.NewReader(out).ReadBytes('\n')
	if err != nil {
		stop()
		return nil, nil, fmt.Errorf("%s: %w", what, err)
	}
	return line, stop, nil
}
