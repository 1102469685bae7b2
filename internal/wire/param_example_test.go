package wire_test

import (
	"fmt"

	"github.com/ddsgo/ddsgo/internal/wire"
)

// Write a ParameterList with typed values, then walk it and decode each
// parameter with the parser of its id.
func ExampleParameterReader() {
	w := wire.NewParamWriter(nil, false)
	w.PutString(wire.PIDTopicName, "Square")
	w.PutUint32(wire.PIDDomainID, 7)
	w.PutDuration(wire.PIDParticipantLeaseDuration, wire.Duration{Seconds: 20})
	w.PutRaw(0x8019, []byte{0, 0, 32, 0}) // Cyclone's receive buffer size
	list, err := w.Finish()
	if err != nil {
		panic(err)
	}

	r := wire.NewParameterReader(list, false, wire.VendorFastDDS)
	for p, ok := r.Next(); ok; p, ok = r.Next() {
		switch p.ID {
		case wire.PIDTopicName:
			s, _, err := wire.ParseString(p.Value, p.BigEndian)
			fmt.Println("topic", s, err)
		case wire.PIDDomainID:
			d, _, err := wire.ParseUint32(p.Value, p.BigEndian)
			fmt.Println("domain", d, err)
		case wire.PIDParticipantLeaseDuration:
			d, _, err := wire.ParseDuration(p.Value, p.BigEndian)
			fmt.Println("lease", d.Std(), err)
		default:
			// 0x8019 means something only from Cyclone DDS.
			fmt.Println(p.ID, "known:", p.ID.Known(wire.VendorFastDDS))
		}
	}
	fmt.Println(r.Err(), r.HasSentinel(), r.Len() == len(list))
	// Output:
	// topic Square <nil>
	// domain 7 <nil>
	// lease 20s <nil>
	// PID(0x8019) known: false
	// <nil> true true
}

// Find PID_STATUS_INFO in the inline QoS of a DATA submessage without
// allocating.
func ExampleFindParameter() {
	w := wire.NewParamWriter(nil, false)
	w.PutKeyHash(wire.KeyHash{15: 1})
	w.PutStatusInfo(wire.StatusInfoDisposed | wire.StatusInfoUnregistered)
	inlineQoS, _ := w.Finish()

	if p, ok := wire.FindParameter(inlineQoS, false, wire.VendorCyclone, wire.PIDStatusInfo); ok {
		s, _, _ := wire.ParseStatusInfo(p.Value)
		fmt.Println("disposed:", s&wire.StatusInfoDisposed != 0, "unregistered:", s&wire.StatusInfoUnregistered != 0)
	}
	// Output:
	// disposed: true unregistered: true
}
