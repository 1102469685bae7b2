package discovery

import "github.com/ddsgo/ddsgo/internal/wire"

// Admission of remote participants: the table of remote participants is
// bounded (Limits.MaxParticipants), and forged or silent entries must
// never lock a real peer out of it.
//
// A participant enters the table unconfirmed, on its first SPDP
// announcement, which anyone can forge by the thousand. It becomes
// confirmed when a submessage of its own (a HEARTBEAT or DATA of its SEDP
// or participant message writers, an ACKNACK of its readers) reaches one
// of our endpoints matched with it: every real peer sends one within a
// round trip of meeting us, since our built-in writers send it a HEARTBEAT
// that it must answer. A confirmed participant leaves only by its lease or
// its disposal.
//
// At most Limits.MaxUnconfirmedParticipants are unconfirmed: beyond it,
// and whenever the table is full, the oldest unconfirmed participant is
// evicted for the new one (counted in Stats.ParticipantsEvicted). So a
// flood of forged announcements holds a bounded number of entries, never
// evicts a confirmed peer, and a real peer that joins during or after it
// always enters the table, with as much time to confirm itself as the
// flood needs to bring MaxUnconfirmedParticipants newer ones. A new
// participant is refused (Stats.ParticipantsLimited) only when every
// entry is confirmed.
//
// Fast DDS refuses new participants once its participant allocation
// limit is reached (PDP::add_participant_proxy_data, unlimited by
// default); Cyclone DDS has no limit. Neither evicts.

// admitLocked makes room in the table for the new participant rp, evicting
// unconfirmed ones as the limits require, and queues rp as unconfirmed. It
// reports false, changing nothing, when the table is full of confirmed
// participants. The caller holds p.mu and adds rp to p.remotes after.
func (p *Participant) admitLocked(rp *remoteParticipant) bool {
	if len(p.unconfirmed) >= p.lim.MaxUnconfirmedParticipants {
		p.compactUnconfirmed()
	}
	for len(p.unconfirmed) >= p.lim.MaxUnconfirmedParticipants || len(p.remotes) >= p.lim.MaxParticipants {
		if len(p.unconfirmed) == 0 {
			return false
		}
		old := p.unconfirmed[0]
		p.unconfirmed[0] = nil
		p.unconfirmed = p.unconfirmed[1:]
		if old.gone || old.confirmed.Load() {
			continue
		}
		p.ctr.evicted.Add(1)
		p.disp.post(p.forgetLocked(old, nil)...)
		p.log.Debug("discovery: unconfirmed participant evicted", "guid", old.data.GUID())
	}
	p.unconfirmed = append(p.unconfirmed, rp)
	return true
}

// compactUnconfirmed drops the participants confirmed or removed since
// they were queued. The caller holds p.mu.
func (p *Participant) compactUnconfirmed() {
	q := p.unconfirmed[:0]
	for _, rp := range p.unconfirmed {
		if !rp.gone && !rp.confirmed.Load() {
			q = append(q, rp)
		}
	}
	clear(p.unconfirmed[len(q):])
	p.unconfirmed = q
}

// unconfirmedLocked counts the unconfirmed participants. The caller holds
// p.mu.
func (p *Participant) unconfirmedLocked() int {
	n := 0
	for _, rp := range p.unconfirmed {
		if !rp.gone && !rp.confirmed.Load() {
			n++
		}
	}
	return n
}

// forgetLocked removes rp from the tables: its endpoints are unmatched
// from the local ones and its built-in endpoints from ours. It returns fns
// with the listener calls (OnUnmatch, OnParticipant) appended, for the
// caller to post under p.mu. The caller holds p.mu.
//
// A participant whose listeners have not heard of it yet (its first event still
// queued) goes unheard: its queued events are dropped and its going is not told.
func (p *Participant) forgetLocked(rp *remoteParticipant, fns []func()) []func() {
	prefix := rp.data.GUIDPrefix
	rp.gone = true
	withheld := rp.heard.CompareAndSwap(heardPending, heardWithheld)
	delete(p.remotes, prefix)
	p.leaseMu.Lock()
	delete(p.leases, prefix)
	p.leaseMu.Unlock()
	p.nEndpoints -= len(rp.endpoints)
	for g, re := range rp.endpoints {
		p.epBytes -= re.size
		p.unmatchAll(g)
		if !withheld {
			fns = p.endpointEventLocked(fns, re.data, false)
		}
	}
	rp.endpoints = nil // rp may stay queued among the unconfirmed: it holds nothing
	p.disconnectBuiltins(rp)
	if withheld {
		return fns
	}
	return p.participantEventLocked(fns, rp.data, false)
}

// endpointRoomLocked reports whether rp may announce a new endpoint (re
// nil) or update re, in size octets of serialized data:
// Limits.MaxEndpointsPerParticipant, MaxEndpoints and MaxEndpointBytes.
// The caller holds p.mu.
func (p *Participant) endpointRoomLocked(rp *remoteParticipant, re *remoteEndpoint, size int) bool {
	grow := size
	if re != nil {
		grow -= re.size
	} else if len(rp.endpoints) >= p.lim.MaxEndpointsPerParticipant || p.nEndpoints >= p.lim.MaxEndpoints {
		return false
	}
	return grow <= 0 || p.epBytes+grow <= p.lim.MaxEndpointBytes
}

// isConfirmed reports whether the remote participant prefix is known and
// confirmed (tests).
func (p *Participant) isConfirmed(prefix wire.GuidPrefix) bool {
	p.leaseMu.RLock()
	rp := p.leases[prefix]
	p.leaseMu.RUnlock()
	return rp != nil && rp.confirmed.Load()
}
