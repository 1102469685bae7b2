// Package durable keeps what the durability service of a participant holds for the
// TRANSIENT and PERSISTENT writers (DDS 1.4 §2.2.3.4, DURABILITY and DURABILITY_SERVICE):
// a bounded model of a writer's history (History: which sequence numbers of which
// instance are kept, and the state of each instance) and, for PERSISTENT writers, an
// on-disk store of that history (Store) that survives the process.
//
// # The store
//
// Store is a single bbolt file (go.etcd.io/bbolt): pure Go (no cgo), ACID transactions
// that are fsync'd when they commit, one file per directory, locked against a second
// process, maintained by the etcd project. Each writer identity (topic name and type
// name) has a bucket of its changes keyed by sequence number and its last sequence
// number. Topic.Append commits one change (and the removal of what the history bound
// drops) in one transaction: when it returns, the change is on disk, so a process
// killed after that loses nothing.
//
// The package is the only one that imports bbolt; package dds sees Store and Topic.
package durable
