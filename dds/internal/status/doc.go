// Package status keeps the communication statuses of DDS 1.4 §2.2.4 for package dds:
// the counters that events update and status reads reset, and the instance handles made
// from GUIDs and key hashes.
package status
