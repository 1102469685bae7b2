package rhc

// ring is a FIFO of E in a circular slice. It grows by doubling up to limit elements (0:
// no limit) and never shrinks, so that a steady stream of pushes and removals allocates
// nothing. Free slots always hold the zero E, so that removed values are not kept alive.
type ring[E any] struct {
	buf   []E
	head  int
	n     int
	limit int
}

func (r *ring[E]) len() int { return r.n }

// at returns the i-th oldest element, 0 <= i < len.
func (r *ring[E]) at(i int) *E {
	j := r.head + i
	if j >= len(r.buf) {
		j -= len(r.buf)
	}
	return &r.buf[j]
}

// push appends an element at the back and returns it (zeroed).
func (r *ring[E]) push() *E {
	if r.n == len(r.buf) {
		r.grow()
	}
	r.n++
	return r.at(r.n - 1)
}

func (r *ring[E]) grow() {
	size := max(4, 2*len(r.buf))
	if r.limit > 0 {
		size = max(min(size, r.limit), r.n+1)
	}
	buf := make([]E, size)
	for i := range r.n {
		buf[i] = *r.at(i)
	}
	r.buf, r.head = buf, 0
}

// popFront removes the oldest element.
func (r *ring[E]) popFront() {
	var zero E
	r.buf[r.head] = zero
	r.head++
	if r.head == len(r.buf) {
		r.head = 0
	}
	r.n--
}

// dropFront removes the k oldest elements, k <= len.
func (r *ring[E]) dropFront(k int) {
	for range k {
		r.popFront()
	}
}

// filter keeps, in order, the elements for which keep is true and removes the others. It
// returns how many it removed.
func (r *ring[E]) filter(keep func(*E) bool) int {
	w := 0
	for i := range r.n {
		e := r.at(i)
		if !keep(e) {
			continue
		}
		if w != i {
			*r.at(w) = *e
		}
		w++
	}
	var zero E
	for i := w; i < r.n; i++ {
		*r.at(i) = zero
	}
	removed := r.n - w
	r.n = w
	return removed
}

// clear removes every element.
func (r *ring[E]) clear() {
	var zero E
	for i := range r.n {
		*r.at(i) = zero
	}
	r.head, r.n = 0, 0
}
