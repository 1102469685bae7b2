package sim

import (
	"math"

	si "github.com/ddsgo/ddsgo/ros/simulation_interfaces"
)

// convex is the convex hull of pts grown by radius (a sphere is one point and a
// radius; a point has radius 0).
type convex struct {
	pts    []Vector3
	radius float64
}

// support returns the point of pts farthest in direction d.
func support(pts []Vector3, d Vector3) Vector3 {
	best, bd := pts[0], pts[0].dot(d)
	for _, p := range pts[1:] {
		if v := p.dot(d); v > bd {
			best, bd = p, v
		}
	}
	return best
}

// overlap reports whether a and b share a point (touching counts).
func overlap(a, b *convex) bool {
	d := hullDistance(a.pts, b.pts)
	r := a.radius + b.radius
	return d <= r+1e-9*math.Max(1, r)
}

// hullDistance returns the distance between the convex hulls of a and b (0 if they
// intersect), by the GJK algorithm on the Minkowski difference a-b.
func hullDistance(a, b []Vector3) float64 {
	var buf [4]Vector3
	simplex := buf[:0]
	v := a[0].sub(b[0])
	simplex = append(simplex, v)
	for range 64 {
		vv := v.dot(v)
		if vv <= 1e-24 {
			return 0
		}
		w := support(a, v.scale(-1)).sub(support(b, v))
		// Stop when w brings the simplex no closer to the origin.
		if vv-v.dot(w) <= 1e-12*vv {
			break
		}
		dup := false
		for _, s := range simplex {
			if s == w {
				dup = true
			}
		}
		if dup {
			break
		}
		simplex = append(simplex, w)
		v, simplex = closestOnSimplex(simplex)
		if len(simplex) == 4 {
			return 0 // the origin is inside the tetrahedron
		}
	}
	return math.Sqrt(v.dot(v))
}

// closestOnSimplex returns the point of the simplex s (1 to 4 points) closest to the
// origin and the smallest face of s that contains it, written over s. It tries every
// face, which is cheap for at most 15 faces.
func closestOnSimplex(s []Vector3) (Vector3, []Vector3) {
	n := len(s)
	var (
		best     Vector3
		bestD    = math.Inf(1)
		bestMask int
		bestSize int
	)
	for mask := 1; mask < 1<<n; mask++ {
		var face [4]Vector3
		k := 0
		for i := range n {
			if mask&(1<<i) != 0 {
				face[k] = s[i]
				k++
			}
		}
		p, ok := closestOnFace(face[:k])
		if !ok {
			continue
		}
		d := p.dot(p)
		if d < bestD || (d == bestD && k < bestSize) {
			best, bestD, bestMask, bestSize = p, d, mask, k
		}
	}
	out := s[:0]
	var keep [4]Vector3
	copy(keep[:], s)
	for i := range n {
		if bestMask&(1<<i) != 0 {
			out = append(out, keep[i])
		}
	}
	return best, out
}

// closestOnFace returns the point of the affine hull of f closest to the origin, and
// whether it lies strictly inside f (all barycentric weights positive); false also for
// a degenerate face.
func closestOnFace(f []Vector3) (Vector3, bool) {
	p0 := f[0]
	k := len(f) - 1
	if k == 0 {
		return p0, true
	}
	// Solve (DᵀD)λ = -Dᵀp0 with D = [f[i]-p0], by Gaussian elimination.
	var d [3]Vector3
	for i := range k {
		d[i] = f[i+1].sub(p0)
	}
	var a [3][4]float64
	scale := 0.0
	for i := range k {
		for j := range k {
			a[i][j] = d[i].dot(d[j])
		}
		a[i][k] = -d[i].dot(p0)
		scale = math.Max(scale, a[i][i])
	}
	for c := range k {
		piv := c
		for r := c + 1; r < k; r++ {
			if math.Abs(a[r][c]) > math.Abs(a[piv][c]) {
				piv = r
			}
		}
		if math.Abs(a[piv][c]) <= 1e-12*scale {
			return Vector3{}, false
		}
		a[c], a[piv] = a[piv], a[c]
		for r := range k {
			if r == c {
				continue
			}
			f := a[r][c] / a[c][c]
			for j := c; j <= k; j++ {
				a[r][j] -= f * a[c][j]
			}
		}
	}
	p := p0
	sum := 0.0
	for i := range k {
		l := a[i][k] / a[i][i]
		if l <= 0 {
			return Vector3{}, false
		}
		sum += l
		p = p.add(d[i].scale(l))
	}
	if sum >= 1 {
		return Vector3{}, false
	}
	return p, true
}

// finite reports whether every coordinate of v is a finite number.
func finite(v Vector3) bool {
	return !math.IsNaN(v.X+v.Y+v.Z) && !math.IsInf(v.X, 0) && !math.IsInf(v.Y, 0) && !math.IsInf(v.Z, 0)
}

// checkBounds validates b; it returns a *filterError for a bounds type that is
// unknown (dds.ErrUnsupported) or malformed (dds.ErrBadParameter).
func checkBounds(b Bounds) error {
	for _, p := range b.Points {
		if !finite(p) {
			return invalid("bounds: non-finite point")
		}
	}
	switch b.Type {
	case si.Bounds_TYPE_EMPTY:
		if len(b.Points) != 0 {
			return invalid("bounds: empty bounds with points")
		}
	case si.Bounds_TYPE_BOX:
		if len(b.Points) != 2 {
			return invalid("bounds: a box needs 2 points")
		}
	case si.Bounds_TYPE_SPHERE:
		if len(b.Points) != 2 {
			return invalid("bounds: a sphere needs 2 points (center, radius in x)")
		}
		if b.Points[1].X < 0 {
			return invalid("bounds: negative sphere radius")
		}
	case si.Bounds_TYPE_CONVEX_HULL:
		if len(b.Points) < 3 {
			return invalid("bounds: a convex hull needs at least 3 points")
		}
		if collinear(b.Points) {
			return invalid("bounds: convex hull points are collinear")
		}
	default:
		return &filterError{unsupported: true, msg: "bounds: unsupported type " + itoa(int(b.Type))}
	}
	return nil
}

// collinear reports whether all of pts lie on one line.
func collinear(pts []Vector3) bool {
	p0 := pts[0]
	var dir Vector3
	for _, p := range pts[1:] {
		if d := p.sub(p0); d.dot(d) > dir.dot(dir) {
			dir = d
		}
	}
	l := dir.dot(dir)
	if l == 0 {
		return true
	}
	for _, p := range pts[1:] {
		c := dir.cross(p.sub(p0))
		if c.dot(c) > 1e-18*l*l {
			return false
		}
	}
	return true
}

// shapeOf returns the valid, non-empty bounds b placed at pose.
func shapeOf(b Bounds, pose Pose) convex {
	switch b.Type {
	case si.Bounds_TYPE_SPHERE:
		return convex{pts: []Vector3{pose.transform(b.Points[0])}, radius: b.Points[1].X}
	case si.Bounds_TYPE_BOX:
		lo, hi := b.Points[0], b.Points[1]
		lo, hi = Vector3{min(lo.X, hi.X), min(lo.Y, hi.Y), min(lo.Z, hi.Z)}, Vector3{max(lo.X, hi.X), max(lo.Y, hi.Y), max(lo.Z, hi.Z)}
		pts := make([]Vector3, 0, 8)
		for i := range 8 {
			c := lo
			if i&1 != 0 {
				c.X = hi.X
			}
			if i&2 != 0 {
				c.Y = hi.Y
			}
			if i&4 != 0 {
				c.Z = hi.Z
			}
			pts = append(pts, pose.transform(c))
		}
		return convex{pts: pts}
	default: // si.Bounds_TYPE_CONVEX_HULL
		pts := make([]Vector3, len(b.Points))
		for i, p := range b.Points {
			pts[i] = pose.transform(p)
		}
		return convex{pts: pts}
	}
}
