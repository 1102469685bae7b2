package sim

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ddsgo/ddsgo/ecm"
)

// Plugin names of TriggeredPublisher, Gazebo's.
const (
	triggeredPublisherName     = "gz::sim::systems::TriggeredPublisher"
	triggeredPublisherFilename = "gz-sim-triggered-publisher-system"
)

// TriggeredPublisher publishes output messages and calls services when an input message
// matches, as Gazebo's TriggeredPublisher system, over a Bus. Its configuration (the
// <plugin> element):
//
//	<input type="gz.msgs.Vector2d" topic="/in">      (required; one)
//	  <match field="x" tol="0.01">1.0</match>      (any number; all must match)
//	  <match logic_type="negative">x: 1 y: 2</match>
//	</input>
//	<output type="gz.msgs.Empty" topic="/out"/>     (any number; text is the payload)
//	<service name="/srv" reqType="..." repType="..." reqMsg="data: true" timeout="1000"/>
//	                                                (any number; at least one output
//	                                                or service; timeout in ms)
//	<delay_ms>100</delay_ms>                        (optional, in simulation time)
//
// Over a simdds.Bus the types are ROS 2 types registered with it (std_msgs/msg/Bool, ...)
// or the Gazebo types ros_gz_bridge bridges to them (gz.msgs.Boolean, ...), the patterns and payloads are checked against them when the system is configured,
// and a <service> calls a ROS 2 service whose types were registered with
// AddBusService; a bus that calls no services (MemBus) refuses <service>.
//
// A message matches when its Type is the input type and every <match> matches: a
// <match> without field compares the whole message with its text (a message in the
// text format of ParseMsg); with field="a.b" it compares that field with its text (a
// value: a scalar, a [list] or a { message }), and a repeated field matches if it
// contains the value. As in Gazebo, a bare value without field ("<match>1</match>") is
// not a message: it is refused, with the fix ("data: 1") in the error.
// Numbers compare within tol (default 1e-8); logic_type="negative" inverts a match.
// Without <match>, every message of the input type matches.
//
// Each match publishes every output once, at once (on the goroutine that delivered
// the input), or after delay_ms of simulation time: PreUpdate counts the delay down
// by UpdateInfo.Dt, so paused steps do not advance it. Reset drops the pending
// delayed outputs. The services are called at the same moments, one call after the
// other on a goroutine of the system (as Gazebo's worker thread does), each within its
// timeout; at most 64 calls wait, more are counted as failed.
type TriggeredPublisher struct {
	bus      Bus
	inType   string
	matchers []tpMatcher
	outputs  []tpOutput
	services []tpService
	delay    time.Duration
	cancel   func()
	calls    chan struct{} // one per match to serve; closed by Close
	worker   sync.WaitGroup

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

type tpService struct {
	name    string
	req     Message
	repType string
	timeout time.Duration
}

// serviceCaller is a Bus that calls services (simdds.Bus).
type serviceCaller interface {
	Call(ctx context.Context, service string, req Message, repType string) (Message, error)
}

// TypedBus is a Bus that knows its message types, as simdds.Bus does. TriggeredPublisher
// uses what it knows when it is configured: it refuses a type or a payload the bus does not
// know, and makes its publishers before the first output, as Gazebo advertises them.
type TypedBus interface {
	Bus
	// Check returns the name the bus knows typ by (one form of the names it accepts) and
	// m as a message of that type, with every field of the type: a missing field is its
	// zero value. An unknown type or a field the type lacks is an error.
	Check(typ string, m Msg) (name string, full Msg, err error)
	// Advertise makes the publisher of typ on topic, if it does not exist yet.
	Advertise(topic, typ string) error
}

// maxPendingCalls bounds the matches whose service calls wait for the worker.
const maxPendingCalls = 64

// NewTriggeredPublisher returns a TriggeredPublisher on bus, to be configured by
// Configure.
func NewTriggeredPublisher(bus Bus) *TriggeredPublisher { return &TriggeredPublisher{bus: bus} }

// RegisterTriggeredPublisher registers TriggeredPublisher in reg under its plugin name
// and filename, with instances publishing on bus.
func RegisterTriggeredPublisher(reg Registry, bus Bus) {
	f := func() System { return NewTriggeredPublisher(bus) }
	reg[triggeredPublisherName] = f
	reg[triggeredPublisherFilename] = f
}

// Configure reads the configuration and subscribes to the input topic.
func (t *TriggeredPublisher) Configure(_ ecm.Entity, config *Element, _ *ecm.Manager) error {
	if t.bus == nil {
		return errors.New("sim: TriggeredPublisher without a bus")
	}
	topic, err := t.configureInput(config)
	if err != nil {
		return err
	}
	for _, oe := range config.ChildrenNamed("output") {
		typ, _ := oe.Attr("type")
		top, _ := oe.Attr("topic")
		if typ == "" || top == "" {
			return tpError(oe, "<output> needs type and topic", nil)
		}
		m, err := t.message(typ, oe.Text)
		if err != nil {
			return tpError(oe, "bad output payload", err)
		}
		if tb, ok := t.bus.(TypedBus); ok {
			if err := tb.Advertise(top, m.Type); err != nil {
				return tpError(oe, "output topic "+strconv.Quote(top), err)
			}
		}
		t.outputs = append(t.outputs, tpOutput{topic: top, msg: m})
	}
	for _, se := range config.ChildrenNamed("service") {
		s, err := t.parseService(se)
		if err != nil {
			return err
		}
		t.services = append(t.services, s)
	}
	if len(t.outputs) == 0 && len(t.services) == 0 {
		return tpError(config, "no <output> and no <service>", nil)
	}
	if d := config.Child("delay_ms"); d != nil {
		ms, err := strconv.ParseInt(d.TrimmedText(), 10, 32)
		if err != nil {
			return tpError(d, "bad <delay_ms> "+strconv.Quote(d.TrimmedText()), nil)
		}
		if ms > 0 {
			t.delay = time.Duration(ms) * time.Millisecond
		}
	}
	if len(t.services) > 0 {
		t.calls = make(chan struct{}, maxPendingCalls)
		t.worker.Go(t.callServices)
	}
	cancel, err := t.bus.Subscribe(topic, t.inType, t.onInput)
	if err != nil {
		t.Close()
		return tpError(config.Child("input"), "subscribing to "+strconv.Quote(topic), err)
	}
	t.cancel = cancel
	return nil
}

func tpError(el *Element, msg string, err error) error {
	return &LineError{Line: el.Line, Msg: "TriggeredPublisher: " + msg, Err: err}
}

// configureInput reads <input> and its matchers, and returns the input topic.
func (t *TriggeredPublisher) configureInput(config *Element) (string, error) {
	in := config.Child("input")
	if in == nil {
		return "", tpError(config, "missing <input>", nil)
	}
	t.inType, _ = in.Attr("type")
	topic, ok := in.Attr("topic")
	if !ok || topic == "" || t.inType == "" {
		return "", tpError(in, "<input> needs type and topic", nil)
	}
	if tb, ok := t.bus.(TypedBus); ok {
		name, _, err := tb.Check(t.inType, Msg{})
		if err != nil {
			return "", tpError(in, "input type", err)
		}
		t.inType = name
	}
	for _, me := range in.ChildrenNamed("match") {
		m, err := t.parseMatcher(me)
		if err != nil {
			return "", err
		}
		t.matchers = append(t.matchers, m)
	}
	return topic, nil
}

// message parses a message of type typ from its text, and on a typed bus checks it
// against the type.
func (t *TriggeredPublisher) message(typ, text string) (Message, error) {
	data, err := ParseMsg(text)
	if err != nil {
		return Message{}, err
	}
	if tb, ok := t.bus.(TypedBus); ok {
		typ, data, err = tb.Check(typ, data)
	}
	return Message{Type: typ, Data: data}, err
}

// parseService reads a <service> element.
func (t *TriggeredPublisher) parseService(el *Element) (tpService, error) {
	if _, ok := t.bus.(serviceCaller); !ok {
		return tpService{}, tpError(el, "<service> needs a bus that calls services (simdds.Bus)", nil)
	}
	attr := func(name string) string { v, _ := el.Attr(name); return strings.TrimSpace(v) }
	s := tpService{name: attr("name"), repType: attr("repType")}
	reqType, reqMsg := attr("reqType"), attr("reqMsg")
	if s.name == "" || reqType == "" || s.repType == "" {
		return s, tpError(el, "<service> needs name, reqType and repType", nil)
	}
	ms, err := strconv.ParseInt(attr("timeout"), 10, 32)
	if err != nil || ms <= 0 {
		return s, tpError(el, "<service> needs a timeout in milliseconds, not "+strconv.Quote(attr("timeout")), nil)
	}
	s.timeout = time.Duration(ms) * time.Millisecond
	if s.req, err = t.message(reqType, reqMsg); err != nil {
		return s, tpError(el, "bad reqMsg", err)
	}
	if tb, ok := t.bus.(TypedBus); ok {
		if s.repType, _, err = tb.Check(s.repType, Msg{}); err != nil {
			return s, tpError(el, "bad repType", err)
		}
	}
	return s, nil
}

func (t *TriggeredPublisher) parseMatcher(el *Element) (tpMatcher, error) {
	m := tpMatcher{tol: 1e-8}
	m.field, _ = el.Attr("field")
	switch lt, _ := el.Attr("logic_type"); lt {
	case "", "positive":
	case "negative":
		m.negative = true
	default:
		return m, tpError(el, "bad logic_type "+strconv.Quote(lt), nil)
	}
	if s, ok := el.Attr("tol"); ok {
		tol, err := strconv.ParseFloat(s, 64)
		if err != nil || tol < 0 || math.IsNaN(tol) {
			return m, tpError(el, "bad tol "+strconv.Quote(s), nil)
		}
		m.tol = tol
	}
	var err error
	if m.field == "" {
		var msg Message
		msg, err = t.message(t.inType, el.Text) // every field: a missing one is zero
		m.want = msg.Data
		if _, isValue := parseValue(el.Text); err != nil && isValue == nil {
			err = bareValueError(el.TrimmedText(), err)
		}
	} else if m.want, err = parseValue(el.Text); err == nil {
		m.want, err = t.fieldValue(m.field, m.want)
	}
	if err != nil {
		return m, tpError(el, "bad <match>", err)
	}
	return m, nil
}

// bareValueError is the error of a <match> without field whose text is one value, as
// Gazebo's example <match logic_type="negative">1</match> for gz.msgs.Int32: Gazebo
// parses it as a whole message (protobuf's TextFormat::ParseFromString), which a bare
// value is not, and drops the matcher (a plugin left without matchers does nothing);
// here it is a configuration error that says how to write it.
func bareValueError(text string, err error) error {
	return fmt.Errorf("%q is a value, not a message: a <match> without field is the whole message "+
		"in protobuf text format, as Gazebo parses it; name the field (\"data: %s\") or match it "+
		"with field=\"data\": %w", text, text, err)
}

// fieldValue gives the value v of a field matcher, on a typed bus, the form of the
// field in the input type: a scalar where the field is a list of one value, every
// field of a message. A field inside a repeated field keeps its value (it never
// matches, as in Gazebo).
func (t *TriggeredPublisher) fieldValue(field string, v any) (any, error) {
	tb, ok := t.bus.(TypedBus)
	if !ok {
		return v, nil
	}
	at := v
	path := strings.Split(field, ".")
	for i := len(path) - 1; i >= 0; i-- {
		at = Msg{path[i]: at}
	}
	_, c, err := tb.Check(t.inType, at.(Msg))
	if err != nil {
		return nil, err
	}
	got, ok := c.field(field)
	if !ok {
		return v, nil
	}
	if l, isList := got.([]any); isList && len(l) == 1 {
		if _, wantList := v.([]any); !wantList {
			return l[0], nil
		}
	}
	return got, nil
}

// match reports whether msg triggers the outputs.
func (t *TriggeredPublisher) match(msg Message) bool {
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
	got, _ := data.field(m.field)
	if l, ok := got.([]any); ok {
		if _, wantList := m.want.([]any); !wantList {
			return slices.ContainsFunc(l, func(v any) bool { return equalValues(m.want, v, m.tol) })
		}
	}
	return equalValues(m.want, got, m.tol)
}

func (t *TriggeredPublisher) onInput(msg Message) {
	if !t.match(msg) {
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
		t.count(t.bus.Publish(o.topic, o.msg))
	}
	if t.calls != nil {
		select {
		case t.calls <- struct{}{}:
		default:
			t.failed.Add(uint64(len(t.services))) // too many calls waiting
		}
	}
}

func (t *TriggeredPublisher) count(err error) {
	if err != nil {
		t.failed.Add(1)
	} else {
		t.published.Add(1)
	}
}

// callServices calls the services once per match, until Close.
func (t *TriggeredPublisher) callServices() {
	caller := t.bus.(serviceCaller)
	for range t.calls {
		for _, s := range t.services {
			ctx, cancel := context.WithTimeout(context.Background(), s.timeout)
			_, err := caller.Call(ctx, s.name, s.req, s.repType)
			cancel()
			t.count(err)
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

// Published returns the number of output messages published and service calls
// answered, and the number of those that failed (a Publish error, a service that did
// not answer within its timeout).
func (t *TriggeredPublisher) Published() (ok, failed uint64) {
	return t.published.Load(), t.failed.Load()
}

// Close cancels the subscription to the input topic and waits for the service call in
// progress, if any.
func (t *TriggeredPublisher) Close() {
	if t.cancel != nil {
		t.cancel()
		t.cancel = nil
	}
	if t.calls != nil {
		close(t.calls)
		t.worker.Wait()
		t.calls = nil
	}
}
