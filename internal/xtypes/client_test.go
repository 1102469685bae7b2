package xtypes

import (
	"bytes"
	"reflect"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ddsgo/ddsgo/internal/cdr"
)

func buildTypes(t testing.TB, rt reflect.Type) *Types {
	d, err := cdr.Describe(rt)
	require.NoError(t, err)
	ty, err := Build(d)
	require.NoError(t, err)
	return ty
}

// TestClientRoundTrip asks a server for the complete types of an announced
// TypeInformation, stores its reply and decodes a sample with them.
func TestClientRoundTrip(t *testing.T) {
	ty := buildTypes(t, reflect.TypeFor[xtPainted]())
	info := ty.Info()
	var server Registry
	server.Add(ty)

	var c Cache
	now := time.Unix(100, 0)
	from := [12]byte{1, 2, 3}
	ids := c.Want(&info, from, now)
	require.Len(t, ids, 3, "the type and its two enums")
	require.Equal(t, ty.Complete, ids[0])
	require.Empty(t, c.Want(&info, from, now), "asked for already")
	require.True(t, c.Pending())

	req := AppendRequest(nil, [16]byte{9, 9, 9, 15: 0xc3}, 7, from, ids)
	r, err := ParseRequest(req)
	require.NoError(t, err)
	require.Equal(t, ids, r.IDs)
	require.Equal(t, byte(7), r.ID[20])

	reply, ok := server.Serve(req)
	require.True(t, ok)
	related, objs, err := ParseReply(reply)
	require.NoError(t, err)
	require.Equal(t, r.ID, related)
	require.Len(t, objs, 3)
	require.Equal(t, 3, c.AddReply(reply))
	require.False(t, c.Pending())
	require.Zero(t, c.AddReply(reply), "not asked for any more")

	payload, err := cdr.MustCodec[xtPainted]().Marshal(nil, cdr.CDR2LE, &xtPainted{ID: 2, Color: 1})
	require.NoError(t, err)
	v, err := Decode(ty.Complete, payload, c.Resolve)
	require.NoError(t, err)
	color, _ := v.(Struct).Get("color")
	require.Equal(t, "GREEN", color)
}

// TestCacheRejects keeps out objects nobody asked for and objects whose bytes do not
// have their hash.
func TestCacheRejects(t *testing.T) {
	ty := buildTypes(t, reflect.TypeFor[interopSample]())
	var server Registry
	server.Add(ty)
	req := AppendRequest(nil, [16]byte{}, 1, [12]byte{}, []TypeID{ty.Complete})
	reply, ok := server.Serve(req)
	require.True(t, ok)

	var c Cache
	require.Zero(t, c.AddReply(reply), "not asked for")
	info := ty.Info()
	require.Len(t, c.Want(&info, [12]byte{}, time.Now()), 1)
	bad := append([]byte(nil), reply...)
	i := bytes.Index(bad, []byte("interop::Sample"))
	require.Positive(t, i)
	bad[i] = 'I' // the type name, inside the TypeObject
	require.Zero(t, c.AddReply(bad))
	require.Equal(t, 1, c.AddReply(reply))
	_, ok = c.Resolve(ty.Complete)
	require.True(t, ok)
}

// TestCacheRetry asks again after RetryAfter and gives up after MaxAttempts.
func TestCacheRetry(t *testing.T) {
	ty := buildTypes(t, reflect.TypeFor[interopSample]())
	info := ty.Info()
	var c Cache
	now := time.Unix(0, 0)
	from := [12]byte{7}
	require.Len(t, c.Want(&info, from, now), 1)
	require.Empty(t, c.Retry(now.Add(RetryAfter/2)))
	for i := 1; i < MaxAttempts; i++ {
		now = now.Add(RetryAfter)
		require.Equal(t, map[[12]byte][]TypeID{from: {ty.Complete}}, c.Retry(now), "attempt %d", i+1)
	}
	require.Empty(t, c.Retry(now.Add(RetryAfter)))
	require.False(t, c.Pending())
	require.True(t, c.Failed(ty.Complete))
	require.Len(t, c.Want(&info, from, now), 1, "announced again: asked again")
}

// TestCacheLocal never asks for the process's own types.
func TestCacheLocal(t *testing.T) {
	ty := buildTypes(t, reflect.TypeFor[interopSample]())
	info := ty.Info()
	c := Cache{Local: &Registry{}}
	c.Local.Add(ty)
	require.Empty(t, c.Want(&info, [12]byte{}, time.Now()))
	got, ok := c.Resolve(ty.Complete)
	require.True(t, ok)
	require.Equal(t, "interop::Sample", got.Name)
}

func FuzzParseReply(f *testing.F) {
	ty := buildTypes(f, reflect.TypeFor[xtNested]())
	var server Registry
	server.Add(ty)
	reply, _ := server.Serve(AppendRequest(nil, [16]byte{}, 1, [12]byte{}, []TypeID{ty.Complete, ty.Minimal}))
	f.Add(reply)
	f.Fuzz(func(t *testing.T, b []byte) {
		var c Cache
		info := ty.Info()
		c.Want(&info, [12]byte{}, time.Now())
		c.AddReply(b)
	})
}
