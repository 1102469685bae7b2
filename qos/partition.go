package qos

// Partition matching, DDS 1.4 §2.2.3.13: a writer and a reader communicate when their
// publisher and subscriber share at least one partition. Names may be patterns with the
// wildcards of POSIX fnmatch with FNM_NOESCAPE (a backslash is an ordinary byte), byte by
// byte as the peers' C libraries do in the C locale:
//
//	*       any sequence of bytes, also none
//	?       any one byte
//	[...]   one byte of the set: a list of bytes, ranges a-z and classes [:alpha:];
//	        [!...] or [^...] negates; a ']' first in the set is a member; an unknown
//	        class spoils the set as in glibc (a class as the end of a range, which
//	        glibc treats in its own ways, is not supported)
//
// A '[' that does not open a complete set is an ordinary byte. Either side may use
// patterns, but two names that both contain wildcards never match, not even when they are
// equal. An empty list stands for the default partition, the empty name.
//
// Cyclone DDS 0.10.2 knows only '*' and '?' (it compares names with '[' literally); Fast
// DDS 2.9.1 applies fnmatch in both directions, so it also matches two patterns such as
// "a*" and "a?" that the spec and Cyclone do not.

var defaultPartition = []string{""}

// PartitionsMatch reports whether partition lists a and b (of a publisher and a
// subscriber, in either order) have a partition in common. It allocates nothing.
func PartitionsMatch(a, b []string) bool {
	if len(a) == 0 {
		a = defaultPartition
	}
	if len(b) == 0 {
		b = defaultPartition
	}
	for _, x := range a {
		for _, y := range b {
			if partitionNameMatch(x, y) {
				return true
			}
		}
	}
	return false
}

// partitionNameMatch reports whether partition names x and y match: equal when neither is
// a pattern, the pattern matching the other name when one is, never when both are.
func partitionNameMatch(x, y string) bool {
	xw, yw := isPartitionPattern(x), isPartitionPattern(y)
	switch {
	case xw && yw:
		return false
	case xw:
		return fnmatch(x, y)
	case yw:
		return fnmatch(y, x)
	default:
		return x == y
	}
}

// isPartitionPattern reports whether name contains a wildcard: '*', '?' or a complete
// bracket expression.
func isPartitionPattern(name string) bool {
	for i := 0; i < len(name); i++ {
		switch name[i] {
		case '*', '?':
			return true
		case '[':
			if _, _, ok := matchBracket(name[i:], 0); ok {
				return true
			}
		}
	}
	return false
}

// fnmatch matches name against pattern. A '*' remembers where to resume when a later
// part fails; only the last '*' needs remembering, so the cost is O(len(pattern) *
// len(name)) at worst, with no recursion.
func fnmatch(pattern, name string) bool {
	px, nx := 0, 0
	starPx, starNx := -1, -1
	for px < len(pattern) || nx < len(name) {
		if px < len(pattern) {
			switch c := pattern[px]; c {
			case '*':
				starPx, starNx = px, nx+1
				px++
				continue
			case '?':
				if nx < len(name) {
					px++
					nx++
					continue
				}
			case '[':
				if nx < len(name) {
					matched, width, ok := matchBracket(pattern[px:], name[nx])
					if !ok {
						matched, width = name[nx] == '[', 1
					}
					if matched {
						px += width
						nx++
						continue
					}
				}
			default:
				if nx < len(name) && name[nx] == c {
					px++
					nx++
					continue
				}
			}
		}
		if starPx >= 0 && starNx <= len(name) {
			px, nx = starPx, starNx
			continue
		}
		return false
	}
	return true
}

// matchBracket parses the bracket expression at the start of p (p[0] == '[') and reports
// whether byte c is in the set, the length of the expression, and whether it is complete.
func matchBracket(p string, c byte) (matched bool, width int, ok bool) {
	i := 1
	negate := false
	if i < len(p) && (p[i] == '!' || p[i] == '^') {
		negate = true
		i++
	}
	first := true
	poisoned := false // an unknown class: the set matches nothing
	for i < len(p) {
		if p[i] == ']' && !first {
			return !poisoned && matched != negate, i + 1, true
		}
		first = false
		if name, n, isClass := bracketClass(p[i:]); isClass {
			in, known := inClass(name, c)
			// Like glibc, an unknown class spoils the set unless a member before it
			// already matched.
			poisoned = poisoned || (!known && !matched)
			matched = matched || in
			i += n
			continue
		}
		in, n := bracketMember(p[i:], c)
		matched = matched || in
		i += n
	}
	return false, 0, false
}

// bracketClass reads a "[:name:]" class at the start of p and its length; an
// unterminated "[:" is not a class (it is an ordinary '[' in the set).
func bracketClass(p string) (name string, n int, ok bool) {
	if len(p) < 2 || p[0] != '[' || p[1] != ':' {
		return "", 0, false
	}
	for j := 2; j+1 < len(p); j++ {
		if p[j] == ':' && p[j+1] == ']' {
			return p[2:j], j + 2, true
		}
	}
	return "", 0, false
}

// bracketMember reads a member of a set at the start of p, a byte or a range "a-z",
// and reports whether c is in it and the member's length.
func bracketMember(p string, c byte) (in bool, n int) {
	lo := p[0]
	if len(p) > 2 && p[1] == '-' && p[2] != ']' {
		return lo <= c && c <= p[2], 3
	}
	return c == lo, 1
}

// posixClasses are the POSIX character classes of the C locale.
var posixClasses = map[string]func(c byte) bool{
	"alpha":  func(c byte) bool { return isUpper(c) || isLower(c) },
	"digit":  isDigit,
	"alnum":  func(c byte) bool { return isUpper(c) || isLower(c) || isDigit(c) },
	"upper":  isUpper,
	"lower":  isLower,
	"space":  func(c byte) bool { return c == ' ' || ('\t' <= c && c <= '\r') },
	"blank":  func(c byte) bool { return c == ' ' || c == '\t' },
	"xdigit": func(c byte) bool { return isDigit(c) || ('a' <= c && c <= 'f') || ('A' <= c && c <= 'F') },
	"punct":  func(c byte) bool { return isGraph(c) && !isUpper(c) && !isLower(c) && !isDigit(c) },
	"print":  func(c byte) bool { return isGraph(c) || c == ' ' },
	"graph":  isGraph,
	"cntrl":  func(c byte) bool { return c < ' ' || c == 0x7f },
}

func isUpper(c byte) bool { return 'A' <= c && c <= 'Z' }
func isLower(c byte) bool { return 'a' <= c && c <= 'z' }
func isDigit(c byte) bool { return '0' <= c && c <= '9' }
func isGraph(c byte) bool { return '!' <= c && c <= '~' }

// inClass reports whether c is in the POSIX character class name (C locale), and whether
// the class is known.
func inClass(name string, c byte) (in, known bool) {
	f, ok := posixClasses[name]
	if !ok {
		return false, false
	}
	return f(c), true
}
