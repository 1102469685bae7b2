package discovery

import (
	"bufio"
	"context"
	"encoding/binary"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/netip"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ddsgo/ddsgo/internal/netns"
	"github.com/ddsgo/ddsgo/internal/rtps"
	"github.com/ddsgo/ddsgo/internal/transport"
	"github.com/ddsgo/ddsgo/internal/wire"
	"github.com/ddsgo/ddsgo/qos"
	rtpsconfig "github.com/ddsgo/ddsgo/rtps"
)

// The hostile-input tests: a separate UDP socket floods a participant (the
// victim) with one class of bad input each, while the victim and a real
// peer exchange samples both ways over UDP. Each asserts that the victim's
// drop counters move for the reason of the class, that its tables stay
// within their bounds, and that the pair keeps exchanging every sample.
// They run at a reduced size for CI; -hostile.full runs the sizes of issue
// 10 (10 000 forged participants, 100 000 forged endpoints).

var hostileFull = flag.Bool("hostile.full", false, "run the hostile-input tests at full size")

// hostileSize returns small, or full with -hostile.full.
func hostileSize(small, full int) int {
	if *hostileFull {
		return full
	}
	return small
}

// hostileRig is a victim participant and a real peer exchanging samples
// both ways (victim -> peer on topic "out", peer -> victim on "back"), and
// the hostile sender's socket.
type hostileRig struct {
	t            *testing.T
	domain       int
	victim, peer *Participant
	out, back    *LocalWriter
	backR        *LocalReader     // the victim's reader of "back"
	gotOut       *sink            // the peer's reader of "out"
	gotBack      *sink            // the victim's reader of "back"
	arrived      [2]chan struct{} // a sample arrived at the peer (0), at the victim (1)
	seqOut       uint64
	seqBack      uint64
	tx           *net.UDPConn   // the hostile sender
	hole         netip.AddrPort // where forged participants say they are: read by nobody
	meta, user   netip.AddrPort // the victim's unicast ports
	spdp         netip.AddrPort // the domain's SPDP multicast group
}

// udpParticipant starts a participant on the loopback of the test's network
// namespace, closed when the test ends.
func udpParticipant(t *testing.T, domain int, name string, lim Limits) *Participant {
	t.Helper()
	// The victim and its peer talk by the wire, as from two processes: the forged
	// traffic is about the protocol (NoLocalDelivery).
	p, err := NewParticipant(Config{Domain: domain, Limits: lim, Config: rtpsconfig.Config{Name: name}, NoLocalDelivery: true})
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, p.Close()) })
	return p
}

func newHostileRig(t *testing.T, domain int, lim Limits) *hostileRig {
	t.Helper()
	netns.Require(t)
	r := &hostileRig{t: t, domain: domain, gotOut: new(sink), gotBack: new(sink)}
	r.arrived = [2]chan struct{}{make(chan struct{}, 1), make(chan struct{}, 1)}
	r.victim = udpParticipant(t, domain, "victim", lim)
	r.peer = udpParticipant(t, domain, "peer", Limits{})
	r.out, _ = r.pair(r.victim, r.peer, "out", r.gotOut, r.arrived[0])
	r.back, r.backR = r.pair(r.peer, r.victim, "back", r.gotBack, r.arrived[1])
	var err error
	r.tx, err = net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	require.NoError(t, err)
	t.Cleanup(func() { _ = r.tx.Close() })
	hole, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	require.NoError(t, err)
	t.Cleanup(func() { _ = hole.Close() })
	r.hole = hole.LocalAddr().(*net.UDPAddr).AddrPort()
	lo := netip.MustParseAddr("127.0.0.1")
	tr := r.victim.Engine().Transport()
	r.meta = netip.AddrPortFrom(lo, tr.Port(transport.SocketMetaUnicast))
	r.user = netip.AddrPortFrom(lo, tr.Port(transport.SocketUserUnicast))
	r.spdp = netip.AddrPortFrom(netip.MustParseAddr("239.255.0.1"), uint16(7400+250*domain))
	r.exchange(20)
	return r
}

// pair makes a reliable writer on from and its reader on to, and waits
// until both are matched.
func (r *hostileRig) pair(from, to *Participant, topic string, got *sink, arrived chan struct{}) (*LocalWriter, *LocalReader) {
	wm, rm := newMatchWaiter(), newMatchWaiter()
	w, err := from.NewWriter(EndpointConfig{Topic: topic, Type: "T", Offered: interopWriter(), Listener: wm})
	require.NoError(r.t, err)
	deliver := func(s *rtps.Sample) bool {
		got.deliver(s)
		select {
		case arrived <- struct{}{}:
		default:
		}
		return true
	}
	lr, err := to.NewReader(EndpointConfig{Topic: topic, Type: "T", Requested: interopReader(), Listener: rm}, deliver)
	require.NoError(r.t, err)
	for _, ch := range []chan struct{}{wm.ch, rm.ch} {
		select {
		case <-ch:
		case <-time.After(5 * time.Second):
			r.t.Fatalf("%s: no match", topic)
		}
	}
	return w, lr
}

// exchange writes n samples each way and requires that every one arrives,
// in order, within 10 s.
func (r *hostileRig) exchange(n int) {
	r.t.Helper()
	r.exchangeOne(r.out, r.gotOut, &r.seqOut, n)
	r.exchangeOne(r.back, r.gotBack, &r.seqBack, n)
}

func (r *hostileRig) exchangeOne(w *LocalWriter, got *sink, seq *uint64, n int) {
	r.t.Helper()
	for range n {
		*seq++
		_, err := w.Write(context.Background(), rtps.Change{Payload: testPayload(*seq)})
		require.NoError(r.t, err)
	}
	want := *seq
	require.Eventually(r.t, func() bool { return uint64(len(got.got())) == want }, 10*time.Second, 5*time.Millisecond)
	for i, s := range got.got() {
		require.Equal(r.t, uint64(i+1), s)
	}
}

// send sends b to the destinations. Errors (ENOBUFS under a flood) are
// ignored: the sender is hostile, not careful.
func (r *hostileRig) send(b []byte, to ...netip.AddrPort) {
	for _, d := range to {
		_, _ = r.tx.WriteToUDPAddrPort(b, d)
	}
}

// pace yields after every burst of sends so that a flood from one socket
// does not only fill the kernel's buffers.
func pace(i int) {
	if i%64 == 63 {
		time.Sleep(200 * time.Microsecond)
	}
}

// bounded requires that the victim's tables are within lim.
func (r *hostileRig) bounded(lim Limits) Stats {
	r.t.Helper()
	lim = lim.resolved()
	st := r.victim.Stats()
	require.LessOrEqual(r.t, st.Participants, lim.MaxParticipants)
	require.LessOrEqual(r.t, st.Unconfirmed, lim.MaxUnconfirmedParticipants)
	require.LessOrEqual(r.t, st.Endpoints, lim.MaxEndpoints)
	r.victim.mu.Lock()
	q := len(r.victim.unconfirmed)
	r.victim.mu.Unlock()
	require.LessOrEqual(r.t, q, lim.MaxUnconfirmedParticipants, "unconfirmed queue")
	// Forged participants hold no built-in proxies once gone.
	require.LessOrEqual(r.t, r.victim.pubW.MatchedReaders(), st.Participants+1)
	return st
}

func header(prefix wire.GuidPrefix) []byte {
	return wire.Header{Version: wire.ProtocolVersion25, Vendor: wire.VendorCyclone, Prefix: prefix}.Append(nil)
}

func randomPrefix(rng *rand.Rand) wire.GuidPrefix {
	var p wire.GuidPrefix
	for i := range p {
		p[i] = byte(rng.Uint32())
	}
	p[0], p[1] = 0x01, 0x10
	return p
}

func randomBytes(rng *rand.Rand, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(rng.Uint32())
	}
	return b
}

// forgedSPDP returns a valid SPDP announcement of a participant prefix that
// says it lives at hole, with a lease of 100 s.
func forgedSPDP(prefix wire.GuidPrefix, hole netip.AddrPort) []byte {
	return forgedSPDPLease(prefix, hole, 100*time.Second)
}

// forgedSPDPLease is forgedSPDP with the lease given.
func forgedSPDPLease(prefix wire.GuidPrefix, hole netip.AddrPort, lease time.Duration) []byte {
	loc := wire.LocatorFromAddrPort(hole)
	pd := ParticipantData{
		GUIDPrefix: prefix, ProtocolVersion: wire.ProtocolVersion25, VendorID: wire.VendorCyclone,
		LeaseDuration: lease, BuiltinEndpoints: builtinEndpoints,
		MetatrafficUnicastLocators: []wire.Locator{loc}, DefaultUnicastLocators: []wire.Locator{loc},
		Qos: qos.DefaultDomainParticipantQos(),
	}
	d := wire.Data{
		DataFlag: true, ReaderID: wire.EntityIDSPDPReader, WriterID: wire.EntityIDSPDPWriter,
		WriterSN: 1, SerializedPayload: pd.Append(nil),
	}
	return d.Append(header(prefix))
}

func TestHostileRandomBytes(t *testing.T) {
	r := newHostileRig(t, 23, Limits{})
	rng := rand.New(rand.NewPCG(1, 40))
	n := hostileSize(3000, 30000)
	for i := range n {
		b := randomBytes(rng, rng.IntN(1500))
		if i%2 == 1 && len(b) >= 20 { // an RTPS header, then garbage
			copy(b, header(randomPrefix(rng)))
		}
		r.send(b, r.meta, r.user, r.spdp)
		pace(i)
	}
	r.exchange(100)
	st := r.bounded(Limits{})
	require.Positive(t, st.Engine.NotRTPS)
	require.Positive(t, st.Engine.Malformed+st.Engine.UnknownKind)
	require.Equal(t, 1, st.Participants)
}

func TestHostileTruncatedAndOversized(t *testing.T) {
	r := newHostileRig(t, 24, Limits{})
	rng := rand.New(rand.NewPCG(2, 41))
	msg := forgedSPDP(randomPrefix(rng), r.hole)
	before := r.victim.Stats().Engine
	for i := range hostileSize(20, 200) {
		for n := range len(msg) - 1 { // every truncation of a valid SPDP message
			r.send(msg[:n], r.meta, r.user)
			pace(n + i)
		}
	}
	// Oversized: a 65000-octet datagram whose DATA runs to the end (valid
	// framing, from a writer nobody knows), and one whose submessage claims
	// more octets than the datagram holds.
	prefix := randomPrefix(rng)
	big := header(prefix)
	d := wire.Data{
		DataFlag: true, ReaderID: wire.EntityIDUnknown, WriterID: wire.EntityID{Key: [3]byte{0, 0, 1}, Kind: 0x02},
		WriterSN: 1, SerializedPayload: randomBytes(rng, 64000),
	}
	big = d.Append(big)
	claim := append(header(prefix), byte(wire.KindData), 0x01, 0xff, 0xff)
	claim = append(claim, randomBytes(rng, 1000)...)
	for i := range hostileSize(200, 2000) {
		r.send(big, r.meta, r.user)
		r.send(claim, r.meta, r.user)
		pace(i)
	}
	r.exchange(100)
	st := r.bounded(Limits{})
	require.Greater(t, st.Engine.Malformed, before.Malformed)
	require.Greater(t, st.Engine.NotRTPS, before.NotRTPS)
	require.Greater(t, st.Engine.UnknownWriter, before.UnknownWriter)
	require.Equal(t, 1, st.Participants, "truncated SPDP data must not add a participant")
}

func TestHostileGarbageSubmessages(t *testing.T) {
	r := newHostileRig(t, 25, Limits{})
	rng := rand.New(rand.NewPCG(3, 42))
	kinds := []wire.SubmessageKind{
		wire.KindData, wire.KindDataFrag, wire.KindHeartbeat, wire.KindHeartbeatFrag, wire.KindGap,
		wire.KindAckNack, wire.KindNackFrag, wire.KindInfoTS, wire.KindInfoDst, wire.KindInfoSrc, 0x80, 0x33,
	}
	before := r.victim.Stats().Engine
	for i := range hostileSize(3000, 30000) {
		b := header(randomPrefix(rng))
		for range 1 + rng.IntN(4) { // consistent framing, garbage bodies
			body := randomBytes(rng, 4*rng.IntN(16))
			b = append(b, byte(kinds[rng.IntN(len(kinds))]), byte(rng.Uint32()))
			b = binary.LittleEndian.AppendUint16(b, uint16(len(body)))
			b[len(b)-3] |= 0x01 // little-endian
			b = append(b, body...)
		}
		r.send(b, r.meta, r.user, r.spdp)
		pace(i)
	}
	r.exchange(100)
	st := r.bounded(Limits{})
	require.Greater(t, st.Engine.Malformed, before.Malformed)
	require.Greater(t, st.Engine.UnknownWriter+st.Engine.UnknownReader, before.UnknownWriter+before.UnknownReader)
	require.Greater(t, st.Engine.UnknownKind, before.UnknownKind)
}

// TestHostileFragmentClaims: DATA_FRAGs that claim samples of 4 GiB, and
// trains of fragments that claim samples just within the limit, spoofing
// the peer's writer (so they reach the victim's reader) and from unknown
// writers.
func TestHostileFragmentClaims(t *testing.T) {
	r := newHostileRig(t, 26, Limits{})
	rng := rand.New(rand.NewPCG(4, 43))
	writer := r.back.GUID()
	frag := func(src wire.GuidPrefix, sn wire.SequenceNumber, size uint32, num wire.FragmentNumber) []byte {
		f := wire.DataFrag{
			ReaderID: wire.EntityIDUnknown, WriterID: writer.Entity, WriterSN: sn,
			FragmentStartingNum: num, FragmentsInSubmessage: 1, FragmentSize: 1024, SampleSize: size,
			Fragments: randomBytes(rng, 1024),
		}
		return f.Append(header(src))
	}
	n := hostileSize(2000, 20000)
	for i := range n {
		// Sequence numbers just ahead of the writer's, within the reader's
		// window: the reader must look at them.
		sn := wire.SequenceNumber(r.seqBack + 1 + uint64(i%256))
		r.send(frag(writer.Prefix, sn, 0xffffffff, 1), r.user)                                                            // 4 GiB
		r.send(frag(writer.Prefix, sn, uint32(rtps.DefaultMaxSampleSize), wire.FragmentNumber(1+rng.Uint32N(8))), r.user) // at the limit
		r.send(frag(randomPrefix(rng), sn, 0xffffffff, 1), r.user)                                                        // unknown writer
		pace(i)
	}
	r.exchange(100)
	st := r.bounded(Limits{})
	rd := st.Readers
	require.Positive(t, rd.Oversize, "4 GiB claims")
	require.Positive(t, rd.ReassemblyDropped+rd.ReassemblyEvicted+rd.OutOfWindow, "trains at the limit")
	require.Positive(t, st.Engine.UnknownWriter)
	// What the trains hold is bounded by the reader's reassembly limits.
	require.LessOrEqual(t, r.backR.Reader().MemoryInUse(), 2*rtps.DefaultMaxSampleSize+(32<<20))
}

// TestHostileReplayedSequenceNumbers: DATA spoofing the peer's writer with
// sequence numbers already delivered, and with garbage payloads.
func TestHostileReplayedSequenceNumbers(t *testing.T) {
	r := newHostileRig(t, 27, Limits{})
	rng := rand.New(rand.NewPCG(5, 44))
	writer := r.back.GUID()
	before := r.victim.Stats().Readers
	for i := range hostileSize(3000, 30000) {
		d := wire.Data{
			DataFlag: true, ReaderID: wire.EntityIDUnknown, WriterID: writer.Entity,
			WriterSN: wire.SequenceNumber(1 + rng.IntN(int(r.seqBack))), SerializedPayload: testPayload(1 << 40),
		}
		r.send(d.Append(header(writer.Prefix)), r.user, r.meta)
		pace(i)
	}
	r.exchange(100) // exchange checks that the victim got each real sample once, in order
	st := r.bounded(Limits{})
	require.Greater(t, st.Readers.Duplicates, before.Duplicates)
}

// TestHostileForgedParticipants: a flood of forged SPDP announcements (each
// a new participant, lease 100 s) fills the victim's table with
// unconfirmed participants; a real participant that joins after the flood,
// or during it, is matched within 1 s, and the table stays bounded.
func TestHostileForgedParticipants(t *testing.T) {
	t.Run("after", func(t *testing.T) { testForgedParticipants(t, 28, false) })
	t.Run("during", func(t *testing.T) { testForgedParticipants(t, 29, true) })
}

func testForgedParticipants(t *testing.T, domain int, during bool) {
	r := newHostileRig(t, domain, Limits{})
	rng := rand.New(rand.NewPCG(6, uint64(domain)))
	n := hostileSize(3000, 10000)
	msgs := make([][]byte, n)
	for i := range msgs {
		msgs[i] = forgedSPDP(randomPrefix(rng), r.hole)
	}
	// The flood: 10 000 announcements per second, to the SPDP group and to
	// the victim's metatraffic port; during, until the joiner is matched.
	// The race detector slows the victim tenfold, and the flood with it:
	// beyond what the victim can handle, the queue drops at random what
	// the joiner sends as much as what the flood does.
	burst := 10
	if raceEnabled {
		burst = 1
	}
	stop, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for i := 0; ; i++ {
			if i == n && !during {
				return
			}
			r.send(msgs[i%n], r.spdp, r.meta)
			if i%burst == burst-1 {
				select {
				case <-stop:
					return
				case <-tick.C:
				}
			}
		}
	}()
	if !during {
		<-done
	}
	// The joiner comes when the table holds as many unconfirmed
	// participants as it may: each new one evicts the oldest.
	require.Eventually(t, func() bool {
		return r.victim.Stats().ParticipantsEvicted > 0
	}, 10*time.Second, 10*time.Millisecond)
	st0 := r.victim.Stats()
	start := time.Now()
	joiner := udpParticipant(t, domain, "joiner", Limits{})
	var got sink
	_, err := joiner.NewReader(EndpointConfig{Topic: "out", Type: "T", Requested: interopReader()}, got.deliver)
	require.NoError(t, err)
	require.Eventually(t, func() bool { return r.out.Writer().MatchedReaders() == 2 }, 2*time.Second, time.Millisecond,
		"the joiner was not matched")
	took := time.Since(start)
	t.Logf("joiner matched after %v; victim: %d participants (%d unconfirmed), %d evicted, %d refused, %d queue drops",
		took, st0.Participants, st0.Unconfirmed, st0.ParticipantsEvicted, st0.ParticipantsLimited, st0.Engine.Transport.Drops)
	require.Less(t, took, time.Second)
	r.exchange(50)
	close(stop)
	<-done
	st := r.bounded(Limits{})
	require.Positive(t, st.ParticipantsEvicted)
	require.Zero(t, st.ParticipantsLimited, "no participant is refused while unconfirmed ones can be evicted")
	require.True(t, r.victim.isConfirmed(r.peer.GUIDPrefix()))
	require.True(t, r.victim.isConfirmed(joiner.GUIDPrefix()))
}

// TestHostileForgedEndpoints: forged participants each announce hundreds
// of writers by SEDP (a tenth of them on the topic the victim reads); the
// victim's endpoint tables stay within their limits, and the pair keeps
// exchanging.
func TestHostileForgedEndpoints(t *testing.T) {
	lim := Limits{MaxEndpoints: hostileSize(2000, 0), MaxEndpointsPerParticipant: hostileSize(300, 0)}
	r := newHostileRig(t, 30, lim)
	rng := rand.New(rand.NewPCG(7, 47))
	parts, per := hostileSize(20, 100), hostileSize(500, 1000)
	i, burst := 0, 16
	if raceEnabled {
		burst = 4
	}
	for n := range parts {
		prefix := randomPrefix(rng)
		r.announce(prefix, n+2)
		for k := 1; k <= per; k++ {
			topic := "forged"
			if k%10 == 0 {
				topic = "back"
			}
			r.send(forgedWriter(prefix, k, topic, nil), r.meta)
			if i++; i%burst == 0 {
				time.Sleep(time.Millisecond)
			}
		}
	}
	require.Eventually(t, func() bool { return r.victim.Stats().EndpointsLimited > 0 }, 10*time.Second, 10*time.Millisecond)
	r.exchange(50)
	rl := lim.resolved()
	st := r.bounded(lim)
	r.victim.mu.Lock()
	for _, rp := range r.victim.remotes {
		require.LessOrEqual(t, len(rp.endpoints), rl.MaxEndpointsPerParticipant)
	}
	r.victim.mu.Unlock()
	t.Logf("victim: %d participants, %d endpoints, %d refused, %d queue drops",
		st.Participants, st.Endpoints, st.EndpointsLimited, st.Engine.Transport.Drops)
	require.Equal(t, parts+1, st.Participants)
	require.Zero(t, st.Unconfirmed, "SEDP data confirms a participant")
}

// TestHostileRoundTrip: the victim keeps serving its real peer while a
// separate process floods its discovery and user ports with every class of
// hostile input (forged participants, random bytes, garbage submessages,
// replayed DATA) at 10 000 datagrams/s: the p99 of the round trips through
// the pair stays within 3x of the quiet one (the larger of those measured
// before and after the flood); the best of three attempts
// counts, as the load of a shared machine alone moves the tail of round
// trips of tens of microseconds. Measured on the 2-vCPU machine, where the
// flood process, the victim, the peer and this test share two CPUs: flood
// p99 median 450 us against 1.3 ms before forged newcomers were matched only
// once they spoke, within 3x of the quiet p99 in 8 attempts of 8 (2 of 8
// before). docs/architecture.md has the figures.
func TestHostileRoundTrip(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector's slowdown is no measure of round trips")
	}
	r := newHostileRig(t, 31, Limits{})
	n := hostileSize(1000, 10000)
	plan := floodPlan{SPDP: r.spdp, Meta: r.meta, User: r.user, Hole: r.hole, Writer: r.back.GUID()}
	ok := false
	for attempt := 0; attempt < 3 && !ok; attempt++ {
		quiet := r.roundTrips(n)
		stop := startFloodProcess(t, plan, uint64(attempt))
		flood := r.roundTrips(n)
		stop()
		after := r.roundTrips(n)
		t.Logf("round trip p50/p99: quiet %v/%v, flood %v/%v, quiet again %v/%v",
			quiet[n/2], p99(quiet), flood[n/2], p99(flood), after[n/2], p99(after))
		ok = p99(flood) <= 3*max(p99(quiet), p99(after))
	}
	require.True(t, ok, "p99 of the round trips under the flood beyond 3x the quiet one")
	st := r.bounded(Limits{})
	require.Positive(t, st.Engine.NotRTPS)
	require.Positive(t, st.Unconfirmed, "forged participants")
	require.Positive(t, st.Readers.Duplicates)
}

// floodPlan is where a flood process sends: the victim's SPDP group and
// unicast ports, the hole its forged participants say they live at, and the
// writer whose DATA it replays.
type floodPlan struct {
	SPDP, Meta, User, Hole netip.AddrPort
	Writer                 wire.GUID
}

// startFloodProcess runs this test binary again as the flood process
// (TestHostileFloodProcess), in the same network namespace, and waits until
// its flood has begun. The returned function stops it.
func startFloodProcess(t *testing.T, plan floodPlan, seed uint64) (stop func()) {
	t.Helper()
	b, err := json.Marshal(plan)
	require.NoError(t, err)
	cmd := exec.Command(os.Args[0], "-test.run=^TestHostileFloodProcess$")
	cmd.Env = append(os.Environ(), "DDSGO_FLOOD="+string(b), "DDSGO_FLOOD_SEED="+strconv.FormatUint(seed, 10))
	in, err := cmd.StdinPipe()
	require.NoError(t, err)
	out, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	line, err := bufio.NewReader(out).ReadString('\n')
	require.NoError(t, err, "flood process did not start")
	require.Equal(t, "flooding\n", line)
	time.Sleep(200 * time.Millisecond) // the flood has reached its rate
	return func() {
		_ = in.Close()
		_, _ = io.Copy(io.Discard, out)
		require.NoError(t, cmd.Wait())
	}
}

// TestHostileFloodProcess is the flood process of TestHostileRoundTrip: run
// by it (DDSGO_FLOOD set), it floods until its standard input closes.
func TestHostileFloodProcess(t *testing.T) {
	env := os.Getenv("DDSGO_FLOOD")
	if env == "" {
		t.Skip("the flood process of TestHostileRoundTrip")
	}
	var plan floodPlan
	require.NoError(t, json.Unmarshal([]byte(env), &plan))
	seed, err := strconv.ParseUint(os.Getenv("DDSGO_FLOOD_SEED"), 10, 64)
	require.NoError(t, err)
	tx, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	require.NoError(t, err)
	defer func() { _ = tx.Close() }()
	stop := make(chan struct{})
	go func() {
		_, _ = io.Copy(io.Discard, os.Stdin)
		close(stop)
	}()
	fmt.Println("flooding")
	mixedFlood(tx, plan, rand.New(rand.NewPCG(8, 48+seed)), stop)
}

// mixedFlood sends 10 000 datagrams/s of every class from tx until stop is
// closed.
func mixedFlood(tx *net.UDPConn, plan floodPlan, rng *rand.Rand, stop chan struct{}) {
	tick := time.NewTicker(time.Millisecond)
	defer tick.Stop()
	send := func(b []byte, to ...netip.AddrPort) {
		for _, d := range to {
			_, _ = tx.WriteToUDPAddrPort(b, d)
		}
	}
	for i := 0; ; i++ {
		switch i % 4 {
		case 0:
			send(forgedSPDP(randomPrefix(rng), plan.Hole), plan.SPDP)
		case 1:
			send(randomBytes(rng, rng.IntN(1400)), plan.Meta, plan.User)
		case 2:
			b := append(header(randomPrefix(rng)), byte(wire.KindHeartbeat), 0x01, 28, 0)
			send(append(b, randomBytes(rng, 28)...), plan.User)
		case 3:
			d := wire.Data{DataFlag: true, WriterID: plan.Writer.Entity, WriterSN: 1, SerializedPayload: testPayload(1)}
			send(d.Append(header(plan.Writer.Prefix)), plan.User)
		}
		if i%10 == 9 {
			select {
			case <-stop:
				return
			case <-tick.C:
			}
		}
	}
}

func p99(d []time.Duration) time.Duration { return d[len(d)*99/100] }

// roundTrips measures n round trips through the pair: the victim writes on
// "out", the peer's reader sees it and the peer writes on "back", the
// victim's reader sees that. It returns them sorted.
func (r *hostileRig) roundTrips(n int) []time.Duration {
	r.t.Helper()
	rtts := make([]time.Duration, 0, n)
	leg := func(w *LocalWriter, seq *uint64, arrived chan struct{}) {
		*seq++
		_, err := w.Write(context.Background(), rtps.Change{Payload: testPayload(*seq)})
		require.NoError(r.t, err)
		select {
		case <-arrived:
		case <-time.After(5 * time.Second):
			r.t.Fatal("round trip: no sample within 5 s")
		}
	}
	for range n {
		start := time.Now()
		leg(r.out, &r.seqOut, r.arrived[0])
		leg(r.back, &r.seqBack, r.arrived[1])
		rtts = append(rtts, time.Since(start))
	}
	slices.Sort(rtts)
	return rtts
}

// forgedWriter returns the SEDP DATA(w), sequence number k, of writer k of
// the participant prefix, on topic, with topic data td.
func forgedWriter(prefix wire.GuidPrefix, k int, topic string, td []byte) []byte {
	ed := EndpointData{
		GUID:            wire.GUID{Prefix: prefix, Entity: wire.EntityID{Key: [3]byte{byte(k >> 16), byte(k >> 8), byte(k)}, Kind: 0x03}},
		ParticipantGUID: wire.GUID{Prefix: prefix, Entity: wire.EntityIDParticipant},
		TopicName:       topic, TypeName: "T", Offered: qos.DefaultOffered(),
	}
	ed.Offered.TopicData.Value = td
	d := wire.Data{
		DataFlag: true, ReaderID: wire.EntityIDSEDPPublicationsReader, WriterID: wire.EntityIDSEDPPublicationsWriter,
		WriterSN: wire.SequenceNumber(k), SerializedPayload: ed.Append(nil),
	}
	return d.Append(header(prefix))
}

// TestHostileForgedEndpointBytes: forged endpoints that each carry the
// largest topic data the decoder lets through are bounded by the octets
// of their SEDP data (Limits.MaxEndpointBytes), not only by their number.
func TestHostileForgedEndpointBytes(t *testing.T) {
	lim := Limits{MaxEndpointBytes: 1 << 20}
	r := newHostileRig(t, 32, lim)
	rng := rand.New(rand.NewPCG(9, 50))
	prefix := randomPrefix(rng)
	r.announce(prefix, 2)
	td := randomBytes(rng, DefaultLimits().MaxDataLen)
	for k := 1; k <= 200; k++ {
		r.send(forgedWriter(prefix, k, "forged", td), r.meta)
		if k%4 == 0 {
			time.Sleep(time.Millisecond)
		}
	}
	require.Eventually(t, func() bool { return r.victim.Stats().EndpointsLimited > 0 }, 10*time.Second, 10*time.Millisecond)
	r.exchange(50)
	st := r.bounded(lim)
	r.victim.mu.Lock()
	held := r.victim.epBytes
	r.victim.mu.Unlock()
	t.Logf("victim: %d endpoints in %d octets, %d refused", st.Endpoints, held, st.EndpointsLimited)
	require.LessOrEqual(t, held, 1<<20)
	require.Greater(t, st.Endpoints, 30)
}

// announce sends the forged SPDP announcement of prefix to the victim, again
// every 10 ms (the queue may be full of what came before), until the
// victim knows want participants.
func (r *hostileRig) announce(prefix wire.GuidPrefix, want int) {
	r.t.Helper()
	msg := forgedSPDP(prefix, r.hole)
	require.Eventually(r.t, func() bool {
		r.send(msg, r.meta)
		return r.victim.Stats().Participants == want
	}, 5*time.Second, 10*time.Millisecond)
}

// TestHostileForgedReaders: forged reliable readers announced by SEDP on
// the topic the victim writes never acknowledge anything. The victim's
// writer stops waiting for them after its UnresponsiveTimeout (1 s), and
// the real reader gets every sample.
func TestHostileForgedReaders(t *testing.T) {
	r := newHostileRig(t, 33, Limits{})
	rng := rand.New(rand.NewPCG(10, 52))
	prefix := randomPrefix(rng)
	r.announce(prefix, 2)
	const forged = 10
	for k := 1; k <= forged; k++ {
		ed := EndpointData{
			GUID:            wire.GUID{Prefix: prefix, Entity: wire.EntityID{Key: [3]byte{0, 0, byte(k)}, Kind: 0x04}},
			ParticipantGUID: wire.GUID{Prefix: prefix, Entity: wire.EntityIDParticipant},
			TopicName:       "out", TypeName: "T", Requested: interopReader(),
		}
		d := wire.Data{
			DataFlag: true, ReaderID: wire.EntityIDSEDPSubscriptionsReader, WriterID: wire.EntityIDSEDPSubscriptionsWriter,
			WriterSN: wire.SequenceNumber(k), SerializedPayload: ed.Append(nil),
		}
		r.send(d.Append(header(prefix)), r.meta)
	}
	require.Eventually(t, func() bool { return r.out.Writer().MatchedReaders() == 1+forged }, 5*time.Second, time.Millisecond)
	start := time.Now()
	r.exchangeOne(r.out, r.gotOut, &r.seqOut, 2000) // beyond the flow-control window (256 changes)
	t.Logf("2000 samples past %d silent readers in %v", forged, time.Since(start))
	require.Equal(t, uint64(forged), r.out.Writer().Stats().Unresponsive)
	require.Equal(t, 1+forged, r.out.Writer().MatchedReaders())
	r.exchange(50)
}

// TestHostileNoAmplification: forged SPDP announcements that point at a
// third party must not make the victim a traffic amplifier. Each claims a
// locator of its own, as an attacker's may (anyone's address). While
// maxNewcomers newcomers wait for follow-ups, one more gets the directed
// reply only: our built-in endpoints match its when it sends a second
// datagram. 2000 of them at 10 000/s may cost at most 4 datagrams each in
// the first 300 ms (measured 2.3; 7-10 when each was matched at once, with
// the first HEARTBEAT of each built-in writer and the pre-emptive ACKNACK
// of each built-in reader, and 13.7 with follow-ups for all). A second
// later, the forged participants left in the table get less than one
// datagram every two seconds each: only the few matched ones are
// heartbeaten, each period for a second and then ever more rarely (before,
// every period by each built-in writer for as long as it stayed: 7 710
// datagrams a second for a full table).
func TestHostileNoAmplification(t *testing.T) {
	r := newHostileRig(t, 30, Limits{})
	rng := rand.New(rand.NewPCG(9, 30))
	n := 2000
	msgs := make([][]byte, n)
	for i := range msgs {
		// Ports below the RTPS ones, where nothing listens.
		msgs[i] = forgedSPDP(randomPrefix(rng), netip.AddrPortFrom(r.hole.Addr(), uint16(2000+i)))
	}
	sent := func() uint64 { return r.victim.Stats().Engine.Transport.DatagramsOut }
	out0 := sent()
	tick := time.NewTicker(time.Millisecond)
	defer tick.Stop()
	for i, m := range msgs {
		r.send(m, r.meta)
		if i%10 == 9 {
			<-tick.C
		}
	}
	end := time.Now()
	time.Sleep(300 * time.Millisecond) // every follow-up and introductory HEARTBEAT is due by then
	st := r.victim.Stats()
	out := st.Engine.Transport.DatagramsOut - out0
	t.Logf("%d forged announcements: %d datagrams sent (%.1f each); %d participants seen, %d evicted",
		n, out, float64(out)/float64(n), st.Participants, st.ParticipantsEvicted)
	require.LessOrEqual(t, out, uint64(4*n))
	time.Sleep(time.Until(end.Add(1200 * time.Millisecond)))
	out1 := sent()
	time.Sleep(time.Second)
	later := sent() - out1
	forged := r.victim.Stats().Unconfirmed
	t.Logf("a second later: %d datagrams in a second, %d forged participants in the table", later, forged)
	require.Less(t, later, uint64(forged/2))
}

// TestHostileUnheardParticipants: forged participants that are evicted before the
// participant's listeners have heard of them (the dispatcher is held up by a slow
// listener, as a DCPS layer is under a flood) go unheard: their queued events do
// nothing and their going is not told, so the listeners see far fewer than were
// forged, and every participant they saw alive they see gone, or it is still in the
// table.
func TestHostileUnheardParticipants(t *testing.T) {
	r := newHostileRig(t, 31, Limits{})
	release := make(chan struct{})
	var mu sync.Mutex
	alive := map[wire.GuidPrefix]bool{}
	alives := 0
	r.victim.OnParticipant(func(d ParticipantData, up bool) {
		<-release
		mu.Lock()
		defer mu.Unlock()
		if up {
			alives++
			alive[d.GUIDPrefix] = true
		} else {
			delete(alive, d.GUIDPrefix)
		}
	})
	rng := rand.New(rand.NewPCG(10, 35))
	const forged = 2000
	for i := range forged {
		r.send(forgedSPDP(randomPrefix(rng), r.hole), r.meta)
		if i%10 == 9 {
			time.Sleep(time.Millisecond)
		}
	}
	require.Eventually(t, func() bool {
		return r.victim.Stats().ParticipantsEvicted >= forged-uint64(DefaultLimits().MaxUnconfirmedParticipants)
	}, 10*time.Second, 10*time.Millisecond)
	close(release)
	drained := make(chan struct{})
	r.victim.disp.post(func() { close(drained) }) // runs after everything queued before it
	<-drained
	known := map[wire.GuidPrefix]bool{}
	for _, d := range r.victim.Participants() {
		known[d.GUIDPrefix] = true
	}
	mu.Lock()
	defer mu.Unlock()
	for prefix := range alive {
		require.True(t, known[prefix], "a participant heard of alive, gone from the table, not told gone")
	}
	t.Logf("%d forged, %d heard of alive, %d alive now", forged, alives, len(alive))
	require.Less(t, alives, forged/2, "the evicted unheard participants were told")
}
