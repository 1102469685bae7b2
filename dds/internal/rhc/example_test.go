package rhc_test

import (
	"fmt"
	"time"

	"github.com/ddsgo/ddsgo/dds/internal/rhc"
)

type Reading struct {
	Sensor  int32 // the key
	Celsius float64
}

// A reader keeps the last two readings per sensor. The protocol inserts what it
// receives; the application takes it into slices it reuses.
func Example() {
	cache, err := rhc.New[Reading](rhc.Config{
		Depth:           2,
		OnDataAvailable: func() { fmt.Println("data available") },
	})
	if err != nil {
		panic(err)
	}
	writer := rhc.GUID{0x01, 0x0f}
	now := time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC)
	for i, c := range []float64{20.5, 21, 21.5} {
		cache.Insert(&rhc.Change[Reading]{
			Kind:            rhc.Write,
			KeyHash:         rhc.KeyHash{15: 7}, // from the key, Sensor 7
			Writer:          writer,
			SourceTimestamp: now.Add(time.Duration(i) * time.Second),
			Value:           Reading{Sensor: 7, Celsius: c},
		}, now.Add(time.Duration(i)*time.Second))
	}
	cache.Insert(&rhc.Change[Reading]{
		Kind: rhc.Dispose, KeyHash: rhc.KeyHash{15: 7}, Writer: writer,
		Value: Reading{Sensor: 7}, // key fields only
	}, now.Add(3*time.Second))

	values := make([]Reading, 8)
	infos := make([]rhc.SampleInfo, 8)
	n := cache.Take(values, infos, &rhc.Selector[Reading]{SampleStates: rhc.NotReadSampleState}, now.Add(4*time.Second))
	for i := range n {
		fmt.Println(values[i].Celsius, infos[i].ViewState, infos[i].InstanceState, "rank", infos[i].SampleRank)
	}
	fmt.Printf("%+v\n", cache.Stats())
	// Output:
	// data available
	// data available
	// data available
	// data available
	// 21 NEW NOT_ALIVE_DISPOSED rank 1
	// 21.5 NEW NOT_ALIVE_DISPOSED rank 0
	// {Instances:1 Samples:0 InvalidSamples:0}
}

// A ReadCondition-like walk over instances, one instance per call.
func ExampleCache_ReadNextInstance() {
	cache, _ := rhc.New[Reading](rhc.Config{})
	for sensor := range int32(3) {
		cache.Insert(&rhc.Change[Reading]{
			KeyHash: rhc.KeyHash{15: byte(sensor)},
			Writer:  rhc.GUID{1},
			Value:   Reading{Sensor: sensor, Celsius: 20 + float64(sensor)},
		}, time.Now())
	}
	values := make([]Reading, 4)
	infos := make([]rhc.SampleInfo, 4)
	alive := &rhc.Selector[Reading]{InstanceStates: rhc.AliveInstanceState}
	for h := rhc.HandleNil; ; h = infos[0].InstanceHandle {
		n := cache.ReadNextInstance(values, infos, h, alive, time.Now())
		if n == 0 {
			break
		}
		fmt.Println(infos[0].InstanceHandle, values[0].Sensor, values[0].Celsius)
	}
	// Output:
	// 1 0 20
	// 2 1 21
	// 3 2 22
}
