// Package wire encodes and decodes RTPS 2.5 messages (OMG DDSI-RTPS,
// formal/22-04-01, chapters 8.3 and 9.4): the message header, all
// submessages, and the submessage elements they are made of (GUIDs,
// locators, sequence numbers and their sets, timestamps). ParameterLists
// and PIDs (param*.go, pid*.go) are decoded by the same package.
//
// # Message layout
//
// An RTPS message is one UDP datagram: a 20-byte header ("RTPS", protocol
// version, vendor id, GUID prefix of the sender) followed by submessages.
// Every submessage starts with a 4-byte header: kind, flags, and
// octetsToNextHeader, the size of the body. Interpreter submessages
// (INFO_TS, INFO_DST, INFO_SRC, INFO_REPLY, INFO_REPLY_IP4, PAD) set
// the context for the entity submessages that follow them (DATA,
// DATA_FRAG, HEARTBEAT, HEARTBEAT_FRAG, ACKNACK, NACK_FRAG, GAP). A typical
// user-data message of Cyclone DDS is header + INFO_TS + DATA + HEARTBEAT.
//
// octetsToNextHeader 0 makes the submessage extend to the end of the
// message (so it must be the last one), except for PAD and INFO_TS, where it
// means an empty body.
//
// # Reading
//
// A Reader walks the submessages of a message without allocating:
// Reader.Reset parses the header, Reader.Next frames each submessage, and a
// typed accessor (Reader.Data, Reader.Heartbeat, ...) decodes the current
// one into a struct the caller reuses from message to message. Each
// submessage also has a ParseX function (ParseData, ParseHeartbeat, ...)
// that parses one submessage, header included, from a byte slice.
//
// Elements have the shape ParseX(b, be) (X, n, err), x.Append(b, be) and
// x.Len(). Elements made only of octets (GuidPrefix, EntityID, GUID,
// ProtocolVersion, VendorID, Header) have no byte order and take no be
// argument.
//
// # Writing
//
// Every submessage struct has Append, which writes the submessage header
// and body, and Len, which gives the size Append writes. A Builder (or any
// reused []byte) collects the header and submessages of an outgoing
// message; appending into a buffer with enough capacity allocates nothing.
// DATA and DATA_FRAG are padded with zeros to a multiple of 4 octets, as
// the alignment of the next submessage requires.
//
// # Endianness
//
// The E flag (bit 0 of the flags) of each submessage selects its byte
// order: set means little-endian. Every submessage struct has a BigEndian
// field, set by parsing and obeyed by Append; the zero value writes
// little-endian, like Cyclone DDS and Fast DDS on x86 and ARM. Element
// functions take the byte order as a be flag. Serialized payloads and
// parameter lists inside DATA carry their own encapsulation byte order.
//
// # Ownership
//
// Parsing copies nothing: Data.InlineQoS, Data.SerializedPayload,
// DataFrag.InlineQoS, DataFrag.Fragments, Reader.Body and
// Reader.Submessage are sub-slices of the message passed in. They stay
// valid only as long as that buffer is not reused; copy what must outlive
// it. Append never retains its argument.
//
// # Errors
//
// Bad input never panics and never makes the decoder allocate more than
// the input size. Errors are package-prefixed ("wire: HEARTBEAT: ...") and
// wrap ErrTruncated (the input ends before the element) or ErrInvalid (a
// value the specification forbids), or are ErrNotRTPS / ErrVersion for a
// datagram that is not RTPS 2.x. They are preallocated: the error path
// does not allocate either.
//
// The decoders check what RTPS 2.5 §8.3.7 lists as making a submessage
// invalid (for example a SequenceNumberSet of more than 256 bits, a
// HEARTBEAT whose firstSN is below 1, a DATA with both the D and K flags).
// They do not check entity id kinds or anything that needs receiver state.
// A Reader stops with Err only when the framing is broken; an invalid
// submessage is reported by its accessor, and the caller decides whether
// to drop the rest of the message, as §8.3.4.1 advises. Unknown and
// vendor-specific submessage kinds (such as the 0x80 submessage Fast DDS
// appends to every message) are returned by Next like the others and are
// simply skipped by callers that do not know them.
//
// # Parameter lists
//
// SPDP and SEDP payloads (after their PL_CDR encapsulation header) and the
// inline QoS of DATA are ParameterLists: (PID, length, value) triples ended
// by PID_SENTINEL. A ParameterReader iterates them without allocating and
// stops with MustUnderstandError at an unknown PID whose must-understand
// bit is set; vendor-specific PIDs (bit 15) are returned to the caller, who
// interprets them only when ParameterID.Known says so for the sending
// vendor (0x8007 means different things to Cyclone DDS and Fast DDS). A
// ParamWriter appends parameters padded to 4 octets and the sentinel.
//
// Every PID value has a typed codec in the same Parse/Append/Len shape:
// locators, durations, GUIDs, strings, PropertyList, KeyHash, StatusInfo
// (always big-endian) and the QoS policies in their wire form (Reliability
// kind 1 is best effort and 2 reliable; History depth -1 is Cyclone's
// KEEP_ALL). Fast DDS reads QoS values with exact lengths and takes enum
// kinds from their first octet, so discovery data is written PL_CDR_LE.
//
// # Deviations
//
// Parsed fields that RTPS 2.5 leaves open are normalized when written
// again: octetsToInlineQos is always written as 16 (DATA) or 28 (DATA_FRAG),
// octetsToNextHeader always holds the real length, and the optional group
// information of HEARTBEAT and GAP (G flag, RTPS 2.4+) is not decoded.
// Every datagram in the Cyclone DDS 0.10 and Fast DDS 2.9 captures
// re-encodes to identical bytes.
package wire
