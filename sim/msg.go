package sim

import (
	"errors"
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

// ParseMsg parses a message in the protobuf text format, as Gazebo's plugin
// configurations use it (protobuf's TextFormat::ParseFromString): "name: value" and
// "name { ... }" or "name < ... >" fields (the colon before a message is optional),
// separated by white space, "," or ";"; values are numbers (decimal, 0x hexadecimal and
// 0 octal integers, floats with an optional f suffix, inf and nan, a "-" before any),
// true/True/false/False, quoted strings (C escapes: \n, \t, \x41, \101, \u00e9, ...;
// adjacent strings are one), identifiers (enum values, kept as strings) and [lists]; a
// repeated name makes a repeated field; "#" starts a comment. Extensions ([ext.name])
// are not read; which values fit a field (a number for a bool, 1 or 0 in protobuf) is
// for the bus that knows the types.
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
	case strings.IndexByte(":{}<>[],;", c) >= 0:
	case c == '"' || c == '\'':
		for j < len(p.s) && p.s[j] != c {
			if p.s[j] == '\\' {
				j++
			}
			j++
		}
		j = min(j+1, len(p.s)) // past the closing quote, if any
	default:
		for j < len(p.s) && strings.IndexByte(" \t\r\n:{}<>[],;#\"'", p.s[j]) < 0 {
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

// fields parses fields up to "}", ">" or the end.
func (p *msgParser) fields(depth int) (Msg, error) {
	m := Msg{}
	for {
		t := p.peek()
		if t == "" || t == "}" || t == ">" {
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
		if t := p.peek(); t == "{" || t == "<" || colon {
			var err error
			if v, err = p.value(depth); err != nil {
				return nil, err
			}
		} else {
			return nil, p.errorf("expected ':', '{' or '<' after %q", name)
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
	case t == "{" || t == "<":
		return p.message(depth, map[string]string{"{": "}", "<": ">"}[t])
	case t == "[":
		return p.list(depth)
	case t[0] == '"' || t[0] == '\'':
		return p.str(t)
	case t == "true" || t == "True":
		return true, nil
	case t == "false" || t == "False":
		return false, nil
	case t == "-": // "- 1" is -1
		if n, ok := parseNumber(p.peek()); ok && p.peek()[0] != '-' {
			p.next()
			return -n, nil
		}
		return nil, p.errorf("expected a number after '-'")
	}
	if f, ok := parseNumber(t); ok {
		return f, nil
	}
	if isIdent(t) {
		return t, nil
	}
	return nil, p.errorf("bad value %q", t)
}

// message parses the fields of a message value up to end, its closing token.
func (p *msgParser) message(depth int, end string) (Msg, error) {
	m, err := p.fields(depth + 1)
	if err != nil {
		return nil, err
	}
	if p.next() != end {
		return nil, p.errorf("missing '%s'", end)
	}
	return m, nil
}

// list parses the values of a list after its "[".
func (p *msgParser) list(depth int) ([]any, error) {
	l := []any{}
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
	return l, nil
}

// str parses a string value, the quoted token t and the ones right after it: "a" "b"
// is "ab".
func (p *msgParser) str(t string) (string, error) {
	s, err := unquote(t, p)
	for err == nil && p.peek() != "" && (p.peek()[0] == '"' || p.peek()[0] == '\'') {
		var more string
		more, err = unquote(p.next(), p)
		s += more
	}
	return s, err
}

// parseNumber parses a number of the text format: a decimal, hexadecimal (0x1F) or
// octal (017) integer, or a float ("1.5", "1e3", "1.5f", "1f", "inf", "nan"), each
// signed or not.
func parseNumber(t string) (float64, bool) {
	body, neg := strings.CutPrefix(t, "-")
	sign := 1.0
	if neg {
		sign = -1
	}
	if n, isInt, ok := parseInteger(body); isInt {
		return sign * n, ok
	}
	if body == "" || strings.Contains(body, "_") || body[0] == '-' || body[0] == '+' {
		return 0, false
	}
	if f, err := strconv.ParseFloat(body, 64); err == nil {
		return sign * f, true
	}
	if last := body[len(body)-1]; last == 'f' || last == 'F' { // 1.5f, 1f
		num := body[:len(body)-1]
		if num != "" && (num[0] == '.' || num[0] >= '0' && num[0] <= '9') && !strings.ContainsAny(num, "xXpP") {
			f, err := strconv.ParseFloat(num, 64)
			return sign * f, err == nil
		}
	}
	return 0, false
}

// parseInteger parses a hexadecimal (0x1F) or octal (017) integer: isInt if body is
// written as one, ok if it is one (08 is no number, as in protobuf).
func parseInteger(body string) (n float64, isInt, ok bool) {
	var u uint64
	var err error
	switch {
	case len(body) > 2 && body[0] == '0' && (body[1] == 'x' || body[1] == 'X'):
		u, err = strconv.ParseUint(body[2:], 16, 64)
	case len(body) > 1 && body[0] == '0' && strings.Trim(body, "0123456789") == "":
		u, err = strconv.ParseUint(body, 8, 64)
	default:
		return 0, false, false
	}
	return float64(u), true, err == nil
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
		if body[i] != '\\' {
			b.WriteByte(body[i])
			continue
		}
		n, err := unescape(&b, body[i+1:])
		if err != nil {
			return "", p.errorf("%v", err)
		}
		i += n
	}
	return b.String(), nil
}

// unescape writes to b the character of the escape sequence at the start of s (after
// its backslash), C's and protobuf's: \n \t \r \a \b \f \v \\ \' \" \?, up to 3 octal
// digits (\101), \x and up to 2 hexadecimal digits (bytes, as protobuf's strings are),
// \u and 4, \U and 8 (Unicode code points). It returns the length of the sequence.
func unescape(b *strings.Builder, s string) (int, error) {
	if s == "" {
		return 0, errors.New("bad escape")
	}
	const hex = "0123456789abcdefABCDEF"
	if r, ok := map[byte]byte{'n': '\n', 't': '\t', 'r': '\r', 'a': '\a', 'b': '\b', 'f': '\f', 'v': '\v', '\\': '\\', '\'': '\'', '"': '"', '?': '?'}[s[0]]; ok {
		b.WriteByte(r)
		return 1, nil
	}
	set, digits, from, exact := "01234567", 3, 0, false
	switch s[0] {
	case '0', '1', '2', '3', '4', '5', '6', '7':
	case 'x', 'X':
		set, digits, from = hex, 2, 1
	case 'u':
		set, digits, from, exact = hex, 4, 1, true
	case 'U':
		set, digits, from, exact = hex, 8, 1, true
	default:
		return 0, fmt.Errorf("bad escape \\%c", s[0])
	}
	end := from
	for end < len(s) && end-from < digits && strings.IndexByte(set, s[end]) >= 0 {
		end++
	}
	base := map[bool]int{true: 16, false: 8}[set == hex]
	n, err := strconv.ParseUint(s[from:end], base, 32)
	if err != nil || exact && end-from < digits || n > 0x10ffff || !exact && n > 0xff {
		return 0, fmt.Errorf("bad escape \\%s", s[:end])
	}
	if exact {
		b.WriteRune(rune(n))
	} else {
		b.WriteByte(byte(n))
	}
	return end, nil
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
