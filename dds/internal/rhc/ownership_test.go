package rhc

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// w3 is a third writer, with the greatest GUID.
var w3 = GUID{3}

// strong returns ch with the writer's strength s.
func strong(ch *Change[val], s int32) *Change[val] {
	ch.Strength = s
	return ch
}

// OWNERSHIP EXCLUSIVE, DDS 1.4 §2.2.3.9: per instance, the samples of the strongest
// writer only; equal strengths go to the smaller GUID; a non-owner's dispose does not
// dispose; the owner's unregister, its loss and ReleaseOwnership hand the instance
// over to whoever writes next; a strength change counts from when it is known.
func TestExclusiveOwnership(t *testing.T) {
	type ins struct {
		ch   *Change[val]
		want Outcome
	}
	tests := []struct {
		name    string
		steps   []ins
		release bool // ReleaseOwnership of instance 1 before the last step
		values  []int
		state   InstanceState
	}{
		{
			name: "stronger takes over, weaker is dropped",
			steps: []ins{
				{strong(write(1, w1, 10, 1), 5), Accepted},
				{strong(write(1, w2, 20, 2), 7), Accepted},
				{strong(write(1, w1, 11, 3), 5), DroppedNotOwner},
				{strong(write(1, w2, 21, 4), 7), Accepted},
			},
			values: []int{10, 20, 21},
			state:  AliveInstanceState,
		},
		{
			name: "the owner keeps it against weaker writers",
			steps: []ins{
				{strong(write(1, w2, 20, 1), 7), Accepted},
				{strong(write(1, w1, 10, 2), 5), DroppedNotOwner},
				{strong(write(1, w3, 30, 3), -1), DroppedNotOwner},
			},
			values: []int{20},
			state:  AliveInstanceState,
		},
		{
			name: "equal strength: the smaller GUID wins",
			steps: []ins{
				{strong(write(1, w2, 20, 1), 5), Accepted},
				{strong(write(1, w1, 10, 2), 5), Accepted}, // w1 < w2
				{strong(write(1, w2, 21, 3), 5), DroppedNotOwner},
				{strong(write(1, w1, 11, 4), 5), Accepted},
			},
			values: []int{20, 10, 11},
			state:  AliveInstanceState,
		},
		{
			name: "a non-owner's dispose does not dispose",
			steps: []ins{
				{strong(write(1, w2, 20, 1), 7), Accepted},
				{strong(ctl(Dispose, 1, w1, 2), 5), DroppedNotOwner},
				{strong(ctl(DisposeUnregister, 1, w1, 3), 5), Accepted}, // the unregister part
			},
			values: []int{20},
			state:  AliveInstanceState,
		},
		{
			name: "the owner's dispose disposes",
			steps: []ins{
				{strong(write(1, w1, 10, 1), 5), Accepted},
				{strong(write(1, w2, 20, 2), 7), Accepted},
				{strong(ctl(Dispose, 1, w2, 3), 7), Accepted},
				{strong(write(1, w1, 11, 4), 5), DroppedNotOwner}, // still owned
			},
			values: []int{10, 20},
			state:  NotAliveDisposedInstanceState,
		},
		{
			name: "the owner's unregister hands over to the next writer",
			steps: []ins{
				{strong(write(1, w1, 10, 1), 5), Accepted},
				{strong(write(1, w2, 20, 2), 7), Accepted},
				{strong(write(1, w1, 11, 3), 5), DroppedNotOwner},
				{strong(ctl(Unregister, 1, w2, 4), 7), Accepted},
				{strong(write(1, w1, 12, 5), 5), Accepted},
				{strong(write(1, w3, 30, 6), 1), DroppedNotOwner},
			},
			values: []int{10, 20, 12},
			state:  AliveInstanceState, // w1 registered by its dropped sample
		},
		{
			name: "a non-owner's unregister changes nothing",
			steps: []ins{
				{strong(write(1, w2, 20, 1), 7), Accepted},
				{strong(write(1, w1, 10, 2), 5), DroppedNotOwner},
				{strong(ctl(Unregister, 1, w1, 3), 5), Accepted},
				{strong(write(1, w1, 11, 4), 5), DroppedNotOwner},
			},
			values: []int{20},
			state:  AliveInstanceState,
		},
		{
			name: "release hands over to any writer",
			steps: []ins{
				{strong(write(1, w2, 20, 1), 7), Accepted},
				{strong(write(1, w1, 10, 2), 5), DroppedNotOwner},
				{strong(write(1, w1, 11, 3), 5), Accepted},
			},
			release: true,
			values:  []int{20, 11},
			state:   AliveInstanceState,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newCache(t, Config{KeepAll: true, ExclusiveOwnership: true})
			for i, st := range tt.steps {
				if tt.release && i == len(tt.steps)-1 {
					c.ReleaseOwnership(kh(1))
				}
				require.Equal(t, st.want, c.Insert(st.ch, at(i)), "step %d", i)
				checkCounts(t, c)
			}
			s, ok := peek(c, 1)
			require.True(t, ok)
			require.Equal(t, tt.values, s.Values)
			require.Equal(t, tt.state, s.State)
			require.Zero(t, c.SampleRejectedStatus(false).TotalCount, "dropped, not rejected")
		})
	}
}

// Each instance has its own owner.
func TestExclusiveOwnershipPerInstance(t *testing.T) {
	c := newCache(t, Config{KeepAll: true, ExclusiveOwnership: true})
	require.Equal(t, Accepted, c.Insert(strong(write(1, w1, 10, 1), 9), at(1)))
	require.Equal(t, Accepted, c.Insert(strong(write(2, w2, 20, 2), 1), at(2)))
	require.Equal(t, DroppedNotOwner, c.Insert(strong(write(1, w2, 21, 3), 1), at(3)))
	require.Equal(t, Accepted, c.Insert(strong(write(2, w1, 11, 4), 9), at(4)))
	require.Equal(t, DroppedNotOwner, c.Insert(strong(write(2, w2, 22, 5), 1), at(5)))
	s1, _ := peek(c, 1)
	s2, _ := peek(c, 2)
	require.Equal(t, []int{10}, s1.Values)
	require.Equal(t, []int{20, 11}, s2.Values)
}

// WriterLost of the owner hands its instances over; SetStrength applies to the
// instances the writer owns at once.
func TestExclusiveOwnershipLostAndStrength(t *testing.T) {
	c := newCache(t, Config{KeepAll: true, ExclusiveOwnership: true})
	require.Equal(t, Accepted, c.Insert(strong(write(1, w2, 20, 1), 7), at(1)))
	require.Equal(t, DroppedNotOwner, c.Insert(strong(write(1, w1, 10, 2), 5), at(2)))

	c.SetStrength(w2, 3) // w2 weakens: w1 is stronger now
	require.Equal(t, Accepted, c.Insert(strong(write(1, w1, 11, 3), 5), at(3)))
	require.Equal(t, DroppedNotOwner, c.Insert(strong(write(1, w2, 21, 4), 3), at(4)))
	require.Equal(t, Accepted, c.Insert(strong(write(1, w2, 22, 5), 6), at(5)), "w2 stronger again")

	c.WriterLost(w2, at(6))
	s, _ := peek(c, 1)
	require.Equal(t, AliveInstanceState, s.State, "w1 is still registered")
	require.Equal(t, Accepted, c.Insert(strong(write(1, w1, 12, 7), 5), at(7)))
	s, _ = peek(c, 1)
	require.Equal(t, []int{20, 11, 22, 12}, s.Values)
}

// SHARED ownership (the default) ignores strengths.
func TestSharedOwnershipIgnoresStrength(t *testing.T) {
	c := newCache(t, Config{KeepAll: true})
	require.Equal(t, Accepted, c.Insert(strong(write(1, w2, 20, 1), 7), at(1)))
	require.Equal(t, Accepted, c.Insert(strong(write(1, w1, 10, 2), 5), at(2)))
	require.Equal(t, Accepted, c.Insert(strong(ctl(Dispose, 1, w3, 3), 1), at(3)))
}
