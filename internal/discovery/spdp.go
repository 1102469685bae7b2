package discovery

import (
	"errors"
	"fmt"
	"slices"
	"sync/atomic"
	"time"

	"github.com/ddsgo/ddsgo/internal/rtps"
	"github.com/ddsgo/ddsgo/internal/wire"
	"github.com/ddsgo/ddsgo/qos"
)

// builtinEndpoints is the BUILTIN_ENDPOINT_SET this participant announces:
// SPDP, SEDP publications and subscriptions, participant message.
const builtinEndpoints = wire.BuiltinParticipantAnnouncer | wire.BuiltinParticipantDetector |
	wire.BuiltinPublicationsAnnouncer | wire.BuiltinPublicationsDetector |
	wire.BuiltinSubscriptionsAnnouncer | wire.BuiltinSubscriptionsDetector |
	wire.BuiltinParticipantMessageWriter | wire.BuiltinParticipantMessageReader

// spdpMessage builds the SPDP announcement (header, INFO_DST when dst is
// set, INFO_TS, DATA(p)). The caller holds p.mu.
func (p *Participant) spdpMessage(dst *wire.GuidPrefix, now time.Time) []byte {
	b := wire.Header{Version: p.eng.Version(), Vendor: p.eng.Vendor(), Prefix: p.prefix}.Append(nil)
	if dst != nil {
		x := wire.InfoDst{GuidPrefix: *dst}
		b = x.Append(b)
	}
	ts := wire.InfoTS{Timestamp: wire.TimeFromTime(now)}
	b = ts.Append(b)
	d := wire.Data{
		DataFlag: true, ReaderID: wire.EntityIDSPDPReader, WriterID: wire.EntityIDSPDPWriter,
		WriterSN: p.spdpSN, SerializedPayload: p.spdpData,
	}
	return d.Append(b)
}

// announceTick sends the periodic SPDP announcement to the SPDP
// destinations (the group and the static peers) and to the metatraffic
// unicast locators of the participants known.
func (p *Participant) announceTick(now time.Time) time.Time {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return time.Time{}
	}
	p.sendToAllUnlock(p.spdpMessage(nil, now))
	if p.burst > 0 {
		p.burst--
		return now.Add(InitialAnnouncePeriod)
	}
	return now.Add(p.cfg.AnnouncePeriod)
}

// SetUserData changes the USER_DATA the participant announces (it may change once
// the participant is enabled, DDS 1.4 §2.2.3.1). The SPDP data gets the next sequence
// number, as Cyclone DDS and Fast DDS need to take a known participant's announcement
// as new, and goes out at once to the SPDP destinations and the participants known;
// the periodic announcements carry it from then on. A value over the participant
// data's bounds is refused (Limits).
func (p *Participant) SetUserData(ud []byte) error {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return errors.New("discovery: participant closed")
	}
	d := p.self.data
	d.Qos = participantQos(slices.Clone(ud))
	if err := d.Check(p.limits); err != nil {
		p.mu.Unlock()
		return fmt.Errorf("discovery: participant data: %w", err)
	}
	p.self.data = d
	p.spdpSN++
	p.spdpData = d.Append(nil)
	p.sendToAllUnlock(p.spdpMessage(nil, p.eng.Now()))
	return nil
}

// sendToAllUnlock sends msg to the SPDP destinations and to the metatraffic
// unicast locators of the participants known. It is called with p.mu held
// and releases it before sending.
func (p *Participant) sendToAllUnlock(msg []byte) {
	var locs []wire.Locator
	for _, rp := range p.remotes {
		locs = append(locs, metaDestination(&rp.data)...)
	}
	p.mu.Unlock()
	p.eng.SendTo(msg, p.eng.Transport().SPDPDestinations())
	p.eng.Send(msg, dedupe(locs))
}

// A participant we discover gets our SPDP announcement at once, directed
// to it, so that it knows us before our SEDP traffic reaches it. Fast DDS
// sends its first announcement before its receivers are registered, and
// drops that reply; our next periodic announcement comes seconds later
// (a 2.8 s stall was measured). So a newcomer gets the directed announcement
// again, until it shows that it knows us (an ACKNACK from its SEDP
// readers) and at most maxDirected times in all:
//
//   - directedFollowUps follow-ups, directedFollowUpGap after the reply
//     and then doubling the gap (+10, +30, +70 ms);
//   - an answer to each of its repeated announcements (Fast DDS repeats
//     every 100 ms at start, Cyclone DDS and ddsgo too).
//
// That costs a few datagrams per participant discovered and bounds a lost
// first reply to one follow-up gap.
//
// Anyone can forge announcements by the thousand, each naming a third
// party's address as its locator: follow-ups and introductory HEARTBEATs
// (rtps.ReaderProxyInfo.NoIntro) would then make us send a dozen datagrams
// to that address for each forged one. So at most maxNewcomers participants
// wait for follow-ups at a time; one discovered while that many wait gets
// the directed announcement and an answer to its repeats only, and our
// built-in endpoints are matched with its when it first sends us a
// datagram (onTraffic), as a real participant does once it knows us: it
// then gets the built-in writers' first HEARTBEATs, not the introductory
// ones. That is no more than a real crowd of joiners needs (a launch of
// many processes at once); a forged announcement costs a reply and no
// matching, which a flood would otherwise repeat thousands of times a
// second (TestHostileNoAmplification, TestHostileRoundTrip).
const (
	maxDirected         = 6
	directedFollowUps   = 3
	directedFollowUpGap = 10 * time.Millisecond
	maxNewcomers        = 16
)

// owesDirected reports whether rp is owed a directed SPDP announcement:
// it has not shown that it knows us, and it has not had maxDirected. The
// caller holds p.mu.
func (p *Participant) owesDirected(rp *remoteParticipant) bool {
	if rp.directed >= maxDirected {
		return false
	}
	if p.knowsUs(rp) {
		rp.directed = maxDirected // no need to ask again
		return false
	}
	return true
}

// knowsUs reports whether rp has shown that it discovered us: one of its
// SEDP readers acknowledged one of our SEDP writers.
func (p *Participant) knowsUs(rp *remoteParticipant) bool {
	pre := rp.data.GUIDPrefix
	return p.pubW.HeardFrom(wire.GUID{Prefix: pre, Entity: wire.EntityIDSEDPPublicationsReader}) ||
		p.subW.HeardFrom(wire.GUID{Prefix: pre, Entity: wire.EntityIDSEDPSubscriptionsReader})
}

// nudgeBuiltins makes our SEDP and participant message writers send the
// built-in readers of pd a HEARTBEAT again, right after a directed SPDP
// announcement: those sent when we matched them went to a participant that
// did not know us and dropped them, and Fast DDS's readers wait 70 ms
// (initialAcknackDelay) before they ask on their own.
func (p *Participant) nudgeBuiltins(pd *ParticipantData, now time.Time) {
	for _, b := range builtinTopics {
		if pd.BuiltinEndpoints&b.detector != 0 {
			w, _ := b.ours(p)
			w.Nudge(wire.GUID{Prefix: pd.GUIDPrefix, Entity: b.reader}, now)
		}
	}
}

// queueFollowUpsLocked queues the directed follow-ups of the newcomer rp, unless
// maxNewcomers wait for theirs already, and reports whether it did. The caller holds
// p.mu.
func (p *Participant) queueFollowUpsLocked(rp *remoteParticipant, now time.Time) bool {
	if len(p.newcomers) >= maxNewcomers {
		return false
	}
	rp.nextFollowUp = now.Add(directedFollowUpGap)
	p.newcomers = append(p.newcomers, rp)
	p.followUp.Schedule(rp.nextFollowUp)
	return true
}

// directedTick sends the directed SPDP follow-ups that are due (see
// maxDirected) and returns when the next one is.
func (p *Participant) directedTick(now time.Time) time.Time {
	type send struct {
		msg []byte
		pd  *ParticipantData
	}
	var sends []send
	var next time.Time
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return time.Time{}
	}
	keep := p.newcomers[:0]
	for _, rp := range p.newcomers {
		pre := rp.data.GUIDPrefix
		if p.remotes[pre] != rp || rp.followUps >= directedFollowUps || !p.owesDirected(rp) {
			continue
		}
		if !rp.nextFollowUp.After(now) {
			pd := rp.data
			sends = append(sends, send{p.spdpMessage(&pre, now), &pd})
			rp.directed++
			rp.followUps++
			rp.lastDirected = now
			rp.nextFollowUp = now.Add(directedFollowUpGap << rp.followUps)
			if rp.followUps >= directedFollowUps {
				continue
			}
		}
		keep = append(keep, rp)
		if next.IsZero() || rp.nextFollowUp.Before(next) {
			next = rp.nextFollowUp
		}
	}
	clear(p.newcomers[len(keep):])
	p.newcomers = keep
	p.mu.Unlock()
	for _, s := range sends {
		p.eng.Send(s.msg, metaDestination(s.pd))
		p.nudgeBuiltins(s.pd, now)
	}
	p.ctr.spdpDirected.Add(uint64(len(sends)))
	return next
}

// metaDestination returns where to send metatraffic to a participant: its
// metatraffic unicast locators, else its metatraffic multicast ones.
func metaDestination(d *ParticipantData) []wire.Locator {
	if len(d.MetatrafficUnicastLocators) > 0 {
		return d.MetatrafficUnicastLocators
	}
	return d.MetatrafficMulticastLocators
}

func dedupe(ls []wire.Locator) []wire.Locator {
	out := ls[:0:0]
	for _, l := range ls {
		if !slices.Contains(out, l) {
			out = append(out, l)
		}
	}
	return out
}

// onSPDP handles a DATA of a remote SPDP writer, on the event loop.
func (p *Participant) onSPDP(src wire.GuidPrefix, vendor wire.VendorID, d *wire.Data, _ wire.Time, now time.Time) {
	dec := Decoder{Vendor: vendor, Limits: p.limits}
	if x, gone, err := dec.Disposal(d); err != nil {
		p.ctr.spdpInvalid.Add(1)
		return
	} else if gone {
		if x.GUID.Prefix == src {
			p.removeParticipant(src, &p.ctr.disposed, "dispose")
		}
		return
	}
	if !d.DataFlag {
		return
	}
	pd, err := dec.ParticipantData(d.SerializedPayload)
	if err != nil {
		p.ctr.spdpInvalid.Add(1)
		p.log.Debug("discovery: bad SPDP data", "from", src, "err", err)
		return
	}
	if pd.GUIDPrefix != src || src == p.prefix {
		p.ctr.foreign.Add(1)
		return
	}
	if (pd.HasDomainID && pd.DomainID != uint32(p.cfg.Domain)) || pd.DomainTag != "" {
		p.ctr.otherDomain.Add(1)
		return
	}
	p.ctr.spdp.Add(1)
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return
	}
	if p.ign.participant(src) {
		p.mu.Unlock()
		return
	}
	if rp := p.remotes[src]; rp != nil {
		p.onSPDPRepeatLocked(rp, src, &pd, d.SerializedPayload, now)
		return
	}
	rp := &remoteParticipant{data: pd, vendor: pd.VendorID, endpoints: make(map[wire.GUID]*remoteEndpoint)}
	if !p.admitLocked(rp) {
		p.mu.Unlock()
		p.ctr.partLimited.Add(1)
		return
	}
	if rp.vendor == (wire.VendorID{}) {
		rp.vendor = vendor
	}
	rp.lastSeen.Store(now.UnixNano())
	p.remotes[src] = rp
	p.leaseMu.Lock()
	p.leases[src] = rp
	p.leaseMu.Unlock()
	// Our announcement goes first, directed, so that the peer knows us
	// before our SEDP HEARTBEATs and ACKNACKs reach it.
	// It may not hear it: Fast DDS sends its first announcement before it
	// listens. Follow-ups and answers to its repeats (owesDirected) make up
	// for that.
	msg := p.spdpMessage(&src, now)
	p.eng.Send(msg, metaDestination(&pd))
	rp.directed, rp.lastDirected = 1, now
	if p.queueFollowUpsLocked(rp, now) {
		p.connectBuiltins(rp, false)
	} else {
		rp.unmatched.Store(now.UnixNano()) // until it speaks: onTraffic
	}
	rp.raw = slices.Clone(d.SerializedPayload)
	p.disp.post(p.remoteEventLocked(nil, rp, pd)...) // under p.mu: events reach listeners in order
	p.mu.Unlock()
	p.logParticipant(&pd)
	p.lease.Schedule(now.Add(pd.LeaseDuration))
}

// onSPDPRepeatLocked handles a new announcement pd (serialized: raw) of the known
// participant rp, with p.mu held, which it releases: the participant's data and lease
// are renewed, and it gets our directed announcement again while it owes us its
// handshake (owesDirected).
func (p *Participant) onSPDPRepeatLocked(rp *remoteParticipant, src wire.GuidPrefix, pd *ParticipantData, raw []byte, now time.Time) {
	rp.data = *pd
	p.participantChangedLocked(rp, raw)
	rp.lastSeen.Store(now.UnixNano())
	var msg []byte
	// Not twice for one repeat that came by multicast and by unicast.
	if now.Sub(rp.lastDirected) >= directedFollowUpGap && p.owesDirected(rp) {
		rp.lastDirected = now
		msg = p.spdpMessage(&src, now)
		rp.directed++
		p.ctr.spdpDirected.Add(1)
	}
	p.mu.Unlock()
	if msg != nil {
		p.eng.Send(msg, metaDestination(pd))
		p.nudgeBuiltins(pd, now)
	}
	p.lease.Schedule(now.Add(pd.LeaseDuration))
}

// removeParticipant forgets a remote participant: its endpoints are
// unmatched from the local ones (OnUnmatch) and its built-in endpoints
// from ours. It counts the removal in reason, under the same lock, so
// that whoever sees the participant gone also sees why. It reports
// whether the participant was known.
func (p *Participant) removeParticipant(prefix wire.GuidPrefix, reason *atomic.Uint64, why string) bool {
	p.mu.Lock()
	rp := p.remotes[prefix]
	if rp == nil {
		p.mu.Unlock()
		return false
	}
	reason.Add(1)
	p.disp.post(p.forgetLocked(rp, nil)...) // under p.mu: events reach listeners in order
	pd := rp.data
	p.mu.Unlock()
	p.logParticipantLost(&pd, why)
	return true
}

// sendSPDPDisposal announces that the participant goes away: a DATA with
// the inline KEY_HASH and STATUS_INFO (disposed, unregistered) and the
// serialized key, to the SPDP destinations and the participants known.
func (p *Participant) sendSPDPDisposal() {
	now := p.eng.Now()
	p.mu.Lock()
	x := Disposal{
		GUID:   wire.GUID{Prefix: p.prefix, Entity: wire.EntityIDParticipant},
		Status: wire.StatusInfoDisposed | wire.StatusInfoUnregistered,
	}
	b := wire.Header{Version: p.eng.Version(), Vendor: p.eng.Vendor(), Prefix: p.prefix}.Append(nil)
	ts := wire.InfoTS{Timestamp: wire.TimeFromTime(now)}
	b = ts.Append(b)
	d := wire.Data{
		KeyFlag: true, ReaderID: wire.EntityIDSPDPReader, WriterID: wire.EntityIDSPDPWriter,
		WriterSN: p.spdpSN + 1, InlineQoS: x.AppendInlineQoS(nil), SerializedPayload: x.AppendKey(nil),
	}
	p.sendToAllUnlock(d.Append(b))
}

// startBuiltins creates the SEDP and participant message endpoints.
func (p *Participant) startBuiltins() {
	guid := func(e wire.EntityID) wire.GUID { return wire.GUID{Prefix: p.prefix, Entity: e} }
	wc := func(e wire.EntityID) rtps.WriterConfig {
		return rtps.WriterConfig{
			GUID: guid(e), Reliable: true, TransientLocal: true, Keyed: true,
			History: rtps.HistoryConfig{Depth: 1}, InlineKeyHash: true,
		}
	}
	rc := func(e wire.EntityID) rtps.ReaderConfig {
		return rtps.ReaderConfig{GUID: guid(e), Reliable: true}
	}
	p.pubW = p.eng.NewWriter(wc(wire.EntityIDSEDPPublicationsWriter))
	p.subW = p.eng.NewWriter(wc(wire.EntityIDSEDPSubscriptionsWriter))
	p.msgW = p.eng.NewWriter(wc(wire.EntityIDParticipantMessageWriter))
	p.pubR = p.eng.NewReader(rc(wire.EntityIDSEDPPublicationsReader), p.onPublication)
	p.subR = p.eng.NewReader(rc(wire.EntityIDSEDPSubscriptionsReader), p.onSubscription)
	p.msgR = p.eng.NewReader(rc(wire.EntityIDParticipantMessageReader), p.onParticipantMessage)
	p.startTypeLookup()
	p.startTypeClient()
}

// builtinTopic is a built-in topic our endpoints share with a remote
// participant's: the BUILTIN_ENDPOINT_SET bits of a remote that has a reader
// (detector) or a writer (announcer) of it, the entity ids of these, and our
// writer (for the remote reader) and reader (for the remote writer) of it.
type builtinTopic struct {
	detector, announcer uint32
	reader, writer      wire.EntityID
	ours                func(p *Participant) (*rtps.Writer, *rtps.Reader)
}

var builtinTopics = [...]builtinTopic{
	{wire.BuiltinPublicationsDetector, wire.BuiltinPublicationsAnnouncer, wire.EntityIDSEDPPublicationsReader, wire.EntityIDSEDPPublicationsWriter, (*Participant).publications},
	{wire.BuiltinSubscriptionsDetector, wire.BuiltinSubscriptionsAnnouncer, wire.EntityIDSEDPSubscriptionsReader, wire.EntityIDSEDPSubscriptionsWriter, (*Participant).subscriptions},
	{wire.BuiltinParticipantMessageReader, wire.BuiltinParticipantMessageWriter, wire.EntityIDParticipantMessageReader, wire.EntityIDParticipantMessageWriter, (*Participant).messages},
}

// Our writer and reader of each built-in topic.
func (p *Participant) publications() (*rtps.Writer, *rtps.Reader)  { return p.pubW, p.pubR }
func (p *Participant) subscriptions() (*rtps.Writer, *rtps.Reader) { return p.subW, p.subR }
func (p *Participant) messages() (*rtps.Writer, *rtps.Reader)      { return p.msgW, p.msgR }

// connectBuiltins matches our built-in endpoints with those rp announces.
// Adding a reader makes our writer send a HEARTBEAT, adding a writer makes
// our reader send a pre-emptive ACKNACK: neither side waits for the other's
// periodic HEARTBEAT (the 1 s stall between Cyclone DDS and Fast DDS).
func (p *Participant) connectBuiltins(rp *remoteParticipant, noIntro bool) {
	uni, multi := rp.data.MetatrafficUnicastLocators, rp.data.MetatrafficMulticastLocators
	for _, b := range builtinTopics {
		w, r := b.ours(p)
		if rp.data.BuiltinEndpoints&b.detector != 0 {
			g := wire.GUID{Prefix: rp.data.GUIDPrefix, Entity: b.reader}
			p.eng.MatchReader(w, rtps.ReaderProxyInfo{GUID: g, Reliable: true, Unicast: uni, Multicast: multi, NoIntro: noIntro})
		}
		if rp.data.BuiltinEndpoints&b.announcer != 0 {
			g := wire.GUID{Prefix: rp.data.GUIDPrefix, Entity: b.writer}
			p.eng.MatchWriter(r, rtps.WriterProxyInfo{GUID: g, Reliable: true, Vendor: rp.vendor, Unicast: uni, Multicast: multi})
		}
	}
	p.connectTypeLookup(rp)
	p.connectTypeClient(rp)
}

// disconnectBuiltins undoes connectBuiltins.
func (p *Participant) disconnectBuiltins(rp *remoteParticipant) {
	for _, b := range builtinTopics {
		w, r := b.ours(p)
		p.eng.UnmatchReader(w, wire.GUID{Prefix: rp.data.GUIDPrefix, Entity: b.reader})
		p.eng.UnmatchWriter(r, wire.GUID{Prefix: rp.data.GUIDPrefix, Entity: b.writer})
	}
	p.disconnectTypeLookup(rp)
	p.disconnectTypeClient(rp)
}

// The kinds of ParticipantMessageData (RTPS 2.5 §9.6.2.1).
var (
	participantMessageKindAutomatic = [4]byte{0, 0, 0, 1} // AUTOMATIC_LIVELINESS_UPDATE
	participantMessageKindManual    = [4]byte{0, 0, 0, 2} // MANUAL_LIVELINESS_UPDATE
)

// wlpTick writes the participant message asserting the liveliness of the
// AUTOMATIC writers, as Cyclone DDS and Fast DDS do, every third of the
// participant lease or of the shortest lease of our AUTOMATIC writers,
// whichever is shorter (Cyclone DDS: 80 % of that interval).
func (p *Participant) wlpTick(now time.Time) time.Time {
	p.writeParticipantMessage(participantMessageKindAutomatic, now)
	return now.Add(p.automaticLease() / 3)
}

// AssertLiveliness writes a MANUAL_LIVELINESS_UPDATE participant message: it
// asserts the liveliness of the participant's MANUAL_BY_PARTICIPANT writers
// (assert_liveliness of a participant, or of one of those writers), as
// Cyclone DDS's dds_assert_liveliness on a participant does.
func (p *Participant) AssertLiveliness() {
	p.writeParticipantMessage(participantMessageKindManual, p.eng.Now())
}

// OnLiveliness registers fn to be called for each participant message of
// another participant: manual says it is a MANUAL_LIVELINESS_UPDATE. It runs
// on the event loop with no lock held and must not block.
func (p *Participant) OnLiveliness(fn func(prefix wire.GuidPrefix, manual bool)) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.onLive = append(p.onLive, fn)
}

// automaticLease returns the shortest lease of the participant and of its
// AUTOMATIC writers.
func (p *Participant) automaticLease() time.Duration {
	d := p.cfg.LeaseDuration
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, l := range p.locals {
		lv := l.data.Offered.Writer.Liveliness
		if l.data.IsWriter() && lv.Kind == qos.Automatic && lv.LeaseDuration > 0 && lv.LeaseDuration < d {
			d = lv.LeaseDuration
		}
	}
	return d
}

// writeParticipantMessage writes a ParticipantMessageData of kind.
func (p *Participant) writeParticipantMessage(kind [4]byte, now time.Time) {
	// CDR_LE: participantGuidPrefix, kind, sequence<octet> data (one 0,
	// like Cyclone DDS), padded to 4.
	b := []byte{0x00, 0x01, 0x00, 0x00}
	b = append(b, p.prefix[:]...)
	b = append(b, kind[:]...)
	b = append(b, 1, 0, 0, 0, 0, 0, 0, 0)
	var k wire.KeyHash
	copy(k[:], p.prefix[:])
	copy(k[12:], kind[:])
	_, err := p.msgW.Write(rtps.Change{Kind: rtps.Alive, KeyHash: k, Timestamp: wire.TimeFromTime(now), Payload: b}, now)
	if err != nil && !errors.Is(err, rtps.ErrHistoryFull) {
		p.log.Debug("discovery: participant message", "err", err)
	}
}

// onParticipantMessage counts a participant message (the datagram it came in
// already renewed the participant's lease) and has the OnLiveliness functions
// told, on the event loop: it runs with the built-in reader's lock held, which
// must not be held while p.mu is taken.
func (p *Participant) onParticipantMessage(s *rtps.Sample) bool {
	p.ctr.wlp.Add(1)
	if prefix, manual, ok := parseParticipantMessage(s, p.prefix); ok {
		p.eng.Post(func() { p.tellLiveliness(prefix, manual) })
	}
	return true
}

// parseParticipantMessage returns the participant a participant message is about
// and whether it is a MANUAL_LIVELINESS_UPDATE; ok is false for a message to
// ignore: not alive data, ours (self), or about another participant than its
// writer's. The participant and kind are the first 16 octets of the data, after
// the encapsulation header (Fast DDS writes PL_CDR_LE there but the same octets),
// else the key hash; the kind is told by its last octet, as Fast DDS reads it.
func parseParticipantMessage(s *rtps.Sample, self wire.GuidPrefix) (prefix wire.GuidPrefix, manual, ok bool) {
	var kind [4]byte
	switch {
	case s.Kind != rtps.Alive:
		return prefix, false, false
	case len(s.Payload) >= 20:
		copy(prefix[:], s.Payload[4:16])
		copy(kind[:], s.Payload[16:20])
	case s.HasKeyHash:
		copy(prefix[:], s.KeyHash[:12])
		copy(kind[:], s.KeyHash[12:])
	default:
		return prefix, false, false
	}
	if prefix == self || prefix != s.Writer.Prefix {
		return prefix, false, false
	}
	return prefix, kind[3] == participantMessageKindManual[3], true
}

// tellLiveliness calls the OnLiveliness functions.
func (p *Participant) tellLiveliness(prefix wire.GuidPrefix, manual bool) {
	p.mu.Lock()
	fns := p.onLive
	p.mu.Unlock()
	for _, fn := range fns {
		fn(prefix, manual)
	}
}
