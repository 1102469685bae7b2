package status

import "github.com/ddsgo/ddsgo/listener"

// GUIDHandle returns the handle of the entity with the 16-byte GUID guid (prefix
// then entity id). Real GUIDs are never all zero, so the handle is never HandleNil.
func GUIDHandle(guid [16]byte) listener.InstanceHandle { return listener.InstanceHandle(guid) }

// keyHashMask turns a key hash into an instance handle. A key hash is the zero-padded key
// for short keys, so a plain key hash of 0 (an int32 key 0) would be HandleNil; XOR with
// an irregular constant moves that collision to a key hash no one plausibly writes.
var keyHashMask = listener.InstanceHandle{
	0x9e, 0x37, 0x79, 0xb9, 0x7f, 0x4a, 0x7c, 0x15,
	0xf3, 0x9c, 0xc0, 0x60, 0x5c, 0xed, 0xc8, 0x35,
}

// KeyHandle returns the handle of the instance with the 16-byte key hash kh
// (RTPS 2.5 §9.6.4.8): kh XOR a fixed mask, so that the all-zero key hash of a zero key is
// not HandleNil. Distinct key hashes give distinct handles.
func KeyHandle(kh [16]byte) listener.InstanceHandle {
	var h listener.InstanceHandle
	for i := range h {
		h[i] = kh[i] ^ keyHashMask[i]
	}
	return h
}
