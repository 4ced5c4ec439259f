package decision

// The JSON scanner behind decode: a strict single pass over one event line,
// allocation-free on the common path (docs/decisions/003-tinygo-heap.md). It
// knows JSON, not the event schema: codec.go says which keys mean what.

import (
	"github.com/pi-memory/pi-memory/wasm/internal/numstr"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"
)

// scanner is a strict single-pass JSON reader specialised for event lines.
type scanner struct {
	b     []byte
	i     int
	arena *arena
	tmp   []byte
	list  []string
	// view: strings point into the line (valid until the next line) instead
	// of being copied; state.apply copies what a decision keeps. fromTmp says
	// the last raw string is in tmp (it had escapes) and must be copied.
	view    bool
	fromTmp bool
	deep    bool // a value nested deeper than maxDepth was met
	// status: a status that is none of statusNames (d.s), quoted for the
	// line's problem; "" when it was one or there was none.
	status string
}

// maxDepth bounds how deep a value an event may hold: recursion in a
// scanner of outside data must be bounded.
const maxDepth = 64

func (s *scanner) syntax() error {
	if s.deep {
		return &decodeError{Err: errDepth, Offset: s.i, Detail: "a value is nested more than " + numstr.Itoa(maxDepth) + " levels deep"}
	}
	return &decodeError{Err: errSyntax, Offset: s.i}
}

func (s *scanner) ws() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

func (s *scanner) peek() byte {
	if s.i < len(s.b) {
		return s.b[s.i]
	}
	return 0
}

func (s *scanner) eat(c byte) bool {
	if s.i < len(s.b) && s.b[s.i] == c {
		s.i++
		return true
	}
	return false
}

// key reads an object key; short keys without escapes come back without copying.
func (s *scanner) key() (string, bool) {
	if s.peek() != '"' {
		return "", false
	}
	// Every key an event has is one or two letters: read those directly.
	if i := s.i; i+3 < len(s.b) {
		if s.b[i+2] == '"' && s.b[i+1] >= 'a' {
			s.i += 3
			return keyString(s.b[i+1 : i+2]), true
		}
		if s.b[i+3] == '"' && s.b[i+1] >= 'a' && s.b[i+2] >= 'a' {
			s.i += 4
			return keyString(s.b[i+1 : i+3]), true
		}
	}
	start := s.i + 1
	for j := start; j < len(s.b); j++ {
		c := s.b[j]
		if c == '"' {
			s.i = j + 1
			return keyString(s.b[start:j]), true
		}
		if c == '\\' || c < 0x20 {
			break
		}
	}
	b, ok := s.unescape()
	if !ok {
		return "", false
	}
	return string(b), true
}

// rawString reads a string and returns its unescaped bytes (valid until the
// next call). isStr is false when the value was another JSON type (skipped).
func (s *scanner) rawString() ([]byte, bool, bool) {
	if s.peek() != '"' {
		return nil, false, s.skip()
	}
	start := s.i + 1
	b := s.b
	high := false
	s.fromTmp = false
	j := start
	for j < len(b) {
		// Plain string bytes are by far the most common thing in a log, so
		// this loop is the replay's hot path: skip them a word at a time.
		j += plainRun(b, j)
		if j >= len(b) {
			break
		}
		c := b[j]
		if c == '"' {
			s.i = j + 1
			if high {
				return s.valid(b[start:j]), true, true
			}
			return b[start:j], true, true
		}
		if c >= utf8.RuneSelf {
			high = true
			j++
			continue
		}
		break // a backslash or a control character
	}
	out, ok := s.unescape()
	if ok {
		out = s.valid(out)
	}
	s.fromTmp = true
	return out, true, ok
}

// strClass marks the bytes a string scan must stop at: the closing quote, a
// backslash, control characters (invalid in JSON strings) and non-ASCII
// bytes (UTF-8 to validate).
var strClass = func() (t [256]byte) {
	for c := 0; c < 0x20; c++ {
		t[c] = 1
	}
	t['"'], t['\\'] = 1, 1
	for c := 0x80; c < 256; c++ {
		t[c] = 1
	}
	return t
}()

// valid replaces invalid UTF-8 with U+FFFD, as Node does when it reads the
// file, so every host sees the same text and re-encoding is lossless.
func (s *scanner) valid(b []byte) []byte {
	if utf8.Valid(b) {
		return b
	}
	s.fromTmp = true // a new slice, not the line: copy it when kept
	out := make([]byte, 0, len(b)+8)
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		if r == utf8.RuneError && size == 1 {
			out = append(out, "\uFFFD"...)
		} else {
			out = append(out, b[:size]...)
		}
		b = b[size:]
	}
	return out
}

// stringOrSkip reads a string value (a view into the line in view mode,
// else a copy in the arena); other types are skipped.
func (s *scanner) stringOrSkip() (string, bool, bool) {
	b, isStr, ok := s.rawString()
	if !ok || !isStr {
		return "", false, ok
	}
	if s.view && !s.fromTmp && len(b) > 0 {
		return unsafe.String(&b[0], len(b)), true, true
	}
	return s.arena.String(b), true, true
}

// unescape reads the string at s.i (which starts with '"') into s.tmp.
func (s *scanner) unescape() ([]byte, bool) {
	s.i++ // opening quote
	out := s.tmp[:0]
	for s.i < len(s.b) {
		c := s.b[s.i]
		switch {
		case c == '"':
			s.i++
			s.tmp = out
			return out, true
		case c < 0x20:
			return nil, false
		case c != '\\':
			out = append(out, c)
			s.i++
			continue
		}
		s.i++
		if s.i >= len(s.b) {
			return nil, false
		}
		e := s.b[s.i]
		s.i++
		switch e {
		case '"', '\\', '/':
			out = append(out, e)
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'u':
			r, ok := s.hex4()
			if !ok {
				return nil, false
			}
			if utf16.IsSurrogate(r) {
				r2 := rune(-1)
				if s.i+1 < len(s.b) && s.b[s.i] == '\\' && s.b[s.i+1] == 'u' {
					save := s.i
					s.i += 2
					var ok2 bool
					r2, ok2 = s.hex4()
					if !ok2 {
						return nil, false
					}
					if dec := utf16.DecodeRune(r, r2); dec != utf8.RuneError {
						r = dec
					} else {
						s.i = save
						r = utf8.RuneError
					}
				} else {
					r = utf8.RuneError
				}
			}
			out = utf8.AppendRune(out, r)
		default:
			return nil, false
		}
	}
	return nil, false
}

func (s *scanner) hex4() (rune, bool) {
	if s.i+4 > len(s.b) {
		return 0, false
	}
	var r rune
	for k := 0; k < 4; k++ {
		c := s.b[s.i+k]
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	s.i += 4
	return r, true
}

// int reads an integer-valued number; ok is false for any other value (not
// consumed). Small integers, the only ones a log holds, parse without
// allocating.
func (s *scanner) int() (int64, bool) {
	start := s.i
	end, ok := s.numberEnd()
	if !ok {
		s.i = start
		return 0, false
	}
	num := s.b[start:end]
	if len(num) > 0 && len(num) <= 18 {
		var n int64
		neg := num[0] == '-'
		digits := num
		if neg {
			digits = num[1:]
		}
		plain := len(digits) > 0
		for _, c := range digits {
			if c < '0' || c > '9' {
				plain = false
				break
			}
			n = n*10 + int64(c-'0')
		}
		if plain {
			if neg {
				n = -n
			}
			s.i = end
			return n, true
		}
	}
	f, err := strconv.ParseFloat(string(num), 64)
	if err != nil || f != float64(int64(f)) {
		s.i = start
		return 0, false
	}
	s.i = end
	return int64(f), true
}

func (s *scanner) float() (float64, bool) {
	start := s.i
	end, ok := s.numberEnd()
	if !ok {
		return 0, false
	}
	f, err := strconv.ParseFloat(string(s.b[start:end]), 64)
	if err != nil {
		return 0, false
	}
	s.i = end
	return f, true
}

// numberEnd validates the JSON number at s.i and returns where it ends.
func (s *scanner) numberEnd() (int, bool) {
	j := s.i
	if j < len(s.b) && s.b[j] == '-' {
		j++
	}
	if j >= len(s.b) {
		return 0, false
	}
	if s.b[j] == '0' {
		j++
	} else if s.b[j] >= '1' && s.b[j] <= '9' {
		for j < len(s.b) && s.b[j] >= '0' && s.b[j] <= '9' {
			j++
		}
	} else {
		return 0, false
	}
	if j < len(s.b) && s.b[j] == '.' {
		j++
		d := j
		for j < len(s.b) && s.b[j] >= '0' && s.b[j] <= '9' {
			j++
		}
		if j == d {
			return 0, false
		}
	}
	if j < len(s.b) && (s.b[j] == 'e' || s.b[j] == 'E') {
		j++
		if j < len(s.b) && (s.b[j] == '+' || s.b[j] == '-') {
			j++
		}
		d := j
		for j < len(s.b) && s.b[j] >= '0' && s.b[j] <= '9' {
			j++
		}
		if j == d {
			return 0, false
		}
	}
	return j, true
}

func (s *scanner) literal(lit string) bool {
	if len(s.b)-s.i >= len(lit) && equal(s.b[s.i:s.i+len(lit)], lit) {
		s.i += len(lit)
		return true
	}
	return false
}

// skip consumes any JSON value, validating it.
func (s *scanner) skip() bool { return s.skipDepth(0) }

func (s *scanner) skipDepth(depth int) bool {
	if depth > maxDepth {
		s.deep = true
		return false
	}
	switch c := s.peek(); {
	case c == '"':
		_, _, ok := s.rawString()
		return ok
	case c == '{':
		s.i++
		s.ws()
		if s.eat('}') {
			return true
		}
		for {
			s.ws()
			if s.peek() != '"' {
				return false
			}
			if _, _, ok := s.rawString(); !ok {
				return false
			}
			s.ws()
			if !s.eat(':') {
				return false
			}
			s.ws()
			if !s.skipDepth(depth + 1) {
				return false
			}
			s.ws()
			if s.eat(',') {
				continue
			}
			return s.eat('}')
		}
	case c == '[':
		s.i++
		s.ws()
		if s.eat(']') {
			return true
		}
		for {
			s.ws()
			if !s.skipDepth(depth + 1) {
				return false
			}
			s.ws()
			if s.eat(',') {
				continue
			}
			return s.eat(']')
		}
	case c == 't':
		return s.literal("true")
	case c == 'f':
		return s.literal("false")
	case c == 'n':
		return s.literal("null")
	default:
		end, ok := s.numberEnd()
		if ok {
			s.i = end
		}
		return ok
	}
}

// strings reads an array, keeping its string elements (others are skipped,
// as pi-decision-memory does). A non-array value is skipped and reported absent.
func (s *scanner) strings() ([]string, bool, bool) {
	if s.peek() != '[' {
		return nil, false, s.skip()
	}
	s.i++
	s.ws()
	if s.eat(']') {
		return []string{}, true, true
	}
	// s.list collects every list of the line (reset per line); a list is a
	// window of it, valid until the next line. A list keeps its first
	// listChunk strings, as the state does (putList); the rest are read
	// past: 300,000 tags held as views into the line took TinyGo's
	// collector 19 s (h-v97 a1).
	start := len(s.list)
	for {
		s.ws()
		if s.peek() == '"' && len(s.list)-start < listChunk {
			str, _, ok := s.stringOrSkip()
			if !ok {
				return nil, false, false
			}
			s.list = append(s.list, str)
		} else if !s.skip() {
			return nil, false, false
		}
		s.ws()
		if s.eat(',') {
			continue
		}
		if s.eat(']') {
			got := s.list[start:len(s.list):len(s.list)]
			if s.view {
				return got, true, true
			}
			return s.arena.Strings(got), true, true
		}
		return nil, false, false
	}
}
