package sim

import (
	"math"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/ddsgo/ddsgo/ecm"
)

func TestParseMsg(t *testing.T) {
	tests := []struct {
		text string
		want Msg
	}{
		{"", Msg{}},
		{"data: true", Msg{"data": true}},
		{"x: 1.5, y: -2; name: \"a b\\\"c\" kind: ROBOT", Msg{"x": 1.5, "y": -2.0, "name": "a b\"c", "kind": "ROBOT"}},
		{"linear: {x: 0.5} angular { z: 1e-1 }", Msg{"linear": Msg{"x": 0.5}, "angular": Msg{"z": 0.1}}},
		{"data: 1\ndata: 2 # comment\ndata: [3, 4]", Msg{"data": []any{1.0, 2.0, 3.0, 4.0}}},
		{"v: []", Msg{"v": []any{}}},
		{"s: 'single \\'q\\''", Msg{"s": "single 'q'"}},
		{"p { q { r: False } }", Msg{"p": Msg{"q": Msg{"r": false}}}},
		// The rest of protobuf's text format, as Gazebo's TextFormat::ParseFromString reads it.
		{"position < x: 1 > orientation: < w: 1.0f >", Msg{"position": Msg{"x": 1.0}, "orientation": Msg{"w": 1.0}}},
		{"a: 0x1F b: 017 c: -0x10 d: 1.5f e: 2F f: - 3 g: -inf h: 1e+2 i: .5 j: 00", Msg{
			"a": 31.0, "b": 15.0, "c": -16.0, "d": 1.5, "e": 2.0, "f": -3.0, "g": math.Inf(-1), "h": 100.0, "i": 0.5, "j": 0.0,
		}},
		{`s: "a" 'b' "c"`, Msg{"s": "abc"}},
		{`s: "\x41\101\u00e9\a\?\0\U0001F600"`, Msg{"s": "AA\u00e9\a?\x00\U0001F600"}},
		{"l: [<a: 1>, {a: 2}]", Msg{"l": []any{Msg{"a": 1.0}, Msg{"a": 2.0}}}},
	}
	for _, tt := range tests {
		got, err := ParseMsg(tt.text)
		require.NoError(t, err, tt.text)
		require.Equal(t, tt.want, got, tt.text)
	}
	for _, bad := range []string{
		"x", "x:", "x: {", "x: }", ": 1", "x: \"open", "x: [1 2]", "x: 'bad\\q'", "1: 2",
		"x: @", "}", strings.Repeat("a {", maxMsgDepth+1),
		"x: 09", "x: <a: 1", "x { a: 1 >", "x < a: 1 }", ">", "x: - y", "x: -", "x: +1", "x: 1_0",
		`x: "\u12"`, `x: "\400"`, `x: "\x"`, `x: "a" "b`,
	} {
		_, err := ParseMsg(bad)
		require.Error(t, err, bad)
		require.Contains(t, err.Error(), "sim: message text")
	}
	v, err := parseValue(" { a: 1 } ")
	require.NoError(t, err)
	require.Equal(t, Msg{"a": 1.0}, v)
	_, err = parseValue("1 2")
	require.Error(t, err)

	m := Msg{"a": Msg{"b": 2.0}}
	v, ok := m.field("a.b")
	require.True(t, ok)
	require.Equal(t, 2.0, v)
	_, ok = m.field("a.c")
	require.False(t, ok)
	_, ok = m.field("a.b.c")
	require.False(t, ok)
}

func configure(t *testing.T, bus Bus, xml string) (*TriggeredPublisher, error) {
	t.Helper()
	el, err := ParseElement(strings.NewReader(xml))
	require.NoError(t, err)
	tp := NewTriggeredPublisher(bus)
	return tp, tp.Configure(ecm.Null, el, nil)
}

// collect subscribes to topic and returns the messages of type typ received so far.
func collect(t *testing.T, bus Bus, topic, typ string) func() []Message {
	var (
		mu  sync.Mutex
		got []Message
	)
	_, err := bus.Subscribe(topic, typ, func(m Message) {
		mu.Lock()
		got = append(got, m)
		mu.Unlock()
	})
	require.NoError(t, err)
	return func() []Message {
		mu.Lock()
		defer mu.Unlock()
		return append([]Message(nil), got...)
	}
}

func TestTriggeredPublisherMatch(t *testing.T) {
	tests := []struct {
		name  string
		match string
		in    Message
		want  bool
	}{
		{"any", ``, Message{Type: "T", Data: Msg{"x": 9.0}}, true},
		{"wrong type", ``, Message{Type: "U"}, false},
		{"full", `<match>x: 1 y: 2</match>`, Message{Type: "T", Data: Msg{"x": 1.0, "y": 2.0}}, true},
		{"full differs", `<match>x: 1 y: 2</match>`, Message{Type: "T", Data: Msg{"x": 1.0, "y": 3.0}}, false},
		{"full extra field", `<match>x: 1</match>`, Message{Type: "T", Data: Msg{"x": 1.0, "y": 3.0}}, false},
		{"full zero default", `<match>x: 1 y: 0</match>`, Message{Type: "T", Data: Msg{"x": 1.0}}, true},
		{"field", `<match field="x">1.0</match>`, Message{Type: "T", Data: Msg{"x": 1.0, "y": 5.0}}, true},
		{"field tol default", `<match field="x">1.0</match>`, Message{Type: "T", Data: Msg{"x": 1.001}}, false},
		{"field tol", `<match field="x" tol="0.01">1.0</match>`, Message{Type: "T", Data: Msg{"x": 1.001}}, true},
		{"nested field", `<match field="pose.name">"r1"</match>`, Message{Type: "T", Data: Msg{"pose": Msg{"name": "r1"}}}, true},
		{"all matchers", `<match field="x">1</match><match field="y">2</match>`, Message{Type: "T", Data: Msg{"x": 1.0, "y": 3.0}}, false},
		{"negative", `<match logic_type="negative">data: 1</match><match logic_type="negative">data: 2</match>`, Message{Type: "T", Data: Msg{"data": 3.0}}, true},
		{"negative hit", `<match logic_type="negative">data: 1</match><match logic_type="negative">data: 2</match>`, Message{Type: "T", Data: Msg{"data": 2.0}}, false},
		{"repeated contains", `<match field="data">1</match><match field="data">2</match>`, Message{Type: "T", Data: Msg{"data": []any{2.0, 1.0, 7.0}}}, true},
		{"repeated missing", `<match field="data">1</match><match field="data">5</match>`, Message{Type: "T", Data: Msg{"data": []any{2.0, 1.0}}}, false},
		{"repeated exact", `<match>data: 1 data: 2</match>`, Message{Type: "T", Data: Msg{"data": []any{1.0, 2.0}}}, true},
		{"bool", `<match>data: true</match>`, Message{Type: "T", Data: Msg{"data": true}}, true},
		{"bool missing is false", `<match>data: true</match>`, Message{Type: "T", Data: Msg{}}, false},
		{"kind mismatch", `<match field="x">"1"</match>`, Message{Type: "T", Data: Msg{"x": 1.0}}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tp, err := configure(t, &MemBus{}, `<plugin><input type="T" topic="/in">`+tt.match+`</input><output type="E" topic="/out"/></plugin>`)
			require.NoError(t, err)
			require.Equal(t, tt.want, tp.match(tt.in))
		})
	}
}

func TestTriggeredPublisherPublish(t *testing.T) {
	bus := &MemBus{}
	tp, err := configure(t, bus, `<plugin>
  <input type="gz.msgs.Boolean" topic="/in"><match>data: true</match></input>
  <output type="gz.msgs.Empty" topic="/a"/>
  <output type="gz.msgs.Twist" topic="/b">linear { x: 1 }</output>
</plugin>`)
	require.NoError(t, err)
	a, b := collect(t, bus, "/a", "gz.msgs.Empty"), collect(t, bus, "/b", "gz.msgs.Twist")
	require.NoError(t, bus.Publish("/in", Message{Type: "gz.msgs.Boolean", Data: Msg{"data": false}}))
	require.Empty(t, a())
	require.NoError(t, bus.Publish("/in", Message{Type: "gz.msgs.Boolean", Data: Msg{"data": true}}))
	require.Equal(t, []Message{{Type: "gz.msgs.Empty", Data: Msg{}}}, a())
	require.Equal(t, []Message{{Type: "gz.msgs.Twist", Data: Msg{"linear": Msg{"x": 1.0}}}}, b())
	ok, failed := tp.Published()
	require.Equal(t, uint64(2), ok)
	require.Zero(t, failed)
	tp.Close()
	require.NoError(t, bus.Publish("/in", Message{Type: "gz.msgs.Boolean", Data: Msg{"data": true}}))
	require.Len(t, a(), 1)
}

func TestTriggeredPublisherDelay(t *testing.T) {
	r, _, bus, _ := loadDemo(t) // delay_ms 20 with 1 ms steps
	out := collect(t, bus, "/cmd_vel", "gz.msgs.Twist")
	start := Message{Type: "gz.msgs.Boolean", Data: Msg{"data": true}}
	step := func(n int) {
		for range n {
			_, err := r.RunOnce()
			require.NoError(t, err)
		}
	}
	step(1)
	require.NoError(t, bus.Publish("/start", start))
	step(19)
	require.Empty(t, out())
	// Paused steps do not count the delay down.
	r.SetPaused(true)
	step(5)
	require.Empty(t, out())
	r.SetPaused(false)
	step(1)
	require.Equal(t, []Message{{Type: "gz.msgs.Twist", Data: Msg{"linear": Msg{"x": 0.5}}}}, out())

	// Reset drops what is pending.
	require.NoError(t, bus.Publish("/start", start))
	r.Reset()
	step(40)
	require.Len(t, out(), 1)
	require.Equal(t, time.Duration(40-1)*time.Millisecond, r.Info().SimTime)
}

func TestTriggeredPublisherConfigErrors(t *testing.T) {
	tests := []lineErrorCase{
		{"no input", "<plugin>\n<output type='E' topic='/o'/></plugin>", 1, "missing <input>"},
		{"input attrs", "<plugin>\n<input topic='/i'/></plugin>", 2, "<input> needs type and topic"},
		{"no output", "<plugin>\n<input type='T' topic='/i'/></plugin>", 1, "no <output> and no <service>"},
		{"output attrs", "<plugin><input type='T' topic='/i'/>\n<output type='E'/></plugin>", 2, "<output> needs type and topic"},
		{"payload", "<plugin><input type='T' topic='/i'/>\n<output type='E' topic='/o'>x</output></plugin>", 2, "bad output payload"},
		{"match", "<plugin><input type='T' topic='/i'>\n<match>x: {</match></input><output type='E' topic='/o'/></plugin>", 2, "bad <match>"},
		{"bare value", "<plugin><input type='gz.msgs.Int32' topic='/i'>\n<match logic_type='negative'>1</match></input><output type='gz.msgs.Empty' topic='/o'/></plugin>", 2, `bad <match>: "1" is a value, not a message`},
		{"logic", "<plugin><input type='T' topic='/i'>\n<match logic_type='maybe'/></input><output type='E' topic='/o'/></plugin>", 2, "bad logic_type"},
		{"tol", "<plugin><input type='T' topic='/i'>\n<match tol='-1'/></input><output type='E' topic='/o'/></plugin>", 2, "bad tol"},
		{"delay", "<plugin><input type='T' topic='/i'/><output type='E' topic='/o'/>\n<delay_ms>soon</delay_ms></plugin>", 2, "bad <delay_ms>"},
		{"service", "<plugin><input type='T' topic='/i'/>\n<service name='/s'/></plugin>", 2, "<service> needs a bus that calls services"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := configure(t, &MemBus{}, tt.src)
			requireLineError(t, err, tt.line, tt.msg)
		})
	}
	_, err := configure(t, nil, "<plugin/>")
	require.ErrorContains(t, err, "without a bus")
}

func TestMemBus(t *testing.T) {
	bus := &MemBus{}
	var got []string
	c1, err := bus.Subscribe("t", "a", func(m Message) { got = append(got, "1:"+m.Type) })
	require.NoError(t, err)
	_, err = bus.Subscribe("t", "a", func(m Message) { got = append(got, "2:"+m.Type) })
	require.NoError(t, err)
	_, err = bus.Subscribe("t", "b", func(m Message) { got = append(got, "3:"+m.Type) })
	require.NoError(t, err)
	require.NoError(t, bus.Publish("t", Message{Type: "a"}))
	c1()
	c1()
	require.NoError(t, bus.Publish("t", Message{Type: "a"}))
	require.NoError(t, bus.Publish("t", Message{Type: "b"}))
	require.NoError(t, bus.Publish("other", Message{Type: "a"}))
	require.Equal(t, []string{"1:a", "2:a", "2:a", "3:b"}, got, "each subscriber gets its topic's messages of its type")
	_, err = bus.Subscribe("t", "a", nil)
	require.Error(t, err)
}
