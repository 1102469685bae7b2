package testutil

import "testing"

// Package testutil's own tests run under the check it gives every other package.
func TestMain(m *testing.M) { Main(m) }
