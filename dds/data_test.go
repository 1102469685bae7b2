package dds

import (
	"fmt"
	"testing"
	"time"

	"github.com/ddsgo/ddsgo/internal/cdr"
	"github.com/ddsgo/ddsgo/internal/rtps"
	"github.com/ddsgo/ddsgo/internal/wire"
	"github.com/ddsgo/ddsgo/qos"
	"github.com/stretchr/testify/require"
)

func TestWriteTake(t *testing.T) {
	p := testParticipant(t, nil, nil)
	w, r := endpoints[message](t, p, "msgs", nil, reliableReader())
	ts := time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC)
	for i := range 3 {
		m := message{ID: int32(i), Text: "hello", Values: []float64{float64(i)}, Seq: 1}
		require.NoError(t, w.Write(bg, &m, Timestamp(ts)))
	}
	m := message{ID: 0, Text: "again", Seq: 2}
	before := time.Now()
	require.NoError(t, w.Write(bg, &m))
	after := time.Now()

	data, infos, err := r.Read(bg, NoWait())
	require.NoError(t, err)
	require.Len(t, data, 4)
	for i, info := range infos {
		require.True(t, info.ValidData)
		require.Equal(t, NotReadSampleState, info.SampleState)
		require.Equal(t, NewViewState, info.ViewState)
		require.Equal(t, AliveInstanceState, info.InstanceState)
		require.Equal(t, w.InstanceHandle(), info.PublicationHandle)
		require.Equal(t, r.LookupInstance(&data[i]), info.InstanceHandle)
		require.Equal(t, w.LookupInstance(&data[i]), info.InstanceHandle)
	}
	for i := range data {
		if data[i].Seq == 2 { // no Timestamp option: the time of the write
			require.WithinRange(t, infos[i].SourceTimestamp, before.Add(-time.Microsecond), after)
		}
		if data[i].ID == 1 {
			require.Equal(t, ts, infos[i].SourceTimestamp)
			require.Equal(t, message{ID: 1, Text: "hello", Values: []float64{1}, Seq: 1}, data[i])
		}
	}

	// Read again: READ and NOT_NEW; only NOT_READ selects nothing.
	_, infos, err = r.Read(bg, NoWait())
	require.NoError(t, err)
	require.Equal(t, ReadSampleState, infos[0].SampleState)
	require.Equal(t, NotNewViewState, infos[0].ViewState)
	_, _, err = r.Read(bg, InStates(NotReadStates), NoWait())
	require.ErrorIs(t, err, ErrNoData)

	// Take up to 2, then the rest.
	data, _, err = r.Take(bg, MaxSamples(2), NoWait())
	require.NoError(t, err)
	require.Len(t, data, 2)
	data, _, err = r.Take(bg, NoWait())
	require.NoError(t, err)
	require.Len(t, data, 2)
	_, _, err = r.Take(bg, NoWait())
	require.ErrorIs(t, err, ErrNoData)

	// The encapsulation of a final type is XCDR1.
	fw := w.ew.(*fakeWriter)
	fw.record = true
	require.NoError(t, w.Write(bg, &m))
	require.Equal(t, []byte{0x00, byte(cdr.CDRLE)}, fw.changes[0].Payload[:2])
}

func TestInstanceStates(t *testing.T) {
	p := testParticipant(t, nil, nil)
	w, r := endpoints[point](t, p, "points", nil, reliableReader())
	fw := w.ew.(*fakeWriter)
	fw.record = true

	a, b, c := point{ID: 1, X: 1}, point{ID: 2, X: 2}, point{ID: 3, X: 3}
	for _, v := range []*point{&a, &b, &c} {
		require.NoError(t, w.Write(bg, v))
	}
	ha := w.LookupInstance(&a)
	require.False(t, ha.IsNil())
	require.NoError(t, w.Dispose(bg, &a))
	require.NoError(t, w.Unregister(bg, &b)) // autodispose: disposed too
	q := w.Qos()
	q.WriterDataLifecycle.AutodisposeUnregisteredInstances = false
	require.NoError(t, w.SetQos(q))
	require.NoError(t, w.Unregister(bg, nil, OfInstance(w.LookupInstance(&c))))
	require.ErrorIs(t, w.Unregister(bg, &c), ErrPreconditionNotMet)
	require.Equal(t, HandleNil, w.LookupInstance(&c))

	// Dispose and unregister send the key hash; with a key of at most 16 bytes the hash
	// is the key, and no payload goes with it (what Fast DDS requires).
	kinds := []rtps.ChangeKind{}
	for _, ch := range fw.changes {
		kinds = append(kinds, ch.Kind)
	}
	require.Equal(t, []rtps.ChangeKind{rtps.Alive, rtps.Alive, rtps.Alive, rtps.NotAliveDisposed, rtps.NotAliveDisposedUnregistered, rtps.NotAliveUnregistered}, kinds)
	dispose := fw.changes[3]
	require.Empty(t, dispose.Payload)
	require.Equal(t, w.codec.KeyHash(&a), cdr.KeyHash(dispose.KeyHash))

	st := map[int32]InstanceState{}
	valid := map[int32]bool{}
	for prev := HandleNil; ; {
		data, infos, err := r.Take(bg, NextInstance(prev), NoWait())
		if err != nil {
			require.ErrorIs(t, err, ErrNoData)
			break
		}
		prev = infos[0].InstanceHandle
		for i := range data {
			st[data[i].ID] = infos[i].InstanceState
			valid[data[i].ID] = valid[data[i].ID] || infos[i].ValidData
		}
	}
	require.Equal(t, map[int32]InstanceState{
		1: NotAliveDisposedInstanceState,
		2: NotAliveDisposedInstanceState,
		3: NotAliveNoWritersInstanceState,
	}, st)
	require.Equal(t, map[int32]bool{1: true, 2: true, 3: true}, valid)

	// Writing a disposed instance makes it alive again, in a new generation.
	require.NoError(t, w.Write(bg, &a))
	data, infos, err := r.Read(bg, Instance(ha), NoWait())
	require.NoError(t, err)
	require.Equal(t, a, data[len(data)-1])
	require.Equal(t, AliveInstanceState, infos[0].InstanceState)
	require.Equal(t, int32(1), infos[len(infos)-1].DisposedGenerationCount)
	_, _, err = r.Read(bg, Instance(listenerHandle(99)), NoWait())
	require.ErrorIs(t, err, ErrBadParameter)

	// Keys from handles.
	k, err := w.KeyValue(ha)
	require.NoError(t, err)
	require.Equal(t, point{ID: 1}, k)
	k, err = r.KeyValue(ha)
	require.NoError(t, err)
	require.Equal(t, point{ID: 1}, k)
	_, infos, err = r.Read(bg, Instance(ha), NoWait())
	require.NoError(t, err)
	require.Equal(t, ReadSampleState, infos[0].SampleState) // GetKeyValue read nothing

	h, err := w.Register(&point{ID: 7})
	require.NoError(t, err)
	require.Equal(t, h, w.LookupInstance(&point{ID: 7}))
	require.Equal(t, HandleNil, r.LookupInstance(&point{ID: 7}))
	require.NoError(t, w.Dispose(bg, nil, OfInstance(h)))
	require.ErrorIs(t, w.Dispose(bg, &point{ID: 7}), nil)
	require.ErrorIs(t, w.Dispose(bg, nil, OfInstance(listenerHandle(98))), ErrPreconditionNotMet)
	_, err = w.Register(nil)
	require.ErrorIs(t, err, ErrBadParameter)
	require.ErrorIs(t, w.Write(bg, nil), ErrBadParameter)
}

// listenerHandle returns the handle of an instance of point with id.
func listenerHandle(id int32) InstanceHandle {
	c := cdr.MustCodec[point]()
	return listenerHandleFromKeyHash(c.KeyHash(&point{ID: id}))
}

func listenerHandleFromKeyHash(kh cdr.KeyHash) InstanceHandle {
	var h InstanceHandle
	for i := range h {
		h[i] = kh[i] ^ handleMask[i]
	}
	return h
}

func TestDeleteWriterUnregisters(t *testing.T) {
	p := testParticipant(t, nil, nil)
	w, r := endpoints[point](t, p, "points", nil, reliableReader())
	require.NoError(t, w.Write(bg, &point{ID: 1}))
	require.NoError(t, w.Close())
	_, infos, err := r.Take(bg, NoWait())
	require.NoError(t, err)
	require.Equal(t, NotAliveDisposedInstanceState, infos[len(infos)-1].InstanceState)
}

func TestReaderResourceLimits(t *testing.T) {
	p := testParticipant(t, nil, nil)
	rq := reliableReader()
	rq.ResourceLimits.MaxSamples = 2
	w, r := endpoints[point](t, p, "points", nil, rq)
	for i := range 3 {
		require.NoError(t, w.Write(bg, &point{ID: int32(i)}))
	}
	st, err := r.SampleRejectedStatus()
	require.NoError(t, err)
	require.Equal(t, int32(1), st.TotalCount)
	require.Equal(t, int32(1), st.TotalCountChange)
	st, err = r.SampleRejectedStatus()
	require.NoError(t, err)
	require.Zero(t, st.TotalCountChange)

	// The same sample refused again when its writer resends it counts once; a later one
	// counts again.
	for _, sn := range []wire.SequenceNumber{5, 5, 4, 6} {
		require.False(t, r.deliver(&rtps.Sample{Writer: w.ew.GUID(), SN: sn, Kind: rtps.Alive, Payload: mustMarshal(t, point{ID: 9})}))
	}
	st, err = r.SampleRejectedStatus()
	require.NoError(t, err)
	require.Equal(t, int32(3), st.TotalCount)
	require.Equal(t, int32(2), st.TotalCountChange)

	// An undecodable payload is a lost sample.
	r.deliver(&rtps.Sample{Writer: w.ew.GUID(), Payload: []byte{0, 1, 0, 0, 1}})
	ls, err := r.SampleLostStatus()
	require.NoError(t, err)
	require.Equal(t, int32(1), ls.TotalCount)
}

func TestAppendableXCDR2(t *testing.T) {
	p := testParticipant(t, nil, nil)
	w, r := endpoints[appendable](t, p, "app", nil, reliableReader())
	fw := w.ew.(*fakeWriter)
	fw.record = true
	require.Equal(t, []qos.DataRepresentationID{qos.XCDR2}, fw.cfg.Offered.Writer.DataRepresentation.Value)
	require.NoError(t, w.Write(bg, &appendable{ID: 4, V: 5}))
	require.Equal(t, []byte{0x00, byte(cdr.DCDR2LE)}, fw.changes[0].Payload[:2])
	require.NoError(t, w.Dispose(bg, &appendable{ID: 4}))
	// The key, flat, under the data's encapsulation id, as Cyclone DDS wants it: it does
	// not recover keys of appendable types from their hash.
	require.Equal(t, []byte{0x00, byte(cdr.DCDR2LE), 0, 0, 4, 0, 0, 0}, fw.changes[1].Payload)
	data, _, err := r.Take(bg, NoWait())
	require.NoError(t, err)
	require.Equal(t, appendable{ID: 4, V: 5}, data[0])
}

func TestIncompatibleAndMatched(t *testing.T) {
	p := testParticipant(t, nil, nil)
	wq := qos.DefaultDataWriterQos()
	wq.Reliability.Kind = qos.BestEffort
	w, r := endpoints[point](t, p, "points", &wq, reliableReader())
	ws, err := w.OfferedIncompatibleQosStatus()
	require.NoError(t, err)
	require.Equal(t, int32(1), ws.TotalCount)
	require.Equal(t, qos.ReliabilityPolicyID, ws.LastPolicyID)
	rs, err := r.RequestedIncompatibleQosStatus()
	require.NoError(t, err)
	require.Equal(t, int32(1), rs.TotalCount)
	ms, err := w.PublicationMatchedStatus()
	require.NoError(t, err)
	require.Zero(t, ms.CurrentCount)

	// A matching reader.
	r2, err := NewReader(w.Topic(), WithSubscriber(r.Subscriber()))
	require.NoError(t, err)
	ms, err = w.PublicationMatchedStatus()
	require.NoError(t, err)
	require.Equal(t, int32(1), ms.CurrentCount)
	require.Equal(t, r2.InstanceHandle(), ms.LastSubscriptionHandle)
	d := soleData(t, r2.InstanceHandle(), w.MatchedSubscriptions, w.MatchedSubscriptionData)
	require.Equal(t, "points", d.TopicName)
	require.Equal(t, p.InstanceHandle(), d.ParticipantKey)
	sm, err := r2.SubscriptionMatchedStatus()
	require.NoError(t, err)
	require.Equal(t, int32(1), sm.TotalCount)
	lc, err := r2.LivelinessChangedStatus()
	require.NoError(t, err)
	require.Equal(t, int32(1), lc.AliveCount)

	require.NoError(t, r2.Close())
	ms, err = w.PublicationMatchedStatus()
	require.NoError(t, err)
	require.Zero(t, ms.CurrentCount)
	require.Equal(t, int32(-1), ms.CurrentCountChange)
}

// soleData requires that list gives the one handle want, and returns its data.
func soleData[D any](t *testing.T, want InstanceHandle, list func() ([]InstanceHandle, error), data func(InstanceHandle) (D, error)) D {
	t.Helper()
	hs, err := list()
	require.NoError(t, err)
	require.Equal(t, []InstanceHandle{want}, hs)
	d, err := data(hs[0])
	require.NoError(t, err)
	return d
}

func TestRemoteEntities(t *testing.T) {
	net := &fakeNet{}
	p1 := testParticipant(t, net, nil)
	p2 := testParticipant(t, net, nil)
	pd := soleData(t, p2.InstanceHandle(), p1.DiscoveredParticipants, p1.DiscoveredParticipantData)
	require.Equal(t, p2.InstanceHandle(), pd.Key)

	w, _ := endpoints[point](t, p1, "points", nil, nil)
	tt, _ := newTopicType[point]("test::points")
	topic, err := createTopic(p2, "points", tt)
	require.NoError(t, err)
	sub, err := p2.NewSubscriber()
	require.NoError(t, err)
	r, err := NewReader(topic, WithSubscriber(sub))
	require.NoError(t, err)
	require.NoError(t, w.Write(bg, &point{ID: 5}))
	data, _, err := r.Take(bg, NoWait())
	require.NoError(t, err)
	require.Equal(t, []point{{ID: 5}}, data)

	// The remote writer is an entity of p2's ECM under the remote participant.
	d := soleData(t, w.InstanceHandle(), r.MatchedPublications, r.MatchedPublicationData)
	require.Equal(t, p1.InstanceHandle(), d.ParticipantKey)
	require.Equal(t, qos.Reliable, d.Offered.Writer.Reliability.Kind)

	require.NoError(t, p1.DeleteContainedEntities())
	require.NoError(t, p1.Close())
	ps, err := p2.DiscoveredParticipants()
	require.NoError(t, err)
	require.Empty(t, ps)
	pubs, err := r.MatchedPublications()
	require.NoError(t, err)
	require.Empty(t, pubs)
	_, infos, err := r.Read(bg, NoWait())
	require.NoError(t, err)
	require.Equal(t, NotAliveDisposedInstanceState, infos[0].InstanceState)
}

type named struct {
	Name string `dds:"key"`
	V    int32
}

// A key that can exceed 16 bytes is hashed with MD5, so disposes carry the serialized key,
// and the reader recovers the instance from it; short keys travel in the hash alone and the
// reader decodes the key from the hash.
func TestDisposePayloadByKeySize(t *testing.T) {
	p := testParticipant(t, nil, nil)
	w, r := endpoints[named](t, p, "named", nil, reliableReader())
	fw := w.ew.(*fakeWriter)
	fw.record = true
	require.NoError(t, w.Write(bg, &named{Name: "a long instance name", V: 1}))
	require.NoError(t, w.Dispose(bg, &named{Name: "a long instance name"}))
	require.Equal(t, []byte{0x00, byte(cdr.CDRLE)}, fw.changes[1].Payload[:2])
	_, infos, err := r.Take(bg, NoWait())
	require.NoError(t, err)
	require.Equal(t, NotAliveDisposedInstanceState, infos[len(infos)-1].InstanceState)

	// A dispose that arrives with only the key hash (Fast DDS's form) for an instance the
	// reader never saw still names its key.
	w2, r2 := endpoints[message](t, p, "short", nil, reliableReader())
	kh := w2.codec.KeyHash(&message{ID: 42})
	r2.deliver(&rtps.Sample{Writer: w2.ew.GUID(), Kind: rtps.NotAliveDisposed, KeyHash: wire.KeyHash(kh), HasKeyHash: true})
	_, infos, err = r2.Read(bg, NoWait())
	require.NoError(t, err)
	require.Len(t, infos, 1)
	require.False(t, infos[0].ValidData)
	key, err := r2.KeyValue(infos[0].InstanceHandle)
	require.NoError(t, err)
	require.Equal(t, int32(42), key.ID)
}

// Discovered endpoints are listed whether they match a local one or not.
func TestDiscoveredEndpoints(t *testing.T) {
	net := &fakeNet{}
	p1 := testParticipant(t, net, nil)
	p2 := testParticipant(t, net, nil)
	endpoints[point](t, p1, "points", nil, nil)
	pubs, err := p2.DiscoveredPublications()
	require.NoError(t, err)
	require.Len(t, pubs, 1)
	require.Equal(t, "points", pubs[0].TopicName)
	require.Equal(t, p1.InstanceHandle(), pubs[0].ParticipantKey)
	subs, err := p2.DiscoveredSubscriptions()
	require.NoError(t, err)
	require.Len(t, subs, 1)
	own, err := p1.DiscoveredPublications()
	require.NoError(t, err)
	require.Empty(t, own)
}

// mustMarshal serializes v as a writer would (plain CDR, little endian).
func mustMarshal[T any](t *testing.T, v T) []byte {
	t.Helper()
	c, err := cdr.NewCodec[T]()
	require.NoError(t, err)
	b, err := c.Marshal(nil, cdr.CDRLE, &v)
	require.NoError(t, err)
	return b
}

// MaxSamples takes a positive count or LengthUnlimited (-1); 0 and other negative counts
// are bad parameters, not "all".
func TestMaxSamplesBadCounts(t *testing.T) {
	p := testParticipant(t, nil, nil)
	w, r := endpoints[point](t, p, "points", nil, reliableReader())
	for i := range 3 {
		require.NoError(t, w.Write(bg, &point{ID: int32(i)}))
	}
	require.Eventually(t, func() bool {
		data, _, err := r.Read(bg, NoWait(), MaxSamples(int(qos.LengthUnlimited)))
		return err == nil && len(data) == 3
	}, 5*time.Second, time.Millisecond)
	for _, n := range []int{0, -2, -100} {
		_, _, err := r.Read(bg, NoWait(), MaxSamples(n))
		require.ErrorIs(t, err, ErrBadParameter, "MaxSamples(%d)", n)
		require.ErrorContains(t, err, fmt.Sprintf("MaxSamples(%d)", n))
		_, _, err = r.Take(bg, NoWait(), MaxSamples(n))
		require.ErrorIs(t, err, ErrBadParameter, "MaxSamples(%d)", n)
	}
	data, _, err := r.Take(bg, NoWait(), MaxSamples(2))
	require.NoError(t, err)
	require.Len(t, data, 2)
}

// An instance the reader does not know is a bad parameter whether the reader has other
// data or none; a known instance without samples is no data.
func TestUnknownInstance(t *testing.T) {
	p := testParticipant(t, nil, nil)
	w, r := endpoints[point](t, p, "points", nil, reliableReader())
	unknown := listenerHandle(99)
	buf, infos := make([]point, 4), make([]SampleInfo, 4)
	check := func(want error, why string) {
		t.Helper()
		_, _, err := r.Read(bg, Instance(unknown), NoWait())
		require.ErrorIs(t, err, want, "Read: "+why)
		_, err = r.ReadInto(bg, buf, infos, Instance(unknown), NoWait())
		require.ErrorIs(t, err, want, "ReadInto: "+why)
		_, _, err = r.Take(bg, Instance(unknown))
		require.ErrorIs(t, err, want, "a blocking Take: "+why)
	}
	check(ErrBadParameter, "an empty reader")
	require.NoError(t, w.Write(bg, &point{ID: 1}))
	check(ErrBadParameter, "a reader with another instance")
	known := r.LookupInstance(&point{ID: 1})
	_, _, err := r.Take(bg, Instance(known), NoWait())
	require.NoError(t, err)
	_, _, err = r.Take(bg, Instance(known), NoWait())
	require.ErrorIs(t, err, ErrNoData, "a known instance whose samples were taken")
}

// A whole writer or reader QoS replaces the topic's, as an explicit QoS does in
// create_datawriter; FromTopic keeps the topic's policies; options change them.
func TestWithQosAndTopicQos(t *testing.T) {
	p := testParticipant(t, nil, nil)
	topic, err := NewTopic[point](p, "durable", TransientLocal(), KeepLast(10))
	require.NoError(t, err)
	whole := qos.DefaultDataWriterQos()
	w, err := NewWriter(topic, WithQos(whole))
	require.NoError(t, err)
	require.Equal(t, qos.Volatile, w.Qos().Durability.Kind, "the whole QoS as given")
	w, err = NewWriter(topic, WithQos(whole.FromTopic(topic.Qos())))
	require.NoError(t, err)
	require.Equal(t, qos.TransientLocal, w.Qos().Durability.Kind)
	require.Equal(t, int32(10), w.Qos().History.Depth)
	w, err = NewWriter(topic, Reliable())
	require.NoError(t, err)
	require.Equal(t, qos.TransientLocal, w.Qos().Durability.Kind, "options keep the topic's")
	r, err := NewReader(topic, WithQos(qos.DefaultDataReaderQos().FromTopic(topic.Qos())))
	require.NoError(t, err)
	require.Equal(t, int32(10), r.Qos().History.Depth)
}
