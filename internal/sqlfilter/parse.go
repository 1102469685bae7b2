package sqlfilter

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/ddsgo/ddsgo/internal/errs"
)

// MaxParams is one more than the highest parameter number, %99 (DDS 1.4 Annex B).
const MaxParams = 100

// maxDepth bounds the nesting of conditions, so that no input exhausts the stack.
const maxDepth = 64

// maxLen bounds the length of an expression.
const maxLen = 64 << 10

// errAt is a syntax error at byte offset pos of the expression.
func errAt(pos int, format string, args ...any) error {
	return &posError{pos: pos, msg: fmt.Sprintf(format, args...)}
}

type posError struct {
	pos int
	msg string
}

func (e *posError) Error() string { return "at " + strconv.Itoa(e.pos) + ": " + e.msg }

// nodeKind is the kind of a node of a condition.
type nodeKind uint8

const (
	nAnd nodeKind = iota + 1
	nOr
	nNot
	nCompare // l op r
	nBetween // l BETWEEN r AND r2
	nLike    // l LIKE r
)

// node is a condition: a logical operator over l (and r), or a predicate over the
// operands a, b (and c).
type node struct {
	kind    nodeKind
	l, r    *node
	op      string // of nCompare: = <> != < <= > >=
	a, b, c operand
}

// operandKind is what an operand is.
type operandKind uint8

const (
	oName   operandKind = iota + 1 // a member path or an enumerator
	oInt                           // integer literal
	oFloat                         // float literal
	oString                        // 'string' literal (also a character)
	oBool                          // TRUE or FALSE
	oParam                         // %n
)

// operand is a side of a predicate.
type operand struct {
	kind  operandKind
	text  string // name, literal text or string value
	param int
	pos   int
}

// parser is a recursive-descent parser of the DDS 1.4 Annex B filter grammar:
//
//	Condition := Term { OR Term }
//	Term      := Factor { AND Factor }
//	Factor    := NOT Factor | '(' Condition ')' | Predicate
//	Predicate := Operand RelOp Operand | Operand [NOT] BETWEEN Operand AND Operand
//	           | Operand [NOT] LIKE Operand
type parser struct {
	lx     lexer
	tok    token
	depth  int
	params int // one more than the highest parameter used
}

// parse parses expr into a condition.
func parse(expr string) (*node, int, error) {
	if len(expr) > maxLen {
		return nil, 0, errs.New(errs.ErrBadParameter, "filter expression of %d bytes, more than %d", len(expr), maxLen)
	}
	p := &parser{lx: lexer{src: expr}}
	n, err := p.run()
	if err != nil {
		return nil, 0, errs.Wrap(errs.ErrBadParameter, err, fmt.Sprintf("filter %q", expr))
	}
	return n, p.params, nil
}

func (p *parser) run() (*node, error) {
	if err := p.advance(); err != nil {
		return nil, err
	}
	n, err := p.condition()
	if err != nil {
		return nil, err
	}
	if p.tok.kind != tEOF {
		return nil, errAt(p.tok.pos, "unexpected %s", p.describe())
	}
	return n, nil
}

func (p *parser) advance() error {
	t, err := p.lx.next()
	p.tok = t
	return err
}

func (p *parser) describe() string {
	if p.tok.kind == tEOF {
		return "end of expression"
	}
	return strconv.Quote(p.lx.src[p.tok.pos:p.lx.i])
}

func (p *parser) condition() (*node, error) {
	p.depth++
	defer func() { p.depth-- }()
	if p.depth > maxDepth {
		return nil, errAt(p.tok.pos, "conditions nested more than %d deep", maxDepth)
	}
	l, err := p.term()
	for err == nil && p.tok.kind == tOr {
		var r *node
		if err = p.advance(); err == nil {
			if r, err = p.term(); err == nil {
				l = &node{kind: nOr, l: l, r: r}
			}
		}
	}
	return l, err
}

func (p *parser) term() (*node, error) {
	l, err := p.factor()
	for err == nil && p.tok.kind == tAnd {
		var r *node
		if err = p.advance(); err == nil {
			if r, err = p.factor(); err == nil {
				l = &node{kind: nAnd, l: l, r: r}
			}
		}
	}
	return l, err
}

func (p *parser) factor() (*node, error) {
	switch p.tok.kind {
	case tNot:
		p.depth++
		defer func() { p.depth-- }()
		if p.depth > maxDepth {
			return nil, errAt(p.tok.pos, "conditions nested more than %d deep", maxDepth)
		}
		if err := p.advance(); err != nil {
			return nil, err
		}
		l, err := p.factor()
		if err != nil {
			return nil, err
		}
		return &node{kind: nNot, l: l}, nil
	case tLParen:
		if err := p.advance(); err != nil {
			return nil, err
		}
		n, err := p.condition()
		if err != nil {
			return nil, err
		}
		if p.tok.kind != tRParen {
			return nil, errAt(p.tok.pos, "expected ')', found %s", p.describe())
		}
		return n, p.advance()
	default:
		return p.predicate()
	}
}

func (p *parser) predicate() (*node, error) {
	a, err := p.operand()
	if err != nil {
		return nil, err
	}
	neg := false
	if p.tok.kind == tNot {
		neg = true
		if err := p.advance(); err != nil {
			return nil, err
		}
		if p.tok.kind != tBetween && p.tok.kind != tLike {
			return nil, errAt(p.tok.pos, "expected BETWEEN or LIKE after NOT, found %s", p.describe())
		}
	}
	var n *node
	switch p.tok.kind {
	case tOp:
		op := p.tok.text
		if err := p.advance(); err != nil {
			return nil, err
		}
		b, err := p.operand()
		if err != nil {
			return nil, err
		}
		n = &node{kind: nCompare, op: op, a: a, b: b}
	case tLike:
		if err := p.advance(); err != nil {
			return nil, err
		}
		b, err := p.operand()
		if err != nil {
			return nil, err
		}
		n = &node{kind: nLike, a: a, b: b}
	case tBetween:
		if n, err = p.between(a); err != nil {
			return nil, err
		}
	default:
		return nil, errAt(p.tok.pos, "expected a comparison, BETWEEN or LIKE, found %s", p.describe())
	}
	if neg {
		n = &node{kind: nNot, l: n}
	}
	return n, nil
}

func (p *parser) between(a operand) (*node, error) {
	if err := p.advance(); err != nil {
		return nil, err
	}
	lo, err := p.operand()
	if err != nil {
		return nil, err
	}
	if p.tok.kind != tAnd {
		return nil, errAt(p.tok.pos, "expected AND in BETWEEN, found %s", p.describe())
	}
	if err := p.advance(); err != nil {
		return nil, err
	}
	hi, err := p.operand()
	if err != nil {
		return nil, err
	}
	return &node{kind: nBetween, a: a, b: lo, c: hi}, nil
}

func (p *parser) operand() (operand, error) {
	t := p.tok
	o, ok := literal(t)
	switch {
	case ok:
	case t.kind == tParam:
		o.kind = oParam
		o.param, _ = strconv.Atoi(t.text)
		p.params = max(p.params, o.param+1)
	default:
		return o, errAt(t.pos, "expected a member name, a literal or a parameter, found %s", p.describe())
	}
	return o, p.advance()
}

// literal returns the operand of a name or literal token; ok is false for any other.
func literal(t token) (o operand, ok bool) {
	o = operand{text: t.text, pos: t.pos}
	switch t.kind {
	case tIdent:
		o.kind = oName
	case tInt:
		o.kind = oInt
	case tFloat:
		o.kind = oFloat
	case tString:
		o.kind = oString
	case tTrue, tFalse:
		o.kind, o.text = oBool, strings.ToUpper(t.text)
	default:
		return o, false
	}
	return o, true
}

// Check reports whether expr is a well-formed filter expression (a syntax check; the
// member names and types are checked by Compile) and how many parameters it needs
// (one more than the highest %n).
func Check(expr string) (params int, err error) {
	_, n, err := parse(expr)
	return n, err
}
