//go:build race

package cms_test

// raceEnabled is true under -race, where the endurance tests use smaller
// content: the plain run (go test ./...) covers the full size.
const raceEnabled = true
