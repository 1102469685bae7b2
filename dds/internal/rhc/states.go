package rhc

import "strings"

// The state kinds and their numbering follow the DCPS IDL (DDS 1.4 §2.2.2.5.1.x): each
// state is one bit, so that a set of states is a mask.

// SampleState is SampleStateKind: whether the application has already accessed a sample
// with read or take. As a mask it selects samples; the zero mask selects every sample.
type SampleState uint8

// The sample states and their union.
const (
	ReadSampleState    SampleState = 1 << 0
	NotReadSampleState SampleState = 1 << 1
	AnySampleState                 = ReadSampleState | NotReadSampleState
)

// String returns the spec names joined with "|", e.g. "NOT_READ".
func (s SampleState) String() string {
	return maskString(uint8(s), "READ", "NOT_READ")
}

// ViewState is ViewStateKind: whether the application has accessed samples of the
// current generation of an instance (NOT_NEW) or not (NEW). As a mask it selects
// instances; the zero mask selects every instance.
type ViewState uint8

// The view states and their union.
const (
	NewViewState    ViewState = 1 << 0
	NotNewViewState ViewState = 1 << 1
	AnyViewState              = NewViewState | NotNewViewState
)

// String returns the spec names joined with "|", e.g. "NEW".
func (s ViewState) String() string {
	return maskString(uint8(s), "NEW", "NOT_NEW")
}

// InstanceState is InstanceStateKind: whether an instance is alive, disposed by a writer,
// or has no live writers. As a mask it selects instances; the zero mask selects every
// instance.
type InstanceState uint8

// The instance states and the usual unions.
const (
	AliveInstanceState             InstanceState = 1 << 0
	NotAliveDisposedInstanceState  InstanceState = 1 << 1
	NotAliveNoWritersInstanceState InstanceState = 1 << 2
	NotAliveInstanceState                        = NotAliveDisposedInstanceState | NotAliveNoWritersInstanceState
	AnyInstanceState                             = AliveInstanceState | NotAliveInstanceState
)

// String returns the spec names joined with "|", e.g. "NOT_ALIVE_DISPOSED".
func (s InstanceState) String() string {
	return maskString(uint8(s), "ALIVE", "NOT_ALIVE_DISPOSED", "NOT_ALIVE_NO_WRITERS")
}

func maskString(m uint8, names ...string) string {
	if m == 0 {
		return "0"
	}
	var b strings.Builder
	for i, n := range names {
		if m&(1<<i) != 0 {
			if b.Len() > 0 {
				b.WriteByte('|')
			}
			b.WriteString(n)
			m &^= 1 << i
		}
	}
	if m != 0 {
		if b.Len() > 0 {
			b.WriteByte('|')
		}
		b.WriteString("0x")
		const hex = "0123456789abcdef"
		b.WriteByte(hex[m>>4])
		b.WriteByte(hex[m&15])
	}
	return b.String()
}
