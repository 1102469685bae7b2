package dds

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ddsgo/ddsgo/internal/wire"
)

type addRequest struct{ A, B int32 }

func (addRequest) DDSTypeName() string { return "test::srv::dds_::Add_Request_" }

type addReply struct{ Sum int32 }

func (addReply) DDSTypeName() string { return "test::srv::dds_::Add_Response_" }

func add(_ context.Context, r *addRequest) (addReply, error) { return addReply{r.A + r.B}, nil }

// Requesters call a replier, concurrently, in process and over the RTPS engine; each call
// gets its own reply.
func TestRequestReply(t *testing.T) {
	for _, tc := range []struct {
		name  string
		parts func(t *testing.T) (client, server *DomainParticipant)
	}{
		{"in process", func(t *testing.T) (*DomainParticipant, *DomainParticipant) {
			p := testParticipant(t, nil, nil)
			return p, p
		}},
		{"rtps", func(t *testing.T) (*DomainParticipant, *DomainParticipant) { return memPair(t, 41) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			client, server := tc.parts(t)
			s, err := NewReplier(server, "/calc/add", add, ROSNames())
			require.NoError(t, err)
			defer func() { require.NoError(t, s.Close()) }()
			require.NotNil(t, server.LookupTopicDescription("rq/calc/addRequest"))
			require.NotNil(t, server.LookupTopicDescription("rr/calc/addReply"))

			var qs []*Requester[addRequest, addReply]
			for range 2 {
				q, err := NewRequester[addRequest, addReply](client, "/calc/add", ROSNames())
				require.NoError(t, err)
				defer func() { require.NoError(t, q.Close()) }()
				ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
				require.NoError(t, q.WaitForService(ctx))
				cancel()
				qs = append(qs, q)
			}
			var wg sync.WaitGroup
			for i := range 20 {
				wg.Go(func() {
					ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
					defer cancel()
					rep, err := qs[i%2].Call(ctx, &addRequest{int32(i), 100})
					if err != nil {
						t.Error(err)
						return
					}
					if rep.Sum != int32(i)+100 {
						t.Errorf("call %d: got %d", i, rep.Sum)
					}
				})
			}
			wg.Wait()
		})
	}
}

// A call without a replier waits for one within its context; one whose replier does
// not answer ends with its context; one whose replier goes away fails with
// ErrPreconditionNotMet.
func TestRequestReplyFailures(t *testing.T) {
	client, server := memPair(t, 42)
	q, err := NewRequester[addRequest, addReply](client, "calc")
	require.NoError(t, err)
	defer func() { require.NoError(t, q.Close()) }()
	ctx, cancel := context.WithTimeout(bg, 50*time.Millisecond)
	_, err = q.Call(ctx, &addRequest{1, 2})
	cancel()
	require.ErrorIs(t, err, context.DeadlineExceeded, "no replier within the context")
	require.ErrorContains(t, err, "waiting for a replier of service calc")

	block := make(chan struct{})
	s, err := NewReplier(server, "calc", func(ctx context.Context, r *addRequest) (addReply, error) {
		if r.A < 0 {
			return addReply{}, fmt.Errorf("negative")
		}
		select {
		case <-block:
		case <-ctx.Done():
		}
		return addReply{r.A + r.B}, nil
	})
	require.NoError(t, err)
	ctx, cancel = context.WithTimeout(bg, 10*time.Second)
	require.NoError(t, q.WaitForService(ctx))
	cancel()

	ctx, cancel = context.WithTimeout(bg, 100*time.Millisecond)
	_, err = q.Call(ctx, &addRequest{1, 2})
	cancel()
	require.ErrorIs(t, err, context.DeadlineExceeded)
	require.NotErrorIs(t, err, ErrTimeout)
	close(block)

	done := make(chan error, 1)
	go func() {
		_, err := q.Call(bg, &addRequest{-1, 0}) // no answer: the handler fails
		done <- err
	}()
	time.Sleep(50 * time.Millisecond)
	require.NoError(t, s.Close())
	select {
	case err := <-done:
		require.ErrorIs(t, err, ErrPreconditionNotMet)
	case <-time.After(10 * time.Second):
		t.Fatal("the call did not notice the replier went away")
	}
}

// What rmw_cyclonedds puts on the wire: a 16-octet header (client id, sequence number)
// before the body. A struct with the header's two fields first serializes exactly so.
type cycloneAddRequest struct {
	Client uint64
	Seq    int64
	A, B   int32
}

func (cycloneAddRequest) DDSTypeName() string { return addRequest{}.DDSTypeName() }

type cycloneAddReply struct {
	Client uint64
	Seq    int64
	Sum    int32
}

func (cycloneAddReply) DDSTypeName() string { return addReply{}.DDSTypeName() }

// cycloneNet returns a net whose second participant is a Cyclone DDS one.
func cycloneNet(t *testing.T) (ddsgo, cyclone *DomainParticipant) {
	net := &fakeNet{vendors: []wire.VendorID{wire.VendorDDSGo, wire.VendorCyclone}}
	return testParticipant(t, net, nil), testParticipant(t, net, nil)
}

// cycloneAddTopics returns the request and reply topics of the service /calc/add on cyc,
// in rmw_cyclonedds's form.
func cycloneAddTopics(t *testing.T, cyc *DomainParticipant) (*Topic[cycloneAddRequest], *Topic[cycloneAddReply]) {
	t.Helper()
	reqT, err := NewTopic[cycloneAddRequest](cyc, "rq/calc/addRequest")
	require.NoError(t, err)
	repT, err := NewTopic[cycloneAddReply](cyc, "rr/calc/addReply")
	require.NoError(t, err)
	return reqT, repT
}

// A ddsgo replier answers an rmw_cyclonedds client in its form: the request's header
// comes back in the reply, and the body in between is the service's.
func TestReplierAnswersCycloneClients(t *testing.T) {
	p, cyc := cycloneNet(t)
	s, err := NewReplier(p, "/calc/add", add, ROSNames())
	require.NoError(t, err)
	defer func() { require.NoError(t, s.Close()) }()
	reqT, repT := cycloneAddTopics(t, cyc)
	w, err := NewWriter(reqT, Reliable(), KeepAll())
	require.NoError(t, err)
	r, err := NewReader(repT, Reliable(), KeepAll())
	require.NoError(t, err)
	for i := range 3 {
		require.NoError(t, w.Write(bg, &cycloneAddRequest{Client: 0x57e8adff54049595, Seq: int64(i + 1), A: int32(i), B: 10}))
	}
	ctx, cancel := context.WithTimeout(bg, 5*time.Second)
	defer cancel()
	var got []cycloneAddReply
	for rep := range r.Samples(ctx) {
		got = append(got, rep)
		if len(got) == 3 {
			break
		}
	}
	require.Equal(t, []cycloneAddReply{
		{0x57e8adff54049595, 1, 10}, {0x57e8adff54049595, 2, 11}, {0x57e8adff54049595, 3, 12},
	}, got)
}

// A ddsgo requester calls an rmw_cyclonedds server in its form, and keeps only the
// replies with its own client id.
func TestRequesterCallsCycloneServers(t *testing.T) {
	p, cyc := cycloneNet(t)
	reqT, repT := cycloneAddTopics(t, cyc)
	sr, err := NewReader(reqT, Reliable(), KeepAll())
	require.NoError(t, err)
	sw, err := NewWriter(repT, Reliable(), KeepAll())
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(bg, 10*time.Second)
	defer cancel()
	go func() { // the server: answers, and also sends a reply for another client first
		for req := range sr.Samples(ctx) {
			_ = sw.Write(ctx, &cycloneAddReply{Client: req.Client + 1, Seq: req.Seq, Sum: -1})
			_ = sw.Write(ctx, &cycloneAddReply{Client: req.Client, Seq: req.Seq, Sum: req.A + req.B})
		}
	}()
	q, err := NewRequester[addRequest, addReply](p, "/calc/add", ROSNames())
	require.NoError(t, err)
	defer func() { require.NoError(t, q.Close()) }()
	require.NoError(t, q.WaitForService(ctx))
	for i := range 3 {
		rep, err := q.Call(ctx, &addRequest{int32(i), 5})
		require.NoError(t, err)
		require.Equal(t, int32(i+5), rep.Sum)
	}
}

// ROSNames applies to services only, and services take no other option.
func TestServiceOptions(t *testing.T) {
	p := testParticipant(t, nil, nil)
	_, err := NewTopic[addRequest](p, "t", ROSNames())
	require.ErrorIs(t, err, ErrBadParameter)
	_, err = NewRequester[addRequest, addReply](p, "calc", Reliable())
	require.ErrorIs(t, err, ErrBadParameter)
	_, err = NewReplier(p, "calc", add, KeepAll())
	require.ErrorIs(t, err, ErrBadParameter)
}

// A reply written before the replier matched the client's reply reader (the client made
// it late, or its side of discovery came late) is written again when that reader
// matches: the call still gets its answer.
func TestReplyToLateReader(t *testing.T) {
	client, server := memPair(t, 47)
	s, err := NewReplier(server, "/calc/add", add, ROSNames())
	require.NoError(t, err)
	defer func() { require.NoError(t, s.Close()) }()
	reqT, err := NewTopic[addRequest](client, "rq/calc/addRequest")
	require.NoError(t, err)
	w, err := NewWriter(reqT, Reliable(), KeepAll())
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(bg, 10*time.Second)
	defer cancel()
	for {
		st, err := w.PublicationMatchedStatus()
		require.NoError(t, err)
		if st.CurrentCount > 0 {
			break
		}
		require.NoError(t, ctx.Err())
		time.Sleep(time.Millisecond)
	}
	var asked SampleIdentity
	require.NoError(t, w.Write(bg, &addRequest{2, 3}, WrittenAs(&asked)))
	time.Sleep(3 * replyReaderWait) // the replier gave up waiting and wrote the reply to nobody

	repT, err := NewTopic[addReply](client, "rr/calc/addReply")
	require.NoError(t, err)
	r, err := NewReader(repT, Reliable(), KeepAll())
	require.NoError(t, err)
	for rep, info := range r.Samples(ctx) {
		require.Equal(t, asked, info.RelatedIdentity)
		require.Equal(t, addReply{5}, rep)
		return
	}
	t.Fatal("no reply:", ctx.Err())
}

// With ROS 2 names, a requester's two endpoints announce one rmw_cyclonedds client id in
// USER_DATA (clientid=ID;) and a replier's one service id (serviceid=ID;): the
// participant's GUID prefix and a counter, in rmw_cyclonedds's text form. Requesters made
// one after the other beside an older one in the same participant each get their reply
// (the replier waits for the reader with the request writer's client id, not for any
// reader of that participant).
func TestServiceIDs(t *testing.T) {
	client, server := memPair(t, 48)
	s, err := NewReplier(server, "/calc/add", add, ROSNames())
	require.NoError(t, err)
	defer func() { require.NoError(t, s.Close()) }()
	old, err := NewRequester[addRequest, addReply](client, "/calc/add", ROSNames())
	require.NoError(t, err)
	defer func() { require.NoError(t, old.Close()) }()
	ctx, cancel := context.WithTimeout(bg, 10*time.Second)
	defer cancel()
	require.NoError(t, old.WaitForService(ctx))

	idForm := regexp.MustCompile(`^[ 1-9a-f][0-9a-f](\.[0-9a-f]{1,2}){15}$`)
	ids := map[string]bool{}
	for i := range 20 {
		q, err := NewRequester[addRequest, addReply](client, "/calc/add", ROSNames())
		require.NoError(t, err)
		require.NoError(t, q.WaitForService(ctx))
		rep, err := q.Call(ctx, &addRequest{int32(i), 1})
		require.NoError(t, err, "call %d", i)
		require.Equal(t, int32(i)+1, rep.Sum)

		// The matched lists follow the engine's match by a moment (discovery tells the
		// dds layer on its dispatcher, docs/api.md): the request can reach the
		// replier's reader, and the reply q's reader before the replier's writer matched
		// it (DATA goes to the participant), ahead of either list. Wait for both.
		var wd EndpointBuiltinTopicData
		require.Eventually(t, func() bool {
			wd, err = s.r.MatchedPublicationData(q.w.InstanceHandle())
			return err == nil
		}, 10*time.Second, time.Millisecond, "the replier's reader matches the requester's writer")
		var rd EndpointBuiltinTopicData
		require.Eventually(t, func() bool {
			rd, err = s.w.MatchedSubscriptionData(q.r.InstanceHandle())
			return err == nil
		}, 10*time.Second, time.Millisecond, "the replier's writer matches the requester's reader")
		id, ok := userDataValue(wd.Offered.Writer.UserData.Value, "clientid")
		require.True(t, ok, "%q", wd.Offered.Writer.UserData.Value)
		require.Equal(t, "clientid="+id+";", string(rd.Requested.Reader.UserData.Value), "the reader has the writer's id")
		require.Regexp(t, idForm, id)
		prefix := client.prefix
		require.True(t, strings.HasPrefix(id, fmt.Sprintf("%2x.%x", prefix[0], prefix[1])), "%s starts with the participant's prefix %x", id, prefix)
		require.False(t, ids[id], "ids are unique")
		ids[id] = true
		require.NoError(t, q.Close())
	}
	sd, err := old.w.MatchedSubscriptionData(s.r.InstanceHandle())
	require.NoError(t, err)
	require.Regexp(t, `^serviceid=[ 0-9a-f.]+;$`, string(sd.Requested.Reader.UserData.Value))

	// Without ROS 2 names, no ids.
	q, err := NewRequester[addRequest, addReply](client, "calc")
	require.NoError(t, err)
	defer func() { require.NoError(t, q.Close()) }()
	require.Empty(t, q.w.Qos().UserData.Value)
}

// After Close, a Requester's Call and WaitForService end at once with
// ErrAlreadyDeleted; a WaitForService blocked when Close comes ends too. And
// WaitForService wakes when the replier comes, without polling (memnet: no loss).
func TestRequesterClosedAndWoken(t *testing.T) {
	client, server := memPair(t, 42)
	q, err := NewRequester[addRequest, addReply](client, "calc")
	require.NoError(t, err)
	woke := make(chan error, 1)
	go func() { woke <- q.WaitForService(bg) }()
	s, err := NewReplier(server, "calc", add)
	require.NoError(t, err)
	defer func() { require.NoError(t, s.Close()) }()
	select {
	case err := <-woke:
		require.NoError(t, err)
	case <-time.After(10 * time.Second):
		t.Fatal("WaitForService did not wake when the replier matched")
	}
	rep, err := q.Call(bg, &addRequest{2, 3})
	require.NoError(t, err)
	require.Equal(t, addReply{5}, rep)

	other, err := NewRequester[addRequest, addReply](client, "nobody")
	require.NoError(t, err)
	blocked := make(chan error, 1)
	go func() { blocked <- other.WaitForService(bg) }()
	require.NoError(t, other.Close())
	select {
	case err := <-blocked:
		require.ErrorIs(t, err, ErrAlreadyDeleted)
	case <-time.After(10 * time.Second):
		t.Fatal("WaitForService did not end at Close")
	}

	require.NoError(t, q.Close())
	_, err = q.Call(bg, &addRequest{1, 2})
	require.ErrorIs(t, err, ErrAlreadyDeleted)
	require.ErrorIs(t, q.WaitForService(bg), ErrAlreadyDeleted)
}

// An empty service name is a bad parameter, for a requester and a replier alike.
func TestEmptyServiceName(t *testing.T) {
	client, server := memPair(t, 42)
	for _, name := range []string{"", "/", "//"} {
		_, err := NewRequester[addRequest, addReply](client, name, ROSNames())
		require.ErrorIs(t, err, ErrBadParameter, "%q", name)
		_, err = NewReplier(server, name, add)
		require.ErrorIs(t, err, ErrBadParameter, "%q", name)
	}
}

// A call made right after the replier was created waits for it, without WaitForService.
func TestCallWaitsForService(t *testing.T) {
	client, server := memPair(t, 43)
	q, err := NewRequester[addRequest, addReply](client, "sum")
	require.NoError(t, err)
	defer func() { require.NoError(t, q.Close()) }()
	s, err := NewReplier(server, "sum", func(_ context.Context, r *addRequest) (addReply, error) {
		return addReply{r.A + r.B}, nil
	})
	require.NoError(t, err)
	defer func() { require.NoError(t, s.Close()) }()
	ctx, cancel := context.WithTimeout(bg, 10*time.Second)
	defer cancel()
	rep, err := q.Call(ctx, &addRequest{2, 3})
	require.NoError(t, err)
	require.Equal(t, addReply{5}, rep)
}
