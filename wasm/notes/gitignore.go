package notes

import (
	"path"
	"strings"
)

// The personal notes file (MEMORY.local.md) is meant to stay out of git: these
// rules read a project's .gitignore for it and say what to append when it is
// not there. The driver reads and appends the file; it never edits a line.
//
// A wrong "ignored" would let personal notes be committed with no warning, so
// the matching follows git's (gitignore(5), checked against git check-ignore
// in gitignore_test.go) rather than an approximation: the last matching line
// wins, "!" re-includes, a folder that is ignored takes everything in it
// (nothing under it can be re-included), a pattern with a slash before its
// end is anchored at the .gitignore's folder, "**" crosses folders, and a
// pattern ending in "/" matches folders only. A wrong "not ignored" costs a
// redundant line, so what git would read from elsewhere (.gitignore files in
// .pi/ or .pi/memory/, .git/info/exclude, core.excludesFile,
// core.ignoreCase) is left out; a negation in a nested .gitignore is the one
// way that leaves a wrong "ignored" (docs/roadmap.md).

// ignoresLocal reports whether the text of a project's .gitignore (the one at
// its root) ignores the personal notes file, .pi/memory/MEMORY.local.md, and
// by which line: the pattern as git reads it (gitignoreLines), as the person
// wrote it but for the spaces and carriage return git drops at its end.
//
//	ignoresLocal("*.log\n/.pi/memory/MEMORY.local.md\n") => true, "/.pi/memory/MEMORY.local.md"
//	ignoresLocal("*.local.md\n")                         => true, "*.local.md" (a name matches at any depth)
//	ignoresLocal(".pi/\n")                               => true, ".pi/" (a folder on its way)
//	ignoresLocal("memory/MEMORY.local.md\n")             => false, "" (a path starts at the root)
//	ignoresLocal("*.md\n!MEMORY.local.md\n")             => false, "" (the last matching line wins)
func ignoresLocal(gitignore string) (bool, string) {
	var pats []gitPattern
	for _, l := range gitignoreLines(gitignore) {
		pats = append(pats, parseGitPattern(l))
	}
	parts := strings.Split(path.Join(notesProjectDir, notesLocal), "/")
	for k := 1; k <= len(parts); k++ {
		folder := k < len(parts)
		p := lastMatch(pats, strings.Join(parts[:k], "/"), parts[k-1], folder)
		if p != nil && !p.negative {
			// An ignored folder takes the file with it.
			return true, p.line
		}
	}
	return false, ""
}

// gitignoreLines are the patterns of a .gitignore text as git reads them: a
// line per "\n", a leading byte order mark dropped, blank lines and
// comments ("#" first) skipped, a carriage return before the newline dropped,
// a line cut at a NUL byte, and spaces at its end dropped unless escaped
// ("a\ " keeps one).
//
//	gitignoreLines("# notes\r\n*.log  \r\n\n\\#x\n") => ["*.log", "\\#x"]
func gitignoreLines(text string) []string {
	var lines []string
	for _, l := range strings.Split(strings.TrimPrefix(text, "\ufeff"), "\n") {
		if l == "" || l[0] == '#' {
			continue
		}
		l = strings.TrimSuffix(l, "\r")
		if i := strings.IndexByte(l, 0); i >= 0 {
			l = l[:i]
		}
		if l = trimTrailingSpaces(l); l != "" {
			lines = append(lines, l)
		}
	}
	return lines
}

// trimTrailingSpaces drops the spaces (not tabs) at the end of l, but for
// one a backslash escapes and those before it.
func trimTrailingSpaces(l string) string {
	end := len(l)
	for i := 0; i < len(l); i++ {
		switch l[i] {
		case ' ':
			if end == len(l) {
				end = i
			}
			continue
		case '\\':
			i++
		}
		end = len(l)
	}
	return l[:end]
}

// gitPattern is one line of a .gitignore, read.
type gitPattern struct {
	line     string // as git reads it, for the person
	glob     []globToken
	ok       bool // false: the glob cannot match anything (a bad "[…]", a lone "\" at its end)
	negative bool // "!…": re-includes what it matches
	folder   bool // "…/": matches folders only
	anchored bool // a slash before the end: matched against the path from the root, else against the name
}

// parseGitPattern reads one line of gitignoreLines.
//
//	parseGitPattern("!/build/") => negative, folder, anchored, glob "build"
//	parseGitPattern("*.log")    => glob "*.log", matched against a name at any depth
func parseGitPattern(line string) gitPattern {
	p := gitPattern{line: line}
	s := line
	if strings.HasPrefix(s, "!") {
		p.negative, s = true, s[1:]
	}
	if strings.HasSuffix(s, "/") {
		p.folder, s = true, s[:len(s)-1]
	}
	if p.anchored = strings.Contains(s, "/"); p.anchored {
		s = strings.TrimPrefix(s, "/")
	}
	p.glob, p.ok = parseGlob(s)
	return p
}

// lastMatch is the last pattern that matches the path rel (name is its last
// part, folder whether it is one), nil when none does.
func lastMatch(pats []gitPattern, rel, name string, folder bool) *gitPattern {
	for i := len(pats) - 1; i >= 0; i-- {
		p := &pats[i]
		if !p.ok || p.folder && !folder {
			continue
		}
		if p.anchored && globMatch(p.glob, rel, true) || !p.anchored && globMatch(p.glob, name, false) {
			return p
		}
	}
	return nil
}

// ---- the glob of a pattern ---------------------------------------------------

type globKind uint8

const (
	globByte  globKind = iota // one byte, as written or after "\"
	globOne                   // "?": one byte but "/"
	globClass                 // "[…]": one byte of a set, never "/"
	globStar                  // "*", "**", "***"…
)

type globToken struct {
	kind globKind
	b    byte
	set  *[256]bool // globClass
	// globStar: "**" standing alone between slashes (or at an end, or after
	// the literal start), which crosses them; zeroDirs when a raw "/"
	// follows, so "a/**/b" matches "a/b".
	double, zeroDirs bool
}

// parseGlob cuts a glob into tokens; ok is false when it can match nothing:
// a "[" never closed, a "[:name:]" git does not know, a "\" at its end.
func parseGlob(s string) ([]globToken, bool) {
	var toks []globToken
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '\\':
			if i++; i == len(s) {
				return nil, false
			}
			toks = append(toks, globToken{kind: globByte, b: s[i]})
		case '?':
			toks = append(toks, globToken{kind: globOne})
		case '[':
			set, next, ok := parseClass(s, i+1)
			if !ok {
				return nil, false
			}
			toks = append(toks, globToken{kind: globClass, set: set})
			i = next
		case '*':
			j := i
			for j+1 < len(s) && s[j+1] == '*' {
				j++
			}
			t := globToken{kind: globStar}
			rest := s[j+1:]
			// git matches the literal start of a pattern on its own and
			// the glob from its first "*", "?", "[" or "\" on, so a "**"
			// there counts as at the start: ".p**/x" matches ".pi/memory/x".
			atStart := i == 0 || s[i-1] == '/' || !strings.ContainsAny(s[:i], "*?[\\")
			if j > i && atStart && (rest == "" || rest[0] == '/' || strings.HasPrefix(rest, "\\/")) {
				t.double, t.zeroDirs = true, rest != "" && rest[0] == '/'
			}
			if n := len(toks); t.zeroDirs && n >= 2 && toks[n-2].zeroDirs && toks[n-1] == (globToken{kind: globByte, b: '/'}) {
				// "**/**/" is "**/": any number of folders, said twice. Said
				// many times, it would make the matcher's memory grow.
				i = j + 1
				continue
			}
			toks = append(toks, t)
			i = j
		default:
			toks = append(toks, globToken{kind: globByte, b: c})
		}
	}
	return toks, true
}

// parseClass reads a bracket expression from s[i:], just after its "[": a
// leading "!" or "^" negates it, a "]" first is a member, "a-z" is a range,
// "\" escapes, "[:alpha:]" and the other POSIX classes (ASCII) are members.
// next is the index of its closing "]".
func parseClass(s string, i int) (set *[256]bool, next int, ok bool) {
	var in [256]bool
	negate := i < len(s) && (s[i] == '!' || s[i] == '^')
	if negate {
		i++
	}
	prev, hasPrev := byte(0), false
	for first := true; ; first = false {
		if i >= len(s) {
			return nil, 0, false
		}
		c := s[i]
		switch {
		case c == ']' && !first:
			if negate {
				for k := range in {
					in[k] = !in[k]
				}
			}
			return &in, i, true
		case c == '\\':
			if i++; i == len(s) {
				return nil, 0, false
			}
			in[s[i]] = true
			prev, hasPrev = s[i], true
			i++
		case c == '-' && hasPrev && i+1 < len(s) && s[i+1] != ']':
			hi := s[i+1]
			i += 2
			if hi == '\\' {
				if i == len(s) {
					return nil, 0, false
				}
				hi, i = s[i], i+1
			}
			for k := int(prev); k <= int(hi); k++ {
				in[k] = true
			}
			hasPrev = false
		case c == '[' && i+1 < len(s) && s[i+1] == ':':
			end := strings.IndexByte(s[i+2:], ']')
			if end < 0 {
				return nil, 0, false
			}
			name := s[i+2 : i+2+end]
			if !strings.HasSuffix(name, ":") {
				// Not "[:name:]": the "[" is a member like any byte.
				in['['] = true
				prev, hasPrev = '[', true
				i++
				continue
			}
			is := posixClass(name[:len(name)-1])
			if is == nil {
				return nil, 0, false
			}
			for k := range in {
				in[k] = in[k] || is(byte(k))
			}
			hasPrev = false
			i += 2 + end + 1
		default:
			in[c] = true
			prev, hasPrev = c, true
			i++
		}
	}
}

// posixClass is the test of a "[:name:]" class in the C locale, nil for a
// name git does not know.
func posixClass(name string) func(c byte) bool {
	lower := func(c byte) bool { return 'a' <= c && c <= 'z' }
	upper := func(c byte) bool { return 'A' <= c && c <= 'Z' }
	digit := func(c byte) bool { return '0' <= c && c <= '9' }
	graph := func(c byte) bool { return '!' <= c && c <= '~' }
	switch name {
	case "alnum":
		return func(c byte) bool { return lower(c) || upper(c) || digit(c) }
	case "alpha":
		return func(c byte) bool { return lower(c) || upper(c) }
	case "blank":
		return func(c byte) bool { return c == ' ' || c == '\t' }
	case "cntrl":
		return func(c byte) bool { return c < ' ' || c == 0x7f }
	case "digit":
		return digit
	case "graph":
		return graph
	case "lower":
		return lower
	case "print":
		return func(c byte) bool { return c == ' ' || graph(c) }
	case "punct":
		return func(c byte) bool { return graph(c) && !lower(c) && !upper(c) && !digit(c) }
	case "space":
		return func(c byte) bool { return c == ' ' || '\t' <= c && c <= '\r' }
	case "upper":
		return upper
	case "xdigit":
		return func(c byte) bool { return digit(c) || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' }
	}
	return nil
}

// globMatch reports whether the whole of name matches toks. With path (a
// pattern anchored at the root, matched against a path), "*", "?" and "[…]"
// stop at a "/" and only a double "**" crosses one; without it (a name),
// nothing in name is a "/".
func globMatch(toks []globToken, name string, path bool) bool {
	// Each token but a star takes one byte (the slash after a "**" may
	// not, and parseGlob keeps no two "**/" in a row): a glob with more
	// cannot match, and what is left is small enough to remember every
	// (token, byte) pair tried, which keeps a glob of many stars from taking
	// exponential time.
	fixed := 0
	for _, t := range toks {
		switch {
		case t.kind != globStar:
			fixed++
		case t.zeroDirs && path:
			fixed--
		}
	}
	if fixed > len(name) {
		return false
	}
	m := globMatcher{toks: toks, name: name, path: path, seen: make([]int8, (len(toks)+1)*(len(name)+1))}
	return m.at(0, 0)
}

type globMatcher struct {
	toks []globToken
	name string
	path bool
	seen []int8 // 0 not tried, 1 no, 2 yes; by token*(len(name)+1)+byte
}

// at reports whether toks[ti:] matches name[ni:].
func (m *globMatcher) at(ti, ni int) bool {
	if ti == len(m.toks) {
		return ni == len(m.name)
	}
	k := ti*(len(m.name)+1) + ni
	if m.seen[k] != 0 {
		return m.seen[k] == 2
	}
	ok := m.try(ti, ni)
	m.seen[k] = 1
	if ok {
		m.seen[k] = 2
	}
	return ok
}

func (m *globMatcher) try(ti, ni int) bool {
	t := m.toks[ti]
	if t.kind == globStar {
		crosses := !m.path || t.double
		if m.path && t.zeroDirs && m.at(ti+2, ni) {
			return true // "a/**/b" against "a/b": the star and its slash match nothing
		}
		for j := ni; j <= len(m.name); j++ {
			if m.at(ti+1, j) {
				return true
			}
			if j < len(m.name) && m.name[j] == '/' && !crosses {
				return false
			}
		}
		return false
	}
	if ni == len(m.name) {
		return false
	}
	c := m.name[ni]
	switch t.kind {
	case globByte:
		if c != t.b {
			return false
		}
	case globOne:
		if m.path && c == '/' {
			return false
		}
	case globClass:
		if !t.set[c] || m.path && c == '/' {
			return false
		}
	}
	return m.at(ti+1, ni+1)
}

// gitignoreLine is what to append to a .gitignore holding gitignore ("" when
// there is none) so that it ignores the personal notes file: the file's path
// from the root, on a line of its own. Being the last line, it wins over any
// line before it.
//
//	gitignoreLine("")        => "/.pi/memory/MEMORY.local.md\n"
//	gitignoreLine("*.log")   => "\n/.pi/memory/MEMORY.local.md\n"
//	gitignoreLine("*.log\n") => "/.pi/memory/MEMORY.local.md\n"
func gitignoreLine(gitignore string) string {
	line := "/" + path.Join(notesProjectDir, notesLocal) + "\n"
	if gitignore != "" && gitignore[len(gitignore)-1] != '\n' {
		line = "\n" + line
	}
	return line
}
