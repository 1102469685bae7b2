package dds

import (
	"encoding/binary"
	"sync"

	"github.com/ddsgo/ddsgo/dds/internal/rhc"
	"github.com/ddsgo/ddsgo/internal/rtps"
	"github.com/ddsgo/ddsgo/internal/wire"
)

// rmw_cyclonedds does not use sample identities for services: its requests and replies
// start with a 16-octet header, a client id (uint64) and a sequence number (int64) in the
// stream's byte order, before the body, whose alignment origin stays at the header's
// start. A server copies the header into its reply; a client keeps the replies with its
// client id. A ddsgo replier answers such requests in the same form; a ddsgo requester
// uses it with a Cyclone DDS server. (Facts: ROS2_FACTS.md §3, rmw_cyclonedds serdata.)

// headerLen is the length of the header; a multiple of 8, so the body's alignment is the
// same with or without it.
const headerLen = 16

// svcHeaders are the headers a service reader took off samples, by sample identity,
// until the replier or requester asks for them. At most maxHeaders are kept (requests
// never answered must not pile up): beyond, the table starts afresh.
type svcHeaders struct {
	mu sync.Mutex
	m  map[rhc.Identity]callID
}

// callID is what a header says: the client's id and the call's sequence number.
type callID struct {
	client uint64
	seq    int64
}

const maxHeaders = 4096

func newSvcHeaders() *svcHeaders {
	return &svcHeaders{m: map[rhc.Identity]callID{}}
}

// strip returns the payload to decode: s's own, or, for a sample in the header form (a
// Cyclone DDS writer's, without a related identity), the payload without its header,
// built in *buf. The caller holds the reader's dmu.
func (h *svcHeaders) strip(s *rtps.Sample, buf *[]byte) []byte {
	p := s.Payload
	if s.Vendor != wire.VendorCyclone || s.Related.WriterGUID != (wire.GUID{}) || len(p) < 4+headerLen {
		return p
	}
	call := parseHeader(p[4:4+headerLen], p[1]&1 == 0) // encapsulation 0x0000/0x0002: big endian
	b := append((*buf)[:0], p[:4]...)
	b = append(b, p[4+headerLen:]...)
	*buf = b
	id := rhc.Identity{Writer: rhc.GUID(guidBytes(s.Writer)), SN: int64(s.SN)}
	h.mu.Lock()
	if len(h.m) >= maxHeaders {
		clear(h.m)
	}
	h.m[id] = call
	h.mu.Unlock()
	return b
}

// take returns and forgets the header of the sample id, if it had one.
func (h *svcHeaders) take(id SampleIdentity) (callID, bool) {
	key := rhc.Identity{Writer: rhc.GUID(id.Writer), SN: id.SN}
	h.mu.Lock()
	defer h.mu.Unlock()
	c, ok := h.m[key]
	delete(h.m, key)
	return c, ok
}

// prependHeader puts hdr between the encapsulation header and the body of payload.
func prependHeader(payload []byte, hdr *[headerLen]byte) []byte {
	n := len(payload)
	payload = append(payload, hdr[:]...) // room
	copy(payload[4+headerLen:], payload[4:n])
	copy(payload[4:], hdr[:])
	return payload
}

// header returns the header of c in the byte order ddsgo writes (little endian).
func (c callID) header() *[headerLen]byte {
	var h [headerLen]byte
	binary.LittleEndian.PutUint64(h[:], c.client)
	binary.LittleEndian.PutUint64(h[8:], uint64(c.seq))
	return &h
}

// parseHeader reads a header in the byte order of the payload it came with.
func parseHeader(h []byte, bigEndian bool) callID {
	if bigEndian {
		return callID{binary.BigEndian.Uint64(h), int64(binary.BigEndian.Uint64(h[8:]))}
	}
	return callID{binary.LittleEndian.Uint64(h), int64(binary.LittleEndian.Uint64(h[8:]))}
}

// withHeader is the WriteOption that puts hdr before the body; with id, it stores there
// the identity a header call is known by: {SN: seq}.
func withHeader(hdr *[headerLen]byte, id *SampleIdentity, seq int64) WriteOption {
	return func(a writeArgs) writeArgs {
		a.header = hdr
		if id != nil {
			*id = SampleIdentity{SN: seq}
		}
		return a
	}
}
