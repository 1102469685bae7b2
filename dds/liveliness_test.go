package dds

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ddsgo/ddsgo/dds/internal/status"
	"github.com/ddsgo/ddsgo/internal/netns"
	"github.com/ddsgo/ddsgo/listener"
	"github.com/ddsgo/ddsgo/qos"
)

// liveWorld is two participants on a fake network and a virtual clock: pub writes,
// sub reads.
type liveWorld struct {
	clk      *fakeClock
	pub, sub *DomainParticipant
}

func newLiveWorld(t *testing.T) *liveWorld {
	t.Helper()
	n := &fakeNet{}
	clk := newFakeClock()
	w := &liveWorld{clk: clk}
	var err error
	w.pub, err = NewParticipant(0, withEngine(n.factory()), withClock(clk))
	require.NoError(t, err)
	w.sub, err = NewParticipant(0, withEngine(n.factory()), withClock(clk))
	require.NoError(t, err)
	t.Cleanup(func() {
		require.NoError(t, w.pub.Close())
		require.NoError(t, w.sub.Close())
	})
	return w
}

// endpoints creates a writer of topic name in pub and a reader of it in sub, both
// with LIVELINESS kind and lease.
// watched makes a writer and a reader with endpoints and returns them with the writer's
// handle, once the reader's first LIVELINESS_CHANGED (the writer alive) is read.
func (w *liveWorld) watched(t *testing.T, name string, kind qos.LivelinessKind, lease time.Duration) (*DataWriter[message], *DataReader[message], InstanceHandle) {
	t.Helper()
	dw, dr := w.endpoints(t, name, kind, lease)
	changed(t, dr)
	return dw, dr, status.GUIDHandle(guidBytes(dw.ew.GUID()))
}

func (w *liveWorld) endpoints(t *testing.T, name string, kind qos.LivelinessKind, lease time.Duration) (*DataWriter[message], *DataReader[message]) {
	t.Helper()
	pt, err := NewTopic[message](w.pub, name)
	require.NoError(t, err)
	st, err := NewTopic[message](w.sub, name)
	require.NoError(t, err)
	dw, err := NewWriter(pt, Reliable(), Liveliness(kind, lease))
	require.NoError(t, err)
	dr, err := NewReader(st, Reliable(), Liveliness(kind, lease))
	require.NoError(t, err)
	return dw, dr
}

func lost(t *testing.T, w *DataWriter[message]) listener.LivelinessLostStatus {
	t.Helper()
	s, err := w.LivelinessLostStatus()
	require.NoError(t, err)
	return s
}

func changed(t *testing.T, r *DataReader[message]) listener.LivelinessChangedStatus {
	t.Helper()
	s, err := r.LivelinessChangedStatus()
	require.NoError(t, err)
	return s
}

// instanceState returns the instance state of the reader's samples of instance id.
func instanceState(t *testing.T, r *DataReader[message], id int32) InstanceState {
	t.Helper()
	_, infos, err := r.Read(bg, NoWait(), Instance(r.LookupInstance(&message{ID: id})))
	require.NoError(t, err)
	return infos[len(infos)-1].InstanceState
}

// aliveStatus is LIVELINESS_CHANGED with writer w alive (changes: its counts moved).
func aliveStatus(w InstanceHandle, changes bool) listener.LivelinessChangedStatus {
	s := listener.LivelinessChangedStatus{AliveCount: 1, LastPublicationHandle: w}
	if changes {
		s.AliveCountChange, s.NotAliveCountChange = 1, -1
	}
	return s
}

func notAliveStatus(w InstanceHandle) listener.LivelinessChangedStatus {
	return listener.LivelinessChangedStatus{NotAliveCount: 1, AliveCountChange: -1, NotAliveCountChange: 1, LastPublicationHandle: w}
}

// MANUAL_BY_TOPIC on a virtual clock: a write and AssertLiveliness renew the lease;
// when it lapses the writer counts LIVELINESS_LOST once, the reader sees the writer not
// alive and its instance NOT_ALIVE_NO_WRITERS; the next write makes both alive again.
func TestLivelinessManualByTopic(t *testing.T) {
	w := newLiveWorld(t)
	dw, dr := w.endpoints(t, "mbt", qos.ManualByTopic, 100*time.Millisecond)
	wh := status.GUIDHandle(guidBytes(dw.ew.GUID()))
	require.Equal(t, listener.LivelinessChangedStatus{AliveCount: 1, AliveCountChange: 1, LastPublicationHandle: wh}, changed(t, dr))

	require.NoError(t, dw.Write(bg, &message{ID: 1}))
	w.clk.Advance(60 * time.Millisecond)
	require.NoError(t, dw.AssertLiveliness()) // renews until 160 ms
	w.clk.Advance(60 * time.Millisecond)
	require.Equal(t, listener.LivelinessLostStatus{}, lost(t, dw))
	require.Equal(t, aliveStatus(wh, false), changed(t, dr))
	require.Equal(t, AliveInstanceState, instanceState(t, dr, 1))

	w.clk.Advance(50 * time.Millisecond) // 170 ms: lapsed at 160
	require.Equal(t, listener.LivelinessLostStatus{TotalCount: 1, TotalCountChange: 1}, lost(t, dw))
	require.Equal(t, notAliveStatus(wh), changed(t, dr))
	require.Equal(t, NotAliveNoWritersInstanceState, instanceState(t, dr, 1))
	w.clk.Advance(time.Second) // lost once per lapse
	require.Equal(t, listener.LivelinessLostStatus{TotalCount: 1}, lost(t, dw))

	require.NoError(t, dw.Write(bg, &message{ID: 1})) // alive again
	require.Equal(t, aliveStatus(wh, true), changed(t, dr))
	require.Equal(t, AliveInstanceState, instanceState(t, dr, 1))
	w.clk.Advance(150 * time.Millisecond)
	require.Equal(t, listener.LivelinessLostStatus{TotalCount: 2, TotalCountChange: 1}, lost(t, dw))
	require.Equal(t, notAliveStatus(wh), changed(t, dr))

	require.NoError(t, dw.AssertLiveliness()) // a HEARTBEAT with the Liveliness flag
	require.Equal(t, aliveStatus(wh, true), changed(t, dr))

	// Unmatching a writer that is not alive takes it off not_alive_count.
	w.clk.Advance(150 * time.Millisecond)
	require.Equal(t, notAliveStatus(wh), changed(t, dr))
	require.NoError(t, dw.Close())
	require.Equal(t, listener.LivelinessChangedStatus{NotAliveCountChange: -1, LastPublicationHandle: wh}, changed(t, dr))
}

// MANUAL_BY_PARTICIPANT on a virtual clock: a write of one of the participant's writers
// of that kind, or DomainParticipant.AssertLiveliness, renews them all, on the writer
// side and, through the MANUAL_LIVELINESS_UPDATE messages, on the reader side; the
// messages are spaced at least a quarter lease apart.
func TestLivelinessManualByParticipant(t *testing.T) {
	w := newLiveWorld(t)
	const lease = 100 * time.Millisecond
	other, _ := w.endpoints(t, "mbp-other", qos.ManualByParticipant, lease)
	dw, dr := w.endpoints(t, "mbp", qos.ManualByParticipant, lease)
	wh := status.GUIDHandle(guidBytes(dw.ew.GUID()))
	require.NoError(t, dw.Write(bg, &message{ID: 1}))
	changed(t, dr)
	sent := &w.pub.eng.(*fakeEngine).manualSent
	require.Equal(t, int32(1), sent.Load())

	// The other writer's writes keep dw alive, on both sides.
	for range 5 {
		w.clk.Advance(40 * time.Millisecond)
		require.NoError(t, other.Write(bg, &message{ID: 2}))
	}
	require.Equal(t, listener.LivelinessLostStatus{}, lost(t, dw))
	require.Equal(t, aliveStatus(wh, false), changed(t, dr))
	require.Equal(t, int32(6), sent.Load())
	// Writes closer than a quarter lease share one message, sent at the end of the gap.
	w.clk.Advance(10 * time.Millisecond)
	require.NoError(t, other.Write(bg, &message{ID: 2}))
	require.NoError(t, other.Write(bg, &message{ID: 2}))
	require.Equal(t, int32(6), sent.Load())
	w.clk.Advance(15 * time.Millisecond)
	require.Equal(t, int32(7), sent.Load())

	// The participant's assertion keeps them alive too.
	w.clk.Advance(60 * time.Millisecond)
	require.NoError(t, w.pub.AssertLiveliness())
	w.clk.Advance(60 * time.Millisecond)
	require.Equal(t, listener.LivelinessLostStatus{}, lost(t, dw))
	require.Equal(t, aliveStatus(wh, false), changed(t, dr))

	// Silence: both writers lose their liveliness, the reader sees dw not alive.
	w.clk.Advance(lease)
	require.Equal(t, listener.LivelinessLostStatus{TotalCount: 1, TotalCountChange: 1}, lost(t, dw))
	require.Equal(t, listener.LivelinessLostStatus{TotalCount: 1, TotalCountChange: 1}, lost(t, other))
	require.Equal(t, notAliveStatus(wh), changed(t, dr))
	require.Equal(t, NotAliveNoWritersInstanceState, instanceState(t, dr, 1))

	// An assertion of the participant brings them back.
	require.NoError(t, w.pub.AssertLiveliness())
	require.Equal(t, aliveStatus(wh, true), changed(t, dr))
	w.clk.Advance(lease + time.Millisecond)
	require.Equal(t, listener.LivelinessLostStatus{TotalCount: 2, TotalCountChange: 1}, lost(t, dw))
	require.Equal(t, notAliveStatus(wh), changed(t, dr))
	// So does AssertLiveliness of one of its writers.
	require.NoError(t, other.AssertLiveliness())
	require.Equal(t, aliveStatus(wh, true), changed(t, dr))
}

// AUTOMATIC on a virtual clock: a reader keeps a remote writer alive while its
// participant sends participant messages, or anything at all; silence makes it not alive
// there.
func TestLivelinessAutomaticRenewed(t *testing.T) {
	for name, renew := range map[string]func(w *liveWorld){
		"participant messages": func(w *liveWorld) { w.pub.eng.(*fakeEngine).participantMessage(false) },
		"any traffic":          func(w *liveWorld) { w.sub.eng.(*fakeEngine).heardFrom(w.pub.prefix, w.clk.Now()) },
	} {
		t.Run(name, func(t *testing.T) {
			w := newLiveWorld(t)
			_, dr, wh := w.watched(t, "auto", qos.Automatic, 100*time.Millisecond)
			for range 5 {
				w.clk.Advance(60 * time.Millisecond)
				renew(w)
			}
			require.Equal(t, aliveStatus(wh, false), changed(t, dr))
			w.clk.Advance(110 * time.Millisecond)
			require.Equal(t, notAliveStatus(wh), changed(t, dr))
		})
	}
}

// After a lapse, a participant message of either kind renews an AUTOMATIC writer at the
// reader, and so does its data; the writer itself never loses its liveliness (it is
// alive as long as its participant).
func TestLivelinessAutomatic(t *testing.T) {
	w := newLiveWorld(t)
	dw, dr, wh := w.watched(t, "auto", qos.Automatic, 100*time.Millisecond)
	eng := w.pub.eng.(*fakeEngine)
	w.clk.Advance(110 * time.Millisecond)
	require.Equal(t, notAliveStatus(wh), changed(t, dr))
	eng.participantMessage(true) // any participant message renews AUTOMATIC writers
	require.Equal(t, aliveStatus(wh, true), changed(t, dr))
	w.clk.Advance(110 * time.Millisecond)
	require.Equal(t, notAliveStatus(wh), changed(t, dr))
	require.NoError(t, dw.Write(bg, &message{ID: 1})) // and so does data
	require.Equal(t, aliveStatus(wh, true), changed(t, dr))
	w.clk.Advance(time.Second)
	require.Equal(t, listener.LivelinessLostStatus{}, lost(t, dw))
}

// An infinite lease is never watched, and a reader of the writer's own participant
// sees an AUTOMATIC writer alive as long as the participant.
func TestLivelinessNotWatched(t *testing.T) {
	w := newLiveWorld(t)
	dw, dr := w.endpoints(t, "inf", qos.ManualByTopic, qos.Infinite)
	st, err := NewTopic[message](w.pub, "auto-local")
	require.NoError(t, err)
	lw, err := NewWriter(st, Liveliness(qos.Automatic, 10*time.Millisecond))
	require.NoError(t, err)
	lr, err := NewReader(st, Liveliness(qos.Automatic, 10*time.Millisecond))
	require.NoError(t, err)
	changed(t, dr)
	changed(t, lr)
	w.clk.Advance(time.Hour)
	require.Equal(t, listener.LivelinessLostStatus{}, lost(t, dw))
	require.Equal(t, listener.LivelinessLostStatus{}, lost(t, lw))
	require.Equal(t, listener.LivelinessChangedStatus{AliveCount: 1, LastPublicationHandle: status.GUIDHandle(guidBytes(dw.ew.GUID()))}, changed(t, dr))
	require.Equal(t, listener.LivelinessChangedStatus{AliveCount: 1, LastPublicationHandle: status.GUIDHandle(guidBytes(lw.ew.GUID()))}, changed(t, lr))
}

// eventually waits, up to 10 s, until the reader's LIVELINESS_CHANGED satisfies ok.
func eventuallyChanged(t *testing.T, r *DataReader[message], what string, ok func(listener.LivelinessChangedStatus) bool) {
	t.Helper()
	require.Eventually(t, func() bool { return ok(changed(t, r)) }, 10*time.Second, 5*time.Millisecond, what)
}

// Liveliness over real UDP sockets between two participants: the MANUAL_BY_TOPIC
// writer's HEARTBEAT with the Liveliness flag, the MANUAL_LIVELINESS_UPDATE message of
// a participant and the automatic participant messages go on the wire.
func TestLivelinessUDP(t *testing.T) {
	netns.Require(t)
	pa, err := NewParticipant(204)
	require.NoError(t, err)
	defer func() { require.NoError(t, pa.Close()) }()
	pb, err := NewParticipant(204)
	require.NoError(t, err)
	defer func() { require.NoError(t, pb.Close()) }()
	pair := func(name string, kind qos.LivelinessKind, lease time.Duration) (*DataWriter[message], *DataReader[message]) {
		ta, err := NewTopic[message](pa, name)
		require.NoError(t, err)
		tb, err := NewTopic[message](pb, name)
		require.NoError(t, err)
		w, err := NewWriter(ta, Reliable(), Liveliness(kind, lease))
		require.NoError(t, err)
		r, err := NewReader(tb, Reliable(), Liveliness(kind, lease))
		require.NoError(t, err)
		eventuallyChanged(t, r, "matched", func(s listener.LivelinessChangedStatus) bool { return s.AliveCount == 1 })
		return w, r
	}
	notAlive := func(s listener.LivelinessChangedStatus) bool { return s.NotAliveCount == 1 && s.AliveCount == 0 }
	alive := func(s listener.LivelinessChangedStatus) bool { return s.NotAliveCount == 0 && s.AliveCount == 1 }

	const lease = 500 * time.Millisecond
	mbt, rt := pair("udp_mbt", qos.ManualByTopic, lease)
	mbp, rp := pair("udp_mbp", qos.ManualByParticipant, lease)
	auto, ra := pair("udp_auto", qos.Automatic, time.Second)

	eventuallyChanged(t, rt, "MANUAL_BY_TOPIC writer silent", notAlive)
	require.NoError(t, mbt.AssertLiveliness())
	eventuallyChanged(t, rt, "MANUAL_BY_TOPIC writer asserted by a HEARTBEAT", alive)
	eventuallyChanged(t, rp, "MANUAL_BY_PARTICIPANT writer silent", notAlive)
	require.NoError(t, pa.AssertLiveliness())
	eventuallyChanged(t, rp, "MANUAL_BY_PARTICIPANT writer asserted by a participant message", alive)
	require.Eventually(t, func() bool { return lost(t, mbp).TotalCount >= 1 && lost(t, mbt).TotalCount >= 1 }, 10*time.Second, 5*time.Millisecond)

	// The automatic participant messages (every third of the 1 s lease) keep the
	// AUTOMATIC writer alive.
	time.Sleep(2 * time.Second)
	require.Equal(t, listener.LivelinessChangedStatus{AliveCount: 1, LastPublicationHandle: status.GUIDHandle(guidBytes(auto.ew.GUID()))}, changed(t, ra))
	require.Equal(t, listener.LivelinessLostStatus{}, lost(t, auto))
}

// A reader sees the MANUAL_BY_PARTICIPANT writers of a remote participant asserted by
// the data of any of its writers, as Cyclone DDS does (its writers send no message on a
// write), and alive again on the next such data.
func TestLivelinessManualByParticipantData(t *testing.T) {
	w := newLiveWorld(t)
	const lease = 100 * time.Millisecond
	dw, dr := w.endpoints(t, "mbp", qos.ManualByParticipant, lease)
	wh := status.GUIDHandle(guidBytes(dw.ew.GUID()))
	auto, _ := w.endpoints(t, "auto-data", qos.Automatic, qos.Infinite) // asserts nothing where it is written
	changed(t, dr)
	for range 5 {
		w.clk.Advance(40 * time.Millisecond)
		require.NoError(t, auto.Write(bg, &message{ID: 1}))
	}
	require.Equal(t, aliveStatus(wh, false), changed(t, dr))
	require.Equal(t, listener.LivelinessLostStatus{TotalCount: 1, TotalCountChange: 1}, lost(t, dw), "the writer itself asserted nothing")
	w.clk.Advance(lease)
	require.Equal(t, notAliveStatus(wh), changed(t, dr))
	require.NoError(t, auto.Write(bg, &message{ID: 1}))
	require.Equal(t, aliveStatus(wh, true), changed(t, dr))
}

// Deleting a reader or a writer stops the watch of their leases.
func TestLivelinessForgottenOnDelete(t *testing.T) {
	w := newLiveWorld(t)
	dw, dr := w.endpoints(t, "mbp", qos.ManualByParticipant, 100*time.Millisecond)
	leases := func(p *DomainParticipant) (int, int) {
		p.live.mu.Lock()
		defer p.live.mu.Unlock()
		return len(p.live.leases), len(p.live.groups)
	}
	n, g := leases(w.sub)
	require.Equal(t, 1, n)
	require.Equal(t, 1, g)
	require.NoError(t, dr.Close())
	n, g = leases(w.sub)
	require.Zero(t, n)
	require.Zero(t, g)
	require.NoError(t, dw.Close())
	n, _ = leases(w.pub)
	require.Zero(t, n)
}

// AssertLiveliness of a MANUAL_BY_TOPIC writer renews the readers of its own
// participant too, whether or not its HEARTBEAT reaches them.
func TestLivelinessAssertLocal(t *testing.T) {
	w := newLiveWorld(t)
	tp, err := NewTopic[message](w.pub, "local")
	require.NoError(t, err)
	dw, err := NewWriter(tp, Liveliness(qos.ManualByTopic, 100*time.Millisecond))
	require.NoError(t, err)
	dr, err := NewReader(tp, Liveliness(qos.ManualByTopic, 100*time.Millisecond))
	require.NoError(t, err)
	wh := status.GUIDHandle(guidBytes(dw.ew.GUID()))
	changed(t, dr)
	w.clk.Advance(150 * time.Millisecond)
	require.Equal(t, notAliveStatus(wh), changed(t, dr))
	dw.ew.(*fakeWriter).mu.Lock()
	dw.ew.(*fakeWriter).matched = nil // its HEARTBEAT reaches nobody
	dw.ew.(*fakeWriter).mu.Unlock()
	require.NoError(t, dw.AssertLiveliness())
	require.Equal(t, aliveStatus(wh, true), changed(t, dr))
}
