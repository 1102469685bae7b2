package simdds

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/ddsgo/ddsgo/dds"
	"github.com/ddsgo/ddsgo/ecm"
	"github.com/ddsgo/ddsgo/sim"
)

// The world's own state streams, so that another process can follow the world in an ECM
// of its own (a replica): the full serialized state on stateTopic (TRANSIENT_LOCAL, so a
// late joiner gets the latest), published when entities were created or removed, and the
// changed state of every step on changesTopic (RELIABLE, TRANSIENT_LOCAL, the last
// changesDepth steps). Both are ecm's
// serialized state format; component types are matched by name on the replica's side.
// A replica that misses steps (it joined after them, or lost them) asks for a full state
// on requestTopic, and the publisher publishes one after its next step. entitiesTopic
// has one instance per entity (WorldEntity), for readers that want the structure and
// its changes without an ECM.
const (
	stateTopic    = "ddsgo/world/state"
	changesTopic  = "ddsgo/world/changes"
	requestTopic  = "ddsgo/world/state_request"
	entitiesTopic = "ddsgo/world/entities"
)

// WorldEntity is a sample of a StatePublisher's topic ddsgo/world/entities (type
// sim::WorldEntity; IDL: struct WorldEntity {@key uint64 Entity; string Name; string
// Kind;}): each entity of the world is an instance, written when the entity is created
// and unregistered, so disposed, when it is removed. The topic is RELIABLE,
// TRANSIENT_LOCAL, KEEP_LAST 1: a reader that joins late gets the live entities.
type WorldEntity struct {
	// Entity is the entity's id in the world's ECM, the key.
	Entity uint64 `dds:"key"`
	// Name is the scoped name, as in /tf: the entity's name after its ancestors' below
	// the world, joined by "::" ("robot::arm").
	Name string
	// Kind is "world", "model", "link" or "frame"; "" for other entities.
	Kind string
}

// DDSTypeName is the type's name on the wire, which it had before the package moved.
func (WorldEntity) DDSTypeName() string { return "sim::WorldEntity" }

// entityKind returns the Kind of e.
func entityKind(r ecm.Reader, e ecm.Entity) string {
	switch {
	case ecm.Has[sim.World](r, e):
		return "world"
	case ecm.Has[sim.Model](r, e):
		return "model"
	case ecm.Has[sim.Link](r, e):
		return "link"
	case ecm.Has[sim.Frame](r, e):
		return "frame"
	}
	return ""
}

// worldState is a sample of the state streams (IDL: struct ddsgo::sim::WorldState
// {uint64 Step; Duration_t SimTime; sequence<octet> State;}).
type worldState struct {
	// Step numbers the steps the publisher saw, from 1 (paused steps too, since their
	// controls may change the world).
	Step uint64
	// SimTime is the simulation time after that step.
	SimTime time.Duration
	// State is ecm's serialized state: the whole world after the step (stateTopic), or
	// the changes of the step (changesTopic).
	State []byte
}

func (worldState) DDSTypeName() string { return "ddsgo::sim::WorldState" }

// stateRequest asks for a full state (IDL: struct ddsgo::sim::StateRequest {uint64 Step;}).
type stateRequest struct {
	// Step is the step the replica holds (0: none).
	Step uint64
}

func (stateRequest) DDSTypeName() string { return "ddsgo::sim::StateRequest" }

// StatePublisher is a system that publishes the world's state streams after every step.
// The changes of a step are published in steady state without allocating. Like every
// change tracking of the ECM, it sees the components systems mark changed
// (SetComponentData, SetChanged): a value changed in place and not marked is not sent.
type StatePublisher struct {
	full, changes pubTopic[worldState]
	entities      pubTopic[WorldEntity]
	requests      subTopic[stateRequest]
	req           [1]stateRequest
	reqInfo       [1]dds.SampleInfo
	msg           worldState
	step          uint64
	published     bool
	live          []ecm.Entity
	changesBuf    []byte
}

// The QoS of the state streams' writers and readers. A request is transient-local so
// that a publisher matched after it was written still sees it. The changes are
// transient-local too, the writer keeping the last changesDepth steps: the replica's
// readers of the full state and of the changes match the publisher's writers each in
// its own time, and a step's changes written between the two matches (discovery across
// a lossy link takes a few repair rounds) would otherwise never reach it, leaving a
// replica that got its first full state stuck there until a later step showed the gap
// (dds TestReplicaUnderLoss, 20 % loss: 2 runs in 40 stuck at step 2). The writer never
// waits for a slow replica; one that falls more than changesDepth steps behind sees the
// gap and asks for a full state. The replica's reader keeps all it gets.
var (
	fullQos          = []dds.Option{dds.Reliable(), dds.TransientLocal(), dds.KeepLast(1)}
	changesWriterQos = []dds.Option{dds.Reliable(), dds.TransientLocal(), dds.KeepLast(changesDepth)}
	changesReaderQos = []dds.Option{dds.Reliable(), dds.TransientLocal(), dds.KeepAll()}
	requestQos       = fullQos
	noWait           = []dds.ReadOption{dds.NoWait()}
)

// changesDepth is the number of steps whose changes the publisher keeps for replicas
// (their memory: that many steps' changes).
const changesDepth = 64

// NewStatePublisher creates the state topics and writers in p.
func NewStatePublisher(p *dds.DomainParticipant) (*StatePublisher, error) {
	full, changes, err := newStateTopics(p, newPubTopic[worldState], changesWriterQos)
	if err != nil {
		return nil, err
	}
	s := &StatePublisher{full: full, changes: changes}
	if s.entities, err = newPubTopic[WorldEntity](p, entitiesTopic, fullQos...); err == nil {
		s.requests, err = newSubTopic[stateRequest](p, requestTopic, requestQos...)
	}
	if err != nil {
		_ = s.Close()
		return nil, err
	}
	return s, nil
}

// newStateTopics creates the full state topic and the changes topic in p, each with an
// endpoint made by create (newPubTopic or newSubTopic) with its QoS. On an error it
// closes what it made.
func newStateTopics[E interface{ Close() error }](p *dds.DomainParticipant,
	create func(*dds.DomainParticipant, string, ...dds.Option) (E, error), changesQos []dds.Option,
) (full, changes E, err error) {
	if full, err = create(p, stateTopic, fullQos...); err != nil {
		return full, changes, err
	}
	if changes, err = create(p, changesTopic, changesQos...); err != nil {
		_ = full.Close()
	}
	return full, changes, err
}

// PostUpdate publishes the step's changes, and the whole state when the step created or
// removed entities, a replica asked for it, or nothing was published yet.
func (s *StatePublisher) PostUpdate(info sim.UpdateInfo, r ecm.Reader) {
	ctx := context.Background()
	s.step++
	s.msg.Step, s.msg.SimTime = s.step, info.SimTime
	b, err := r.AppendChangedState(s.changesBuf[:0])
	if err == nil {
		s.changesBuf = b
		s.msg.State = b
		_ = s.changes.w.Write(ctx, &s.msg)
	}
	first := !s.published
	structure := r.HasNewEntities() || r.HasEntitiesMarkedForRemoval()
	if !first && !structure && !s.requested() {
		return
	}
	// The world after the step: without the entities the step removes.
	s.live = s.live[:0]
	for _, e := range r.EntitiesByComponents() {
		if !r.IsMarkedForRemoval(e) {
			s.live = append(s.live, e)
		}
	}
	if full, err := r.State(s.live, nil); err == nil {
		s.msg.State = full
		s.published = s.full.w.Write(ctx, &s.msg) == nil
	}
	if first || structure {
		s.publishEntities(r, first)
	}
}

// publishEntities writes the entities the step created (all of them when all) and
// unregisters those it removes, on the entities topic.
func (s *StatePublisher) publishEntities(r ecm.Reader, all bool) {
	ctx := context.Background()
	for _, e := range s.live {
		if all || r.IsNewEntity(e) {
			v := WorldEntity{Entity: uint64(e), Name: scopedName(r, e, nil), Kind: entityKind(r, e)}
			_ = s.entities.w.Write(ctx, &v) // KEEP_LAST never blocks
		}
	}
	for _, e := range r.MarkedForRemoval() {
		_ = s.entities.w.Unregister(ctx, &WorldEntity{Entity: uint64(e)}) // not registered when new: refused
	}
}

// requested takes the requests for a full state that arrived, and says whether there
// were any. It allocates nothing.
func (s *StatePublisher) requested() bool {
	got := false
	for {
		n, _ := s.requests.r.TakeInto(context.Background(), s.req[:], s.reqInfo[:], noWait...)
		if n == 0 {
			return got
		}
		got = true
	}
}

// Close deletes the writers, the reader and the topics.
func (s *StatePublisher) Close() error {
	return errors.Join(s.full.Close(), s.changes.Close(), s.entities.Close(), s.requests.Close())
}

// Replica follows a world published by a StatePublisher in an ECM of its own: it starts
// from the latest full state and applies the changes of every step after it, in order.
// Its Manager has the standard component types registered (RegisterComponents); register
// the world's other component types, under the same names, before the first Sync.
type Replica struct {
	m             *ecm.Manager
	full, changes subTopic[worldState]
	request       pubTopic[stateRequest]
	asked         time.Time // when the replica last asked for a full state
	mu            sync.Mutex
	step          uint64 // of the state m holds; 0: none yet
	simTime       time.Duration
	pending       map[uint64][]byte // changes of steps after step, not applied yet
	register      func(*ecm.Manager)
}

// NewReplica creates a replica of the world published in p's domain. register, when not
// nil, registers the world's own component types in a new Manager (the replica makes a
// new one for each full state).
func NewReplica(p *dds.DomainParticipant, register func(*ecm.Manager)) (*Replica, error) {
	r := &Replica{pending: map[uint64][]byte{}, register: register}
	r.m = r.newManager()
	var err error
	if r.full, r.changes, err = newStateTopics(p, newSubTopic[worldState], changesReaderQos); err != nil {
		return nil, err
	}
	if r.request, err = newPubTopic[stateRequest](p, requestTopic, requestQos...); err != nil {
		_ = r.Close()
		return nil, err
	}
	return r, nil
}

func (r *Replica) newManager() *ecm.Manager {
	m := ecm.New()
	sim.RegisterComponents(m)
	if r.register != nil {
		r.register(m)
	}
	return m
}

// maxPending bounds the changes kept waiting for a full state or for the steps before
// them; beyond, the oldest are dropped and the replica waits for the next full state.
const maxPending = 4096

// sync applies what has arrived, up to the changes of step upTo, and returns the step
// the replica is at (0 before the first full state; beyond upTo when a newer full state
// arrived).
func (r *Replica) sync(upTo uint64) (uint64, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for {
		data, _, err := r.changes.r.Take(context.Background(), dds.NoWait(), dds.MaxSamples(64))
		if err != nil {
			break
		}
		for _, c := range data {
			if c.Step > r.step && len(r.pending) < maxPending {
				r.pending[c.Step] = c.State
			}
		}
	}
	// A full state is for starting, or starting again when the next step's changes are
	// lost for good: the changes arrive in order (RELIABLE), so later ones without the
	// next are a gap that will not fill. A replica that can go on step by step does.
	if r.step == 0 || r.gap() {
		if err := r.takeFull(); err != nil {
			return r.step, err
		}
	}
	err := r.applyPending(upTo)
	if r.gap() {
		r.ask() // changes wait for steps it will never get: it joined or lost them
	}
	return r.step, err
}

// gap says whether changes wait for steps the replica will never get: it joined after
// them, or they were lost.
func (r *Replica) gap() bool {
	_, next := r.pending[r.step+1]
	return len(r.pending) > 0 && (!next || r.step == 0)
}

// askPeriod is how often a replica that misses steps asks again for a full state.
const askPeriod = 200 * time.Millisecond

// ask asks the publisher for a full state, at most once per askPeriod.
func (r *Replica) ask() {
	if now := time.Now(); now.Sub(r.asked) >= askPeriod {
		r.asked = now
		_ = r.request.w.Write(context.Background(), &stateRequest{Step: r.step}) // KEEP_LAST never blocks
	}
}

// takeFull starts again from a newer full state, if one arrived.
func (r *Replica) takeFull() error {
	data, _, err := r.full.r.Take(context.Background(), dds.NoWait())
	if err != nil || len(data) == 0 {
		return nil
	}
	f := data[len(data)-1]
	if f.Step <= r.step && r.step != 0 {
		return nil
	}
	m := r.newManager()
	if err := m.SetState(f.State); err != nil {
		return fmt.Errorf("sim: replica: full state of step %d: %w", f.Step, err)
	}
	m.EndStep()
	r.m, r.step, r.simTime = m, f.Step, f.SimTime
	for s := range r.pending {
		if s <= f.Step {
			delete(r.pending, s)
		}
	}
	return nil
}

// applyPending applies the changes of the steps that follow, in order, up to step upTo.
func (r *Replica) applyPending(upTo uint64) error {
	if r.step == 0 {
		return nil
	}
	for r.step < upTo {
		b, ok := r.pending[r.step+1]
		if !ok {
			return nil
		}
		delete(r.pending, r.step+1)
		if err := r.m.SetState(b); err != nil {
			return fmt.Errorf("sim: replica: changes of step %d: %w", r.step+1, err)
		}
		r.m.EndStep()
		r.step++
	}
	return nil
}

// WaitStep applies what has arrived until the replica reaches step (the publisher's
// step count, from 1) or ctx ends. It applies no changes beyond step, so that a caller
// can look at every step in turn; it is beyond step only when it had to start again
// from a newer full state.
func (r *Replica) WaitStep(ctx context.Context, step uint64) error {
	for {
		got, err := r.sync(step)
		if err != nil || got >= step {
			return err
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("sim: replica at step %d, waiting for %d: %w", got, step, ctx.Err())
		case <-time.After(time.Millisecond):
		}
	}
}

// Manager returns the replica's ECM. A new full state replaces it: call Manager again
// after WaitStep rather than keeping it.
func (r *Replica) Manager() *ecm.Manager {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.m
}

// Close deletes the readers, the writer and the topics.
func (r *Replica) Close() error {
	return errors.Join(r.full.Close(), r.changes.Close(), r.request.Close())
}
