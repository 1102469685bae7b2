package listener_test

import (
	"fmt"

	"github.com/ddsgo/ddsgo/listener"
)

// Statuses are plain values: a listener function or a status read gets one.
func ExampleSubscriptionMatchedStatus() {
	st := listener.SubscriptionMatchedStatus{TotalCount: 2, TotalCountChange: 1, CurrentCount: 1, CurrentCountChange: 1}
	fmt.Printf("%d writers matched now, %d new since the last read\n", st.CurrentCount, st.CurrentCountChange)
	// Output:
	// 1 writers matched now, 1 new since the last read
}

func ExampleStatusMask() {
	m := listener.StatusMask(listener.DataAvailable | listener.SubscriptionMatched)
	fmt.Println(m, m.Has(listener.DataAvailable), m.Has(listener.SampleLost))
	fmt.Println(m&^listener.StatusMask(listener.DataAvailable) | listener.StatusMask(listener.LivelinessChanged))
	fmt.Println(listener.MaskNone, uint32(listener.MaskAll) == 0x7fe7)
	// Output:
	// DATA_AVAILABLE|SUBSCRIPTION_MATCHED true false
	// LIVELINESS_CHANGED|SUBSCRIPTION_MATCHED
	// NONE true
}
