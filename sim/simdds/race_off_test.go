//go:build !race

package simdds

const raceEnabled = false
