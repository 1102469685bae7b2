package dds

import (
	"context"
	"encoding/binary"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ddsgo/ddsgo/dds/internal/status"
	"github.com/ddsgo/ddsgo/internal/errs"
	"github.com/ddsgo/ddsgo/internal/wire"
)

// A service is a request topic and a reply topic. A Requester writes requests and reads
// the replies related to them (SampleInfo.RelatedIdentity); a Replier reads requests and
// writes each reply RelatedTo its request, as DDS-RPC and rmw_fastrtps do. Both are
// ordinary writers and readers of the two topics, in the participant's default publisher
// and subscriber.

// ROSNames, an option of NewRequester and NewReplier, names the topics as ROS 2 does for
// the service NAME: rq/NAMERequest and rr/NAMEReply, NAME without its leading slash
// ("/gzserver/get_entities" gives rq/gzserver/get_entitiesRequest). Without it they are
// NAME_Request and NAME_Reply.
func ROSNames() Option {
	return onlyFor("ROSNames", func(s *settings) bool { return s.what == "service" }, func(s *settings) { s.ros = true })
}

// serviceTopics returns the request and reply topic names of service.
func serviceTopics(service string, s *settings) (string, string) {
	if s.ros {
		n := strings.TrimPrefix(service, "/")
		return "rq/" + n + "Request", "rr/" + n + "Reply"
	}
	return service + "_Request", service + "_Reply"
}

// serviceEndpoints applies the options of a requester (replier false) or replier and
// creates the topics of service and a writer of one and a reader of the other: the
// requester writes requests and reads replies, the replier the other way round. They are
// RELIABLE VOLATILE as ROS 2's services, but KEEP_ALL where ROS 2 keeps the last 10, so
// that a burst of calls loses none (history is not a policy peers compare).
func serviceEndpoints[W, R any](p *DomainParticipant, service string, opts []Option, replier bool) (*Topic[W], *Topic[R], *DataWriter[W], *DataReader[R], error) {
	if strings.Trim(service, "/") == "" {
		return nil, nil, nil, nil, errorf(ErrBadParameter, "service name %q: empty", service)
	}
	s := &settings{what: "service"}
	if err := s.apply(opts); err != nil {
		return nil, nil, nil, nil, err
	}
	wName, rName := serviceTopics(service, s)
	var ud Option = func(*settings) {}
	if replier {
		wName, rName = rName, wName
	}
	if s.ros { // rmw_cyclonedds's pairing of a client's or service's two endpoints
		key := "clientid="
		if replier {
			key = "serviceid="
		}
		ud = userData([]byte(key + p.nextServiceID() + ";"))
	}
	wt, err := NewTopic[W](p, wName)
	if err != nil {
		return nil, nil, nil, nil, err
	}
	rt, err := NewTopic[R](p, rName)
	if err != nil {
		_ = wt.Close()
		return nil, nil, nil, nil, err
	}
	w, err := NewWriter(wt, Reliable(), KeepAll(), ud)
	if err != nil {
		_ = closeAll(rt, wt)
		return nil, nil, nil, nil, err
	}
	r, err := NewReader(rt, Reliable(), KeepAll(), ud)
	if err != nil {
		_ = closeAll(w, rt, wt)
		return nil, nil, nil, nil, err
	}
	return wt, rt, w, r, nil
}

// closeAll closes every entity and returns the first error.
func closeAll(es ...interface{ Close() error }) error {
	var first error
	for _, e := range es {
		if err := e.Close(); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// svcCommon is what a requester and a replier both keep: the service, its topics, the
// rmw_cyclonedds headers their reader takes off the samples, and the stop and end of
// the goroutine that reads.
type svcCommon[Req, Rep any] struct {
	service string
	reqT    *Topic[Req]
	repT    *Topic[Rep]
	headers *svcHeaders
	stop    context.CancelFunc
	done    chan struct{}
}

// newSvcCommon returns the svcCommon of a requester or replier whose reader keeps its
// headers in rh, and the context of its goroutine.
func newSvcCommon[Req, Rep any](service string, reqT *Topic[Req], repT *Topic[Rep], rh *atomic.Pointer[svcHeaders]) (svcCommon[Req, Rep], context.Context) {
	ctx, stop := context.WithCancel(context.Background())
	c := svcCommon[Req, Rep]{service: service, reqT: reqT, repT: repT, headers: newSvcHeaders(), stop: stop, done: make(chan struct{})}
	rh.Store(c.headers)
	return c, ctx
}

// Requester calls a service: Call writes a request and waits for its reply.
type Requester[Req, Rep any] struct {
	svc svcCommon[Req, Rep]
	w   *DataWriter[Req]
	r   *DataReader[Rep]

	p      *DomainParticipant
	client uint64       // the client id of rmw_cyclonedds's headers
	seq    atomic.Int64 // the last header sequence number

	mu      sync.Mutex
	pending map[SampleIdentity]chan Rep // by request identity; header calls by {SN: seq}
}

// NewRequester creates a requester of service in p.
func NewRequester[Req, Rep any](p *DomainParticipant, service string, opts ...Option) (*Requester[Req, Rep], error) {
	reqT, repT, w, r, err := serviceEndpoints[Req, Rep](p, service, opts, false)
	if err != nil {
		return nil, err
	}
	c, ctx := newSvcCommon(service, reqT, repT, &r.headers)
	q := &Requester[Req, Rep]{svc: c, w: w, r: r, p: p, pending: map[SampleIdentity]chan Rep{}}
	g := guidBytes(w.ew.GUID())
	q.client = binary.LittleEndian.Uint64(g[4:]) ^ binary.LittleEndian.Uint64(g[8:]) // unique enough: hostid^appid, entity
	go q.route(ctx)
	return q, nil
}

// route hands each reply to the Call waiting for it; replies to nobody (another
// requester's, or a call that gave up) are dropped.
func (q *Requester[Req, Rep]) route(ctx context.Context) {
	defer close(q.svc.done)
	for v, info := range q.r.Samples(ctx) {
		if !info.ValidData {
			continue
		}
		key := info.RelatedIdentity
		if c, ok := q.svc.headers.take(info.Identity); ok && key == (SampleIdentity{}) {
			if c.client != q.client {
				continue // another client's
			}
			key = SampleIdentity{SN: c.seq}
		}
		q.mu.Lock()
		ch := q.pending[key]
		delete(q.pending, key)
		q.mu.Unlock()
		if ch != nil {
			ch <- v // buffered: never blocks
		}
	}
}

// WaitForService waits until a replier of the service is matched both ways: it reads the
// requests and writes replies this requester reads.
func (q *Requester[Req, Rep]) WaitForService(ctx context.Context) error {
	for {
		wc, rc := q.w.changed.Wait(), q.r.changed.Wait()
		if q.ready() {
			return nil
		}
		select {
		case <-ctx.Done():
			return errs.Context(ctx.Err(), "waiting for a replier of service "+q.svc.service)
		case <-wc:
		case <-rc:
		case <-q.svc.done:
			return ErrAlreadyDeleted
		}
	}
}

func (q *Requester[Req, Rep]) ready() bool {
	ws, err := q.w.PublicationMatchedStatus()
	if err != nil || ws.CurrentCount == 0 {
		return false
	}
	rs, err := q.r.SubscriptionMatchedStatus()
	return err == nil && rs.CurrentCount > 0
}

// Call sends req and returns the reply. It waits within ctx for a replier of the
// service (as WaitForService), so a call made right after the service was created
// reaches it; when the replier goes away before answering it fails with
// ErrPreconditionNotMet; when ctx ends first, with ctx's error.
func (q *Requester[Req, Rep]) Call(ctx context.Context, req *Req) (Rep, error) {
	var zero Rep
	select {
	case <-q.svc.done:
		return zero, ErrAlreadyDeleted
	default:
	}
	if err := q.WaitForService(ctx); err != nil {
		return zero, err
	}
	ch := make(chan Rep, 1)
	var id SampleIdentity
	opt := WrittenAs(&id)
	if q.cycloneServer() {
		seq := q.seq.Add(1)
		opt = withHeader(callID{q.client, seq}.header(), &id, seq)
	}
	q.mu.Lock() // held across the write, so that the reply cannot come before the entry
	err := q.w.Write(ctx, req, opt)
	if err == nil {
		q.pending[id] = ch
	}
	q.mu.Unlock()
	if err != nil {
		return zero, err
	}
	defer func() {
		q.mu.Lock()
		delete(q.pending, id)
		q.mu.Unlock()
	}()
	for {
		wc, rc := q.w.changed.Wait(), q.r.changed.Wait()
		select {
		case v := <-ch: // came before the replier went
			return v, nil
		default:
		}
		if !q.ready() {
			return zero, errorf(ErrPreconditionNotMet, "the replier of service %s went away", q.svc.service)
		}
		select {
		case v := <-ch:
			return v, nil
		case <-ctx.Done():
			return zero, errs.Context(ctx.Err(), "calling "+q.svc.service)
		case <-wc: // a match changed: look again
		case <-rc:
		case <-q.svc.done:
			return zero, ErrAlreadyDeleted
		}
	}
}

// cycloneServer reports whether the replier matched is a Cyclone DDS one (an
// rmw_cyclonedds server), which reads requests with a header and no sample identity.
func (q *Requester[Req, Rep]) cycloneServer() bool {
	hs, err := q.w.MatchedSubscriptions()
	if err != nil {
		return false
	}
	for _, h := range hs {
		d, err := q.w.MatchedSubscriptionData(h)
		if err != nil {
			continue
		}
		pd, err := q.p.DiscoveredParticipantData(d.ParticipantKey)
		if err == nil && pd.VendorID == wire.VendorCyclone {
			return true
		}
	}
	return false
}

// Close deletes the requester's endpoints and topics; pending calls return
// ErrAlreadyDeleted.
func (q *Requester[Req, Rep]) Close() error {
	q.svc.stop()
	err := closeAll(q.w, q.r, q.svc.reqT, q.svc.repT)
	<-q.svc.done
	return err
}

// Replier serves a service: it calls its handler for each request, one at a time, and
// writes the reply related to the request.
type Replier[Req, Rep any] struct {
	svc svcCommon[Req, Rep]
	r   *DataReader[Req]
	w   *DataWriter[Rep]

	lateMu sync.Mutex
	late   []lateReply[Rep] // replies written before the client's reader matched
	lateOn bool             // the goroutine that writes them again runs
}

// lateReply is a reply written before the reply writer matched a reader of the client's
// participant: it went nowhere, and is written again when one matches.
type lateReply[Rep any] struct {
	client svcClient
	rep    Rep
	opts   []WriteOption
	until  time.Time
}

// NewReplier creates a replier of service in p that answers each request with what
// handle returns. The handler runs on the replier's goroutine, with a context that ends
// when the replier is closed; an error from it means no reply (the caller times out or
// sees the replier go away).
func NewReplier[Req, Rep any](p *DomainParticipant, service string, handle func(context.Context, *Req) (Rep, error), opts ...Option) (*Replier[Req, Rep], error) {
	if handle == nil {
		return nil, errorf(ErrBadParameter, "service %s: nil handler", service)
	}
	repT, reqT, w, r, err := serviceEndpoints[Rep, Req](p, service, opts, true)
	if err != nil {
		return nil, err
	}
	c, ctx := newSvcCommon(service, reqT, repT, &r.headers)
	s := &Replier[Req, Rep]{svc: c, r: r, w: w}
	go s.serve(ctx, handle)
	return s, nil
}

func (s *Replier[Req, Rep]) serve(ctx context.Context, handle func(context.Context, *Req) (Rep, error)) {
	defer close(s.svc.done)
	for v, info := range s.r.Samples(ctx) {
		if !info.ValidData {
			continue
		}
		call, cyclone := s.svc.headers.take(info.Identity)
		rep, err := handle(ctx, &v)
		if err != nil {
			continue
		}
		client, matched := s.awaitReader(ctx, info.Identity.Writer)
		opts := []WriteOption{RelatedTo(info.Identity)}
		if cyclone { // an rmw_cyclonedds client: the reply carries its header back
			opts = append(opts, withHeader(call.header(), nil, 0))
		}
		_ = s.w.Write(ctx, &rep, opts...)
		if !matched && !client.participant.IsNil() {
			s.keepLate(ctx, lateReply[Rep]{client: client, rep: rep, opts: opts, until: time.Now().Add(lateReplyKeep)})
		}
	}
}

// replyReaderWait is how long a replier waits for a reply reader of the client to match
// before it answers anyway: 100 ms, as rmw_cyclonedds and rmw_fastrtps wait.
const replyReaderWait = 100 * time.Millisecond

// svcClient is the client of a request: the participant of its request writer, and its
// rmw_cyclonedds client id when the writer announces one.
type svcClient struct {
	participant InstanceHandle
	id          string
}

// awaitReader waits, at most replyReaderWait, until the reply writer matches a reader
// of the client of the request writer w, and returns the client and whether one
// matched: discovery is not symmetric, and a reply written before that reader is known
// is lost (the reply writer is VOLATILE). The client's reader is the one with the
// writer's client id (USER_DATA clientid=, as rmw_cyclonedds pairs them), else any in
// the writer's participant. The participant comes from w's GUID prefix, not from the
// matched writer's data: a request can arrive before the reader's match with its writer
// is recorded, and its reply must still be kept for later.
func (s *Replier[Req, Rep]) awaitReader(ctx context.Context, w InstanceHandle) (svcClient, bool) {
	g := guidOf(w)
	client := svcClient{participant: status.GUIDHandle(guidBytes(wire.GUID{Prefix: g.Prefix, Entity: wire.EntityIDParticipant}))}
	ctx, cancel := context.WithTimeout(ctx, replyReaderWait)
	defer cancel()
	for {
		wc, rc := s.w.changed.Wait(), s.r.changed.Wait()
		if client.id == "" {
			if d, err := s.r.MatchedPublicationData(w); err == nil {
				client.id, _ = userDataValue(d.Offered.Writer.UserData.Value, "clientid")
			}
		}
		if s.matches(client) {
			return client, true
		}
		select {
		case <-ctx.Done():
			return client, false
		case <-wc: // the reply writer matched or unmatched a reader
		case <-rc: // the request reader's matches changed: the client id may be known
		}
	}
}

// matches reports whether the reply writer matches a reader of client.
func (s *Replier[Req, Rep]) matches(client svcClient) bool {
	hs, _ := s.w.MatchedSubscriptions()
	for _, h := range hs {
		d, err := s.w.MatchedSubscriptionData(h)
		if err != nil || d.ParticipantKey != client.participant {
			continue
		}
		if id, _ := userDataValue(d.Requested.Reader.UserData.Value, "clientid"); client.id == "" || id == client.id {
			return true
		}
	}
	return false
}

// userDataValue returns the value of key in USER_DATA of the form KEY=VALUE;KEY=VALUE;
// (ROS 2's form for enclave=, typehash=, clientid= and serviceid=).
func userDataValue(ud []byte, key string) (string, bool) {
	for kv := range strings.SplitSeq(string(ud), ";") {
		if k, v, ok := strings.Cut(kv, "="); ok && k == key {
			return v, true
		}
	}
	return "", false
}

// nextServiceID returns a new client or service id of p in rmw_cyclonedds's form: the
// participant's GUID prefix and a counter (big-endian), the first octet in hexadecimal
// padded with a space to two characters, then each other in hexadecimal, separated by
// dots.
func (p *DomainParticipant) nextServiceID() string {
	var id [16]byte
	p.mu.Lock()
	copy(id[:12], p.prefix[:])
	p.mu.Unlock()
	binary.BigEndian.PutUint32(id[12:], p.serviceIDs.Add(1))
	var b strings.Builder
	fmt.Fprintf(&b, "%2x", id[0])
	for _, o := range id[1:] {
		fmt.Fprintf(&b, ".%x", o)
	}
	return b.String()
}

// A reply written before the client's reply reader matched is kept lateReplyKeep, at
// most maxLateReplies of them, and written again as soon as that reader matches: under
// load the replier's side of the match can come later than replyReaderWait (seen in CI
// with the race detector on), and the client would wait for the reply in vain.
const (
	lateReplyKeep  = 5 * time.Second
	maxLateReplies = 64
)

// keepLate keeps l, and starts the goroutine that writes the late replies again.
func (s *Replier[Req, Rep]) keepLate(ctx context.Context, l lateReply[Rep]) {
	s.lateMu.Lock()
	defer s.lateMu.Unlock()
	if len(s.late) >= maxLateReplies {
		s.late = s.late[1:]
	}
	s.late = append(s.late, l)
	if !s.lateOn {
		s.lateOn = true
		go s.resendLate(ctx)
	}
}

// resendLate writes each late reply again once its client's reader matches, dropping
// those kept too long, until none is left or ctx ends.
func (s *Replier[Req, Rep]) resendLate(ctx context.Context) {
	expire := time.NewTimer(replyReaderWait)
	defer expire.Stop()
	for {
		wc := s.w.changed.Wait() // before the look: a match meanwhile is not missed
		s.lateMu.Lock()
		now, rest := time.Now(), s.late[:0]
		var first time.Time // when the first reply kept expires
		for _, l := range s.late {
			switch {
			case ctx.Err() != nil || now.After(l.until):
			case s.matches(l.client):
				_ = s.w.Write(ctx, &l.rep, l.opts...)
			default:
				rest = append(rest, l)
				if first.IsZero() || l.until.Before(first) {
					first = l.until
				}
			}
		}
		clear(s.late[len(rest):])
		s.late = rest
		if len(s.late) == 0 {
			s.lateOn = false
			s.lateMu.Unlock()
			return
		}
		s.lateMu.Unlock()
		expire.Reset(first.Sub(now) + time.Millisecond)
		select {
		case <-ctx.Done():
		case <-wc: // the reply writer matched a reader: whose?
		case <-expire.C:
		}
	}
}

// Close stops serving, waits for the handler running, and deletes the replier's
// endpoints and topics.
func (s *Replier[Req, Rep]) Close() error {
	s.svc.stop()
	<-s.svc.done
	return closeAll(s.w, s.r, s.svc.reqT, s.svc.repT)
}
