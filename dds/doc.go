// Package dds is the public API of ddsgo: the Data-Centric Publish-Subscribe (DCPS) model
// of OMG DDS 1.4 over the RTPS 2.x protocol, interoperable with Cyclone DDS and Fast DDS.
//
// # The common path
//
// A participant joins a domain; a topic has a name and a Go type T; writers and readers
// of a topic are typed by it. Writers and readers made from a topic alone live in a
// default publisher and subscriber created on demand:
//
//	p, err := dds.NewParticipant(0)
//	defer p.Close()
//	topic, err := dds.NewTopic[Greeting](p, "Greetings", dds.Reliable())
//	w, err := dds.NewWriter(topic)
//	err = w.Write(ctx, &Greeting{Text: "hello"})
//
//	r, err := dds.NewReader(topic)
//	for g, info := range r.Samples(ctx) { ... }
//
// Options replace the positional QoS, listener and mask arguments of the DCPS
// operations: the common policies (Reliable, BestEffort, KeepLast, KeepAll,
// TransientLocal, Deadline, Lifespan, ExclusiveOwnership, Partition), a whole QoS struct
// of package qos (WithQos), a listener with its StatusMask (WithListener), the RTPS
// settings of package rtps (WithRTPS), an explicit publisher or subscriber
// (WithPublisher, WithSubscriber), and the type name (TypeName). QoS options given to a
// topic are the defaults of its writers and readers.
//
// # Types
//
// T is a Go struct: its exported fields are the members, `dds:"key"` tags mark the key,
// and docs/types.md has the whole mapping to IDL. Its name on the wire is what a
// DDSTypeName method returns, the TypeName option, or "pkg::Type". A DDSExtensibility
// method returning Appendable or Mutable makes it non-final. A type that cannot be
// mapped is an error of NewTopic that names the field.
//
// # The DCPS model
//
// Everything of DDS 1.4 stays reachable: the DomainParticipantFactory (Factory), explicit
// Publishers and Subscribers with their default QoS, enable semantics, listeners at
// every level, StatusConditions, ReadConditions and QueryConditions for package
// waitset, instances (Register, Dispose, Unregister, LookupInstance, KeyValue), the read
// and take selections (MaxSamples, InStates, Instance, NextInstance, WithCondition,
// NoWait) and the statuses with their get_*_status operations.
//
// Every entity of a participant, local or discovered, is an entity of the participant's
// entity-component manager (package ecm; the introspection topic publishes it, see
// dds/introspect.go): containment is the parent graph, and QoS, listener, enabled flag, handle and match
// lists are components. Close is a recursive removal from it. The hot paths, writing
// and taking, hold direct references and never query it.
//
// # Closing
//
// Close on any entity deletes it with everything it contains, and is idempotent; a topic
// still used by a writer or reader is the one exception (ErrPreconditionNotMet). Closing
// a participant lets its reliable writers linger, within rtps.Config.WriterLinger, until
// their readers acknowledged what they wrote, then stops its RTPS participant and wakes
// every WaitSet waiting on one of its conditions.
//
// # Enabling
//
// An entity is enabled when created if its factory is enabled and the factory's
// ENTITY_FACTORY QoS says autoenable_created_entities (the default); otherwise Enable
// enables it, and with it the entities it created when its own ENTITY_FACTORY says so.
// A disabled entity allows getting and setting its QoS and listener, its
// StatusCondition, its statuses, the create, delete and lookup operations and Enable;
// everything else fails with ErrNotEnabled. Enabling an entity whose factory is disabled
// fails with ErrPreconditionNotMet.
//
// # Errors
//
// Errors match the DDS return codes with errors.Is: ErrBadParameter,
// ErrPreconditionNotMet, ErrNotEnabled, ErrImmutablePolicy, ErrInconsistentPolicy,
// ErrAlreadyDeleted, ErrTimeout, ErrNoData and the others; the errors of packages qos and
// waitset match the same values. QoS errors unwrap to a *qos.PolicyError naming the
// policy. A context that is canceled or expires is reported as the context's error,
// wrapped (errors.Is(err, context.DeadlineExceeded)), never as ErrTimeout: ErrTimeout is
// the spec's timeout, such as a reliable writer's max_blocking_time.
//
// # Reading and writing
//
// A DataReader keeps what it receives in a history cache with the sample, view and
// instance states of DDS. Read and Take wait, bounded by their context, until samples
// are there (NoWait: ErrNoData at once); Samples ranges over them. ReadInto and TakeInto
// fill the caller's slices: a loop taking samples of a type of fixed size allocates
// nothing, nor does a write. Writing serializes into pooled buffers that the RTPS writer
// hands back when its history drops them.
//
// # Listeners and conditions
//
// A listener is a struct of typed functions (ReaderListener[T], WriterListener[T],
// TopicListener[T], SubscriberListener, PublisherListener, ParticipantListener). A status
// change goes to the listener of the lowest entity whose StatusMask has it: reader (or
// writer, or topic), then subscriber (or publisher), then participant. When a reader gets
// data, DATA_ON_READERS of its subscriber takes precedence over its DATA_AVAILABLE:
// Subscriber.NotifyDataReaders passes it on. Listeners run one at a time on one
// dispatcher goroutine per participant, never under a lock of the package, so they may
// call any operation, create and close entities included; closing a participant waits
// for the running listener function unless it is called from it. Every entity has a
// StatusCondition, and readers create ReadConditions and QueryConditions (with a Go
// filter function); attach them, and waitset.GuardConditions, to a waitset.WaitSet.
// Reading a status resets its change counts.
//
// # Built-in topics
//
// DomainParticipant.BuiltinSubscriber has one reader of each built-in topic
// (DCPSParticipant, DCPSPublication, DCPSSubscription, DCPSTopic; LookupDataReader finds
// them by name), fed by discovery: every participant, writer, reader and topic of the
// domain, local and remote, is an instance keyed by its handle, NOT_ALIVE_DISPOSED when
// it goes. The Ignore operations take those handles. docs/api.md has the details.
//
// # Introspection
//
// With DDSGO_INTROSPECTION=1 in the environment (as Fast DDS's FASTDDS_STATISTICS turns
// on its statistics topics), every participant publishes the graph of its entities on
// the topic ddsgo/introspection: participant, publishers, subscribers, topics, writers
// and readers, with their topics, types, main QoS and live statuses, written when it
// changes (checked every second). `ddsping ls` shows it; introspect.go has its IDL.
//
// # Locking
//
// docs/locking.md has the lock order. A participant has an operation lock, held by the
// operations that change its entities (create, delete, enable, set QoS) and while they
// call the RTPS participant, and a state lock guarding its entity-component manager,
// taken after it. Status blocks, writers' instance tables and reader caches have their
// own locks, taken last. The RTPS participant calls back (matches, discovered
// participants, received data) taking only the state lock and those below it.
package dds
