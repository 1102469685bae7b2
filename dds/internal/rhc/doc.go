// Package rhc is the reader history cache of a DataReader: the instances of its topic,
// their samples, and the sample, view and instance states of the OMG DDS 1.4 DCPS
// (§2.2.2.5), independent of the protocol that fills it. It depends on the standard
// library only.
//
// # Instances
//
// A Cache[T] holds values of the user type T, decoded by the caller, keyed by the 16-byte
// KeyHash the caller computes. Each instance has an InstanceHandle, assigned in creation
// order and never reused by the cache, and instances are ordered by it (the order of
// ReadNextInstance). An instance's state follows the state chart of DDS 1.4 §2.2.2.5.1:
//
//	(none)            --write--------------------> ALIVE, view NEW
//	(none)            --dispose------------------> NOT_ALIVE_DISPOSED, view NEW
//	ALIVE             --dispose------------------> NOT_ALIVE_DISPOSED
//	ALIVE             --last writer unregistered
//	                    or lost------------------> NOT_ALIVE_NO_WRITERS
//	NOT_ALIVE_NO_WRITERS --dispose---------------> NOT_ALIVE_DISPOSED
//	NOT_ALIVE_DISPOSED   --write-----------------> ALIVE, view NEW, disposed_generation_count+1
//	NOT_ALIVE_NO_WRITERS --write-----------------> ALIVE, view NEW, no_writers_generation_count+1
//	any               --read or take-------------> view NOT_NEW
//	NOT_ALIVE, no writers, no samples -----------> purged (forgotten)
//
// Writers register with an instance by writing or disposing it and leave it by
// unregistering (Unregister, DisposeUnregister) or through WriterLost. A disposed
// instance stays NOT_ALIVE_DISPOSED when its writers leave. Only the transition back to
// ALIVE counts a generation, as the spec defines the counts (Cyclone DDS also counts
// the re-registration of a writer with a disposed instance without writers).
//
// A state change that no unread sample of the instance reports is reported by an
// invalid sample (valid_data false): at most one per instance, the latest change, with
// the timestamp and writer of that change and the key value the caller decoded, if any.
// A new valid sample replaces it.
//
// # Insert
//
// Insert applies a Change (Write, Dispose, Unregister or DisposeUnregister) and returns
// an Outcome. HISTORY KEEP_LAST drops the oldest sample of a full instance; KEEP_ALL and
// RESOURCE_LIMITS reject a sample that does not fit (Outcome.Rejected, counted in
// SampleRejectedStatus), which a reliable reader leaves unacknowledged and retries after
// Config.OnSpaceAvailable. DESTINATION_ORDER BY_SOURCE_TIMESTAMP drops changes older
// than the instance's latest, TIME_BASED_FILTER drops samples that arrive too soon, and
// a sample whose LIFESPAN has ended is dropped on arrival or when it would be read.
// OWNERSHIP EXCLUSIVE drops the writes and disposes of writers that do not own their
// instance and are not stronger than its owner (Change.Strength; the smaller GUID wins
// a tie); the owner's unregister or loss, and ReleaseOwnership (a missed DEADLINE),
// leave the instance to the next writer.
// Config.OnDataAvailable is called after an insert that made something available.
//
// # Read and take
//
// Read, Take, ReadInstance, TakeInstance, ReadNextInstance and TakeNextInstance copy
// values and SampleInfos into slices the caller provides, so that a steady stream of
// inserts and takes allocates nothing. A Selector selects by sample, view and instance
// state masks (a ReadCondition) and by a Filter on the value (a QueryCondition); Matches
// is a condition's trigger value. SampleInfo carries the ranks computed at read time.
//
// # Time
//
// The cache has no timers and no goroutines: every operation takes the current time.
// READER_DATA_LIFECYCLE autopurges run in any operation at or after their deadline;
// Tick runs them and returns the next deadline for the caller's timer.
//
// # Concurrency
//
// A Cache is guarded by its own mutex. Hooks and Selector filters must not block; hooks
// are called after the mutex is released and may call the cache.
package rhc
