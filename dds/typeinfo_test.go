package dds

import (
	"bytes"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ddsgo/ddsgo/internal/cdr"
	"github.com/ddsgo/ddsgo/internal/discovery"
	"github.com/ddsgo/ddsgo/internal/tshark"
	"github.com/ddsgo/ddsgo/internal/xtypes"
	"github.com/ddsgo/ddsgo/listener"
)

// namedSample names its members in IDL, as ddsgen generates them: it announces its
// TypeInformation.
type namedSample struct {
	ID     int32     `dds:"key,name=id"`
	Text   string    `dds:"name=text"`
	Values []float64 `dds:"name=values"`
	Seq    uint64    `dds:"name=seq"`
}

func (namedSample) DDSTypeName() string { return "interop::Sample" }

// TestTypeInformationAnnounced checks what SEDP carries: the TypeInformation of a type
// that names its members, byte for byte what internal/xtypes builds (which is Cyclone
// DDS's for interop::Sample, internal/xtypes/golden_test.go), and none for a type that
// does not, or whose topic type name is not the struct's.
func TestTypeInformationAnnounced(t *testing.T) {
	pa, pb := memPair(t, 1)
	var mu sync.Mutex
	seen := map[string]discovery.EndpointData{}
	pb.eng.OnEndpoint(func(d discovery.EndpointData) {
		mu.Lock()
		defer mu.Unlock()
		kind := "r:"
		if d.IsWriter() {
			kind = "w:"
		}
		seen[kind+d.TopicName] = d
	})
	named, err := NewTopic[namedSample](pa, "Named")
	require.NoError(t, err)
	plain, err := NewTopic[message](pa, "Plain", TypeName("interop::Sample"))
	require.NoError(t, err)
	renamed, err := NewTopic[namedSample](pa, "Renamed", TypeName("other::Sample"))
	require.NoError(t, err)
	_, err = NewWriter(named)
	require.NoError(t, err)
	_, err = NewReader(named)
	require.NoError(t, err)
	_, err = NewWriter(plain)
	require.NoError(t, err)
	_, err = NewWriter(renamed)
	require.NoError(t, err)
	require.Eventually(t, func() bool {
		mu.Lock()
		defer mu.Unlock()
		return len(seen) == 4
	}, 10*time.Second, 5*time.Millisecond)

	d, err := cdr.Describe(reflect.TypeFor[namedSample]())
	require.NoError(t, err)
	types, err := xtypes.Build(d)
	require.NoError(t, err)
	info := types.Info()
	want := info.Append(nil)
	mu.Lock()
	defer mu.Unlock()
	require.Equal(t, want, seen["w:Named"].TypeInformation)
	require.Equal(t, want, seen["r:Named"].TypeInformation)
	require.Nil(t, seen["w:Plain"].TypeInformation)
	require.Nil(t, seen["w:Renamed"].TypeInformation)
}

// TestWiresharkDecodesTypeInformation has Wireshark's RTPS dissector decode the discovery
// traffic of a writer and a reader that announce their TypeInformation: no malformed
// packet, no expert warning.
func TestWiresharkDecodesTypeInformation(t *testing.T) {
	if !tshark.Available() {
		t.Skip("tshark not installed")
	}
	pa, pb, end := tappedPair(t, 5)
	ta, err := NewTopic[namedSample](pa, "Named")
	require.NoError(t, err)
	tb, err := NewTopic[namedSample](pb, "Named")
	require.NoError(t, err)
	w, err := NewWriter(ta, Reliable())
	require.NoError(t, err)
	r, err := NewReader(tb, Reliable())
	require.NoError(t, err)
	// Both sides matched: each has received the other's SEDP, so both were sent.
	waitStatus(t, w, listener.PublicationMatched)
	waitStatus(t, r, listener.SubscriptionMatched)
	all := end()

	info := typeInfoOf[namedSample]("interop::Sample")
	require.NotNil(t, info)
	withInfo := 0
	for _, d := range all {
		if bytes.Contains(d.Payload, info) {
			withInfo++
		}
	}
	require.GreaterOrEqual(t, withInfo, 2, "SEDP of the writer and the reader")
	tshark.CheckDatagrams(t, all)
}
