package sqlfilter

import (
	"strings"
	"unicode/utf8"
)

// tokKind is the kind of a token of the filter grammar.
type tokKind uint8

const (
	tEOF tokKind = iota
	tIdent
	tInt
	tFloat
	tString
	tParam
	tOp // = <> != < <= > >=
	tLParen
	tRParen
	tAnd
	tOr
	tNot
	tBetween
	tLike
	tTrue
	tFalse
)

// token is one token: its kind, its text (a string literal without its quotes) and
// where it starts in the expression.
type token struct {
	kind tokKind
	text string
	pos  int
}

var keywords = map[string]tokKind{
	"AND": tAnd, "OR": tOr, "NOT": tNot, "BETWEEN": tBetween, "LIKE": tLike,
	"TRUE": tTrue, "FALSE": tFalse,
}

// lexer splits an expression into tokens.
type lexer struct {
	src string
	i   int
}

func isLetter(c byte) bool { return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isDigit(c byte) bool  { return c >= '0' && c <= '9' }

// next returns the next token, or an error for a character the grammar does not know
// or an unterminated string.
func (l *lexer) next() (token, error) {
	for l.i < len(l.src) && strings.IndexByte(" \t\r\n", l.src[l.i]) >= 0 {
		l.i++
	}
	start := l.i
	if l.i >= len(l.src) {
		return token{kind: tEOF, pos: start}, nil
	}
	c := l.src[l.i]
	switch {
	case isLetter(c):
		return l.ident(start), nil
	case isDigit(c) || (c == '-' || c == '+' || c == '.') && l.i+1 < len(l.src) && (isDigit(l.src[l.i+1]) || l.src[l.i+1] == '.'):
		return l.number(start)
	case c == '\'' || c == '`':
		return l.str(start)
	case c == '%':
		return l.param(start)
	default:
		return l.punct(start)
	}
}

// param reads %n.
func (l *lexer) param(start int) (token, error) {
	l.i++
	for l.i < len(l.src) && isDigit(l.src[l.i]) {
		l.i++
	}
	if l.i-start < 2 || l.i-start > 3 {
		return token{}, errAt(start, "a parameter is %%0 to %%99")
	}
	return token{kind: tParam, text: l.src[start+1 : l.i], pos: start}, nil
}

// punct reads a parenthesis or an operator.
func (l *lexer) punct(start int) (token, error) {
	switch c := l.src[l.i]; c {
	case '(':
		l.i++
		return token{kind: tLParen, pos: start}, nil
	case ')':
		l.i++
		return token{kind: tRParen, pos: start}, nil
	case '=':
		l.i++
		return token{kind: tOp, text: "=", pos: start}, nil
	case '<', '>', '!':
		l.i++
		if l.i < len(l.src) && (l.src[l.i] == '=' || c == '<' && l.src[l.i] == '>') {
			l.i++
		}
		op := l.src[start:l.i]
		if op == "!" {
			return token{}, errAt(start, "unexpected '!'")
		}
		return token{kind: tOp, text: op, pos: start}, nil
	}
	r, _ := utf8.DecodeRuneInString(l.src[l.i:])
	return token{}, errAt(start, "unexpected %q", r)
}

// ident reads a name, a keyword or a dotted member path with optional indexes
// (a.b[2].c), which the parser splits.
func (l *lexer) ident(start int) token {
	for l.i < len(l.src) {
		c := l.src[l.i]
		switch {
		case isLetter(c) || isDigit(c) || c == '.':
			l.i++
		case c == '[':
			j := l.i + 1
			for j < len(l.src) && isDigit(l.src[j]) {
				j++
			}
			if j == l.i+1 || j >= len(l.src) || l.src[j] != ']' {
				return token{kind: tIdent, text: l.src[start:l.i], pos: start}
			}
			l.i = j + 1
		default:
			return l.word(start)
		}
	}
	return l.word(start)
}

func (l *lexer) word(start int) token {
	text := l.src[start:l.i]
	if len(text) <= 7 {
		if k, ok := keywords[strings.ToUpper(text)]; ok {
			return token{kind: k, text: text, pos: start}
		}
	}
	return token{kind: tIdent, text: text, pos: start}
}

// number reads an integer (decimal or 0x hexadecimal) or a float, with a sign.
func (l *lexer) number(start int) (token, error) {
	if c := l.src[l.i]; c == '-' || c == '+' {
		l.i++
	}
	if l.i+1 < len(l.src) && l.src[l.i] == '0' && (l.src[l.i+1] == 'x' || l.src[l.i+1] == 'X') {
		l.i += 2
		d := l.i
		for l.i < len(l.src) && strings.IndexByte("0123456789abcdefABCDEF", l.src[l.i]) >= 0 {
			l.i++
		}
		if l.i == d {
			return token{}, errAt(start, "a hexadecimal number needs digits")
		}
		return token{kind: tInt, text: l.src[start:l.i], pos: start}, nil
	}
	kind := tInt
	for l.i < len(l.src) {
		c := l.src[l.i]
		switch {
		case isDigit(c):
		case c == '.':
			kind = tFloat
		case c == 'e' || c == 'E':
			kind = tFloat
			if l.i+1 < len(l.src) && (l.src[l.i+1] == '-' || l.src[l.i+1] == '+') {
				l.i++
			}
		default:
			return token{kind: kind, text: l.src[start:l.i], pos: start}, nil
		}
		l.i++
	}
	return token{kind: kind, text: l.src[start:l.i], pos: start}, nil
}

// str reads a string literal: 'text' (DDS 1.4 Annex B), or `text' as the spec's
// typography also allows. A quote is doubled to stand for itself.
func (l *lexer) str(start int) (token, error) {
	l.i++
	var b strings.Builder
	from := l.i
	for l.i < len(l.src) {
		if l.src[l.i] != '\'' {
			l.i++
			continue
		}
		if l.i+1 < len(l.src) && l.src[l.i+1] == '\'' {
			b.WriteString(l.src[from : l.i+1])
			l.i += 2
			from = l.i
			continue
		}
		text := l.src[from:l.i]
		if b.Len() > 0 {
			b.WriteString(text)
			text = b.String()
		}
		l.i++
		return token{kind: tString, text: text, pos: start}, nil
	}
	return token{}, errAt(start, "unterminated string")
}
