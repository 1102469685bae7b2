package wake

import (
	"testing"
	"time"
)

// A channel taken before a Notify is closed by it; one taken after waits for the next.
func TestSignal(t *testing.T) {
	var s Signal
	s.Notify() // nobody waits: nothing to close, nothing made
	before := s.Wait()
	select {
	case <-before:
		t.Fatal("closed before any Notify")
	default:
	}
	s.Notify()
	select {
	case <-before:
	case <-time.After(10 * time.Second):
		t.Fatal("Notify did not close the channel taken before it")
	}
	after := s.Wait()
	select {
	case <-after:
		t.Fatal("a channel taken after the Notify is closed")
	default:
	}
}
