//go:build !race

package dds

const raceEnabled = false
