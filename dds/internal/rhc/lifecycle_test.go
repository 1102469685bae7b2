package rhc

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// step is one operation of a state chart test, all on instance 1.
type step struct {
	ch   *Change[val] // Insert this, expecting want
	want Outcome
	read bool // Read everything
	take bool // Take everything
	lost *GUID
}

func ins(ch *Change[val], want Outcome) step { return step{ch: ch, want: want} }

var (
	rd = step{read: true}
	tk = step{take: true}
)

func lost(w GUID) step { return step{lost: &w} }

const (
	alive     = AliveInstanceState
	disposed  = NotAliveDisposedInstanceState
	noWriters = NotAliveNoWritersInstanceState
	isNew     = NewViewState
	notNew    = NotNewViewState
)

// TestStateChart walks every transition of the instance state chart (DDS 1.4
// §2.2.2.5.1.8-9, figure "instance_state and view_state") and checks the instance after.
func TestStateChart(t *testing.T) {
	tests := []struct {
		name  string
		steps []step
		gone  bool // the instance does not exist afterwards
		want  snapshot
	}{
		{
			name:  "write creates alive new",
			steps: []step{ins(write(1, w1, 10, 1), Accepted)},
			want:  snapshot{State: alive, View: isNew, Values: []int{10}, Read: []bool{false}, Writers: 1},
		},
		{
			name:  "dispose creates disposed new with invalid sample",
			steps: []step{ins(ctl(Dispose, 1, w1, 1), Accepted)},
			want:  snapshot{State: disposed, View: isNew, Invalid: true, Writers: 1},
		},
		{
			name:  "unregister of unknown instance is ignored",
			steps: []step{ins(ctl(Unregister, 1, w1, 1), Ignored)},
			gone:  true,
		},
		{
			name:  "dispose-unregister creates disposed without writers",
			steps: []step{ins(ctl(DisposeUnregister, 1, w1, 1), Accepted)},
			want:  snapshot{State: disposed, View: isNew, Invalid: true},
		},
		{
			name:  "alive to disposed, unread sample reports it",
			steps: []step{ins(write(1, w1, 10, 1), Accepted), ins(ctl(Dispose, 1, w1, 2), Accepted)},
			want:  snapshot{State: disposed, View: isNew, Values: []int{10}, Read: []bool{false}, Writers: 1},
		},
		{
			name:  "alive to disposed after read adds invalid sample",
			steps: []step{ins(write(1, w1, 10, 1), Accepted), rd, ins(ctl(Dispose, 1, w1, 2), Accepted)},
			want:  snapshot{State: disposed, View: notNew, Values: []int{10}, Read: []bool{true}, Invalid: true, Writers: 1},
		},
		{
			name:  "alive to no writers, unread sample reports it",
			steps: []step{ins(write(1, w1, 10, 1), Accepted), ins(ctl(Unregister, 1, w1, 2), Accepted)},
			want:  snapshot{State: noWriters, View: isNew, Values: []int{10}, Read: []bool{false}},
		},
		{
			name:  "alive to no writers after read adds invalid sample",
			steps: []step{ins(write(1, w1, 10, 1), Accepted), rd, ins(ctl(Unregister, 1, w1, 2), Accepted)},
			want:  snapshot{State: noWriters, View: notNew, Values: []int{10}, Read: []bool{true}, Invalid: true},
		},
		{
			name: "one of two writers unregisters: still alive",
			steps: []step{
				ins(write(1, w1, 10, 1), Accepted), ins(write(1, w2, 20, 2), Accepted),
				ins(ctl(Unregister, 1, w1, 3), Accepted),
			},
			want: snapshot{State: alive, View: isNew, Values: []int{10, 20}, Read: []bool{false, false}, Writers: 1},
		},
		{
			name: "both writers unregister: no writers",
			steps: []step{
				ins(write(1, w1, 10, 1), Accepted), ins(write(1, w2, 20, 2), Accepted),
				ins(ctl(Unregister, 1, w1, 3), Accepted), ins(ctl(Unregister, 1, w2, 4), Accepted),
			},
			want: snapshot{State: noWriters, View: isNew, Values: []int{10, 20}, Read: []bool{false, false}},
		},
		{
			name:  "unregister of a writer that never wrote is ignored",
			steps: []step{ins(write(1, w1, 10, 1), Accepted), ins(ctl(Unregister, 1, w2, 2), Ignored)},
			want:  snapshot{State: alive, View: isNew, Values: []int{10}, Read: []bool{false}, Writers: 1},
		},
		{
			name:  "writer lost: no writers",
			steps: []step{ins(write(1, w1, 10, 1), Accepted), rd, lost(w1)},
			want:  snapshot{State: noWriters, View: notNew, Values: []int{10}, Read: []bool{true}, Invalid: true},
		},
		{
			name: "disposed to alive: new generation, view new, invalid sample replaced",
			steps: []step{
				ins(write(1, w1, 10, 1), Accepted), rd, ins(ctl(Dispose, 1, w1, 2), Accepted),
				ins(write(1, w1, 11, 3), Accepted),
			},
			want: snapshot{State: alive, View: isNew, Gen: [2]uint32{1, 0}, Values: []int{10, 11}, Read: []bool{true, false}, Writers: 1},
		},
		{
			name: "no writers to alive: new generation, view new",
			steps: []step{
				ins(write(1, w1, 10, 1), Accepted), rd, ins(ctl(Unregister, 1, w1, 2), Accepted),
				ins(write(1, w2, 11, 3), Accepted),
			},
			want: snapshot{State: alive, View: isNew, Gen: [2]uint32{0, 1}, Values: []int{10, 11}, Read: []bool{true, false}, Writers: 1},
		},
		{
			name: "disposed and unregistered to alive counts the disposal only",
			steps: []step{
				ins(write(1, w1, 10, 1), Accepted), ins(ctl(DisposeUnregister, 1, w1, 2), Accepted),
				ins(write(1, w1, 11, 3), Accepted),
			},
			want: snapshot{State: alive, View: isNew, Gen: [2]uint32{1, 0}, Values: []int{10, 11}, Read: []bool{false, false}, Writers: 1},
		},
		{
			name: "no writers to disposed",
			steps: []step{
				ins(write(1, w1, 10, 1), Accepted), rd, ins(ctl(Unregister, 1, w1, 2), Accepted),
				rd, ins(ctl(Dispose, 1, w2, 3), Accepted),
			},
			want: snapshot{State: disposed, View: notNew, Values: []int{10}, Read: []bool{true}, Invalid: true, Writers: 1},
		},
		{
			name: "disposed stays disposed when its writer leaves",
			steps: []step{
				ins(write(1, w1, 10, 1), Accepted), ins(ctl(Dispose, 1, w1, 2), Accepted),
				ins(ctl(Unregister, 1, w1, 3), Accepted),
			},
			want: snapshot{State: disposed, View: isNew, Values: []int{10}, Read: []bool{false}},
		},
		{
			name: "repeated dispose is ignored",
			steps: []step{
				ins(ctl(Dispose, 1, w1, 1), Accepted), ins(ctl(Dispose, 1, w1, 2), Ignored),
			},
			want: snapshot{State: disposed, View: isNew, Invalid: true, Writers: 1},
		},
		{
			name: "read makes view not new; a write to an alive instance keeps it",
			steps: []step{
				ins(write(1, w1, 10, 1), Accepted), rd, ins(write(1, w1, 11, 2), Accepted),
			},
			want: snapshot{State: alive, View: notNew, Values: []int{10, 11}, Read: []bool{true, false}, Writers: 1},
		},
		{
			name:  "take of an alive instance keeps it, not new",
			steps: []step{ins(write(1, w1, 10, 1), Accepted), tk},
			want:  snapshot{State: alive, View: notNew, Writers: 1},
		},
		{
			name:  "take of a no-writers instance purges it",
			steps: []step{ins(write(1, w1, 10, 1), Accepted), ins(ctl(Unregister, 1, w1, 2), Accepted), tk},
			gone:  true,
		},
		{
			name: "take of a no-writers instance after read purges it (invalid sample taken too)",
			steps: []step{
				ins(write(1, w1, 10, 1), Accepted), rd, ins(ctl(Unregister, 1, w1, 2), Accepted), tk,
			},
			gone: true,
		},
		{
			name:  "take of a disposed instance with a writer keeps it",
			steps: []step{ins(write(1, w1, 10, 1), Accepted), ins(ctl(Dispose, 1, w1, 2), Accepted), tk},
			want:  snapshot{State: disposed, View: notNew, Writers: 1},
		},
		{
			name: "disposed and empty: the last unregister purges it",
			steps: []step{
				ins(write(1, w1, 10, 1), Accepted), ins(ctl(Dispose, 1, w1, 2), Accepted), tk,
				ins(ctl(Unregister, 1, w1, 3), Accepted),
			},
			gone: true,
		},
		{
			name:  "dispose-unregister then take purges",
			steps: []step{ins(write(1, w1, 10, 1), Accepted), ins(ctl(DisposeUnregister, 1, w1, 2), Accepted), tk},
			gone:  true,
		},
		{
			name: "purged instance comes back new with fresh counts",
			steps: []step{
				ins(write(1, w1, 10, 1), Accepted), ins(ctl(DisposeUnregister, 1, w1, 2), Accepted), tk,
				ins(write(1, w1, 11, 3), Accepted),
			},
			want: snapshot{State: alive, View: isNew, Values: []int{11}, Read: []bool{false}, Writers: 1},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newCache(t, Config{KeepAll: true})
			for i, s := range tt.steps {
				now := at(100 * (i + 1))
				switch {
				case s.ch != nil:
					require.Equal(t, s.want, c.Insert(s.ch, now), "step %d", i)
				case s.read:
					readAll(c, false, nil, now)
				case s.take:
					readAll(c, true, nil, now)
				case s.lost != nil:
					c.WriterLost(*s.lost, now)
				}
				checkCounts(t, c)
			}
			got, ok := peek(c, 1)
			require.Equal(t, !tt.gone, ok, "instance exists")
			if !tt.gone {
				require.Equal(t, tt.want, got)
			}
		})
	}
}

// TestSampleInfoOfStateChanges checks what read returns for state changes: the instance
// state on valid samples, and invalid samples with the writer and timestamp of the change.
func TestSampleInfoOfStateChanges(t *testing.T) {
	c := newCache(t, Config{KeepAll: true})
	require.Equal(t, Accepted, c.Insert(write(1, w1, 10, 1), at(1)))
	h := c.Lookup(kh(1))
	require.NotEqual(t, HandleNil, h)

	_, infos := readAll(c, false, nil, at(2))
	require.Equal(t, []SampleInfo{{
		SampleState: NotReadSampleState, ViewState: NewViewState, InstanceState: AliveInstanceState,
		ValidData: true, SourceTimestamp: at(1), InstanceHandle: h, KeyHash: kh(1), PublicationHandle: w1,
	}}, infos)

	require.Equal(t, Accepted, c.Insert(ctl(Dispose, 1, w2, 5), at(6)))
	vals, infos := readAll(c, false, nil, at(7))
	require.Equal(t, []val{{1, 10}, {K: 1}}, vals, "the invalid sample carries the key value")
	require.Equal(t, SampleInfo{
		SampleState: ReadSampleState, ViewState: NotNewViewState, InstanceState: NotAliveDisposedInstanceState,
		ValidData: true, SourceTimestamp: at(1), InstanceHandle: h, KeyHash: kh(1), PublicationHandle: w1,
		SampleRank: 1,
	}, infos[0])
	require.Equal(t, SampleInfo{
		SampleState: NotReadSampleState, ViewState: NotNewViewState, InstanceState: NotAliveDisposedInstanceState,
		SourceTimestamp: at(5), InstanceHandle: h, KeyHash: kh(1), PublicationHandle: w2,
	}, infos[1])

	// Writer lost: the invalid sample has the reception time and the zero value.
	c.WriterLost(w1, at(8))
	c.WriterLost(w2, at(9))
	_, ok := peek(c, 1)
	require.True(t, ok)
	vals, infos = readAll(c, true, nil, at(10))
	require.Len(t, infos, 2)
	require.Equal(t, NotAliveDisposedInstanceState, infos[1].InstanceState, "disposed wins over no writers")
	require.Equal(t, val{K: 1}, vals[1])
	require.Equal(t, Stats{}, c.Stats())
}

// TestWriterLostCreatesNoWriters checks the invalid sample of a lost writer.
func TestWriterLostCreatesNoWriters(t *testing.T) {
	c := newCache(t, Config{})
	c.Insert(write(1, w1, 10, 1), at(1))
	c.Insert(write(2, w2, 20, 1), at(1))
	readAll(c, true, nil, at(2))
	c.WriterLost(w1, at(3))
	vals, infos := readAll(c, false, nil, at(4))
	require.Equal(t, []val{{}}, vals)
	require.Equal(t, SampleInfo{
		SampleState: NotReadSampleState, ViewState: NotNewViewState, InstanceState: NotAliveNoWritersInstanceState,
		SourceTimestamp: at(3), InstanceHandle: c.Lookup(kh(1)), KeyHash: kh(1), PublicationHandle: w1,
	}, infos[0])
	s, _ := peek(c, 2)
	require.Equal(t, alive, s.State)
}
