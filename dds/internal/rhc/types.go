package rhc

import "time"

// KeyHash identifies an instance: the 16-byte RTPS key hash of its key, computed by the
// caller. The cache gives it no other meaning; an all-zero key hash is an instance like
// any other (a key long id = 0 has it).
type KeyHash [16]byte

// GUID is the 16-byte GUID of a remote writer; it is the publication handle of the
// samples the writer wrote.
type GUID [16]byte

// InstanceHandle is the cache's handle of an instance. Handles are assigned from 1 in the
// order instances are created and never reused by a cache: an instance that is purged
// and later seen again gets a new handle (DDS 1.4 §2.2.2.5.1: once purged, "future
// samples will be treated as never seen"). Instances are ordered by handle, which is the
// order ReadNextInstance walks. HandleNil (0) is no instance.
type InstanceHandle uint64

// HandleNil is HANDLE_NIL: no instance.
const HandleNil InstanceHandle = 0

// ChangeKind says what a Change does to its instance, as the status info of an RTPS DATA
// submessage does.
type ChangeKind uint8

// The change kinds.
const (
	// Write is a sample with data: valid_data is true when it is read.
	Write ChangeKind = iota
	// Dispose disposes the instance: NOT_ALIVE_DISPOSED.
	Dispose
	// Unregister unregisters the writer from the instance: NOT_ALIVE_NO_WRITERS when it
	// was the last one.
	Unregister
	// DisposeUnregister is a Dispose followed by an Unregister.
	DisposeUnregister
)

var changeKindNames = [...]string{
	Write:             "write",
	Dispose:           "dispose",
	Unregister:        "unregister",
	DisposeUnregister: "dispose+unregister",
}

// String returns the name of the kind.
func (k ChangeKind) String() string { return enumString(k, "ChangeKind", changeKindNames[:]) }

// Change is one update of an instance delivered by the protocol.
type Change[T any] struct {
	// Kind is what the change does.
	Kind ChangeKind
	// KeyHash identifies the instance.
	KeyHash KeyHash
	// Writer is the GUID of the writer that made the change.
	Writer GUID
	// SourceTimestamp is the writer's timestamp (INFO_TS). The zero time means none was
	// sent: the reception time is used instead.
	SourceTimestamp time.Time
	// SN is the sequence number the writer gave the change, and Related the identity of
	// the sample it answers (zero: none); both are returned with valid samples.
	SN      int64
	Related Identity
	// Size is the length of the serialized sample (encapsulation included); 0 when it
	// was never serialized.
	Size int32
	// Strength is the writer's OWNERSHIP_STRENGTH, used with Config.ExclusiveOwnership.
	Strength int32
	// Lifespan is the writer's LIFESPAN duration: the sample expires at SourceTimestamp +
	// Lifespan and is dropped when it is read after that. Zero means infinite.
	Lifespan time.Duration
	// Value is the decoded sample for Write. The cache stores a shallow copy: memory it
	// references (slices, strings, pointers) passes to the cache and must not be reused. For the other kinds it may hold a value with
	// only the key fields set (decoded from the serialized key): the cache stores it with
	// the invalid sample that reports the change, returns it with valid_data false and
	// gives it to Selector.Filter.
	Value T
	// Replaced and HasReplaced are set by Insert when KEEP_LAST dropped the oldest sample
	// of the instance to make room, and nobody had read it: its value is no longer
	// referenced, so the caller may decode a later sample into it.
	Replaced    T
	HasReplaced bool
}

// Identity names a sample: its writer and the sequence number the writer gave it.
type Identity struct {
	Writer GUID
	SN     int64
}

// SampleInfo is the SampleInfo of DDS 1.4 §2.2.2.5.5 for one returned sample.
type SampleInfo struct {
	// SampleState is READ if the sample was accessed before, else NOT_READ.
	SampleState SampleState
	// ViewState is the view state of the instance when it was accessed.
	ViewState ViewState
	// InstanceState is the state of the instance when it was accessed.
	InstanceState InstanceState
	// ValidData is false for an invalid sample: one that reports a change of the
	// instance state (dispose, unregister, loss of the writers) and has no data.
	ValidData bool
	// SourceTimestamp is the writer's timestamp of the sample (of the dispose or
	// unregister for an invalid sample).
	SourceTimestamp time.Time
	// InstanceHandle is the cache's handle of the instance.
	InstanceHandle InstanceHandle
	// KeyHash is the key hash of the instance.
	KeyHash KeyHash
	// PublicationHandle is the GUID of the writer of the sample.
	PublicationHandle GUID
	// SN, Related and Size are the change's (zero for an invalid sample).
	SN      int64
	Related Identity
	Size    int32
	// DisposedGenerationCount is how many times the instance had become alive again
	// after being disposed, when the sample was received.
	DisposedGenerationCount int32
	// NoWritersGenerationCount is how many times the instance had become alive again
	// after having no writers, when the sample was received.
	NoWritersGenerationCount int32
	// SampleRank is the number of samples of the same instance that follow this one in
	// the returned collection.
	SampleRank int32
	// GenerationRank is the generation difference between this sample and the most
	// recent sample of the same instance in the returned collection.
	GenerationRank int32
	// AbsoluteGenerationRank is the generation difference between this sample and the
	// most recent sample of the same instance received so far.
	AbsoluteGenerationRank int32
}

// Selector chooses the samples that read and take return, as a ReadCondition (the three
// masks) or a QueryCondition (masks and Filter) does. The zero Selector, and a nil
// *Selector, select everything.
type Selector[T any] struct {
	// SampleStates selects samples by sample state; zero means any.
	SampleStates SampleState
	// ViewStates selects instances by view state; zero means any.
	ViewStates ViewState
	// InstanceStates selects instances by instance state; zero means any.
	InstanceStates InstanceState
	// Query, when not nil, selects the samples its filter accepted when last evaluated
	// (see Cache.Evaluate).
	Query *Query[T]
	// Filter, when not nil, selects samples by value; it sees the stored value (the key
	// value or the zero value for an invalid sample) and must not keep the pointer or
	// call the cache. It runs under the cache's lock, so it is for the library's own
	// functions only: user code goes in a Query.
	Filter func(*T) bool
}

func (s *Selector[T]) matchInstance(v ViewState, i InstanceState) bool {
	return s == nil || ((s.ViewStates == 0 || s.ViewStates&v != 0) &&
		(s.InstanceStates == 0 || s.InstanceStates&i != 0))
}

func (s *Selector[T]) matchSample(read bool, v *T, j *verdicts) bool {
	if s == nil {
		return true
	}
	if s.SampleStates != 0 {
		st := NotReadSampleState
		if read {
			st = ReadSampleState
		}
		if s.SampleStates&st == 0 {
			return false
		}
	}
	if s.Query != nil && j.pass&s.Query.bit == 0 {
		return false
	}
	return s.Filter == nil || s.Filter(v)
}
