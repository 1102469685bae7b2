package xtypes

// Type assignability (DDS-XTypes 1.3 §7.2.4): whether data of a writer's type can be
// read as a reader's type, under the default TypeConsistencyEnforcement
// (ALLOW_TYPE_COERCION, ignore_member_names, ignore_string_bounds,
// ignore_sequence_bounds and prevent_type_widening false... as §7.6.3.4.2 gives them,
// with force_type_validation false).

// Verdict is the outcome of Assignable.
type Verdict uint8

// The verdicts.
const (
	// Unknown: a TypeObject needed to decide is not at hand.
	Unknown Verdict = iota
	// IsAssignable: the reader's type can read the writer's data.
	IsAssignable
	// NotAssignable: it cannot.
	NotAssignable
)

// Assignable decides whether the reader's type r (as announced in its TypeInformation)
// is assignable from the writer's type w, by their complete types when both announce
// them, else by the minimal ones. Identical identifiers are assignable without looking
// further.
func Assignable(w, r *Info, resolve Resolver) Verdict {
	wi, ri := w.Complete.Type.ID, r.Complete.Type.ID
	if !wi.Hashed() || !ri.Hashed() {
		wi, ri = w.Minimal.Type.ID, r.Minimal.Type.ID
	}
	if !wi.Hashed() || !ri.Hashed() {
		return Unknown
	}
	a := assigner{resolve: resolve}
	ok := a.ids(&ri, &wi, 0)
	switch {
	case a.unknown:
		return Unknown
	case ok:
		return IsAssignable
	}
	return NotAssignable
}

// assigner walks two types; unknown records a type it could not resolve.
type assigner struct {
	resolve Resolver
	unknown bool
}

// maxAssignDepth bounds the nesting Assignable follows (TypeObjects come from peers).
const maxAssignDepth = 32

// resolved resolves a hashed id through aliases; a non-hashed one is returned as it is.
func (a *assigner) resolved(id *TypeID) (*TypeID, *Type) {
	for range maxAssignDepth {
		if !id.Hashed() {
			return id, nil
		}
		t, ok := a.resolve(*id)
		if !ok {
			a.unknown = true
			return id, nil
		}
		if t.Kind != tkAlias {
			return id, t
		}
		id = &t.Related
	}
	a.unknown = true
	return id, nil
}

// ids reports whether the type r is assignable from w.
func (a *assigner) ids(r, w *TypeID, depth int) bool {
	if depth > maxAssignDepth {
		a.unknown = true
		return false
	}
	if r.Hashed() && w.Hashed() && r.Kind == w.Kind && r.Hash == w.Hash {
		return true
	}
	r, rt := a.resolved(r)
	w, wt := a.resolved(w)
	if a.unknown {
		return false
	}
	switch {
	case rt == nil && wt == nil:
		return a.plain(r, w, depth)
	case rt == nil || wt == nil || rt.Kind != wt.Kind:
		return false
	}
	switch rt.Kind {
	case tkStruct:
		return a.structs(rt, wt, depth)
	case tkUnion:
		return a.unions(rt, wt, depth)
	case tkEnum:
		return enums(rt, wt)
	}
	return false
}

// plain compares primitives, strings and plain collections (§7.2.4.4): primitives and
// string kinds identical (bounds are checked on reading, not here); sequences of
// assignable elements; arrays of the same dimensions and assignable elements.
func (a *assigner) plain(r, w *TypeID, depth int) bool {
	switch r.Kind {
	case tiString8S, tiString8L:
		return w.Kind == tiString8S || w.Kind == tiString8L
	case tiString16S, tiString16L:
		return w.Kind == tiString16S || w.Kind == tiString16L
	case tiSeqS, tiSeqL:
		return (w.Kind == tiSeqS || w.Kind == tiSeqL) && r.Elem != nil && w.Elem != nil && a.ids(r.Elem, w.Elem, depth+1)
	case tiArrayS, tiArrayL:
		if (w.Kind != tiArrayS && w.Kind != tiArrayL) || len(r.Dims) != len(w.Dims) || r.Elem == nil || w.Elem == nil {
			return false
		}
		for i := range r.Dims {
			if r.Dims[i] != w.Dims[i] {
				return false
			}
		}
		return a.ids(r.Elem, w.Elem, depth+1)
	}
	return r.Kind == w.Kind
}

// sameName reports whether two members have the same name (by hash in minimal types).
func sameName(x, y *Member) bool {
	if x.Name != "" && y.Name != "" {
		return x.Name == y.Name
	}
	return x.NameHash == y.NameHash
}

// flatMembers returns the members of struct t after those of its base types.
func (a *assigner) flatMembers(t *Type, depth int) []Member {
	if !t.Base.Hashed() || depth > maxAssignDepth {
		return t.Members
	}
	_, base := a.resolved(&t.Base)
	if base == nil || base.Kind != tkStruct {
		a.unknown = true
		return t.Members
	}
	return append(a.flatMembers(base, depth+1), t.Members...)
}

// structs applies §7.2.4.4.4: the same extensibility; final: the same members;
// appendable: one member list a prefix of the other; mutable: members of the same id
// alike; in every case at least one member in common, members in common with the same
// name and assignable types, and the same key members.
func (a *assigner) structs(r, w *Type, depth int) bool {
	if r.Ext != w.Ext {
		return false
	}
	rm, wm := a.flatMembers(r, depth), a.flatMembers(w, depth)
	switch r.Ext {
	case ExtFinal:
		if len(rm) != len(wm) {
			return false
		}
	case ExtAppendable:
	default:
		return a.mutableMembers(rm, wm, depth)
	}
	n := min(len(rm), len(wm))
	if n == 0 && len(rm)+len(wm) > 0 {
		return false
	}
	for i := range n {
		if !a.member(&rm[i], &wm[i], depth) {
			return false
		}
	}
	// A key member must be in both.
	for _, extra := range [][]Member{rm[n:], wm[n:]} {
		for i := range extra {
			if extra[i].Key() {
				return false
			}
		}
	}
	return true
}

func (a *assigner) member(r, w *Member, depth int) bool {
	return r.ID == w.ID && sameName(r, w) && r.Key() == w.Key() && a.ids(&r.Type, &w.Type, depth+1)
}

func (a *assigner) mutableMembers(rm, wm []Member, depth int) bool {
	common := 0
	for i := range rm {
		found := false
		for j := range wm {
			if rm[i].ID != wm[j].ID {
				continue
			}
			if !a.member(&rm[i], &wm[j], depth) {
				return false
			}
			found = true
			common++
			break
		}
		if !found && rm[i].Key() {
			return false
		}
	}
	for j := range wm { // a writer's key member the reader lacks
		if !wm[j].Key() {
			continue
		}
		found := false
		for i := range rm {
			found = found || rm[i].ID == wm[j].ID
		}
		if !found {
			return false
		}
	}
	return common > 0 || len(rm)+len(wm) == 0
}

// unions applies §7.2.4.4.5 in part: the same extensibility and discriminator type, and
// members of the same id with assignable types and the same labels.
func (a *assigner) unions(r, w *Type, depth int) bool {
	if r.Ext != w.Ext || !a.ids(&r.Disc, &w.Disc, depth+1) {
		return false
	}
	if r.Ext == ExtFinal && len(r.Members) != len(w.Members) {
		return false
	}
	common := 0
	for i := range r.Members {
		for j := range w.Members {
			if r.Members[i].ID != w.Members[j].ID {
				continue
			}
			if !sameName(&r.Members[i], &w.Members[j]) || !sameLabels(r.Members[i].Labels, w.Members[j].Labels) ||
				!a.ids(&r.Members[i].Type, &w.Members[j].Type, depth+1) {
				return false
			}
			common++
		}
	}
	return common > 0 || len(r.Members)+len(w.Members) == 0
}

func sameLabels(x, y []int32) bool {
	if len(x) != len(y) {
		return false
	}
	for i := range x {
		if x[i] != y[i] {
			return false
		}
	}
	return true
}

// enums applies §7.2.4.4.3 for the enums Cyclone DDS 0.10.2 and ddsgo describe (final
// enums): the same bit bound and the same enumerators, by name and value.
func enums(r, w *Type) bool {
	if r.BitBound != w.BitBound || len(r.Literals) != len(w.Literals) {
		return false
	}
	for i := range r.Literals {
		x, y := &r.Literals[i], &w.Literals[i]
		if x.Value != y.Value || x.NameHash != y.NameHash {
			return false
		}
	}
	return true
}
