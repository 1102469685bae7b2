package main

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// The preprocessor handles what IDL files commonly use: #include "file" and <file>
// (searched in the including file's directory, then in the -I directories), include
// guards (#ifndef/#ifdef/#else/#endif with #define and #undef), object-like macros
// (#define NAME tokens), #pragma once and #pragma keylist. #if and #elif with expressions,
// function-like macros and anything else are reported at their line and column.

// readFunc reads a file; os.ReadFile outside tests.
type readFunc func(name string) ([]byte, error)

// cond is one open conditional: whether its current branch is active, whether an earlier
// branch was, and whether #else was seen.
type cond struct {
	at      pos
	active  bool
	taken   bool
	sawElse bool
}

// frame is one file being read.
type frame struct {
	sc    *scanner
	conds []cond
	dir   string
}

// stream turns files into the preprocessed token stream the parser reads.
type stream struct {
	read     readFunc
	incDirs  []string
	stack    []*frame
	macros   map[string]string
	once     map[string]bool // files with #pragma once (or already read)
	pending  []token         // tokens of macro expansions, next first
	expanded int             // macro expansions so far, against runaway recursion
	files    []string        // every file read, in order
}

const maxExpansions = 10000

func newStream(read readFunc, incDirs []string) *stream {
	if read == nil {
		read = os.ReadFile
	}
	return &stream{read: read, incDirs: incDirs, macros: map[string]string{}, once: map[string]bool{}}
}

// push starts reading file name (as found), unless it was read already: IDL files are
// included once, which is what their include guards say anyway.
func (s *stream) push(name string, at *pos) error {
	key := filepath.Clean(name)
	if s.once[key] {
		return nil
	}
	src, err := s.read(name)
	if err != nil {
		if at != nil {
			return errAt(*at, "%v", err)
		}
		return err
	}
	s.once[key] = true
	s.files = append(s.files, name)
	if len(s.stack) > 64 {
		return errAt(*at, "includes nested too deeply")
	}
	s.stack = append(s.stack, &frame{sc: newScanner(name, src), dir: filepath.Dir(name)})
	return nil
}

func (f *frame) active() bool {
	return len(f.conds) == 0 || f.conds[len(f.conds)-1].active
}

// next returns the next token of the preprocessed input.
func (s *stream) next() (token, error) {
	for {
		if n := len(s.pending); n > 0 {
			t := s.pending[0]
			s.pending = s.pending[1:]
			return t, nil
		}
		if len(s.stack) == 0 {
			return token{kind: tEOF}, nil
		}
		f := s.stack[len(s.stack)-1]
		if err := f.sc.skipSpace(); err != nil {
			return token{}, err
		}
		if f.sc.atDirective() {
			t, ok, err := s.directive(f)
			if err != nil || ok {
				return t, err
			}
			continue
		}
		if !f.active() {
			if f.sc.off >= len(f.sc.src) {
				c := f.conds[len(f.conds)-1]
				return token{}, errAt(c.at, "#if without #endif")
			}
			f.sc.skipLine()
			continue
		}
		t, err := f.sc.next()
		if err != nil {
			return token{}, err
		}
		if t.kind == tEOF {
			if len(f.conds) > 0 {
				return token{}, errAt(f.conds[len(f.conds)-1].at, "#if without #endif")
			}
			s.stack = s.stack[:len(s.stack)-1]
			if len(s.stack) == 0 {
				return t, nil
			}
			continue
		}
		if t.kind == tIdent {
			if body, ok := s.macros[t.text]; ok {
				if err := s.expand(t, body); err != nil {
					return token{}, err
				}
				continue
			}
		}
		return t, nil
	}
}

// expand queues the tokens of a macro's body, at the place of its use.
func (s *stream) expand(use token, body string) error {
	s.expanded++
	if s.expanded > maxExpansions {
		return errAt(use.at, "macro %s: too many expansions (recursive macro?)", use.text)
	}
	sc := newScanner(use.at.file, []byte(body))
	sc.lineStart = false
	var toks []token
	for {
		if err := sc.skipSpace(); err != nil {
			return errAt(use.at, "macro %s: %v", use.text, err)
		}
		t, err := sc.next()
		if err != nil {
			return errAt(use.at, "macro %s: %v", use.text, err)
		}
		if t.kind == tEOF {
			break
		}
		t.at = use.at
		toks = append(toks, t)
	}
	// Re-scan: identifiers of the body that are macros expand in turn.
	var out []token
	for _, t := range toks {
		if b, ok := s.macros[t.text]; ok && t.kind == tIdent && t.text != use.text {
			s.expanded++
			if s.expanded > maxExpansions {
				return errAt(use.at, "macro %s: too many expansions (recursive macro?)", use.text)
			}
			save := s.pending
			s.pending = nil
			if err := s.expand(t, b); err != nil {
				return err
			}
			out = append(out, s.pending...)
			s.pending = save
			continue
		}
		out = append(out, t)
	}
	s.pending = append(out, s.pending...)
	return nil
}

// directive handles one preprocessor line. It returns a token for #pragma lines the
// parser sees (ok true).
func (s *stream) directive(f *frame) (token, bool, error) {
	d, err := f.sc.readDirective()
	if err != nil {
		return token{}, false, err
	}
	if ok, err := f.conditional(s, d); ok || err != nil {
		return token{}, false, err
	}
	if !f.active() {
		return token{}, false, nil // inactive text may hold anything
	}
	switch d.name {
	case "":
		if d.args == "" {
			return token{}, false, nil // the null directive
		}
		return token{}, false, errAt(d.at, "line markers are not supported")
	case "include":
		return token{}, false, s.include(f, d)
	case "define":
		return token{}, false, s.define(d)
	case "undef":
		name, err := macroName(d)
		if err != nil {
			return token{}, false, err
		}
		delete(s.macros, name)
		return token{}, false, nil
	case "pragma":
		if d.args == "once" {
			return token{}, false, nil // files are read once anyway
		}
		return token{kind: tPragma, at: d.at, text: d.args}, true, nil
	case "error":
		return token{}, false, errAt(d.at, "#error %s", d.args)
	case "warning", "line", "ident":
		return token{}, false, nil
	}
	return token{}, false, errAt(d.at, "unsupported preprocessor directive #%s", d.name)
}

// conditional handles the conditional directives; ok reports whether d was one.
func (f *frame) conditional(s *stream, d directive) (ok bool, err error) {
	switch d.name {
	case "ifdef", "ifndef":
		name, err := macroName(d)
		if err != nil {
			return true, err
		}
		_, def := s.macros[name]
		on := def == (d.name == "ifdef")
		outer := f.active()
		f.conds = append(f.conds, cond{at: d.at, active: outer && on, taken: !outer || on})
		return true, nil
	case "else":
		if len(f.conds) == 0 {
			return true, errAt(d.at, "#else without #if")
		}
		c := &f.conds[len(f.conds)-1]
		if c.sawElse {
			return true, errAt(d.at, "#else after #else")
		}
		c.sawElse = true
		c.active = !c.taken
		c.taken = true
		return true, nil
	case "endif":
		if len(f.conds) == 0 {
			return true, errAt(d.at, "#endif without #if")
		}
		f.conds = f.conds[:len(f.conds)-1]
		return true, nil
	case "if", "elif":
		return true, errAt(d.at, "#%s is not supported (only #ifdef, #ifndef, #else, #endif)", d.name)
	}
	return false, nil
}

func macroName(d directive) (string, error) {
	n := 0
	for n < len(d.args) && isIdentByte(d.args[n]) {
		n++
	}
	if n == 0 || !isIdentStart(d.args[0]) {
		return "", errAt(d.argAt, "#%s needs a macro name", d.name)
	}
	return d.args[:n], nil
}

func (s *stream) define(d directive) error {
	name, err := macroName(d)
	if err != nil {
		return err
	}
	rest := d.args[len(name):]
	if strings.HasPrefix(rest, "(") {
		return errAt(d.argAt, "function-like macro %s is not supported", name)
	}
	s.macros[name] = strings.TrimSpace(rest)
	return nil
}

func (s *stream) include(f *frame, d directive) error {
	a := d.args
	var name string
	var local bool
	switch {
	case len(a) >= 2 && a[0] == '"':
		end := strings.IndexByte(a[1:], '"')
		if end < 0 {
			return errAt(d.argAt, "malformed #include")
		}
		name, local = a[1:1+end], true
	case len(a) >= 2 && a[0] == '<':
		end := strings.IndexByte(a, '>')
		if end < 0 {
			return errAt(d.argAt, "malformed #include")
		}
		name = a[1:end]
	default:
		return errAt(d.argAt, "malformed #include: want \"file\" or <file>")
	}
	if name == "" {
		return errAt(d.argAt, "#include of an empty name")
	}
	var dirs []string
	if local {
		dirs = append(dirs, f.dir)
	}
	dirs = append(dirs, s.incDirs...)
	if filepath.IsAbs(name) {
		dirs = []string{""}
	}
	for _, dir := range dirs {
		p := filepath.Join(dir, name)
		if dir == "" {
			p = name
		}
		if s.once[filepath.Clean(p)] {
			return nil
		}
		if _, err := s.read(p); err == nil {
			return s.push(p, &d.at)
		} else if !errors.Is(err, fs.ErrNotExist) {
			return errAt(d.argAt, "#include %q: %v", name, err)
		}
	}
	return errAt(d.argAt, "#include %q: not found (add its directory with -I)", name)
}
