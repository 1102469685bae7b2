//go:build !race

package cdr

const raceEnabled = false
