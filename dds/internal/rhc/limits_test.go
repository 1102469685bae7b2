package rhc

import (
	"testing"

	"github.com/ddsgo/ddsgo/internal/errs"

	"github.com/stretchr/testify/require"
)

// TestResourceLimits checks each limit of RESOURCE_LIMITS with KEEP_ALL and KEEP_LAST.
func TestResourceLimits(t *testing.T) {
	type w struct {
		key  byte
		want Outcome
	}
	tests := []struct {
		name   string
		cfg    Config
		writes []w
		reason RejectedReason
	}{
		{
			name:   "max_instances",
			cfg:    Config{KeepAll: true, MaxInstances: 2},
			writes: []w{{1, Accepted}, {2, Accepted}, {3, RejectedByInstancesLimit}, {1, Accepted}, {2, Accepted}},
			reason: RejectedByInstances,
		},
		{
			name:   "max_samples",
			cfg:    Config{KeepAll: true, MaxSamples: 3},
			writes: []w{{1, Accepted}, {2, Accepted}, {1, Accepted}, {1, RejectedBySamplesLimit}, {3, RejectedBySamplesLimit}},
			reason: RejectedBySamples,
		},
		{
			name:   "max_samples_per_instance",
			cfg:    Config{KeepAll: true, MaxSamplesPerInstance: 2},
			writes: []w{{1, Accepted}, {1, Accepted}, {2, Accepted}, {1, RejectedBySamplesPerInstanceLimit}, {2, Accepted}},
			reason: RejectedBySamplesPerInstance,
		},
		{
			name:   "keep last replaces within max_samples",
			cfg:    Config{Depth: 2, MaxSamples: 3},
			writes: []w{{1, Accepted}, {1, Accepted}, {1, Accepted}, {2, Accepted}, {2, RejectedBySamplesLimit}, {1, Accepted}},
			reason: RejectedBySamples,
		},
		{
			name:   "keep last max_instances",
			cfg:    Config{MaxInstances: 1},
			writes: []w{{1, Accepted}, {2, RejectedByInstancesLimit}, {1, Accepted}},
			reason: RejectedByInstances,
		},
		{
			name:   "unlimited",
			cfg:    Config{KeepAll: true, MaxSamples: -1, MaxInstances: -1, MaxSamplesPerInstance: -1},
			writes: []w{{1, Accepted}, {1, Accepted}, {2, Accepted}, {3, Accepted}},
			reason: NotRejected,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newCache(t, tt.cfg)
			rejected := 0
			for i, wr := range tt.writes {
				o := c.Insert(write(wr.key, w1, i, i), at(i))
				require.Equal(t, wr.want, o, "write %d", i)
				require.Equal(t, wr.want.Rejected(), o.Rejected())
				if o.Rejected() {
					rejected++
					require.Equal(t, tt.reason, o.Reason())
				} else {
					require.Equal(t, NotRejected, o.Reason())
				}
				checkCounts(t, c)
			}
			st := c.SampleRejectedStatus(true)
			require.Equal(t, int32(rejected), st.TotalCount)
			require.Equal(t, int32(rejected), st.TotalCountChange)
			require.Equal(t, tt.reason, st.LastReason)
			st = c.SampleRejectedStatus(false)
			require.Equal(t, int32(rejected), st.TotalCount)
			require.Zero(t, st.TotalCountChange, "reset")
		})
	}
}

// TestRejectedLeavesNoTrace checks that a rejected sample does not make an instance
// alive and records the instance handle.
func TestRejectedLeavesNoTrace(t *testing.T) {
	c := newCache(t, Config{KeepAll: true, MaxSamplesPerInstance: 1})
	c.Insert(write(1, w1, 1, 1), at(1))
	c.Insert(ctl(Dispose, 1, w1, 2), at(2))
	require.Equal(t, RejectedBySamplesPerInstanceLimit, c.Insert(write(1, w1, 2, 3), at(3)))
	s, _ := peek(c, 1)
	require.Equal(t, snapshot{State: disposed, View: isNew, Values: []int{1}, Read: []bool{false}, Writers: 1}, s)
	require.Equal(t, c.Lookup(kh(1)), c.SampleRejectedStatus(false).LastInstanceHandle)

	require.Equal(t, RejectedBySamplesPerInstanceLimit, c.Insert(write(1, w1, 2, 4), at(4)))
	require.Equal(t, int32(2), c.SampleRejectedStatus(false).TotalCount, "every retry counts")
}

// TestSpaceAvailable checks that a reliable reader is told when a rejected sample may
// be retried, once, after take frees space.
func TestSpaceAvailable(t *testing.T) {
	calls := 0
	var c *Cache[val]
	c = newCache(t, Config{KeepAll: true, MaxSamples: 2, OnSpaceAvailable: func() {
		calls++
		require.Equal(t, 1, c.Stats().Samples, "hook runs outside the lock")
	}})
	c.Insert(write(1, w1, 1, 1), at(1))
	c.Insert(write(1, w1, 2, 2), at(2))
	readAll(c, true, &Selector[val]{Filter: func(*val) bool { return false }}, at(3))
	require.Zero(t, calls, "nothing rejected yet, nothing freed")

	require.True(t, c.Insert(write(1, w1, 3, 3), at(3)).Rejected())
	dst, infos := make([]val, 1), make([]SampleInfo, 1)
	require.Equal(t, 1, c.Take(dst, infos, nil, at(4)))
	require.Equal(t, 1, calls)
	require.Equal(t, Accepted, c.Insert(write(1, w1, 3, 3), at(5)))
	require.Equal(t, 1, c.Take(dst, infos, nil, at(6)))
	require.Equal(t, 1, calls, "no rejection since: no call")
}

// TestSamplesLost checks the SAMPLE_LOST bookkeeping.
func TestSamplesLost(t *testing.T) {
	c := newCache(t, Config{})
	c.AddSamplesLost(3)
	c.AddSamplesLost(0)
	c.AddSamplesLost(-1)
	require.Equal(t, SampleLostStatus{TotalCount: 3, TotalCountChange: 3}, c.SampleLostStatus(true))
	c.AddSamplesLost(1 << 40)
	require.Equal(t, SampleLostStatus{TotalCount: 1<<31 - 1, TotalCountChange: 1<<31 - 1}, c.SampleLostStatus(true))
	require.Equal(t, SampleLostStatus{TotalCount: 1<<31 - 1}, c.SampleLostStatus(false))
}

func TestConfigValidation(t *testing.T) {
	tests := []struct {
		cfg  Config
		want error
	}{
		{Config{}, nil},
		{Config{Depth: 5, MaxSamplesPerInstance: 5, MaxSamples: 5}, nil},
		{Config{KeepAll: true, Depth: 50, MaxSamplesPerInstance: 5}, nil},
		{Config{Depth: -1}, errs.ErrBadParameter},
		{Config{MinimumSeparation: -1}, errs.ErrBadParameter},
		{Config{AutopurgeNoWriterSamplesDelay: -1}, errs.ErrBadParameter},
		{Config{AutopurgeDisposedSamplesDelay: -1}, errs.ErrBadParameter},
		{Config{Depth: 6, MaxSamplesPerInstance: 5}, errs.ErrInconsistentPolicy},
		{Config{KeepAll: true, MaxSamples: 4, MaxSamplesPerInstance: 5}, errs.ErrInconsistentPolicy},
	}
	for _, tt := range tests {
		_, err := New[val](tt.cfg)
		if tt.want == nil {
			require.NoError(t, err, "%+v", tt.cfg)
		} else {
			require.ErrorIs(t, err, tt.want, "%+v", tt.cfg)
			require.Contains(t, err.Error(), "reader cache: ")
		}
	}
}

func TestStrings(t *testing.T) {
	require.Equal(t, "READ|NOT_READ", AnySampleState.String())
	require.Equal(t, "NOT_NEW", NotNewViewState.String())
	require.Equal(t, "NOT_ALIVE_DISPOSED|NOT_ALIVE_NO_WRITERS", NotAliveInstanceState.String())
	require.Equal(t, "ALIVE|0x08", (AliveInstanceState | 8).String())
	require.Equal(t, "0", SampleState(0).String())
	require.Equal(t, "REJECTED_BY_SAMPLES_LIMIT", RejectedBySamples.String())
	require.Equal(t, "RejectedReason(9)", RejectedReason(9).String())
	require.Equal(t, "RejectedReason(-1)", RejectedReason(-1).String())
	require.Equal(t, "rejected: max_instances", RejectedByInstancesLimit.String())
	require.Equal(t, "Outcome(99)", Outcome(99).String())
	require.Equal(t, "dispose+unregister", DisposeUnregister.String())
	require.Equal(t, "ChangeKind(7)", ChangeKind(7).String())
}

// TestBadInput checks that nonsense is ignored without harm.
func TestBadInput(t *testing.T) {
	c := newCache(t, Config{})
	require.Equal(t, Ignored, c.Insert(nil, at(0)))
	require.Equal(t, Ignored, c.Insert(&Change[val]{Kind: 42}, at(0)))
	require.Equal(t, Stats{}, c.Stats())
}

// KEEP_LAST hands back the value of an unread sample it replaces, never a read one.
func TestKeepLastReplaced(t *testing.T) {
	c := newCache(t, Config{Depth: 2})
	for i, v := range []int{1, 2} {
		ch := write(1, w1, v, i)
		require.Equal(t, Accepted, c.Insert(ch, at(i)))
		require.False(t, ch.HasReplaced)
	}
	ch := write(1, w1, 3, 3)
	require.Equal(t, Accepted, c.Insert(ch, at(3)))
	require.True(t, ch.HasReplaced)
	require.Equal(t, val{1, 1}, ch.Replaced)

	dst := make([]val, 2)
	infos := make([]SampleInfo, 2)
	require.Equal(t, 2, c.Read(dst, infos, nil, at(4)))
	ch = write(1, w1, 4, 5)
	require.Equal(t, Accepted, c.Insert(ch, at(5)))
	require.False(t, ch.HasReplaced, "a sample that was read may still be held by the application")
}
