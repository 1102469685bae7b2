package main

import (
	"fmt"
	"math/big"
	"strconv"
	"strings"
)

// pos is a place in an IDL file; lines and columns count from 1, columns in bytes.
type pos struct {
	file      string
	line, col int
}

func (p pos) String() string { return fmt.Sprintf("%s:%d:%d", p.file, p.line, p.col) }

// posError is an error at a place in an IDL file: "file:line:col: message".
type posError struct {
	at  pos
	msg string
}

func (e *posError) Error() string { return e.at.String() + ": " + e.msg }

func errAt(at pos, format string, v ...any) error {
	return &posError{at: at, msg: fmt.Sprintf(format, v...)}
}

type tokKind uint8

const (
	tEOF tokKind = iota
	tIdent
	tInt
	tFloat
	tChar
	tString
	tPunct  // operators and separators; text holds it
	tPragma // a #pragma line; text holds what follows "pragma"
)

func (k tokKind) String() string {
	switch k {
	case tEOF:
		return "end of file"
	case tIdent:
		return "identifier"
	case tInt:
		return "integer literal"
	case tFloat:
		return "floating-point literal"
	case tChar:
		return "character literal"
	case tString:
		return "string literal"
	case tPragma:
		return "#pragma"
	default:
		return "punctuation"
	}
}

// token is one lexical token. For literals, the value is decoded: ival (integer and
// character literals), fval (floating point), sval (string literals, identifiers with a
// leading underscore removed).
type token struct {
	kind tokKind
	at   pos
	text string
	ival *big.Int
	fval float64
	sval string
}

func (t token) describe() string {
	switch t.kind {
	case tEOF:
		return "end of file"
	case tIdent, tPunct:
		return strconv.Quote(t.text)
	default:
		return t.kind.String() + " " + t.text
	}
}

// scanner splits one IDL source into tokens. Preprocessor lines (a '#' first on a line)
// come out as a single directive through nextLine; the stream handles them.
type scanner struct {
	src       []byte
	file      string
	off       int
	line, col int
	lineStart bool // only blanks since the last newline
}

func newScanner(file string, src []byte) *scanner {
	return &scanner{src: src, file: file, line: 1, col: 1, lineStart: true}
}

func (s *scanner) pos() pos { return pos{s.file, s.line, s.col} }

func (s *scanner) peekByte(i int) byte {
	if s.off+i < len(s.src) {
		return s.src[s.off+i]
	}
	return 0
}

func (s *scanner) advance() byte {
	c := s.src[s.off]
	s.off++
	if c == '\n' {
		s.line++
		s.col = 1
		s.lineStart = true
	} else {
		s.col++
	}
	return c
}

// skipSpace skips blanks and comments. It reports an unterminated block comment.
func (s *scanner) skipSpace() error {
	for s.off < len(s.src) {
		c := s.src[s.off]
		switch {
		case c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v':
			s.advance()
		case c == '\\' && s.peekByte(1) == '\n':
			s.advance()
			s.advance()
		case c == '/' && s.peekByte(1) == '/':
			for s.off < len(s.src) && s.src[s.off] != '\n' {
				s.advance()
			}
		case c == '/' && s.peekByte(1) == '*':
			at := s.pos()
			s.advance()
			s.advance()
			for {
				if s.off >= len(s.src) {
					return errAt(at, "unterminated comment")
				}
				if s.src[s.off] == '*' && s.peekByte(1) == '/' {
					s.advance()
					s.advance()
					break
				}
				s.advance()
			}
		default:
			return nil
		}
	}
	return nil
}

// directive is a preprocessor line: its name and the rest of the line, comments removed.
type directive struct {
	at    pos
	name  string
	args  string
	argAt pos
}

// atDirective reports whether the next character is a '#' first on its line.
func (s *scanner) atDirective() bool {
	return s.off < len(s.src) && s.src[s.off] == '#' && s.lineStart
}

// readDirective reads a preprocessor line starting at '#', joining continued lines.
func (s *scanner) readDirective() (directive, error) {
	d := directive{at: s.pos()}
	s.advance() // '#'
	for s.off < len(s.src) && (s.src[s.off] == ' ' || s.src[s.off] == '\t') {
		s.advance()
	}
	start := s.off
	for s.off < len(s.src) && isIdentByte(s.src[s.off]) {
		s.advance()
	}
	d.name = string(s.src[start:s.off])
	for s.off < len(s.src) && (s.src[s.off] == ' ' || s.src[s.off] == '\t') {
		s.advance()
	}
	d.argAt = s.pos()
	var b strings.Builder
	for s.off < len(s.src) && s.src[s.off] != '\n' {
		c := s.src[s.off]
		switch {
		case c == '\\' && s.peekByte(1) == '\n':
			s.advance()
			s.advance()
			b.WriteByte(' ')
		case c == '\\' && s.peekByte(1) == '\r' && s.peekByte(2) == '\n':
			s.advance()
			s.advance()
			s.advance()
			b.WriteByte(' ')
		case c == '/' && (s.peekByte(1) == '/' || s.peekByte(1) == '*'):
			if err := s.skipComment(); err != nil {
				return d, err
			}
			b.WriteByte(' ')
		default:
			b.WriteByte(s.advance())
		}
	}
	d.args = strings.TrimSpace(b.String())
	return d, nil
}

// skipComment skips one comment in a directive line (a // comment to the end of line).
func (s *scanner) skipComment() error {
	if s.peekByte(1) == '/' {
		for s.off < len(s.src) && s.src[s.off] != '\n' {
			s.advance()
		}
		return nil
	}
	at := s.pos()
	s.advance()
	s.advance()
	for s.off < len(s.src) {
		if s.src[s.off] == '*' && s.peekByte(1) == '/' {
			s.advance()
			s.advance()
			return nil
		}
		s.advance()
	}
	return errAt(at, "unterminated comment")
}

// skipLine skips to the end of the line (inactive conditional text).
func (s *scanner) skipLine() {
	for s.off < len(s.src) && s.src[s.off] != '\n' {
		s.advance()
	}
}

func isIdentStart(c byte) bool {
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
}

func isIdentByte(c byte) bool { return isIdentStart(c) || (c >= '0' && c <= '9') }

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// puncts are the operators and separators, longest first.
var puncts = []string{"::", "<<", ">>", "{", "}", "(", ")", "[", "]", "<", ">", ";", ",", ":", "=", "+", "-", "*", "/", "%", "|", "^", "&", "~", "@"}

// next returns the next token after blanks and comments. The caller checks atDirective
// first.
func (s *scanner) next() (token, error) {
	if err := s.skipSpace(); err != nil {
		return token{}, err
	}
	at := s.pos()
	if s.off >= len(s.src) {
		return token{kind: tEOF, at: at}, nil
	}
	if s.atDirective() {
		return token{kind: tPunct, at: at, text: "#"}, nil
	}
	s.lineStart = false
	c := s.src[s.off]
	switch {
	case isIdentStart(c):
		return s.ident(at)
	case isDigit(c) || (c == '.' && isDigit(s.peekByte(1))):
		return s.number(at)
	case c == '\'':
		return s.charLit(at)
	case c == '"':
		return s.stringLit(at)
	}
	for _, p := range puncts {
		if strings.HasPrefix(string(s.src[s.off:min(len(s.src), s.off+len(p))]), p) {
			for range len(p) {
				s.advance()
			}
			return token{kind: tPunct, at: at, text: p}, nil
		}
	}
	if c < 0x20 || c >= 0x7f {
		return token{}, errAt(at, "unexpected byte 0x%02x", c)
	}
	return token{}, errAt(at, "unexpected character %q", c)
}

func (s *scanner) ident(at pos) (token, error) {
	start := s.off
	for s.off < len(s.src) && isIdentByte(s.src[s.off]) {
		s.advance()
	}
	text := string(s.src[start:s.off])
	if (text == "L" || text == "u8") && s.off < len(s.src) && (s.src[s.off] == '\'' || s.src[s.off] == '"') {
		return token{}, errAt(at, "wide and prefixed literals are not supported")
	}
	return token{kind: tIdent, at: at, text: text, sval: strings.TrimPrefix(text, "_")}, nil
}

func (s *scanner) number(at pos) (token, error) {
	start := s.off
	for s.off < len(s.src) && (isIdentByte(s.src[s.off]) || s.src[s.off] == '.' ||
		((s.src[s.off] == '+' || s.src[s.off] == '-') && (s.src[s.off-1] == 'e' || s.src[s.off-1] == 'E') && !isHexPrefix(s.src[start:s.off]))) {
		s.advance()
	}
	text := string(s.src[start:s.off])
	lower := strings.ToLower(text)
	if strings.HasSuffix(lower, "d") && !isHexPrefix([]byte(lower)) {
		return token{}, errAt(at, "fixed-point literal %s: fixed is not supported", text)
	}
	if !isHexPrefix([]byte(lower)) && strings.ContainsAny(lower, ".e") {
		f, err := strconv.ParseFloat(text, 64)
		if err != nil {
			return token{}, errAt(at, "malformed floating-point literal %s", text)
		}
		return token{kind: tFloat, at: at, text: text, fval: f}, nil
	}
	v := new(big.Int)
	var ok bool
	switch {
	case isHexPrefix([]byte(lower)):
		_, ok = v.SetString(lower[2:], 16)
	case len(lower) > 1 && lower[0] == '0':
		_, ok = v.SetString(lower[1:], 8)
	default:
		_, ok = v.SetString(lower, 10)
	}
	if !ok || strings.ContainsAny(lower[min(2, len(lower)):], "_") {
		return token{}, errAt(at, "malformed integer literal %s", text)
	}
	return token{kind: tInt, at: at, text: text, ival: v}, nil
}

func isHexPrefix(b []byte) bool {
	return len(b) >= 2 && b[0] == '0' && (b[1] == 'x' || b[1] == 'X')
}

var simpleEscapes = map[byte]byte{
	'n': '\n', 't': '\t', 'v': '\v', 'b': '\b', 'r': '\r', 'f': '\f', 'a': '\a',
	'\\': '\\', '?': '?', '\'': '\'', '"': '"',
}

// escape decodes one escape sequence after a backslash.
func (s *scanner) escape(at pos) (byte, error) {
	if s.off >= len(s.src) {
		return 0, errAt(at, "unterminated literal")
	}
	c := s.advance()
	if e, ok := simpleEscapes[c]; ok {
		return e, nil
	}
	switch c {
	case 'x':
		v, n := 0, 0
		for n < 2 && s.off < len(s.src) && strings.IndexByte("0123456789abcdefABCDEF", s.src[s.off]) >= 0 {
			d, _ := strconv.ParseUint(string(s.advance()), 16, 8)
			v = v*16 + int(d)
			n++
		}
		if n == 0 {
			return 0, errAt(at, "malformed \\x escape")
		}
		return byte(v), nil
	case '0', '1', '2', '3', '4', '5', '6', '7':
		v := int(c - '0')
		for n := 1; n < 3 && s.off < len(s.src) && s.src[s.off] >= '0' && s.src[s.off] <= '7'; n++ {
			v = v*8 + int(s.advance()-'0')
		}
		if v > 0xff {
			return 0, errAt(at, "octal escape out of range")
		}
		return byte(v), nil
	case 'u':
		return 0, errAt(at, "\\u escapes (wide characters) are not supported")
	}
	return 0, errAt(at, "unknown escape \\%c", c)
}

func (s *scanner) charLit(at pos) (token, error) {
	start := s.off
	s.advance()
	if s.off >= len(s.src) || s.src[s.off] == '\n' || s.src[s.off] == '\'' {
		return token{}, errAt(at, "malformed character literal")
	}
	c := s.advance()
	if c == '\\' {
		var err error
		if c, err = s.escape(at); err != nil {
			return token{}, err
		}
	}
	if s.off >= len(s.src) || s.src[s.off] != '\'' {
		return token{}, errAt(at, "malformed character literal")
	}
	s.advance()
	return token{kind: tChar, at: at, text: string(s.src[start:s.off]), ival: big.NewInt(int64(c))}, nil
}

func (s *scanner) stringLit(at pos) (token, error) {
	start := s.off
	s.advance()
	var b strings.Builder
	for {
		if s.off >= len(s.src) || s.src[s.off] == '\n' {
			return token{}, errAt(at, "unterminated string literal")
		}
		c := s.advance()
		if c == '"' {
			break
		}
		if c == '\\' {
			var err error
			if c, err = s.escape(at); err != nil {
				return token{}, err
			}
			if c == 0 {
				return token{}, errAt(at, "NUL in a string literal")
			}
		}
		b.WriteByte(c)
	}
	return token{kind: tString, at: at, text: string(s.src[start:s.off]), sval: b.String()}, nil
}
