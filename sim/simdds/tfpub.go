package simdds

import (
	"context"
	"time"

	"github.com/ddsgo/ddsgo/dds"
	"github.com/ddsgo/ddsgo/ecm"
	"github.com/ddsgo/ddsgo/ros/geometry_msgs"
	"github.com/ddsgo/ddsgo/ros/tf2_msgs"
	"github.com/ddsgo/ddsgo/sim"
)

// tfTopic is the DDS topic of ROS 2's /tf.
const tfTopic = "rt/tf"

// TfPublisher is a system that publishes the pose of every model and link, relative to
// its parent, on /tf (tf2_msgs/TFMessage) at most once per period of simulation time:
// frame_id is the parent's scoped name (sim.WorldFrame for a model of the world),
// child_frame_id the entity's scoped name ("model::link", Gazebo's form). In steady
// state it allocates nothing: the message and the frame names are kept between steps.
type TfPublisher struct {
	pubTopic[tf2_msgs.TFMessage]
	period time.Duration
	next   time.Duration
	msg    tf2_msgs.TFMessage
	names  nameCache  // scoped names, computed once per entity
	r      ecm.Reader // of the step being published
	// ids of Model, Link and World in r: EntityHasComponentType with them is cheaper than
	// Has, which looks the type up each time (in a map when its cache slot is taken)
	model, link, world ecm.ComponentID
	stamp              geometry_msgs.TransformStamped
	each               func(ecm.Entity, sim.Name, sim.Pose) bool
}

// NewTfPublisher creates the /tf topic and writer in p; period 0 publishes every step.
func NewTfPublisher(p *dds.DomainParticipant, period time.Duration) (*TfPublisher, error) {
	pt, err := newPubTopic[tf2_msgs.TFMessage](p, tfTopic, dds.Reliable(), dds.KeepLast(1))
	if err != nil {
		return nil, err
	}
	c := &TfPublisher{pubTopic: pt, period: period}
	c.each = c.add
	return c, nil
}

// PostUpdate publishes the poses when a period has passed.
func (c *TfPublisher) PostUpdate(info sim.UpdateInfo, r ecm.Reader) {
	if info.SimTime < c.next && info.Dt >= 0 {
		return
	}
	c.next = info.SimTime + c.period
	if c.names.n > 2*r.EntityCount()+16 {
		c.names.reset() // entities were removed: forget their names
	}
	c.r = r
	c.model, c.link, c.world = typeID[sim.Model](r), typeID[sim.Link](r), typeID[sim.World](r)
	c.stamp.Header.Stamp = rosTime(info.SimTime)
	c.msg.Transforms = c.msg.Transforms[:0]
	ecm.EachRO2(r, c.each)
	_ = c.w.Write(context.Background(), &c.msg) // KEEP_LAST never blocks
}

// add appends the transform of e if it is a model or a link.
func (c *TfPublisher) add(e ecm.Entity, _ sim.Name, pose sim.Pose) bool {
	if !c.r.EntityHasComponentType(e, c.model) && !c.r.EntityHasComponentType(e, c.link) {
		return true
	}
	parent := c.r.ParentEntity(e)
	ts := c.stamp
	ts.Header.FrameID = sim.WorldFrame
	if parent != ecm.Null && !c.r.EntityHasComponentType(parent, c.world) {
		ts.Header.FrameID = c.scoped(parent)
	}
	ts.ChildFrameID = c.scoped(e)
	q := pose.Orientation
	if q == (sim.Quaternion{}) {
		q.W = 1
	}
	ts.Transform = geometry_msgs.Transform{
		Translation: geometry_msgs.Vector3{X: pose.Position.X, Y: pose.Position.Y, Z: pose.Position.Z},
		Rotation:    geometry_msgs.Quaternion{X: q.X, Y: q.Y, Z: q.Z, W: q.W},
	}
	c.msg.Transforms = append(c.msg.Transforms, ts)
	return true
}

// typeID returns the id of component type T in r, or one no entity has if T is not
// registered.
func typeID[T any](r ecm.Reader) ecm.ComponentID {
	if id, ok := ecm.LookupID[T](r); ok {
		return id
	}
	return ecm.MaxComponentTypes
}

// scoped returns e's scoped name, kept for the next steps.
func (c *TfPublisher) scoped(e ecm.Entity) string { return scopedName(c.r, e, &c.names) }

// scopedName returns e's name prefixed by its ancestors' below the world, joined by "::"
// ("robot::arm", Gazebo's form). Names found are kept in cache, which may be nil.
func scopedName(r ecm.Reader, e ecm.Entity, cache *nameCache) string {
	if s, ok := cache.get(e); ok {
		return s
	}
	name, _ := ecm.ComponentData[sim.Name](r, e)
	s := string(name)
	if p := r.ParentEntity(e); p != ecm.Null && !ecm.Has[sim.World](r, p) {
		s = scopedName(r, p, cache) + "::" + s
	}
	if cache != nil {
		cache.put(e, s, r.EntityCount())
	}
	return s
}

// nameCache keeps a string per entity: in a slice indexed by entity id for ids up to a
// few times the entity count (a map lookup per entity and step was a tenth of a /tf
// step at 10,000 entities), in a map for ids beyond.
type nameCache struct {
	dense []cachedName
	far   map[ecm.Entity]string
	n     int // names kept
}

type cachedName struct {
	s  string
	ok bool
}

// get returns the name kept for e, if any; c may be nil.
func (c *nameCache) get(e ecm.Entity) (string, bool) {
	switch {
	case c == nil:
		return "", false
	case e < ecm.Entity(len(c.dense)):
		return c.dense[e].s, c.dense[e].ok
	default:
		s, ok := c.far[e]
		return s, ok
	}
}

// put keeps s as the name of e, in a world of count entities.
func (c *nameCache) put(e ecm.Entity, s string, count int) {
	if limit := ecm.Entity(4*count + 64); e >= ecm.Entity(len(c.dense)) && e < limit {
		c.dense = append(c.dense, make([]cachedName, int(limit)-len(c.dense))...)
	}
	if e < ecm.Entity(len(c.dense)) {
		if !c.dense[e].ok {
			c.n++
		}
		c.dense[e] = cachedName{s: s, ok: true}
		return
	}
	if c.far == nil {
		c.far = map[ecm.Entity]string{}
	}
	if _, ok := c.far[e]; !ok {
		c.n++
	}
	c.far[e] = s
}

// reset forgets every name.
func (c *nameCache) reset() {
	clear(c.dense)
	clear(c.far)
	c.n = 0
}

// Close deletes the writer and the topic.
func (c *TfPublisher) Close() error { return c.pubTopic.Close() }
