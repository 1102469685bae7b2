package goid

import "testing"

func TestGet(t *testing.T) {
	a := Get()
	if a == 0 || Get() != a {
		t.Fatalf("Get: %d then %d", a, Get())
	}
	ch := make(chan uint64)
	go func() { ch <- Get() }()
	if b := <-ch; b == a || b == 0 {
		t.Fatalf("another goroutine's id %d, ours %d", b, a)
	}
}
