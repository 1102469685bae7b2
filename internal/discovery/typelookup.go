package discovery

import (
	"github.com/ddsgo/ddsgo/internal/rtps"
	"github.com/ddsgo/ddsgo/internal/wire"
)

// The server side of the XTypes TypeLookup service (DDS-XTypes 1.3 §7.6.3.3): a reader
// of the requests peers send to resolve the types our endpoints announce in their
// TypeInformation, and a writer of the replies. Config.TypeLookup answers; without it the
// participant has neither endpoint and does not announce them. The client, which asks
// peers for their types, is in typeclient.go.

// typeLookup holds the service's endpoints.
type typeLookup struct {
	reqR *rtps.Reader // TypeLookup request reader (0x000300c4)
	repW *rtps.Writer // TypeLookup reply writer (0x000301c3)
	// The client (typeclient.go), with Config.Types.
	reqW  *rtps.Writer // TypeLookup request writer (0x000300c3)
	repR  *rtps.Reader // TypeLookup reply reader (0x000301c4)
	retry *rtps.Timer  // asks again for the types not received
	sn    int64        // the last request's sequence number
}

// typeLookupBits are the BUILTIN_ENDPOINT_SET bits of the service, when cfg serves it.
func typeLookupBits(cfg *Config) uint32 {
	var bits uint32
	if cfg.TypeLookup != nil {
		bits |= wire.BuiltinTypeLookupRequestReader | wire.BuiltinTypeLookupReplyWriter
	}
	if cfg.Types != nil {
		bits |= wire.BuiltinTypeLookupRequestWriter | wire.BuiltinTypeLookupReplyReader
	}
	return bits
}

// typeLookupDepth is the history depth of the reply writer: replies are not kept for late
// readers (volatile), only until the requesters acknowledge them.
const typeLookupDepth = 16

// startTypeLookup creates the service's endpoints, when the configuration serves it.
func (p *Participant) startTypeLookup() {
	if p.cfg.TypeLookup == nil {
		return
	}
	p.tl.repW = p.eng.NewWriter(rtps.WriterConfig{
		GUID: wire.GUID{Prefix: p.prefix, Entity: wire.EntityIDTypeLookupReplyWriter}, Reliable: true,
		History: rtps.HistoryConfig{Depth: typeLookupDepth},
	})
	p.tl.reqR = p.eng.NewReader(rtps.ReaderConfig{
		GUID: wire.GUID{Prefix: p.prefix, Entity: wire.EntityIDTypeLookupRequestReader}, Reliable: true,
	}, p.onTypeLookupRequest)
}

// onTypeLookupRequest hands a request to Config.TypeLookup off the receive path and
// writes its reply.
func (p *Participant) onTypeLookupRequest(s *rtps.Sample) bool {
	if s.Kind != rtps.Alive || len(s.Payload) == 0 {
		return true
	}
	req := append([]byte(nil), s.Payload...)
	p.eng.Post(func() {
		reply, ok := p.cfg.TypeLookup(req)
		if !ok {
			return
		}
		now := p.eng.Now()
		_, _ = p.tl.repW.Write(rtps.Change{Kind: rtps.Alive, Timestamp: wire.TimeFromTime(now), Payload: reply}, now)
	})
	return true
}

// connectTypeLookup matches the service's endpoints with the peer's request writer and
// reply reader.
func (p *Participant) connectTypeLookup(rp *remoteParticipant) {
	if p.tl.reqR == nil {
		return
	}
	uni, multi := rp.data.MetatrafficUnicastLocators, rp.data.MetatrafficMulticastLocators
	if rp.data.BuiltinEndpoints&wire.BuiltinTypeLookupRequestWriter != 0 {
		g := wire.GUID{Prefix: rp.data.GUIDPrefix, Entity: wire.EntityIDTypeLookupRequestWriter}
		p.eng.MatchWriter(p.tl.reqR, rtps.WriterProxyInfo{GUID: g, Reliable: true, Vendor: rp.vendor, Unicast: uni, Multicast: multi})
	}
	if rp.data.BuiltinEndpoints&wire.BuiltinTypeLookupReplyReader != 0 {
		g := wire.GUID{Prefix: rp.data.GUIDPrefix, Entity: wire.EntityIDTypeLookupReplyReader}
		p.eng.MatchReader(p.tl.repW, rtps.ReaderProxyInfo{GUID: g, Reliable: true, Unicast: uni, Multicast: multi})
	}
}

// disconnectTypeLookup undoes connectTypeLookup.
func (p *Participant) disconnectTypeLookup(rp *remoteParticipant) {
	if p.tl.reqR == nil {
		return
	}
	p.eng.UnmatchWriter(p.tl.reqR, wire.GUID{Prefix: rp.data.GUIDPrefix, Entity: wire.EntityIDTypeLookupRequestWriter})
	p.eng.UnmatchReader(p.tl.repW, wire.GUID{Prefix: rp.data.GUIDPrefix, Entity: wire.EntityIDTypeLookupReplyReader})
}
