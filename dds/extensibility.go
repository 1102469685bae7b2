package dds

import "github.com/ddsgo/ddsgo/internal/cdr"

// Extensibility is the XTypes extensibility kind of a topic type (XTypes 1.3
// §7.2.2.4.4.4.7). A type is Final unless it declares otherwise with a method on its value
// receiver:
//
//	func (Sample) DDSExtensibility() dds.Extensibility { return dds.Appendable }
//
// Final types travel in XCDR1 unless XCDR2 is negotiated; appendable and mutable ones in
// XCDR2.
type Extensibility = cdr.Extensibility

// The extensibility kinds.
const (
	Final      = cdr.Final
	Appendable = cdr.Appendable
	Mutable    = cdr.Mutable
)
