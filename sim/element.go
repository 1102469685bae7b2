package sim

import (
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"
)

// Element is one XML element of a world file, kept as a tree: the configuration of a
// system is its <plugin> element. Names keep their namespace prefix as written
// ("gz:system_priority"). The methods accept a nil *Element (no element).
type Element struct {
	// Name is the element name, with its prefix if any.
	Name string
	// Attrs are the attributes in document order, names with their prefix if any.
	Attrs []Attr
	// Text is the character data directly inside the element (not inside children),
	// concatenated, as written.
	Text string
	// Children are the child elements in document order.
	Children []*Element
	// Line is the line of the element's start tag (1-based).
	Line int
}

// Attr is an attribute of an Element.
type Attr struct {
	Name, Value string
}

// Attr returns the value of the attribute name and whether the element has it.
func (e *Element) Attr(name string) (string, bool) {
	if e == nil {
		return "", false
	}
	for _, a := range e.Attrs {
		if a.Name == name {
			return a.Value, true
		}
	}
	return "", false
}

// Child returns the first child named name, or nil.
func (e *Element) Child(name string) *Element {
	if e == nil {
		return nil
	}
	for _, c := range e.Children {
		if c.Name == name {
			return c
		}
	}
	return nil
}

// ChildrenNamed returns the children named name in document order.
func (e *Element) ChildrenNamed(name string) []*Element {
	if e == nil {
		return nil
	}
	var out []*Element
	for _, c := range e.Children {
		if c.Name == name {
			out = append(out, c)
		}
	}
	return out
}

// TrimmedText returns Text without leading and trailing white space.
func (e *Element) TrimmedText() string {
	if e == nil {
		return ""
	}
	return strings.TrimSpace(e.Text)
}

// LineError is an error in a world file or a system configuration, at a line.
type LineError struct {
	// File names the input, if known.
	File string
	// Line is the 1-based line of the problem; 0 if unknown.
	Line int
	// Msg describes the problem.
	Msg string
	// Err is the underlying error, if any.
	Err error
}

// Error returns "sim: file:line: msg".
func (e *LineError) Error() string {
	var b strings.Builder
	b.WriteString("sim: ")
	if e.File != "" {
		b.WriteString(e.File)
		b.WriteString(":")
	}
	if e.Line > 0 {
		fmt.Fprintf(&b, "%d:", e.Line)
	}
	if e.File != "" || e.Line > 0 {
		b.WriteString(" ")
	}
	b.WriteString(e.Msg)
	if e.Err != nil {
		b.WriteString(": ")
		b.WriteString(e.Err.Error())
	}
	return b.String()
}

// Unwrap returns the underlying error.
func (e *LineError) Unwrap() error { return e.Err }

// maxElementDepth bounds the nesting of elements ParseElement accepts.
const maxElementDepth = 256

// ParseElement reads one XML document and returns its root element. Syntax errors,
// mismatched tags, trailing content and nesting deeper than 256 elements are
// *LineError values with the line of the problem.
func ParseElement(r io.Reader) (*Element, error) {
	d := xml.NewDecoder(r)
	var (
		root  *Element
		stack []*Element
		texts [][]byte // character data of the elements on stack
	)
	for {
		line, _ := d.InputPos()
		tok, err := d.RawToken()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			var se *xml.SyntaxError
			if errors.As(err, &se) {
				return nil, &LineError{Line: se.Line, Msg: "malformed XML: " + se.Msg}
			}
			return nil, &LineError{Line: line, Msg: "reading XML", Err: err}
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if root != nil && len(stack) == 0 {
				return nil, &LineError{Line: line, Msg: "content after the root element"}
			}
			if len(stack) >= maxElementDepth {
				return nil, &LineError{Line: line, Msg: "elements nested too deeply"}
			}
			el := &Element{Name: qualified(t.Name), Line: line}
			for _, a := range t.Attr {
				el.Attrs = append(el.Attrs, Attr{Name: qualified(a.Name), Value: a.Value})
			}
			if len(stack) == 0 {
				root = el
			} else {
				p := stack[len(stack)-1]
				p.Children = append(p.Children, el)
			}
			stack = append(stack, el)
			texts = append(texts, nil)
		case xml.EndElement:
			name := qualified(t.Name)
			if len(stack) == 0 {
				return nil, &LineError{Line: line, Msg: "unexpected </" + name + ">"}
			}
			top := stack[len(stack)-1]
			if top.Name != name {
				return nil, &LineError{Line: line, Msg: fmt.Sprintf("</%s> closes <%s> of line %d", name, top.Name, top.Line)}
			}
			top.Text = string(texts[len(texts)-1])
			stack, texts = stack[:len(stack)-1], texts[:len(texts)-1]
		case xml.CharData:
			if len(stack) > 0 {
				texts[len(texts)-1] = append(texts[len(texts)-1], t...)
			} else if len(strings.TrimSpace(string(t))) > 0 {
				return nil, &LineError{Line: line, Msg: "text outside the root element"}
			}
		}
	}
	if len(stack) > 0 {
		top := stack[len(stack)-1]
		line, _ := d.InputPos()
		return nil, &LineError{Line: line, Msg: fmt.Sprintf("unexpected end of input: <%s> of line %d not closed", top.Name, top.Line)}
	}
	if root == nil {
		return nil, &LineError{Line: 1, Msg: "no root element"}
	}
	return root, nil
}

// qualified returns the name as written: prefix:local.
func qualified(n xml.Name) string {
	if n.Space == "" {
		return n.Local
	}
	return n.Space + ":" + n.Local
}
