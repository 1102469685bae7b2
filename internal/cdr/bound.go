package cdr

import (
	"errors"
	"fmt"
	"strconv"
	"unsafe"
)

// nameBound adds to err, when it is ErrBound, the member of the value at p that
// exceeds its bound ("member Header.FrameID: ..."): the encoder only knows that one
// did, and finding which costs a walk of the value, done on this error path only.
func (t *typ) nameBound(p unsafe.Pointer, err error) error {
	if !errors.Is(err, ErrBound) {
		return err
	}
	if path, ok := t.overBound(p, ""); ok && path != "" {
		return fmt.Errorf("member %s: %w", path, err)
	}
	return err
}

// overBound returns the path of the first string or sequence in the value at p that is
// longer than its bound: Go field names joined by dots, and [i] for elements.
func (t *typ) overBound(p unsafe.Pointer, path string) (string, bool) {
	switch t.kind {
	case kString:
		return path, t.bound > 0 && len(*(*string)(p)) > t.bound
	case kSlice:
		h := (*sliceHeader)(p)
		if t.bound > 0 && h.len > t.bound {
			return path, true
		}
		return t.elem.overBoundElems(h.data, h.len, path)
	case kArray:
		return t.elem.overBoundElems(p, t.n, path)
	case kStruct:
		for i := range t.fields {
			f := &t.fields[i]
			fp := unsafe.Add(p, f.off)
			if f.optional {
				if fp = *(*unsafe.Pointer)(fp); fp == nil {
					continue
				}
			}
			if q, ok := f.t.overBound(fp, join(path, f.name)); ok {
				return q, true
			}
		}
	case kUnion:
		df := &t.fields[t.disc]
		if c := t.unionCase(readInt(df.t, unsafe.Add(p, df.off))); c != nil {
			return c.t.overBound(unsafe.Add(p, c.off), join(path, c.name))
		}
	default:
	}
	return "", false
}

// overBoundElems is overBound for n consecutive elements of type t from p.
func (t *typ) overBoundElems(p unsafe.Pointer, n int, path string) (string, bool) {
	if t.primitive() {
		return "", false
	}
	size := t.rt.Size()
	for i := range n {
		if q, ok := t.overBound(unsafe.Add(p, uintptr(i)*size), path+"["+strconv.Itoa(i)+"]"); ok {
			return q, true
		}
	}
	return "", false
}

func join(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}
