package main

import (
	"testing"

	"github.com/ddsgo/ddsgo/internal/testutil"
)

func TestMain(m *testing.M) { testutil.Main(m) }
