package listener_test

import (
	"fmt"

	"github.com/ddsgo/ddsgo/listener"
	"github.com/ddsgo/ddsgo/qos"
)

type reader struct{ h listener.InstanceHandle }

func (r *reader) InstanceHandle() listener.InstanceHandle { return r.h }

func ExampleDataReaderFuncs() {
	l := listener.DataReaderFuncs{
		DataAvailable: func(r listener.Entity) { fmt.Println("data on", r.InstanceHandle()) },
		SubscriptionMatched: func(_ listener.Entity, s listener.SubscriptionMatchedStatus) {
			fmt.Println("writers:", s.CurrentCount, "change:", s.CurrentCountChange)
		},
	}
	fmt.Println(l.Mask())

	var dl listener.DataReaderListener = l
	r := &reader{h: listener.HandleFromGUID([16]byte{15: 7})}
	dl.OnSubscriptionMatched(r, listener.SubscriptionMatchedStatus{CurrentCount: 1, CurrentCountChange: 1})
	dl.OnDataAvailable(r)
	dl.OnSampleLost(r, listener.SampleLostStatus{}) // no function: nothing happens
	// Output:
	// DATA_AVAILABLE|SUBSCRIPTION_MATCHED
	// writers: 1 change: 1
	// data on 00000000000000000000000000000007
}

func ExampleMatchedCounter() {
	var c listener.MatchedCounter
	a := listener.HandleFromGUID([16]byte{0: 1, 15: 1})
	b := listener.HandleFromGUID([16]byte{0: 1, 15: 2})
	c.Add(a)
	c.Add(b)
	fmt.Printf("%+v\n", c.TakePublicationMatched())
	c.Remove(a)
	fmt.Println(c.Changed())
	st := c.TakePublicationMatched()
	fmt.Println(st.TotalCount, st.TotalCountChange, st.CurrentCount, st.CurrentCountChange)
	fmt.Println(c.Changed())
	// Output:
	// {TotalCount:2 TotalCountChange:2 CurrentCount:2 CurrentCountChange:2 LastSubscriptionHandle:01000000000000000000000000000002}
	// true
	// 2 0 1 -1
	// false
}

func ExampleIncompatibleQosCounter() {
	var c listener.IncompatibleQosCounter
	c.Add([]qos.PolicyID{qos.ReliabilityPolicyID})
	c.Add([]qos.PolicyID{qos.DurabilityPolicyID, qos.ReliabilityPolicyID})
	st := c.TakeRequested()
	fmt.Println(st.TotalCount, st.LastPolicyID, st.Policies)
	// Output:
	// 2 Durability [{Durability 1} {Reliability 2}]
}

func ExampleStatusMask() {
	m := listener.StatusMask(listener.DataAvailable | listener.SubscriptionMatched)
	fmt.Println(m, m.Has(listener.DataAvailable), m.Has(listener.SampleLost))
	fmt.Println(m.Without(listener.DataAvailable).With(listener.LivelinessChanged))
	fmt.Println(listener.MaskNone, uint32(listener.MaskAll) == 0x7fe7)
	// Output:
	// DATA_AVAILABLE|SUBSCRIPTION_MATCHED true false
	// LIVELINESS_CHANGED|SUBSCRIPTION_MATCHED
	// NONE true
}
