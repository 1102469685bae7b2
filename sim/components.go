package sim

import (
	"math"

	"github.com/ddsgo/ddsgo/ecm"
)

// Standard components. Their registered names (see RegisterComponents) are the
// names below with the prefix "sim.".

// Name is the name of an entity (world, model, link...).
type Name string

// Vector3 is a point or a vector in meters.
type Vector3 struct{ X, Y, Z float64 }

// Quaternion is a rotation. The zero Quaternion is read as the identity.
type Quaternion struct{ X, Y, Z, W float64 }

// Pose is the position and orientation of an entity relative to its parent entity
// (the world frame for an entity without parent).
type Pose struct {
	Position    Vector3
	Orientation Quaternion
}

// Category is the major category of an entity, as simulation_interfaces
// EntityCategory. An entity without a Category component is a CategoryObject.
type Category uint8

// Categories of simulation_interfaces EntityCategory (3 is unused).
const (
	CategoryObject        Category = 0
	CategoryRobot         Category = 1
	CategoryHuman         Category = 2
	CategoryDynamicObject Category = 4
	CategoryStaticObject  Category = 5
)

// Tags are free-form labels of an entity used by the tags filter.
type Tags []string

// Bounds is a volume, as simulation_interfaces Bounds, whose Type is one of that
// package's Bounds_TYPE_ constants: TYPE_EMPTY is no bounds (unbounded, no Points),
// TYPE_BOX an axis-aligned box given by two opposite corners, TYPE_CONVEX_HULL the
// convex hull of 3 or more points, not all collinear, and TYPE_SPHERE a sphere
// (Points[0] is the center, Points[1].X the radius). As the component of an entity it
// is relative to the entity's frame (its Pose composed with its parents' poses).
type Bounds struct {
	Type   uint8
	Points []Vector3
}

// Description is the free-form description of an entity (simulation_interfaces
// EntityInfo), registered as "sim.Description".
type Description string

// Frame marks a named frame of the world (SDF <frame>), a named pose of the
// simulation services; registered as "sim.Frame".
type Frame struct{}

// World marks the world entity.
type World struct{}

// Model marks a model entity.
type Model struct{}

// Link marks a link entity.
type Link struct{}

// Static marks a model that does not move (SDF <static>).
type Static bool

// RegisterComponents registers the standard component types with m under the names
// "sim.Name", "sim.Pose", "sim.Category", "sim.Tags", "sim.Bounds", "sim.World",
// "sim.Model", "sim.Link", "sim.Static", "sim.Description" and "sim.Frame", with ecm's default codec. A type that is
// already registered (under any name) is left as it is.
func RegisterComponents(m *ecm.Manager) {
	reg[Name](m, "sim.Name")
	reg[Pose](m, "sim.Pose")
	reg[Category](m, "sim.Category")
	reg[Tags](m, "sim.Tags")
	reg[Bounds](m, "sim.Bounds")
	reg[World](m, "sim.World")
	reg[Model](m, "sim.Model")
	reg[Link](m, "sim.Link")
	reg[Static](m, "sim.Static")
	reg[Description](m, "sim.Description")
	reg[Frame](m, "sim.Frame")
}

func reg[T any](m *ecm.Manager, name string) {
	if _, ok := ecm.LookupID[T](m); !ok {
		ecm.Register(m, name, ecm.Codec[T]{})
	}
}

// identityQuaternion is the rotation that does nothing.
var identityQuaternion = Quaternion{W: 1}

// quaternionFromEuler returns the rotation of roll about X, then pitch about Y, then
// yaw about Z (fixed axes), the convention of SDF poses.
func quaternionFromEuler(roll, pitch, yaw float64) Quaternion {
	sr, cr := math.Sincos(roll / 2)
	sp, cp := math.Sincos(pitch / 2)
	sy, cy := math.Sincos(yaw / 2)
	return Quaternion{
		X: sr*cp*cy - cr*sp*sy,
		Y: cr*sp*cy + sr*cp*sy,
		Z: cr*cp*sy - sr*sp*cy,
		W: cr*cp*cy + sr*sp*sy,
	}
}

// normalized returns q with unit length; the zero quaternion becomes the identity.
func (q Quaternion) normalized() Quaternion {
	n := math.Sqrt(q.X*q.X + q.Y*q.Y + q.Z*q.Z + q.W*q.W)
	if n == 0 || math.IsNaN(n) || math.IsInf(n, 0) {
		return identityQuaternion
	}
	return Quaternion{q.X / n, q.Y / n, q.Z / n, q.W / n}
}

// mul returns the product q·p: the rotation p followed by q.
func (q Quaternion) mul(p Quaternion) Quaternion {
	return Quaternion{
		X: q.W*p.X + q.X*p.W + q.Y*p.Z - q.Z*p.Y,
		Y: q.W*p.Y - q.X*p.Z + q.Y*p.W + q.Z*p.X,
		Z: q.W*p.Z + q.X*p.Y - q.Y*p.X + q.Z*p.W,
		W: q.W*p.W - q.X*p.X - q.Y*p.Y - q.Z*p.Z,
	}
}

// rotate returns v rotated by q (q is normalized first; zero means identity).
func (q Quaternion) rotate(v Vector3) Vector3 {
	q = q.normalized()
	// v' = v + 2w(u×v) + 2u×(u×v), with u the vector part of q.
	u := Vector3{q.X, q.Y, q.Z}
	t := u.cross(v).scale(2)
	return v.add(t.scale(q.W)).add(u.cross(t))
}

// add returns v+w.
func (v Vector3) add(w Vector3) Vector3 { return Vector3{v.X + w.X, v.Y + w.Y, v.Z + w.Z} }

// sub returns v-w.
func (v Vector3) sub(w Vector3) Vector3 { return Vector3{v.X - w.X, v.Y - w.Y, v.Z - w.Z} }

// scale returns s*v.
func (v Vector3) scale(s float64) Vector3 { return Vector3{s * v.X, s * v.Y, s * v.Z} }

// dot returns the dot product of v and w.
func (v Vector3) dot(w Vector3) float64 { return v.X*w.X + v.Y*w.Y + v.Z*w.Z }

// cross returns the cross product v×w.
func (v Vector3) cross(w Vector3) Vector3 {
	return Vector3{v.Y*w.Z - v.Z*w.Y, v.Z*w.X - v.X*w.Z, v.X*w.Y - v.Y*w.X}
}

// compose returns the pose of a frame given by child relative to p, relative to p's
// own reference: position p.Position + p.Orientation·child.Position, orientation
// p.Orientation·child.Orientation.
func (p Pose) compose(child Pose) Pose {
	return Pose{
		Position:    p.Position.add(p.Orientation.rotate(child.Position)),
		Orientation: p.Orientation.normalized().mul(child.Orientation.normalized()),
	}
}

// transform returns point v of p's frame in p's reference frame.
func (p Pose) transform(v Vector3) Vector3 {
	return p.Position.add(p.Orientation.rotate(v))
}

// ParentSource is a read view of a Manager with its parent graph: a *ecm.Manager or
// an ecm.Reader.
type ParentSource interface {
	ecm.Source
	ParentEntity(e ecm.Entity) ecm.Entity
}

// WorldPose returns the pose of e in the world frame: its Pose composed with the Pose
// of each ancestor (missing poses count as the identity), and whether e or an
// ancestor has a Pose.
func WorldPose(s ParentSource, e ecm.Entity) (Pose, bool) {
	w := Pose{Orientation: identityQuaternion}
	found := false
	// Bounded by the number of entities: the parent graph of ecm is a forest.
	for e != ecm.Null {
		if p, ok := ecm.ComponentData[Pose](s, e); ok {
			w = p.compose(w)
			found = true
		}
		e = s.ParentEntity(e)
	}
	return w, found
}
