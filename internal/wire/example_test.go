package wire_test

import (
	"fmt"

	"github.com/ddsgo/ddsgo/internal/wire"
)

// Build a message with INFO_TS + DATA + HEARTBEAT, then read it back.
func Example() {
	prefix := wire.GuidPrefix{0x01, 0xdd, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
	writer := wire.EntityIDFromUint32(0x00001002) // user writer with key

	var w wire.Builder
	w.Reset(wire.Header{Version: wire.ProtocolVersion25, Vendor: wire.VendorDDSGo, Prefix: prefix})
	ts := wire.InfoTS{Timestamp: wire.Time{Seconds: 1700000000}}
	w.Buf = ts.Append(w.Buf)
	data := wire.Data{
		DataFlag:          true,
		ReaderID:          wire.EntityIDUnknown,
		WriterID:          writer,
		WriterSN:          1,
		SerializedPayload: []byte{0x00, 0x01, 0x00, 0x00, 42, 0, 0, 0}, // CDR_LE, int32 42
	}
	w.Buf = data.Append(w.Buf)
	hb := wire.Heartbeat{WriterID: writer, FirstSN: 1, LastSN: 1, Count: 1}
	w.Buf = hb.Append(w.Buf)

	var r wire.Reader
	if err := r.Reset(w.Bytes()); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("from", r.Header.Prefix, "vendor", r.Header.Vendor, "version", r.Header.Version)
	var (
		d wire.Data
		h wire.Heartbeat
		t wire.InfoTS
	)
	for r.Next() {
		switch r.Kind() {
		case wire.KindInfoTS:
			if err := r.InfoTS(&t); err == nil {
				fmt.Println(r.Kind(), t.Timestamp.Time().Unix())
			}
		case wire.KindData:
			if err := r.Data(&d); err == nil {
				fmt.Println(r.Kind(), d.WriterID, "sn", d.WriterSN, "payload", fmt.Sprintf("% x", d.SerializedPayload))
			}
		case wire.KindHeartbeat:
			if err := r.Heartbeat(&h); err == nil {
				fmt.Println(r.Kind(), h.FirstSN, "..", h.LastSN, "final", h.Final)
			}
		default:
			fmt.Println("skip", r.Kind())
		}
	}
	fmt.Println("err", r.Err(), "size", len(w.Bytes()))
	// Output:
	// from 01dd0102.03040506.0708090a vendor 01.dd version 2.5
	// INFO_TS 1700000000
	// DATA 00001002 sn 1 payload 00 01 00 00 2a 00 00 00
	// HEARTBEAT 1 .. 1 final false
	// err <nil> size 96
}
