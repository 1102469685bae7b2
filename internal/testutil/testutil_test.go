package testutil

import (
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Writers and a reader at once: nothing is lost, and the race detector finds nothing.
func TestSyncBuffer(t *testing.T) {
	var b SyncBuffer
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for range 100 {
				n, err := b.Write([]byte("x"))
				assert.NoError(t, err) // not require: FailNow is for the test's goroutine
				assert.Equal(t, 1, n)
			}
		})
	}
	for range 10 {
		require.LessOrEqual(t, len(b.String()), 400)
	}
	wg.Wait()
	require.Equal(t, strings.Repeat("x", 400), b.String())
}
