// Package pcapng reads UDP datagrams out of packet capture files and writes
// datagrams into classic pcap files. It is test infrastructure: golden
// vectors captured from real DDS peers are read with it, and datagrams this
// module generates are written with it so that tshark can dissect them.
//
// # Reading
//
// [Parse] takes a whole file in memory (pcapng or classic pcap, either byte
// order, microsecond or nanosecond timestamps; the format is detected from the
// first bytes) and returns every UDP datagram found. Link types Ethernet
// (with 802.1Q tags), Linux cooked capture v1 and v2, BSD loopback and raw IP
// are understood; IPv4 and IPv6 (skipping extension headers) carry the UDP.
// Nothing is reassembled: IP fragments, truncated packets, non-UDP packets and
// unknown link types are counted in [Stats] and skipped. Parsing is bounded by
// the input: no length field in the file is trusted beyond the bytes present,
// and garbage yields an error, never a panic.
//
// # Writing
//
// [Writer] writes a classic pcap file (link type Ethernet, microsecond
// resolution) with one Ethernet/IPv4 or Ethernet/IPv6 UDP frame per
// [Datagram], with correct IP and UDP checksums (or a zero UDP checksum over
// IPv4 when asked to).
package pcapng
