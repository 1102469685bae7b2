package cdr

// Pos returns the read position in the units of the ends DHeader and Member return (an
// index into the input), so that a caller can compare it with them; Pos()+Remaining() is
// the end of the data, the end of an XCDR1 parameter list.
func (d *Decoder) Pos() int { return d.off }
