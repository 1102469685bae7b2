//go:build !race

package ecm

const raceEnabled = false
