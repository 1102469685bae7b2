package cdr_test

import (
	"fmt"

	"github.com/ddsgo/ddsgo/internal/cdr"
)

// Reading is interop::Reading { @key long sensor; string unit; sequence<double> values; }.
type Reading struct {
	Sensor int32 `dds:"key"`
	Unit   string
	Values []float64
}

func Example() {
	codec := cdr.MustCodec[Reading]()
	payload, err := codec.Marshal(nil, cdr.CDRLE, &Reading{Sensor: 7, Unit: "m", Values: []float64{1.5}})
	if err != nil {
		panic(err)
	}
	fmt.Printf("% x\n", payload)

	var r Reading
	if err := codec.Unmarshal(payload, &r); err != nil {
		panic(err)
	}
	fmt.Println(r.Sensor, r.Unit, r.Values, codec.KeyHash(&r))
	// Output:
	// 00 01 00 00 07 00 00 00 02 00 00 00 6d 00 00 00 01 00 00 00 00 00 00 00 00 00 f8 3f
	// 7 m [1.5] [0 0 0 7 0 0 0 0 0 0 0 0 0 0 0 0]
}
