package dds

import "github.com/ddsgo/ddsgo/internal/cdr"

// Extensibility is a type's XTypes extensibility kind (DDS-XTypes 1.3 §7.2.2.4.4): how its
// samples are encoded and how far two versions of it may differ and still match. A topic
// type that is not final declares it with a method
// `func (T) DDSExtensibility() dds.Extensibility`.
type Extensibility = cdr.Extensibility

const (
	// Final types never change: plain CDR, members in order.
	Final = cdr.Final
	// Appendable types may gain members at the end: XCDR2 puts a DHEADER before them.
	Appendable = cdr.Appendable
	// Mutable types may gain, lose and reorder members: each is sent with its member id.
	Mutable = cdr.Mutable
)
