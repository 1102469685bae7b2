package dds

import (
	"crypto/md5"
	"sync"
	"time"

	"github.com/ddsgo/ddsgo/dds/internal/rhc"
	"github.com/ddsgo/ddsgo/dds/internal/status"
	"github.com/ddsgo/ddsgo/ecm"
	"github.com/ddsgo/ddsgo/internal/discovery"
	"github.com/ddsgo/ddsgo/internal/wire"
	"github.com/ddsgo/ddsgo/qos"
)

// The built-in topics (DDS 1.4 §2.2.5) and the type names their topics have.
const (
	builtinParticipants  = "DCPSParticipant"
	builtinPublications  = "DCPSPublication"
	builtinSubscriptions = "DCPSSubscription"
	builtinTopics        = "DCPSTopic"
)

// builtinPartition is the partition of the built-in subscriber (Cyclone DDS's).
const builtinPartition = "__BUILT-IN PARTITION__"

// TopicBuiltinTopicData describes a topic of the domain (TopicBuiltinTopicData of DDS
// 1.4 §2.2.5): one instance per topic name and type name that a local topic or an
// endpoint, local or discovered, uses. Neither Cyclone DDS nor Fast DDS announces
// topics by default, so the instances are made from the endpoints; the topics' QoS is
// not known that way and is not given.
type TopicBuiltinTopicData struct {
	// Key is the topic's handle, made from its name and type name: what IgnoreTopic
	// takes.
	Key      InstanceHandle
	Name     string
	TypeName string
}

// builtinEngine is what the built-in topics and the ignore operations need of the
// engine (discovery.Participant has it).
type builtinEngine interface {
	OnBuiltin(l discovery.BuiltinListener)
	IgnoreParticipant(prefix wire.GuidPrefix)
	IgnoreEndpoint(g wire.GUID)
	IgnoreTopic(name string)
}

// builtinFeed keeps what the built-in topics show and writes it into their readers: the
// built-in subscriber's and any other reader of a built-in topic. Discovery calls it on
// its dispatcher goroutine; readers made later get what it holds when they are enabled,
// as TRANSIENT_LOCAL readers would.
type builtinFeed struct {
	// mkMu serializes the making of the built-in subscriber; it is taken before p.opMu.
	mkMu sync.Mutex
	sub  *Subscriber

	// mu guards what follows; it is taken with no other lock held, and the readers'
	// caches are written under it.
	mu           sync.Mutex
	prefix       wire.GuidPrefix
	now          func() time.Time
	participants map[InstanceHandle]ParticipantBuiltinTopicData
	// publications and subscriptions hold discovery's own records, which it never
	// modifies: the feed keeps no copy of each endpoint of the domain, and makes the
	// samples only for the readers there are.
	publications  map[InstanceHandle]*discovery.EndpointData
	subscriptions map[InstanceHandle]*discovery.EndpointData
	topics        map[InstanceHandle]*topicUse
	ignoredTopics map[string]bool // topic names given to IgnoreTopic
	partR         []*DataReader[ParticipantBuiltinTopicData]
	pubR, subR    []*DataReader[EndpointBuiltinTopicData]
	topicR        []*DataReader[TopicBuiltinTopicData]
	sn            int64
}

// topicUse is a DCPSTopic instance and the number of local topics and endpoints that
// use it.
type topicUse struct {
	data TopicBuiltinTopicData
	refs int
}

// start registers the feed with the engine, if it can feed it.
func (b *builtinFeed) start(p *DomainParticipant, eng engine) {
	be, ok := eng.(builtinEngine)
	if !ok {
		return
	}
	b.mu.Lock()
	b.prefix, b.now = p.prefix, p.now
	b.participants = map[InstanceHandle]ParticipantBuiltinTopicData{}
	b.publications = map[InstanceHandle]*discovery.EndpointData{}
	b.subscriptions = map[InstanceHandle]*discovery.EndpointData{}
	if b.topics == nil {
		b.topics = map[InstanceHandle]*topicUse{}
	}
	b.mu.Unlock()
	be.OnBuiltin(discovery.BuiltinListener{Participant: b.onParticipant, Endpoint: b.onEndpoint})
}

// writer returns the GUID of the built-in writer of samples of the topic whose SEDP
// (or SPDP) writer has entity id id: the participant's own, as Cyclone DDS does.
func (b *builtinFeed) writer(id wire.EntityID) wire.GUID {
	return wire.GUID{Prefix: b.prefix, Entity: id}
}

// onParticipant writes a participant that appeared, changed or went.
func (b *builtinFeed) onParticipant(d discovery.ParticipantData, alive bool) {
	h := status.GUIDHandle(guidBytes(d.GUID()))
	v := ParticipantBuiltinTopicData{Key: h}
	b.mu.Lock()
	defer b.mu.Unlock()
	if alive {
		v = participantData(h, &d)
		b.participants[h] = v
	} else {
		delete(b.participants, h)
	}
	b.partR = feed(b, b.partR, wire.EntityIDSPDPWriter, h, v, alive)
}

// onEndpoint writes a writer or reader that appeared, changed or went, and the topic it
// uses.
func (b *builtinFeed) onEndpoint(d *discovery.EndpointData, alive bool) {
	h := status.GUIDHandle(guidBytes(d.GUID))
	b.mu.Lock()
	defer b.mu.Unlock()
	known, readers, id := b.subscriptions, &b.subR, wire.EntityIDSEDPSubscriptionsWriter
	if d.IsWriter() {
		known, readers, id = b.publications, &b.pubR, wire.EntityIDSEDPPublicationsWriter
	}
	_, was := known[h]
	if alive {
		known[h] = d
	} else {
		delete(known, h)
	}
	if len(*readers) > 0 {
		v := EndpointBuiltinTopicData{Key: h, ParticipantKey: status.GUIDHandle(guidBytes(d.ParticipantGUID))}
		if alive {
			v = endpointData(d)
		}
		*readers = feed(b, *readers, id, h, v, alive)
	}
	switch {
	case alive && !was:
		b.useTopicLocked(d.TopicName, d.TypeName, 1)
	case !alive && was:
		b.useTopicLocked(d.TopicName, d.TypeName, -1)
	}
}

// topicKey is the handle of the DCPSTopic instance of topic name of type typeName.
func topicKey(name, typeName string) InstanceHandle {
	return InstanceHandle(md5.Sum([]byte(name + "\x00" + typeName)))
}

// useTopic counts one more (n 1) or one less (n -1) local topic using the topic name.
func (b *builtinFeed) useTopic(name, typeName string, n int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.topics == nil {
		b.topics = map[InstanceHandle]*topicUse{}
	}
	b.useTopicLocked(name, typeName, n)
}

// useTopicLocked counts a user of a topic more or less, writing the topic when it
// appears or goes; the caller holds b.mu.
func (b *builtinFeed) useTopicLocked(name, typeName string, n int) {
	h := topicKey(name, typeName)
	u := b.topics[h]
	if u == nil {
		if n < 0 {
			return
		}
		u = &topicUse{data: TopicBuiltinTopicData{Key: h, Name: name, TypeName: typeName}}
		b.topics[h] = u
	}
	u.refs += n
	switch {
	case u.refs <= 0:
		delete(b.topics, h)
		b.topicR = feed(b, b.topicR, wire.EntityIDSEDPTopicsWriter, h, TopicBuiltinTopicData{Key: h}, false)
	case u.refs == n: // new
		b.topicR = feed(b, b.topicR, wire.EntityIDSEDPTopicsWriter, h, u.data, true)
	}
}

// topicName returns the name of the topic whose DCPSTopic handle is h.
func (b *builtinFeed) topicName(h InstanceHandle) (string, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	u, ok := b.topics[h]
	if !ok {
		return "", false
	}
	return u.data.Name, true
}

// topicList returns the DCPSTopic instances alive, but those of ignored topic names.
func (b *builtinFeed) topicList() []TopicBuiltinTopicData {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := make([]TopicBuiltinTopicData, 0, len(b.topics))
	for _, u := range b.topics {
		if !b.ignoredTopics[u.data.Name] {
			out = append(out, u.data)
		}
	}
	return out
}

// ignoreTopic records that the topic name is ignored.
func (b *builtinFeed) ignoreTopic(name string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.ignoredTopics == nil {
		b.ignoredTopics = map[string]bool{}
	}
	b.ignoredTopics[name] = true
}

// feed writes v, the sample of instance key (with alive false, its disposal) into the
// readers rs, and returns rs without the readers deleted since. The caller holds b.mu.
func feed[T any](b *builtinFeed, rs []*DataReader[T], writer wire.EntityID, key InstanceHandle, v T, alive bool) []*DataReader[T] {
	out := rs[:0]
	for _, r := range rs {
		if r.deleted.Load() {
			continue
		}
		out = append(out, r)
		b.insert(r.cache.Load(), writer, key, v, alive)
	}
	clear(rs[len(out):])
	return out
}

// insert writes one sample into cache c; the caller holds b.mu.
func (b *builtinFeed) insert(c any, writer wire.EntityID, key InstanceHandle, v any, alive bool) {
	b.sn++
	now := b.now()
	switch c := c.(type) {
	case *rhc.Cache[ParticipantBuiltinTopicData]:
		insertBuiltin(c, b.writer(writer), key, v.(ParticipantBuiltinTopicData), alive, now, b.sn)
	case *rhc.Cache[EndpointBuiltinTopicData]:
		insertBuiltin(c, b.writer(writer), key, v.(EndpointBuiltinTopicData), alive, now, b.sn)
	case *rhc.Cache[TopicBuiltinTopicData]:
		insertBuiltin(c, b.writer(writer), key, v.(TopicBuiltinTopicData), alive, now, b.sn)
	}
}

// insertBuiltin writes v as a sample of instance key (alive) or the disposal of the
// instance into c. The instance handle readers see is key itself.
func insertBuiltin[T any](c *rhc.Cache[T], writer wire.GUID, key InstanceHandle, v T, alive bool, now time.Time, sn int64) {
	if c == nil {
		return
	}
	ch := rhc.Change[T]{
		Kind: rhc.Write, KeyHash: rhc.KeyHash(keyHashOf(key)), Writer: rhc.GUID(guidBytes(writer)),
		SourceTimestamp: now, SN: sn, Value: v,
	}
	if !alive {
		ch.Kind = rhc.DisposeUnregister
	}
	c.Insert(&ch, now)
}

// attach adds the reader r of a built-in topic to the feed and writes into it what the
// feed holds.
func (b *builtinFeed) attach(r any) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	switch r := r.(type) {
	case *DataReader[ParticipantBuiltinTopicData]:
		b.partR = append(b.partR, r)
		for h, v := range b.participants {
			b.insert(r.cache.Load(), wire.EntityIDSPDPWriter, h, v, true)
		}
	case *DataReader[EndpointBuiltinTopicData]:
		rs, id, known := &b.subR, wire.EntityIDSEDPSubscriptionsWriter, b.subscriptions
		if r.topic.name == builtinPublications {
			rs, id, known = &b.pubR, wire.EntityIDSEDPPublicationsWriter, b.publications
		}
		*rs = append(*rs, r)
		for h, d := range known {
			b.insert(r.cache.Load(), id, h, endpointData(d), true)
		}
	case *DataReader[TopicBuiltinTopicData]:
		b.topicR = append(b.topicR, r)
		for h, u := range b.topics {
			b.insert(r.cache.Load(), wire.EntityIDSEDPTopicsWriter, h, u.data, true)
		}
	default:
		return errorf(ErrBadParameter, "not a built-in topic's reader")
	}
	return nil
}

// enableBuiltin enables the reader r of a built-in topic: discovery, not a writer,
// feeds its cache.
func (r *DataReader[T]) enableBuiltin(rq qos.DataReaderQos) error {
	p := r.p
	if _, ok := p.eng.(builtinEngine); !ok {
		return errorf(ErrUnsupported, "built-in topics need the RTPS engine")
	}
	r.deadline.Store(newDeadlineMonitor(rq.Deadline.Period, p.clk, r.deadlineMissed))
	p.mu.Lock()
	ecm.SetComponentData(p.m, r.ent, handleComp{p.localHandle(wire.EntityKindBuiltinFlag | wire.EntityKindReaderWithKey)})
	p.mu.Unlock()
	return p.bt.attach(r)
}

// builtinPurgeDelay is how long the built-in subscriber's readers keep a disposed
// instance: without a bound, peers that come and go would grow the readers nobody takes
// from without end.
const builtinPurgeDelay = time.Minute

// builtinReaderQos is the QoS of the built-in subscriber's readers (DDS 1.4 §2.2.5):
// RELIABLE, TRANSIENT_LOCAL, KEEP_LAST 1, and disposed instances purged after
// builtinPurgeDelay.
func builtinReaderQos() qos.DataReaderQos {
	q := qos.DefaultDataReaderQos()
	q.Reliability.Kind = qos.Reliable
	q.Durability.Kind = qos.TransientLocal
	q.History = qos.History{Kind: qos.KeepLast, Depth: 1}
	q.ReaderDataLifecycle.AutopurgeDisposedSamplesDelay = builtinPurgeDelay
	return q
}

// BuiltinSubscriber returns the participant's built-in subscriber
// (get_builtin_subscriber), made on first use, with one reader of each built-in topic
// (DDS 1.4 §2.2.5). LookupDataReader finds them by topic name:
//
//	sub, err := p.BuiltinSubscriber()
//	parts := sub.LookupDataReader("DCPSParticipant").(*dds.DataReader[dds.ParticipantBuiltinTopicData])
//
// "DCPSParticipant" has ParticipantBuiltinTopicData samples, "DCPSPublication" and
// "DCPSSubscription" EndpointBuiltinTopicData ones, "DCPSTopic" TopicBuiltinTopicData
// ones. They are ordinary readers (take, read, conditions, listeners), RELIABLE,
// TRANSIENT_LOCAL and KEEP_LAST 1, that discovery feeds: each participant, writer,
// reader and topic of the domain, local ones included as Cyclone DDS shows them, is an
// instance whose handle is its Key; an announcement that changes is a new sample, and an
// entity that goes (deleted, disposed, its participant's lease expired, ignored) is
// NOT_ALIVE_DISPOSED, and purged a minute later (autopurge_disposed_samples_delay),
// so that they stay bounded when nobody takes from them. NewReader on a built-in topic
// (Topic of such a reader) makes another such reader, with the QoS it is given. The
// participant must be enabled.
func (p *DomainParticipant) BuiltinSubscriber() (*Subscriber, error) {
	if err := p.check(); err != nil {
		return nil, err
	}
	if _, ok := p.eng.(builtinEngine); !ok {
		return nil, errorf(ErrUnsupported, "built-in topics need the RTPS engine")
	}
	b := &p.bt
	b.mkMu.Lock()
	defer b.mkMu.Unlock()
	if b.sub != nil && !b.sub.deleted.Load() {
		return b.sub, nil
	}
	sq := qos.DefaultSubscriberQos()
	sq.Partition.Name = []string{builtinPartition}
	sub, err := p.NewSubscriber(WithQos(sq))
	if err != nil {
		return nil, err
	}
	err = sub.Enable()
	for _, mk := range []func(*Subscriber) error{
		newBuiltinReader[ParticipantBuiltinTopicData](builtinParticipants, "DDS::ParticipantBuiltinTopicData"),
		newBuiltinReader[EndpointBuiltinTopicData](builtinPublications, "DDS::PublicationBuiltinTopicData"),
		newBuiltinReader[EndpointBuiltinTopicData](builtinSubscriptions, "DDS::SubscriptionBuiltinTopicData"),
		newBuiltinReader[TopicBuiltinTopicData](builtinTopics, "DDS::TopicBuiltinTopicData"),
	} {
		if err != nil {
			break
		}
		err = mk(sub)
	}
	if err != nil {
		_ = sub.Close()
		return nil, err
	}
	b.sub = sub
	return sub, nil
}

// newBuiltinReader returns the function that makes the reader of the built-in topic
// name in a subscriber.
func newBuiltinReader[T any](name, typeName string) func(*Subscriber) error {
	return func(sub *Subscriber) error {
		t, err := builtinTopic[T](sub.p, name, typeName)
		if err != nil {
			return err
		}
		r, err := NewReader(t, WithSubscriber(sub), WithQos(builtinReaderQos()))
		if err != nil {
			return err
		}
		return r.Enable()
	}
}

// builtinTopic returns the participant's built-in topic name, making it if needed.
// Its codec is nil: its samples never cross the wire.
func builtinTopic[T any](p *DomainParticipant, name, typeName string) (*Topic[T], error) {
	p.opMu.Lock()
	defer p.opMu.Unlock()
	if o := p.lookupTopic(name); o != nil {
		if t, ok := o.(*Topic[T]); ok && t.codec == nil {
			return t, p.enable(t)
		}
		return nil, errorf(ErrPreconditionNotMet, "topic %q is not the built-in one", name)
	}
	t := &Topic[T]{name: name, typeName: typeName}
	if err := p.create(t, &p.entity, func() {
		t.init(p, &p.entity, kindTopic, t, nil, 0)
		ecm.CreateComponent(p.m, t.ent, qos.DefaultTopicQos())
		ecm.CreateComponent(p.m, t.ent, nameComp{Topic: name, Type: typeName})
	}); err != nil {
		return nil, err
	}
	p.topicMade.Notify()
	return t, p.enable(t)
}

// builtinKey returns the Key of v, a sample of a built-in topic.
func builtinKey(v any) InstanceHandle {
	switch v := v.(type) {
	case *ParticipantBuiltinTopicData:
		return v.Key
	case *EndpointBuiltinTopicData:
		return v.Key
	case *TopicBuiltinTopicData:
		return v.Key
	}
	return HandleNil
}

// builtinLookup is LookupInstance of a reader of a built-in topic.
func (r *DataReader[T]) builtinLookup(v *T) InstanceHandle {
	h := builtinKey(v)
	if r.cache.Load().Lookup(rhc.KeyHash(keyHashOf(h))) == rhc.HandleNil {
		return HandleNil
	}
	return h
}

// builtinKeyValue is KeyValue of a reader of a built-in topic.
func (r *DataReader[T]) builtinKeyValue(h InstanceHandle) (T, error) {
	var v T
	if h.IsNil() || r.cache.Load().Lookup(rhc.KeyHash(keyHashOf(h))) == rhc.HandleNil {
		return v, errorf(ErrBadParameter, "reader of %s: no instance %v", r.topic.name, h)
	}
	switch k := any(&v).(type) {
	case *ParticipantBuiltinTopicData:
		k.Key = h
	case *EndpointBuiltinTopicData:
		k.Key = h
	case *TopicBuiltinTopicData:
		k.Key = h
	}
	return v, nil
}

// ignorer returns the engine's ignore operations.
func (p *DomainParticipant) ignorer() (builtinEngine, error) {
	if err := p.check(); err != nil {
		return nil, err
	}
	be, ok := p.eng.(builtinEngine)
	if !ok {
		return nil, errorf(ErrUnsupported, "ignoring needs the RTPS engine")
	}
	return be, nil
}

// IgnoreParticipant ignores the remote participant h, the Key of its DCPSParticipant
// sample (ignore_participant): its writers and readers are unmatched from the local
// ones at once, nothing it sends is delivered from then on, its announcements are
// dropped, and its built-in topic instances become NOT_ALIVE_DISPOSED. It cannot be
// undone. A participant not discovered yet may be ignored by its handle (its GUID). A
// handle that is not a participant's, or is this participant's, is ErrBadParameter.
func (p *DomainParticipant) IgnoreParticipant(h InstanceHandle) error {
	be, err := p.ignorer()
	if err != nil {
		return err
	}
	g := guidOf(h)
	switch {
	case h.IsNil() || g.Entity != wire.EntityIDParticipant:
		return errorf(ErrBadParameter, "%v is not a participant's handle", h)
	case g.Prefix == p.prefix:
		return errorf(ErrBadParameter, "a participant cannot ignore itself")
	}
	be.IgnoreParticipant(g.Prefix)
	return nil
}

// IgnorePublication ignores the remote writer h, the Key of its DCPSPublication sample
// (ignore_publication): it is unmatched from the local readers at once and its samples
// are not delivered from then on. It cannot be undone. A handle that is not a writer's,
// or is a local writer's, is ErrBadParameter.
func (p *DomainParticipant) IgnorePublication(h InstanceHandle) error {
	return p.ignoreEndpoint(h, true)
}

// IgnoreSubscription ignores the remote reader h, the Key of its DCPSSubscription
// sample (ignore_subscription): it is unmatched from the local writers at once and
// they send it nothing from then on. It cannot be undone. A handle that is not a
// reader's, or is a local reader's, is ErrBadParameter.
func (p *DomainParticipant) IgnoreSubscription(h InstanceHandle) error {
	return p.ignoreEndpoint(h, false)
}

func (p *DomainParticipant) ignoreEndpoint(h InstanceHandle, writer bool) error {
	be, err := p.ignorer()
	if err != nil {
		return err
	}
	g := guidOf(h)
	what := "reader"
	ok := g.Entity.IsReader()
	if writer {
		what, ok = "writer", g.Entity.IsWriter()
	}
	switch {
	case h.IsNil() || !ok || g.Entity.IsBuiltin():
		return errorf(ErrBadParameter, "%v is not a %s's handle", h, what)
	case g.Prefix == p.prefix:
		return errorf(ErrBadParameter, "a local %s cannot be ignored", what)
	}
	be.IgnoreEndpoint(g)
	return nil
}

// IgnoreTopic ignores the topic h, the Key of its DCPSTopic sample (ignore_topic): the
// remote writers and readers of a topic of that name are unmatched from the local ones
// at once and ignored from then on. It cannot be undone. A handle that is not that of
// a DCPSTopic instance is ErrBadParameter.
func (p *DomainParticipant) IgnoreTopic(h InstanceHandle) error {
	be, err := p.ignorer()
	if err != nil {
		return err
	}
	name, ok := p.bt.topicName(h)
	if !ok {
		return errorf(ErrBadParameter, "%v is not a topic's handle", h)
	}
	be.IgnoreTopic(name)
	p.bt.ignoreTopic(name)
	return nil
}
