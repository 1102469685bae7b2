// Package dds is the public API of ddsgo: the Data-Centric Publish-Subscribe (DCPS) model
// of OMG DDS 1.4 over the RTPS 2.x protocol, interoperable with Cyclone DDS and Fast DDS.
//
// # Entities
//
// Factory returns the DomainParticipantFactory, which creates a DomainParticipant per
// domain (CreateParticipant). A participant creates Publishers, Subscribers and Topics;
// a publisher creates DataWriters and a subscriber DataReaders. Writers and readers are
// typed: a Topic is created with the TypeSupport NewTopicType[T] returns for a Go struct
// T (its members, `dds:"key"` tags and extensibility follow package internal/cdr), and
// CreateDataWriter[T] and CreateDataReader[T] make a DataWriter[T] and DataReader[T].
//
//	tt, _ := dds.NewTopicType[Sample]("interop::Sample")
//	topic, _ := p.CreateTopic("Sample", tt, nil, nil, 0)
//	w, _ := dds.CreateDataWriter[Sample](pub, topic, nil, nil, 0)
//	_ = w.Write(&Sample{ID: 1})
//
// QoS are the values of package qos; a nil QoS argument means the factory's default.
// Config (passed with WithConfig) sets the network side of a participant: interfaces,
// static peers, participant index, logger.
//
// Every entity of a participant, local or discovered, is an entity of the participant's
// entity-component manager (package sim/ecm, see DomainParticipant.Entities):
// containment is the parent graph, and QoS, listener, enabled flag, handle and match
// lists are components. DeleteContainedEntities is a recursive removal from it. The hot
// paths, writing and taking, hold direct references and never query it.
//
// # Enabling
//
// An entity is enabled when created if its factory is enabled and the factory's
// ENTITY_FACTORY QoS says autoenable_created_entities (the default); otherwise Enable
// enables it, and with it the entities it created when its own ENTITY_FACTORY says so.
// A disabled entity allows getting and setting its QoS and listener, its
// StatusCondition, its statuses, the create, delete and lookup operations and Enable;
// everything else fails with ErrNotEnabled. Enabling an entity whose factory is disabled
// fails with ErrPreconditionNotMet. An enabled participant runs an RTPS participant
// (package internal/discovery) that announces itself and its endpoints.
//
// # Errors
//
// Errors match the DDS return codes with errors.Is: ErrBadParameter,
// ErrPreconditionNotMet, ErrNotEnabled, ErrImmutablePolicy, ErrInconsistentPolicy,
// ErrAlreadyDeleted, ErrTimeout, ErrNoData and the others. QoS errors also match the
// sentinels of package qos and unwrap to a *qos.PolicyError naming the policy. Deleting
// an entity that still contains entities fails with ErrPreconditionNotMet.
//
// # Reading
//
// A DataReader keeps what it receives in a history cache with the sample, view and
// instance states of DDS. Read and Take, and their variants for one instance, the next
// instance and a ReadCondition, return the samples with their SampleInfo and fail with
// ErrNoData when there is none. ReadInto and TakeInto fill the caller's slices: a loop
// taking samples of a type of fixed size allocates nothing. Writing serializes into
// pooled buffers that the RTPS writer hands back when its history drops them.
//
// # Listeners and conditions
//
// A status change goes to the listener of the lowest entity whose StatusMask has it:
// reader (or writer, or topic), then subscriber (or publisher), then participant. When a
// reader gets data, DATA_ON_READERS of its subscriber takes precedence over its
// DATA_AVAILABLE: Subscriber.NotifyDataReaders passes it on. Listeners run one at a time
// on a goroutine of the participant, never under a lock of the package, so they may call
// any operation. Every entity has a StatusCondition, and readers create ReadConditions
// and QueryConditions (with a Go filter function); attach them, and
// waitset.GuardConditions, to a waitset.WaitSet. Reading a status resets its change
// counts.
//
// # Locking
//
// A participant has an operation lock, held by the operations that change its entities
// (create, delete, enable, set QoS) and while they call the RTPS participant, and a
// state lock guarding its entity-component manager, taken after it. Status blocks,
// writers' instance tables and reader caches have their own locks, taken last. The RTPS
// participant calls back (matches, discovered participants, received data) taking only
// the state lock and those below it.
package dds
