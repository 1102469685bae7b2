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
			if PartitionNameMatch(x, y) {
				return true
			}
		}
	}
	return false
}

// PartitionNameMatch reports whether partition names x and y match: equal when neither is
// a pattern, the pattern matching the other name when one is, never when both are.
func PartitionNameMatch(x, y string) bool {
	xw, yw := IsPartitionPattern(x), IsPartitionPattern(y)
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

// IsPartitionPattern reports whether name contains a wildcard: '*', '?' or a complete
// bracket expression.
func IsPartitionPattern(name string) bool {
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
		if p[i] == '[' && i+1 < len(p) && p[i+1] == ':' {
			end := -1
			for j := i + 2; j+1 < len(p); j++ {
				if p[j] == ':' && p[j+1] == ']' {
					end = j
					break
				}
			}
			if end >= 0 {
				in, known := inClass(p[i+2:end], c)
				// Like glibc, an unknown class spoils the set unless a member
				// before it already matched.
				poisoned = poisoned || (!known && !matched)
				matched = matched || in
				i = end + 2
				continue
			}
			// An unterminated "[:" is an ordinary '[' in the set.
		}
		lo := p[i]
		if i+2 < len(p) && p[i+1] == '-' && p[i+2] != ']' {
			hi := p[i+2]
			matched = matched || (lo <= c && c <= hi)
			i += 3
			continue
		}
		matched = matched || c == lo
		i++
	}
	return false, 0, false
}

// inClass reports whether c is in the POSIX character class name (C locale), and whether
// the class is known.
func inClass(name string, c byte) (in, known bool) {
	upper := 'A' <= c && c <= 'Z'
	lower := 'a' <= c && c <= 'z'
	digit := '0' <= c && c <= '9'
	graph := '!' <= c && c <= '~'
	switch name {
	case "alpha":
		return upper || lower, true
	case "digit":
		return digit, true
	case "alnum":
		return upper || lower || digit, true
	case "upper":
		return upper, true
	case "lower":
		return lower, true
	case "space":
		return c == ' ' || ('\t' <= c && c <= '\r'), true
	case "blank":
		return c == ' ' || c == '\t', true
	case "xdigit":
		return digit || ('a' <= c && c <= 'f') || ('A' <= c && c <= 'F'), true
	case "punct":
		return graph && !upper && !lower && !digit, true
	case "print":
		return graph || c == ' ', true
	case "graph":
		return graph, true
	case "cntrl":
		return c < ' ' || c == 0x7f, true
	}
	return false, false
}
