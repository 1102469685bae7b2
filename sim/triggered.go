package sim

import (
	"errors"
	"math"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ddsgo/ddsgo/sim/ecm"
)

// Plugin names of TriggeredPublisher, Gazebo's.
const (
	TriggeredPublisherName     = "gz::sim::systems::TriggeredPublisher"
	TriggeredPublisherFilename = "gz-sim-triggered-publisher-system"
)

// TriggeredPublisher publishes output messages when an input message matches, as
// Gazebo's TriggeredPublisher system, over a Bus. Its configuration (the <plugin>
// element):
//
//	<input type="gz.msgs.Vector2d" topic="/in">      (required; one)
//	  <match field="x" tol="0.01">1.0</match>      (any number; all must match)
//	  <match logic_type="negative">x: 1 y: 2</match>
//	</input>
//	<output type="gz.msgs.Empty" topic="/out"/>     (at least one; text is the payload)
//	<delay_ms>100</delay_ms>                        (optional, in simulation time)
//
// A message matches when its Type is the input type and every <match> matches: a
// <match> without field compares the whole message with its text (a message in the
// text format of ParseMsg); with field="a.b" it compares that field with its text (a
// value, see ParseValue), and a repeated field matches if it contains the value.
// Numbers compare within tol (default 1e-8); logic_type="negative" inverts a match.
// Without <match>, every message of the input type matches.
//
// Each match publishes every output once, at once (on the goroutine that delivered
// the input), or after delay_ms of simulation time: PreUpdate counts the delay down
// by UpdateInfo.Dt, so paused steps do not advance it. Reset drops the pending
// delayed outputs. Service outputs of Gazebo (<service>) are not supported.
type TriggeredPublisher struct {
	bus      Bus
	inType   string
	matchers []tpMatcher
	outputs  []tpOutput
	delay    time.Duration
	cancel   func()

	mu      sync.Mutex
	pending []time.Duration // remaining delays

	published atomic.Uint64
	failed    atomic.Uint64
}

type tpMatcher struct {
	field    string // "" for the whole message
	want     any
	tol      float64
	negative bool
}

type tpOutput struct {
	topic string
	msg   Message
}

// NewTriggeredPublisher returns a TriggeredPublisher on bus, to be configured by
// Configure.
func NewTriggeredPublisher(bus Bus) *TriggeredPublisher { return &TriggeredPublisher{bus: bus} }

// RegisterTriggeredPublisher registers TriggeredPublisher in reg under its plugin name
// and filename, with instances publishing on bus.
func RegisterTriggeredPublisher(reg Registry, bus Bus) {
	f := func() System { return NewTriggeredPublisher(bus) }
	reg[TriggeredPublisherName] = f
	reg[TriggeredPublisherFilename] = f
}

// Configure reads the configuration and subscribes to the input topic.
func (t *TriggeredPublisher) Configure(_ ecm.Entity, config *Element, _ *ecm.Manager) error {
	if t.bus == nil {
		return errors.New("sim: TriggeredPublisher without a bus")
	}
	in := config.Child("input")
	if in == nil {
		return &LineError{Line: config.Line, Msg: "TriggeredPublisher: missing <input>"}
	}
	var topic string
	var ok bool
	t.inType, _ = in.Attr("type")
	if topic, ok = in.Attr("topic"); !ok || topic == "" || t.inType == "" {
		return &LineError{Line: in.Line, Msg: "TriggeredPublisher: <input> needs type and topic"}
	}
	for _, me := range in.ChildrenNamed("match") {
		m, err := parseMatcher(me)
		if err != nil {
			return err
		}
		t.matchers = append(t.matchers, m)
	}
	if s := config.Child("service"); s != nil {
		return &LineError{Line: s.Line, Msg: "TriggeredPublisher: <service> is not supported"}
	}
	for _, oe := range config.ChildrenNamed("output") {
		typ, _ := oe.Attr("type")
		top, _ := oe.Attr("topic")
		if typ == "" || top == "" {
			return &LineError{Line: oe.Line, Msg: "TriggeredPublisher: <output> needs type and topic"}
		}
		data, err := ParseMsg(oe.Text)
		if err != nil {
			return &LineError{Line: oe.Line, Msg: "TriggeredPublisher: bad output payload", Err: err}
		}
		t.outputs = append(t.outputs, tpOutput{topic: top, msg: Message{Type: typ, Data: data}})
	}
	if len(t.outputs) == 0 {
		return &LineError{Line: config.Line, Msg: "TriggeredPublisher: no <output>"}
	}
	if d := config.Child("delay_ms"); d != nil {
		ms, err := strconv.ParseInt(d.TrimmedText(), 10, 32)
		if err != nil {
			return &LineError{Line: d.Line, Msg: "TriggeredPublisher: bad <delay_ms> " + strconv.Quote(d.TrimmedText())}
		}
		if ms > 0 {
			t.delay = time.Duration(ms) * time.Millisecond
		}
	}
	cancel, err := t.bus.Subscribe(topic, t.onInput)
	if err != nil {
		return &LineError{Line: in.Line, Msg: "TriggeredPublisher: subscribing to " + strconv.Quote(topic), Err: err}
	}
	t.cancel = cancel
	return nil
}

func parseMatcher(el *Element) (tpMatcher, error) {
	m := tpMatcher{tol: 1e-8}
	m.field, _ = el.Attr("field")
	switch lt, _ := el.Attr("logic_type"); lt {
	case "", "positive":
	case "negative":
		m.negative = true
	default:
		return m, &LineError{Line: el.Line, Msg: "TriggeredPublisher: bad logic_type " + strconv.Quote(lt)}
	}
	if s, ok := el.Attr("tol"); ok {
		tol, err := strconv.ParseFloat(s, 64)
		if err != nil || tol < 0 || math.IsNaN(tol) {
			return m, &LineError{Line: el.Line, Msg: "TriggeredPublisher: bad tol " + strconv.Quote(s)}
		}
		m.tol = tol
	}
	var err error
	if m.field == "" {
		m.want, err = ParseMsg(el.Text)
	} else {
		m.want, err = ParseValue(el.Text)
	}
	if err != nil {
		return m, &LineError{Line: el.Line, Msg: "TriggeredPublisher: bad <match>", Err: err}
	}
	return m, nil
}

// Match reports whether msg triggers the outputs.
func (t *TriggeredPublisher) Match(msg Message) bool {
	if msg.Type != t.inType {
		return false
	}
	for _, m := range t.matchers {
		if m.match(msg.Data) == m.negative {
			return false
		}
	}
	return true
}

func (m *tpMatcher) match(data Msg) bool {
	if m.field == "" {
		return equalValues(m.want, data, m.tol)
	}
	got, _ := data.Field(m.field)
	if l, ok := got.([]any); ok {
		if _, wantList := m.want.([]any); !wantList {
			return slices.ContainsFunc(l, func(v any) bool { return equalValues(m.want, v, m.tol) })
		}
	}
	return equalValues(m.want, got, m.tol)
}

func (t *TriggeredPublisher) onInput(msg Message) {
	if !t.Match(msg) {
		return
	}
	if t.delay > 0 {
		t.mu.Lock()
		t.pending = append(t.pending, t.delay)
		t.mu.Unlock()
		return
	}
	t.publish()
}

func (t *TriggeredPublisher) publish() {
	for _, o := range t.outputs {
		if err := t.bus.Publish(o.topic, o.msg); err != nil {
			t.failed.Add(1)
		} else {
			t.published.Add(1)
		}
	}
}

// PreUpdate counts down the delays of pending outputs and publishes those due.
func (t *TriggeredPublisher) PreUpdate(info UpdateInfo, _ *ecm.Manager) {
	due := 0
	t.mu.Lock()
	rest := t.pending[:0]
	for _, d := range t.pending {
		if d -= info.Dt; d <= 0 {
			due++
		} else {
			rest = append(rest, d)
		}
	}
	t.pending = rest
	t.mu.Unlock()
	for range due {
		t.publish()
	}
}

// Reset drops the pending delayed outputs.
func (t *TriggeredPublisher) Reset(UpdateInfo, *ecm.Manager) {
	t.mu.Lock()
	t.pending = t.pending[:0]
	t.mu.Unlock()
}

// Published returns the number of output messages published, and the number whose
// Publish failed.
func (t *TriggeredPublisher) Published() (ok, failed uint64) {
	return t.published.Load(), t.failed.Load()
}

// Close cancels the subscription to the input topic.
func (t *TriggeredPublisher) Close() {
	if t.cancel != nil {
		t.cancel()
		t.cancel = nil
	}
}
