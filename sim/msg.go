package sim

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Msg is the content of a message on a Bus, as a tree of fields: field names map to
// values of type bool, float64 (every number), string (also enum names), Msg (a
// nested message) or []any of those (a repeated field). Like protobuf fields, a
// missing field reads as the zero value of the kind it is compared with.
type Msg map[string]any

// maxMsgDepth bounds the nesting of messages ParseMsg accepts.
const maxMsgDepth = 64

// ParseMsg parses a message in a subset of the protobuf text format, as used by
// Gazebo's plugin configurations: "name: value" and "name { ... }" fields separated by
// white space, "," or ";"; values are numbers, true/false, quoted strings,
// identifiers (enum values, kept as strings) and [lists]; a repeated name makes a
// repeated field; "#" starts a comment.
func ParseMsg(text string) (Msg, error) {
	return parseAll(text, func(p *msgParser) (Msg, error) { return p.fields(0) })
}

// parseValue parses one value of the text format: a scalar, a [list] or a
// { message }.
func parseValue(text string) (any, error) {
	return parseAll(text, func(p *msgParser) (any, error) { return p.value(0) })
}

// parseAll parses text with parse, which must read all of it.
func parseAll[T any](text string, parse func(*msgParser) (T, error)) (T, error) {
	p := &msgParser{s: text}
	v, err := parse(p)
	var zero T
	if err != nil {
		return zero, err
	}
	if p.peek() != "" {
		return zero, p.errorf("unexpected %q", p.peek())
	}
	return v, nil
}

type msgParser struct {
	s   string
	off int
	tok string // peeked token, "" if none
	end int    // offset after the peeked token
}

func (p *msgParser) errorf(format string, args ...any) error {
	return fmt.Errorf("sim: message text at offset %d: %s", p.off, fmt.Sprintf(format, args...))
}

// peek returns the next token without consuming it; "" at the end.
func (p *msgParser) peek() string {
	if p.tok != "" {
		return p.tok
	}
	i := p.off
	for i < len(p.s) {
		c := p.s[i]
		if c == '#' {
			for i < len(p.s) && p.s[i] != '\n' {
				i++
			}
			continue
		}
		if c != ' ' && c != '\t' && c != '\n' && c != '\r' {
			break
		}
		i++
	}
	p.off = i
	if i == len(p.s) {
		p.end = i
		return ""
	}
	j := i + 1
	switch c := p.s[i]; {
	case strings.IndexByte(":{}[],;", c) >= 0:
	case c == '"' || c == '\'':
		for j < len(p.s) && p.s[j] != c {
			if p.s[j] == '\\' {
				j++
			}
			j++
		}
		j = min(j+1, len(p.s)) // past the closing quote, if any
	default:
		for j < len(p.s) && strings.IndexByte(" \t\r\n:{}[],;#\"'", p.s[j]) < 0 {
			j++
		}
	}
	p.tok, p.end = p.s[i:j], j
	return p.tok
}

// next consumes and returns the next token.
func (p *msgParser) next() string {
	t := p.peek()
	p.off, p.tok = p.end, ""
	return t
}

// fields parses fields up to "}" or the end.
func (p *msgParser) fields(depth int) (Msg, error) {
	m := Msg{}
	for {
		t := p.peek()
		if t == "" || t == "}" {
			return m, nil
		}
		name := p.next()
		if !isIdent(name) {
			return nil, p.errorf("expected a field name, got %q", name)
		}
		colon := p.peek() == ":"
		if colon {
			p.next()
		}
		var v any
		if p.peek() == "{" || colon {
			var err error
			if v, err = p.value(depth); err != nil {
				return nil, err
			}
		} else {
			return nil, p.errorf("expected ':' or '{' after %q", name)
		}
		addField(m, name, v)
		if t := p.peek(); t == "," || t == ";" {
			p.next()
		}
	}
}

// addField sets name to v, making a repeated field if name is set already.
func addField(m Msg, name string, v any) {
	old, ok := m[name]
	if !ok {
		m[name] = v
		return
	}
	if l, isList := old.([]any); isList {
		if nl, vList := v.([]any); vList {
			m[name] = append(l, nl...)
		} else {
			m[name] = append(l, v)
		}
		return
	}
	m[name] = []any{old, v}
}

// value parses a value.
func (p *msgParser) value(depth int) (any, error) {
	if depth >= maxMsgDepth {
		return nil, p.errorf("nested too deeply")
	}
	t := p.next()
	switch {
	case t == "":
		return nil, p.errorf("unexpected end")
	case t == "{":
		m, err := p.fields(depth + 1)
		if err != nil {
			return nil, err
		}
		if p.next() != "}" {
			return nil, p.errorf("missing '}'")
		}
		return m, nil
	case t == "[":
		var l []any
		for p.peek() != "]" {
			v, err := p.value(depth + 1)
			if err != nil {
				return nil, err
			}
			l = append(l, v)
			if p.peek() == "," {
				p.next()
			} else if p.peek() != "]" {
				return nil, p.errorf("expected ',' or ']'")
			}
		}
		p.next()
		if l == nil {
			l = []any{}
		}
		return l, nil
	case t[0] == '"' || t[0] == '\'':
		return unquote(t, p)
	case t == "true" || t == "True":
		return true, nil
	case t == "false" || t == "False":
		return false, nil
	}
	if f, err := strconv.ParseFloat(t, 64); err == nil {
		return f, nil
	}
	if isIdent(t) {
		return t, nil
	}
	return nil, p.errorf("bad value %q", t)
}

// unquote decodes a quoted string token.
func unquote(t string, p *msgParser) (string, error) {
	q := t[0]
	if len(t) < 2 || t[len(t)-1] != q {
		return "", p.errorf("unterminated string")
	}
	body := t[1 : len(t)-1]
	var b strings.Builder
	for i := 0; i < len(body); i++ {
		c := body[i]
		if c != '\\' {
			b.WriteByte(c)
			continue
		}
		i++
		if i == len(body) {
			return "", p.errorf("bad escape")
		}
		switch body[i] {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case '\\', '\'', '"':
			b.WriteByte(body[i])
		default:
			return "", p.errorf("bad escape \\%c", body[i])
		}
	}
	return b.String(), nil
}

func isIdent(s string) bool {
	for i, c := range []byte(s) {
		letter := c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
		if !letter && (i == 0 || c < '0' || c > '9') {
			return false
		}
	}
	return s != ""
}

// field returns the value at a dot-separated path of nested messages ("pose.x"), and
// whether it exists.
func (m Msg) field(path string) (any, bool) {
	var v any = m
	for name := range strings.SplitSeq(path, ".") {
		mm, ok := v.(Msg)
		if !ok {
			return nil, false
		}
		if v, ok = mm[name]; !ok {
			return nil, false
		}
	}
	return v, true
}

// equalValues reports whether a and b are equal, numbers within tol, missing values
// (nil) equal to the zero value of the other side.
func equalValues(a, b any, tol float64) bool {
	if a == nil {
		a, b = b, a
	}
	switch x := a.(type) {
	case nil:
		return true
	case bool:
		return equalScalar(x, b)
	case string:
		return equalScalar(x, b)
	case float64:
		y, ok := b.(float64)
		return (ok || b == nil) && (x == y || math.Abs(x-y) <= tol)
	case Msg:
		y, ok := b.(Msg)
		return (ok || b == nil) && equalMsgs(x, y, tol)
	case []any:
		y, ok := b.([]any)
		return (ok || b == nil) && slices.EqualFunc(x, y, func(p, q any) bool { return equalValues(p, q, tol) })
	}
	return false
}

// equalScalar reports whether b is x, or nil and x the zero value.
func equalScalar[T comparable](x T, b any) bool {
	y, ok := b.(T)
	return y == x && (ok || b == nil)
}

// equalMsgs reports whether x and y have equal fields, a field missing on one side
// equal to the zero value of the other.
func equalMsgs(x, y Msg, tol float64) bool {
	for k, v := range x {
		if !equalValues(v, y[k], tol) {
			return false
		}
	}
	for k, v := range y {
		if _, in := x[k]; !in && !equalValues(nil, v, tol) {
			return false
		}
	}
	return true
}
