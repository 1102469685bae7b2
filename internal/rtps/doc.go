// Package rtps is the RTPS 2.5 protocol engine of ddsgo (OMG DDSI-RTPS,
// formal/22-04-01, chapter 8.4): the stateful writers and readers, their
// history, the reliability protocol (HEARTBEAT, ACKNACK, GAP,
// HEARTBEAT_FRAG, NACK_FRAG) and fragmentation. Messages are encoded and
// decoded by package internal/wire; the participant, the receiver that routes
// incoming submessages and the event loop build on the types here.
//
// # Model
//
// A Writer or a Reader is a state machine without goroutines or timers.
// Every method takes the current time; the endpoints report their next
// deadline through the Schedule callback of their config (and return it
// from Tick), and the participant's event loop calls Tick when it comes.
// Each endpoint has its own mutex: user goroutines call Writer.Write
// directly, the receive goroutine calls the Handle methods and the event
// loop calls Tick. Outgoing messages go through a Sender while the lock is
// held, so Send must neither block for long nor call back into an endpoint;
// in particular it must not deliver synchronously to a local endpoint
// (queue it), or a writer and a reader of one process could deadlock.
//
// # Writer
//
// Write assigns the next sequence number, stores the change in the
// WriterHistory and sends it at once to every matched reader: one datagram
// per destination locator (readers of one participant share it), readerId
// UNKNOWN, INFO_TS with the source timestamp first. A payload above
// FragmentThreshold goes as DATA_FRAGs of FragmentSize octets, as many per
// submessage as fit in MaxMessageSize (Cyclone DDS: 1344 and 14720), then a
// HEARTBEAT_FRAG. Disposes and unregisters carry inline PID_STATUS_INFO and
// PID_KEY_HASH (Fast DDS ignores them without the key hash) and, when the
// change has one, the serialized key with the K flag.
//
// A best-effort writer (or a reliable writer for best-effort readers) sends
// once. A reliable writer keeps a proxy per reliable reader (RTPS §8.4.7.5):
// the highest SN acknowledged and the SNs requested. It piggy-backs a
// HEARTBEAT on new data every PiggybackEvery writes or when the last one is
// older than a quarter of HeartbeatPeriod; it is final (asks for no ACKNACK)
// unless enough is unacknowledged: half of the flow-control window, asked
// once until acknowledgments move the window (a Cyclone DDS pair, ddsperf
// pub and sub, exchanges one ACKNACK per about 300 1 KiB samples; asking
// with every piggy-backed HEARTBEAT drew one per datagram), more than
// PiggybackEvery changes without a window, or half of a bounded KEEP_ALL
// history. It sends one every HeartbeatPeriod while some reader has unacknowledged changes:
// directed (INFO_DST, readerId) when one reader lags, to every destination
// otherwise. An ACKNACK with a count above the last one acknowledges what is
// below its base and requests its bitmap; after NackResponseDelay the
// writer resends the requested changes still in the history, GAPs those it
// no longer has (replaced by KEEP_LAST, or before a volatile reader
// matched), and adds a directed HEARTBEAT. A change resent to a reader is
// not resent to it again within NackSuppression (5 ms, Cyclone DDS's
// retransmit merging period): a reader that NACKs again before the repair
// arrives (at the next HEARTBEAT, or because the repair was lost) is
// ignored for that change, which stops the storm of identical repairs when
// a burst overflows the reader's socket buffer. A NACK_FRAG makes it resend
// the requested fragments, under the same suppression per fragment. A
// repair ends with a HEARTBEAT only when it resent something or the reader
// asked for one: a HEARTBEAT after a repair that suppression emptied would
// make the reader ask again at once for what is still on its way. A
// non-final ACKNACK is always answered with a
// HEARTBEAT.
//
// With reliable readers, a writer keeps at most MaxUnackedBytes (1 MiB,
// half of a 2 MiB receive buffer, counting 1 KiB per datagram besides the
// payloads) and MaxUnackedChanges (256, half of a reader's Window) sent but
// not acknowledged by every reliable reader. Write never waits for it:
// it stores the change and, when the window is full, leaves it for later.
// The ACKNACKs that move the window send the changes waiting, as many DATA
// per datagram as fit in MaxMessageSize, with GAPs for those KEEP_LAST
// replaced meanwhile. HEARTBEATs announce only what was sent, and the writer
// asks for acknowledgments (a HEARTBEAT without F) once half of the window
// is used. The window only moves forward: a transient-local late joiner
// holds it until it has caught up with the others. Best-effort readers
// alone do not open a window.
//
// A sample of more than twice MaxUnackedBytes, to readers that are all
// reliable, goes in steps of half of MaxUnackedBytes (pace.go): each but the
// last ends with a HEARTBEAT_FRAG and a HEARTBEAT that asks for an ACKNACK,
// each ACKNACK releases a step, and a step goes at the latest paceTimeout
// (5 ms, doubling while no answer comes, up to 40 ms) after the previous
// one, so that a reader's socket buffer never
// holds more than MaxUnackedBytes of one sample and a reader that never
// answers still gets it. A reader asks only for the fragments up to the
// highest one received or announced.
//
// A reliable reader that has sent nothing yet (no ACKNACK, no NACK_FRAG)
// gets a directed HEARTBEAT when it matches and every HeartbeatPeriod
// after, data written or not: a Cyclone DDS volatile reader that first
// hears of the writer through a HEARTBEAT announcing changes takes them as
// written before it joined, so without this, changes lost on their way
// before the reader's first HEARTBEAT would never be asked for.
//
// A volatile reader starts acknowledged up to the last SN written when it
// matched, and gets a GAP for everything before; a reliable reader of a
// transient-local writer gets a HEARTBEAT announcing the history and asks
// for it; a best-effort one gets the history sent at once.
//
// # History
//
// WriterHistory holds changes in SN order with KEEP_LAST depth per instance
// (key hash) or KEEP_ALL, within max_samples, max_instances and
// max_samples_per_instance. Changes acknowledged by every reliable reader
// are dropped at once by a volatile writer; a transient-local writer keeps
// them for late joiners but drops the oldest acknowledged ones when a limit
// needs room. When only unacknowledged changes fill a KEEP_ALL history,
// Write fails with ErrHistoryFull; the caller waits on Writer.AckWait for
// acknowledgments (up to max_blocking_time) and tries again.
// Writer.AckedByAll serves wait_for_acknowledgments. The history owns the
// payloads written and hands each back through WriterConfig.Release when it
// drops it, so that the caller can pool them: a steady-state Write
// allocates nothing.
//
// # Reader
//
// A Reader keeps a proxy per matched writer (RTPS §8.4.10.4). With a
// reliable writer it delivers strictly in SN order and exactly once: changes
// ahead of the next expected one wait in a window of up to Window SNs and at most
// MaxBufferedBytes (beyond that they are dropped, counted, and asked for
// again). A HEARTBEAT whose count is new updates the last SN known; its
// firstSN skips (and counts lost) what the writer no longer has. Unless it
// is final with nothing missing, it is answered after
// HeartbeatResponseDelay by an ACKNACK (F set, like Cyclone DDS) whose base
// is the next expected SN and whose bitmap lists the missing ones, plus
// NACK_FRAGs for the samples partially received. An ACKNACK that asks for
// something goes no sooner than NackInterval (5 ms) after the previous one
// that did: the HEARTBEATs in between (Cyclone DDS piggy-backs one on every
// datagram) get one merged answer. When what an ACKNACK asked for does not
// come, the reader asks again on its own ReaskDelay (20 ms) later, the wait
// doubling while nothing comes, three times at most while the writer is
// silent, rather than wait for the writer's next HEARTBEAT (Fast DDS: every
// 3 s). A GAP marks SNs irrelevant, which lets
// delivery move on. Adding a reliable writer sends a
// pre-emptive ACKNACK (base 1, empty set), as Cyclone DDS does. With a
// best-effort writer (or a best-effort reader) a change is delivered when
// its SN is above the last delivered one and dropped otherwise.
//
// DATA_FRAGs are reassembled in buffers of the announced sample size,
// bounded by MaxSampleSize per sample and MaxReassemblyBytes and
// MaxReassemblies (64) per writer. When room runs out a reliable reader gives up
// the reassembly with the highest SN (needed last) and a best-effort one
// the oldest; reassemblies of SNs already delivered or skipped are freed.
// Fragments inconsistent with the reassembly in progress are counted and
// dropped. The buffers of delivered or abandoned reassemblies go back to a
// pool of the reader (at most MaxReassemblies buffers, MaxReassemblyBytes in
// all), so that fragmented samples allocate nothing in steady state.
//
// The deliver callback receives a Sample whose Payload aliases the receive
// buffer or a reader buffer, valid only during the call. Kind and KeyHash
// come from the inline PID_STATUS_INFO and PID_KEY_HASH; KeyOnly says the
// payload is a serialized key. HandleData of an in-order, non-fragmented
// sample allocates nothing.
//
// The callback returns false to refuse a sample (the reader history cache
// rejected it for its resource limits). A best-effort reader drops it and
// goes on. A reliable reader drops the payload but does not move past its
// SN: that change stays unacknowledged, the changes after it wait in the
// window (one refused when it comes out of the window is dropped too), and
// every ACKNACK asks for it again. When the callback can take samples again,
// Reader.Retry sends at once an ACKNACK asking for the refused change of
// each writer, and delivery resumes in order, exactly once, when it is
// resent. Retry takes the reader's lock: call it from the event loop
// (Engine.Post), never from the callback.
//
// # Participant duties
//
// The participant (1) matches endpoints through discovery and calls
// AddReader / AddWriter (RemoveReader / RemoveWriter when unmatched or when
// a lease expires), with the remote locators; (2) routes each entity
// submessage of an incoming datagram, with the source prefix from the
// header (or INFO_SRC), the INFO_TS timestamp and the INFO_DST filter:
// DATA, DATA_FRAG, HEARTBEAT, HEARTBEAT_FRAG and GAP to the local readers
// matched with the writer GUID (all of them for readerId UNKNOWN, else the
// one named), ACKNACK and NACK_FRAG to the local writer named by writerId;
// (3) keeps one timer at the earliest deadline reported by Schedule and
// calls Tick on the endpoints that are due.
//
// # Engine
//
// [Engine] does (2) and (3) for one participant, and discovery does (1) on
// top of it. NewEngine opens the transport (the GUID prefix starts with our
// vendor id 01.dd, see [NewGUIDPrefix]) and starts the event loop: one
// goroutine that takes each discovery datagram from the transport's bounded
// queue and routes it, runs the functions posted with [Engine.Post], and
// calls the [Timer]s due, with one time.Timer set to the earliest deadline
// of a heap. Datagrams of the user-traffic sockets are routed on the
// socket's own receive goroutine, without that hand-off; the endpoints'
// locks serialize them with everything else.
// Engine.NewWriter and Engine.NewReader give each endpoint a Timer as its
// Schedule callback; discovery adds timers of its own (announcements,
// leases). [Engine.MatchWriter] also routes the writer's submessages to the
// reader; DATA of a stateless built-in writer (SPDP) goes to the
// [RawDataHandler] set with [Engine.HandleRaw], from any participant.
//
// The engine is the endpoints' Sender (a [BatchSender]: a burst of
// datagrams to one destination goes in one batched write). A message for one of its own unicast
// locators (a writer and a reader of the same participant) is copied into a
// local queue that the event loop reads like the network, never delivered
// synchronously. Datagrams that are not RTPS, that are malformed (the rest
// of the message is dropped at the first invalid submessage, RTPS 2.5
// §8.3.4.1), our own multicast echoes, submessages behind an INFO_DST for
// another participant and submessages for endpoints that are not there are
// dropped and counted ([EngineStats]). Routing an in-order DATA allocates
// nothing.
package rtps
