package cdr

import (
	"math"
	"testing"
	"time"
	"unsafe"

	"github.com/stretchr/testify/require"
)

// Types with members that have no CDR mapping, for TestUnmappableTypes.
type (
	robotPose struct {
		X    float64
		Tags map[string]int
	}
	robot struct {
		Name string
		Pose robotPose
	}
	hidden     struct{ x, y int32 } //nolint:unused // unexported: not mapped
	withHidden struct {
		ID int32
		H  hidden
	}
	allSkipped struct {
		A int32 `dds:"-"`
	}
	anyItems struct{ Items []any }
	ptrItems struct{ Items []*int32 }
	ptrPtr   struct{ P **int32 }
)

func TestUnmappableTypes(t *testing.T) {
	for _, tc := range []struct {
		name string
		new  func() error
		want string
	}{
		{"map", codecErr[robot], "cdr: type cdr.robot: field Pose.Tags: map[string]int cannot be mapped (IDL map<K, V> is not supported: use a sequence of key-value structs)"},
		{"chan", codecErr[struct{ C chan int }], "field C: chan int cannot be mapped (channels have no IDL counterpart)"},
		{"func", codecErr[struct{ F func() }], "field F: func() cannot be mapped (functions have no IDL counterpart)"},
		{"interface", codecErr[struct{ V any }], "field V: interface {} cannot be mapped (an interface has no IDL type"},
		{"interface element", codecErr[anyItems], "field Items[]: interface {} cannot be mapped"},
		{"unsafe.Pointer", codecErr[struct{ P unsafe.Pointer }], "field P: unsafe.Pointer cannot be mapped"},
		{"complex64", codecErr[struct{ C complex64 }], "field C: complex64 cannot be mapped (complex numbers have no IDL counterpart"},
		{"complex128", codecErr[struct{ C complex128 }], "field C: complex128 cannot be mapped"},
		{"uintptr", codecErr[struct{ U uintptr }], "field U: uintptr cannot be mapped"},
		{"int", codecErr[struct{ N int }], "field N: int cannot be mapped (int has no fixed size: use int32 or int64)"},
		{"uint", codecErr[struct{ N uint }], "field N: uint cannot be mapped (uint has no fixed size"},
		{"pointer element", codecErr[ptrItems], "field Items[]: *int32 cannot be mapped (a pointer is mapped only as an optional struct member"},
		{"pointer to pointer", codecErr[ptrPtr], "field P: *int32 cannot be mapped"},
		{"no exported field", codecErr[hidden], "cdr: type cdr.hidden: struct cdr.hidden has no exported field to map: it would be sent empty"},
		{"nested no exported field", codecErr[withHidden], "cdr: type cdr.withHidden: field H: struct cdr.hidden has no exported field"},
		{"only skipped fields", codecErr[allSkipped], "struct cdr.allSkipped has no exported field"},
		{"empty struct", codecErr[struct{}], "has no exported field"},
		{"not a struct", codecErr[int], "cdr: int is not a struct type"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.new()
			require.Error(t, err)
			require.Contains(t, err.Error(), tc.want)
		})
	}
}

func codecErr[T any]() error {
	_, err := NewCodec[T]()
	return err
}

// list is a recursive type through an optional member: it compiles and round-trips.
type list struct {
	V    int32
	Next *list
}

func TestRecursiveThroughOptional(t *testing.T) {
	c := MustCodec[list]()
	v := list{1, &list{2, &list{3, nil}}}
	for _, id := range []EncapsulationID{CDRLE, CDR2BE} {
		b, err := c.Marshal(nil, id, &v)
		require.NoError(t, err)
		var back list
		require.NoError(t, c.Unmarshal(b, &back))
		require.Equal(t, v, back)
	}
}

// treeKey has a recursive key: its maximum size is unbounded, so the key hash is MD5.
type treeKey struct {
	Name     string    `dds:"key,bound=4"`
	Children []treeKey `dds:"key,bound=2"`
}

func TestRecursiveKeyIsUnbounded(t *testing.T) {
	c := MustCodec[treeKey]()
	require.False(t, c.KeyHashIsKey())
}

// stamped uses both time types, as IDL struct { @key Time_t at; Duration_t d; }.
type stamped struct {
	At time.Time `dds:"key"`
	D  time.Duration
	N  uint8
}

func TestTimeGolden(t *testing.T) {
	c := MustCodec[stamped]()
	v := stamped{At: time.Unix(0x01020304, 0x05060708).In(time.FixedZone("x", 3600)), D: 1500 * time.Millisecond, N: 9}
	for _, tc := range []struct {
		id   EncapsulationID
		want string
	}{
		{CDRLE, `0001 0003 04030201 08070605 01000000 0065cd1d 09 000000`},
		{CDRBE, `0000 0003 01020304 05060708 00000001 1dcd6500 09 000000`},
		{CDR2LE, `0007 0003 04030201 08070605 01000000 0065cd1d 09 000000`},
		{DCDR2BE, `0008 0003 01020304 05060708 00000001 1dcd6500 09 000000`},
	} {
		b, err := c.Marshal(nil, tc.id, &v)
		require.NoError(t, err, tc.id)
		require.Equal(t, unhex(t, tc.want), b, tc.id)
		var back stamped
		require.NoError(t, c.Unmarshal(b, &back))
		require.True(t, v.At.Equal(back.At))
		require.Equal(t, time.UTC, back.At.Location())
		require.Equal(t, v.D, back.D)
	}
	// The key: Time_t big-endian in the key hash, which holds the key itself (8 bytes).
	require.True(t, c.KeyHashIsKey())
	require.Equal(t, KeyHash(unhex(t, `01020304 05060708 00000000 00000000`)), c.KeyHash(&v))
	var k stamped
	require.NoError(t, c.DecodeKeyHash(c.KeyHash(&v), &k))
	require.True(t, v.At.Equal(k.At))
}

func TestTimeSpecialValues(t *testing.T) {
	type times struct {
		T time.Time
		D time.Duration
	}
	c := MustCodec[times]()
	for _, tc := range []struct {
		name string
		v    times
		want string
	}{
		{"zero time is TIME_INVALID", times{}, `ffffffff ffffffff 00000000 00000000`},
		{"epoch", times{T: time.Unix(0, 0)}, `00000000 00000000 00000000 00000000`},
		{"before 1970 floors", times{T: time.Unix(-1, 500_000_000)}, `ffffffff 1dcd6500 00000000 00000000`},
		{"earliest", times{T: time.Unix(math.MinInt32, 0)}, `80000000 00000000 00000000 00000000`},
		{"latest", times{T: time.Unix(math.MaxInt32, 999_999_999)}, `7fffffff 3b9ac9ff 00000000 00000000`},
		{"MaxInt64 duration is DURATION_INFINITE", times{T: time.Unix(1, 0), D: math.MaxInt64}, `00000001 00000000 7fffffff 7fffffff`},
		{"negative duration floors", times{T: time.Unix(1, 0), D: -1500 * time.Millisecond}, `00000001 00000000 fffffffe 1dcd6500`},
		{"longest duration", times{T: time.Unix(1, 0), D: math.MaxInt32*time.Second + 1}, `00000001 00000000 7fffffff 00000001`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, err := c.Marshal(nil, CDRBE, &tc.v)
			require.NoError(t, err)
			require.Equal(t, unhex(t, `0000 0000 `+tc.want), b)
			var back times
			require.NoError(t, c.Unmarshal(b, &back))
			require.True(t, tc.v.T.Equal(back.T), "%v != %v", tc.v.T, back.T)
			require.Equal(t, tc.v.D, back.D)
		})
	}
	// The RTPS infinite duration (nanosec 0xffffffff) reads as infinite too.
	var back times
	require.NoError(t, c.Unmarshal(unhex(t, `0000 0000 00000000 00000000 7fffffff ffffffff`), &back))
	require.Equal(t, time.Duration(math.MaxInt64), back.D)
}

func TestTimeOutOfRange(t *testing.T) {
	type times struct {
		T time.Time
		D time.Duration
	}
	c := MustCodec[times]()
	for name, v := range map[string]times{
		"after 2038":       {T: time.Unix(math.MaxInt32+1, 0)},
		"before 1901":      {T: time.Unix(math.MinInt32-1, 999_999_999)},
		"year 1 plus 1ns":  {T: time.Time{}.Add(1)},
		"duration > int32": {T: time.Unix(0, 0), D: (math.MaxInt32 + 1) * time.Second},
		"duration < int32": {T: time.Unix(0, 0), D: (math.MinInt32 - 1) * time.Second},
	} {
		_, err := c.Marshal(nil, CDRLE, &v)
		require.ErrorIs(t, err, ErrRange, name)
	}
}

func TestTimeAllocatesNothing(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector makes sync.Pool drop items")
	}
	c := MustCodec[stamped]()
	v := stamped{At: time.Now(), D: time.Second}
	buf := make([]byte, 0, 64)
	b, err := c.Marshal(nil, CDR2LE, &v)
	require.NoError(t, err)
	var back stamped
	require.Zero(t, testing.AllocsPerRun(100, func() {
		if _, err := c.Marshal(buf[:0], CDR2LE, &v); err != nil {
			t.Fatal(err)
		}
		if err := c.Unmarshal(b, &back); err != nil {
			t.Fatal(err)
		}
		_ = c.KeyHash(&v)
	}))
}

// Sequences and arrays of Time_t are sequences of a (final) struct: in XCDR2 they carry a
// DHEADER.
func TestTimeSequenceXCDR2(t *testing.T) {
	type seq struct{ S []time.Duration }
	c := MustCodec[seq]()
	b, err := c.Marshal(nil, CDR2LE, &seq{S: []time.Duration{time.Second}})
	require.NoError(t, err)
	require.Equal(t, unhex(t, `0007 0000 0c000000 01000000 01000000 00000000`), b)
}

// Other declaration errors name the member too.
type (
	badTagInner struct {
		A int32 `dds:"bogus"`
	}
	badTagOuter struct{ In []badTagInner }
	dupIDs      struct {
		A int32 `dds:"id=1"`
		B int32 `dds:"id=1"`
	}
	optKey struct {
		K *int32 `dds:"key"`
	}
	boundInt struct {
		N int32 `dds:"bound=3"`
	}
	ptrExt   struct{ A int32 }
	wrongExt struct{ A int32 }
	badExt   struct{ A int32 }
	nestsBad struct{ In badExt }
)

func (*ptrExt) DDSExtensibility() Extensibility { return Appendable }
func (wrongExt) DDSExtensibility() int          { return 1 }
func (badExt) DDSExtensibility() Extensibility  { return 7 }

func TestDeclarationErrorsNameTheField(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want string
	}{
		{codecErr[badTagOuter](), `cdr: type cdr.badTagOuter: field In[].A: tag "bogus": unknown option "bogus"`},
		{codecErr[dupIDs](), `cdr: type cdr.dupIDs: field B: members A and B have the same id 1`},
		{codecErr[optKey](), `cdr: type cdr.optKey: field K: a key member cannot be optional`},
		{codecErr[boundInt](), `cdr: type cdr.boundInt: field N: a bound applies to a string or a slice, not to int32`},
		{codecErr[ptrExt](), `cdr: type cdr.ptrExt: cdr.ptrExt: the DDSExtensibility method must have a value receiver and the signature DDSExtensibility() dds.Extensibility`},
		{codecErr[wrongExt](), `cdr: type cdr.wrongExt: cdr.wrongExt: the DDSExtensibility method must have a value receiver and the signature DDSExtensibility() dds.Extensibility`},
		{codecErr[nestsBad](), `cdr: type cdr.nestsBad: field In: invalid extensibility Extensibility(7) of cdr.badExt`},
	} {
		require.EqualError(t, tc.err, tc.want)
	}
}

// reentrant's DDSExtensibility compiles another type's codec: user code that calls back
// into the codec while its own plan is built must not deadlock.
type reentrant struct{ A int32 }

type reentrantInner struct{ B int32 }

func (reentrant) DDSExtensibility() Extensibility {
	if _, err := NewCodec[reentrantInner](); err != nil {
		panic(err)
	}
	return Appendable
}

func TestPlanBuildCallsUserCodeWithoutLock(t *testing.T) {
	done := make(chan error, 1)
	go func() {
		_, err := NewCodec[reentrant]()
		done <- err
	}()
	select {
	case err := <-done:
		require.NoError(t, err)
	case <-time.After(5 * time.Second):
		t.Fatal("NewCodec deadlocked")
	}
}
