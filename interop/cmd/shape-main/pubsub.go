package main

import (
	"context"
	"errors"
	"math/rand/v2"
	"strconv"
	"time"

	"github.com/ddsgo/ddsgo/dds"
	"github.com/ddsgo/ddsgo/qos"
)

// The drawing area the shapes move in, as in the suite's programs.
const (
	areaWidth  = 240
	areaHeight = 270
)

func (a *app) publish(ctx context.Context, p *dds.DomainParticipant, topics []*dds.Topic[ShapeType]) int {
	o := &a.o
	pq := qos.DefaultPublisherQos()
	pq.Presentation = o.presentation()
	if o.partition != "" {
		pq.Partition.Name = []string{o.partition}
	}
	pub, err := p.NewPublisher(dds.WithQos(pq))
	if err != nil {
		a.printf("failed to create publisher: %v\n", err)
		return exitInit
	}
	wq := qos.DefaultDataWriterQos()
	o.common(&wq.Reliability, &wq.Durability, &wq.DataRepresentation, &wq.Ownership, &wq.Deadline, &wq.History)
	if o.strength >= 0 {
		wq.OwnershipStrength.Value = int32(o.strength)
	}
	if o.lifespan > 0 {
		wq.Lifespan.Duration = o.lifespan
	}
	wq.WriterDataLifecycle.AutodisposeUnregisteredInstances = !o.unregister
	a.debugf("Data Writer QoS: %+v", wq)
	writers := make([]*dds.DataWriter[ShapeType], len(topics))
	for i, t := range topics {
		a.printf("Create writer for topic: %s color: %s\n", t.Name(), o.color)
		if writers[i], err = dds.NewWriter(t, dds.WithPublisher(pub), dds.WithQos(wq)); err != nil {
			a.printf("failed to create datawriter[%d] topic: %s: %v\n", i, t.Name(), err)
			return exitInit
		}
	}
	if code := a.writeLoop(ctx, pub, writers); code != exitOK {
		return code
	}
	if o.dispose || o.unregister {
		for _, w := range writers {
			for j := range o.instances {
				k := ShapeType{Color: a.instanceColor(j)}
				if o.unregister {
					err = w.Unregister(context.Background(), &k)
				} else {
					err = w.Dispose(context.Background(), &k)
				}
				if err != nil {
					a.printf("failed to end instance %s: %v\n", k.Color, err)
					return exitRunning
				}
			}
		}
	}
	for _, w := range writers {
		actx, cancel := context.WithTimeout(context.Background(), time.Second)
		_ = w.WaitForAcknowledgments(actx)
		cancel()
	}
	return exitOK
}

// instanceColor is the color of instance j: the color, then color1, color2, ...
func (a *app) instanceColor(j int) string {
	if j == 0 {
		return a.o.color
	}
	return a.o.color + strconv.Itoa(j)
}

// writeLoop moves the shape and writes it every write period until the iterations are
// done or the run is interrupted.
func (a *app) writeLoop(ctx context.Context, pub *dds.Publisher, writers []*dds.DataWriter[ShapeType]) int {
	o := &a.o
	s := ShapeType{
		Color:     o.color,
		X:         rand.Int32N(areaWidth),
		Y:         rand.Int32N(areaHeight),
		Shapesize: int32(o.shapesize),
	}
	if o.payloadSize > 0 {
		s.AdditionalPayloadSize = make([]uint8, o.payloadSize)
		s.AdditionalPayloadSize[o.payloadSize-1] = 255
	}
	vel := func() int32 {
		v := 1 + rand.Int32N(5)
		if rand.IntN(2) == 0 {
			return -v
		}
		return v
	}
	dx, dy := vel(), vel()
	grouped := o.coherent || o.ordered
	for n := 0; o.iterations == 0 || n < o.iterations; n++ {
		if ctx.Err() != nil {
			return exitOK
		}
		s.X, dx = bounce(s.X+dx, dx, areaWidth)
		s.Y, dy = bounce(s.Y+dy, dy, areaHeight)
		if o.shapesize == 0 {
			s.Shapesize++
			if o.sizeModulo > 0 {
				s.Shapesize = (s.Shapesize-1)%int32(o.sizeModulo) + 1
			}
		}
		if grouped && !a.coherentSet(pub, n, true) {
			return exitRunning
		}
		for _, w := range writers {
			if code := a.writeInstances(ctx, w, &s); code != exitOK {
				return code
			}
		}
		if grouped && !a.coherentSet(pub, n, false) {
			return exitRunning
		}
		select {
		case <-ctx.Done():
		case <-time.After(o.writePeriod):
		}
	}
	return exitOK
}

// coherentSet begins (begin) or ends the coherent set of --coherent-sample-count
// iterations that iteration n starts or ends; it reports false when that fails.
func (a *app) coherentSet(pub *dds.Publisher, n int, begin bool) bool {
	count := a.o.coherentCount
	switch {
	case count == 0:
		return true
	case begin && n%count == 0:
		a.printf("Started Coherent Set\n")
		if err := pub.BeginCoherentChanges(); err != nil {
			a.printf("failed to begin coherent changes: %v\n", err)
			return false
		}
	case !begin && n%count == count-1:
		a.printf("Finished Coherent Set\n")
		if err := pub.EndCoherentChanges(); err != nil {
			a.printf("failed to end coherent changes: %v\n", err)
			return false
		}
	}
	return true
}

// writeInstances writes s as every instance of the run with writer w.
func (a *app) writeInstances(ctx context.Context, w *dds.DataWriter[ShapeType], s *ShapeType) int {
	o := &a.o
	for j := range o.instances {
		s.Color = a.instanceColor(j)
		if err := w.Write(ctx, s); err != nil {
			if isStop(ctx, err) {
				return exitOK
			}
			if errors.Is(err, dds.ErrTimeout) {
				continue // a full KEEP_ALL history: the sample is dropped, as a timed-out write is
			}
			a.printf("failed to write: %v\n", err)
			return exitRunning
		}
		if o.printWritten {
			a.printShape(w.TopicDescription().Name(), s)
		}
	}
	return exitOK
}

// bounce keeps v within [0, limit], turning the velocity at the edges.
func bounce(v, vel, limit int32) (int32, int32) {
	switch {
	case v < 0:
		return 0, -vel
	case v > limit:
		return limit, -vel
	}
	return v, vel
}

// printShape prints a sample as the suite's programs do; the suite parses
// "[0-9]+ [0-9]+ \[[0-9]+\]" out of it.
func (a *app) printShape(topic string, s *ShapeType) {
	if n := len(s.AdditionalPayloadSize); n > 0 {
		a.printf("%-10s %-10s %03d %03d [%d] {%d}\n", topic, s.Color, s.X, s.Y, s.Shapesize, s.AdditionalPayloadSize[n-1])
		return
	}
	a.printf("%-10s %-10s %03d %03d [%d]\n", topic, s.Color, s.X, s.Y, s.Shapesize)
}

func (a *app) subscribe(ctx context.Context, p *dds.DomainParticipant, topics []*dds.Topic[ShapeType]) int {
	o := &a.o
	sq := qos.DefaultSubscriberQos()
	sq.Presentation = o.presentation()
	if o.partition != "" {
		sq.Partition.Name = []string{o.partition}
	}
	sub, err := p.NewSubscriber(dds.WithQos(sq))
	if err != nil {
		a.printf("failed to create subscriber: %v\n", err)
		return exitInit
	}
	rq := qos.DefaultDataReaderQos()
	o.common(&rq.Reliability, &rq.Durability, &rq.DataRepresentation, &rq.Ownership, &rq.Deadline, &rq.History)
	rq.TimeBasedFilter.MinimumSeparation = o.timeFilter
	a.debugf("Data Reader QoS: %+v", rq)
	readers := make([]*dds.DataReader[ShapeType], len(topics))
	for i, t := range topics {
		if expr, params := o.filter(); expr != "" {
			var cft *dds.ContentFilteredTopic[ShapeType]
			cft, err = dds.NewContentFilteredTopic(t.Name()+"_filtered", t, expr, params...)
			if err != nil {
				a.printf("failed to create content filtered topic: %v\n", err)
				return exitInit
			}
			a.printf("Create reader for topic: %s_filtered color: %s\n", t.Name(), o.color)
			readers[i], err = dds.NewFilteredReader(cft, dds.WithSubscriber(sub), dds.WithQos(rq))
		} else {
			a.printf("Create reader for topic: %s\n", t.Name())
			readers[i], err = dds.NewReader(t, dds.WithSubscriber(sub), dds.WithQos(rq))
		}
		if err != nil {
			a.printf("failed to create datareader[%d] topic: %s: %v\n", i, t.Name(), err)
			return exitInit
		}
	}
	return a.readLoop(ctx, sub, readers)
}

// filter returns the subscriber's content filter: --cft, or -c as a filter on the color.
func (o *options) filter() (expr string, params []string) {
	switch {
	case o.cft != "":
		return o.cft, nil
	case o.color != "":
		return "color = %0", []string{"'" + o.color + "'"}
	}
	return "", nil
}

// readLoop takes (or reads) what the readers have every read period, instance by
// instance unless --take-read, until the iterations are done or the run is interrupted.
func (a *app) readLoop(ctx context.Context, sub *dds.Subscriber, readers []*dds.DataReader[ShapeType]) int {
	o := &a.o
	grouped := o.coherent || o.ordered
	for n := 0; o.iterations == 0 || n < o.iterations; n++ {
		if ctx.Err() != nil {
			return exitOK
		}
		if o.coherent {
			a.printf("Reading coherent sets, iteration %d\n", n)
		}
		if o.ordered {
			a.printf("Reading with ordered access, iteration %d\n", n)
		}
		if grouped {
			if err := sub.BeginAccess(); err != nil {
				a.printf("failed to begin access: %v\n", err)
				return exitRunning
			}
		}
		for _, r := range readers {
			if code := a.drain(r); code != exitOK {
				return code
			}
		}
		if grouped {
			if err := sub.EndAccess(); err != nil {
				a.printf("failed to end access: %v\n", err)
				return exitRunning
			}
		}
		select {
		case <-ctx.Done():
		case <-time.After(o.readPeriod):
		}
	}
	return exitOK
}

// drain prints every sample reader r has now.
func (a *app) drain(r *dds.DataReader[ShapeType]) int {
	o := &a.o
	prev := dds.HandleNil
	for {
		opts := []dds.ReadOption{dds.NoWait(), dds.MaxSamples(maxSamples)}
		if !o.takeRead {
			opts = append(opts, dds.NextInstance(prev))
		}
		var data []ShapeType
		var infos []dds.SampleInfo
		var err error
		if o.useRead {
			data, infos, err = r.Read(context.Background(), opts...)
		} else {
			data, infos, err = r.Take(context.Background(), opts...)
		}
		if errors.Is(err, dds.ErrNoData) {
			return exitOK
		}
		if err != nil {
			a.printf("failed to read: %v\n", err)
			return exitRunning
		}
		a.printSamples(r, data, infos)
		if o.takeRead && !o.useRead {
			continue // take() until nothing is left
		}
		if o.takeRead {
			return exitOK // read() returns the same samples again
		}
		prev = infos[0].InstanceHandle
	}
}

// printSamples prints the valid samples, and the instance state of every sample whose
// instance is no longer alive, as the suite's programs do.
func (a *app) printSamples(r *dds.DataReader[ShapeType], data []ShapeType, infos []dds.SampleInfo) {
	name := r.Topic().Name()
	for i := range data {
		ik := instanceKey{r, infos[i].InstanceHandle}
		if infos[i].ValidData {
			a.colors[ik] = data[i].Color
			a.printShape(name, &data[i])
		}
		// A taken instance without samples is gone from the reader, with its key: name it
		// by the color of its samples when the sample has none.
		color := data[i].Color
		if c, ok := a.colors[ik]; ok && color == "" {
			color = c
		}
		switch infos[i].InstanceState { //nolint:exhaustive // alive instances print no state
		case dds.NotAliveNoWritersInstanceState:
			a.printf("%-10s %-10s NOT_ALIVE_NO_WRITERS_INSTANCE_STATE\n", name, color)
		case dds.NotAliveDisposedInstanceState:
			a.printf("%-10s %-10s NOT_ALIVE_DISPOSED_INSTANCE_STATE\n", name, color)
		}
	}
}

// instanceKey names an instance of a reader.
type instanceKey struct {
	r *dds.DataReader[ShapeType]
	h dds.InstanceHandle
}
