package discovery

import (
	"testing"
)

// pad4 returns v padded with zeros to a multiple of 4 octets, as it is
// written again.
func pad4(v []byte) []byte {
	for len(v)%4 != 0 {
		v = append(v, 0)
	}
	return v
}

// normalize brings raw values to the form Append writes them in: padded
// to 4 octets, in the little-endian list.
func normalize(ps []Param, ti *[]byte) {
	for i := range ps {
		ps[i].BigEndian = false
		ps[i].Value = pad4(ps[i].Value)
	}
	if *ti != nil {
		*ti = pad4(*ti)
	}
}

// seeds adds the payloads of the captures' discovery DATA written by one of
// the given built-in writers, once each.
func seeds(f *testing.F, spdp bool) {
	seen := map[string]bool{}
	for _, s := range goldenSamples(f) {
		if (s.writer.Uint32() == 0x000100c2) != spdp || seen[string(s.payload)] {
			continue
		}
		seen[string(s.payload)] = true
		f.Add(s.payload)
	}
}

// FuzzParseParticipantData checks that decoding never panics and that what
// decodes survives Append and decoding again unchanged.
func FuzzParseParticipantData(f *testing.F) {
	seeds(f, true)
	p := testParticipant()
	f.Add(p.Append(nil))
	f.Fuzz(func(t *testing.T, payload []byte) {
		p, err := ParseParticipantData(payload)
		if err != nil {
			return
		}
		var ti []byte
		normalize(p.VendorParams, &ti)
		requireReparses(t, p, p.Append, ParseParticipantData)
	})
}

// FuzzParseEndpointData does the same for SEDP data, and also decodes the
// input as topic data.
func FuzzParseEndpointData(f *testing.F) {
	seeds(f, false)
	w, r, tp := testWriter(), testReader(), testTopic()
	f.Add(w.Append(nil))
	f.Add(r.Append(nil))
	f.Add(tp.Append(nil))
	f.Fuzz(func(t *testing.T, payload []byte) {
		if e, err := ParseEndpointData(payload); err == nil {
			normalize(e.VendorParams, &e.TypeInformation)
			requireReparses(t, e, e.Append, ParseEndpointData)
		}
		if tp, err := ParseTopicData(payload); err == nil {
			normalize(tp.VendorParams, &tp.TypeInformation)
			requireReparses(t, tp, tp.Append, ParseTopicData)
		}
	})
}
