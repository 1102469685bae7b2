package waitset_test

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/ddsgo/ddsgo/waitset"
)

func Example() {
	ws := waitset.New()
	var stop waitset.GuardCondition
	if err := ws.AttachCondition(&stop); err != nil {
		panic(err)
	}

	go func() {
		time.Sleep(10 * time.Millisecond)
		stop.SetTriggerValue(true)
	}()

	triggered, err := ws.Wait(context.Background())
	fmt.Println(len(triggered), triggered[0] == &stop, err)
	// Output:
	// 1 true <nil>
}

func ExampleWaitSet_WaitInto() {
	ws := waitset.New()
	var g waitset.GuardCondition
	_ = ws.AttachCondition(&g)

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
	defer cancel()
	buf := make([]waitset.Condition, 0, 4)
	buf, err := ws.WaitInto(ctx, buf)
	fmt.Println(len(buf), errors.Is(err, context.DeadlineExceeded))
	// Output:
	// 0 true
}

// counterCondition is a condition defined outside package waitset, as the dds package
// defines its StatusCondition: it embeds waitset.Trigger and notifies on changes.
type counterCondition struct {
	waitset.Trigger
	pending atomic.Int32
}

func (c *counterCondition) TriggerValue() bool { return c.pending.Load() > 0 }

func (c *counterCondition) add() {
	c.pending.Add(1)
	waitset.Notify(c)
}

func ExampleTrigger() {
	ws := waitset.New()
	c := &counterCondition{}
	_ = ws.AttachCondition(c)

	go c.add()

	triggered, err := ws.Wait(context.Background())
	fmt.Println(len(triggered), err, c.pending.Load())
	// Output:
	// 1 <nil> 1
}
