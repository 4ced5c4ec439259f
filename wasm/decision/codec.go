package decision

import (
	"errors"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"

	"github.com/pi-memory/pi-memory/wasm/jsonw"
)

// Version is the event format version this code writes and reads.
const Version = 1

// Decode errors. Each is reported by doctor with its line number.
var (
	ErrSyntax      = errors.New("not a JSON object")
	ErrVersion     = errors.New("unsupported version")
	ErrMissing     = errors.New("missing field")
	ErrUnknownCode = errors.New("unknown event code")
)

// DecodeError says what is wrong with a line and where.
type DecodeError struct {
	Err    error
	Offset int    // byte offset in the line, for syntax errors
	Detail string // the field or value concerned
}

func (e *DecodeError) Error() string {
	s := e.Err.Error()
	if e.Detail != "" {
		s += ": " + e.Detail
	}
	if e.Err == ErrSyntax {
		s += " (at byte " + strconv.Itoa(e.Offset+1) + ")"
	}
	return s
}

func (e *DecodeError) Unwrap() error { return e.Err }

// Decode reads one log line into its readable form. Strings are copied into
// arena (nil allocates normally). Unknown keys are skipped, never an error.
//
//	Decode([]byte(`{"v":1,"t":"2026-02-27T06:00:00.000Z","p":"ab","e":"a","i":"D-2026-02-27-0001","d":{"tx":"Use PostgreSQL","s":"active"},"u":"user"}`), nil)
//	=> Event{V:1, Code:Add, ID:"D-2026-02-27-0001", Data:{Text:"Use PostgreSQL", Status:Active}, …}
func Decode(line []byte, arena *Arena) (Event, error) {
	var ev Event
	var s scanner
	err := s.decode(line, arena, &ev)
	return ev, err
}

// decode is Decode into reusable storage: the Reader keeps one scanner and one
// Event for a whole replay, so nothing escapes to the heap per line.
func (s *scanner) decode(line []byte, arena *Arena, ev *Event) error {
	*ev = Event{}
	s.b, s.i, s.arena = line, 0, arena
	s.list = s.list[:0]
	var seen uint8 // v, t, e, i
	var badCode []byte
	s.ws()
	if !s.eat('{') {
		return s.syntax()
	}
	s.ws()
	if !s.eat('}') {
		for {
			s.ws()
			k, ok := s.key()
			if !ok {
				return s.syntax()
			}
			s.ws()
			if !s.eat(':') {
				return s.syntax()
			}
			s.ws()
			switch {
			case k == "v":
				n, ok := s.int()
				if !ok {
					if !s.skip() {
						return s.syntax()
					}
					return &DecodeError{Err: ErrVersion, Detail: "v is not a number"}
				}
				ev.V = int(n)
				seen |= 1
			case k == "t":
				str, isStr, ok := s.stringOrSkip()
				if !ok {
					return s.syntax()
				}
				if isStr {
					ev.Time = str
					ev.TimeMs = ParseTime(str)
					seen |= 2
				}
			case k == "p":
				str, _, ok := s.stringOrSkip()
				if !ok {
					return s.syntax()
				}
				ev.Project = str
			case k == "e":
				start := s.i
				str, isStr, ok := s.rawString()
				if !ok {
					return s.syntax()
				}
				if isStr {
					ev.Code = parseCode(str)
					if ev.Code == CodeNone {
						badCode = line[start:s.i]
					}
					seen |= 4
				}
			case k == "i":
				str, isStr, ok := s.stringOrSkip()
				if !ok {
					return s.syntax()
				}
				if isStr && str != "" {
					ev.ID = str
					seen |= 8
				}
			case k == "d":
				if s.peek() == '{' {
					if !s.data(&ev.Data) {
						return s.syntax()
					}
				} else if !s.skip() {
					return s.syntax()
				}
			case k == "u":
				str, _, ok := s.stringOrSkip()
				if !ok {
					return s.syntax()
				}
				ev.Actor = str
			default:
				if !s.skip() {
					return s.syntax()
				}
			}
			s.ws()
			if s.eat(',') {
				continue
			}
			if s.eat('}') {
				break
			}
			return s.syntax()
		}
	}
	s.ws()
	if s.i != len(s.b) {
		return s.syntax()
	}
	switch {
	case seen&1 == 0:
		return &DecodeError{Err: ErrMissing, Detail: "v"}
	case ev.V != Version:
		return &DecodeError{Err: ErrVersion, Detail: "v=" + strconv.Itoa(ev.V) + " (this pi-memory reads v=1; a newer version wrote this line)"}
	case seen&4 == 0:
		return &DecodeError{Err: ErrMissing, Detail: "e"}
	case badCode != nil:
		return unknownCode(badCode)
	case seen&8 == 0:
		return &DecodeError{Err: ErrMissing, Detail: "i"}
	case seen&2 == 0:
		return &DecodeError{Err: ErrMissing, Detail: "t"}
	}
	return nil
}

func unknownCode(raw []byte) error {
	return &DecodeError{Err: ErrUnknownCode, Detail: "e=" + string(raw)}
}

func parseCode(b []byte) Code {
	switch len(b) {
	case 1:
		if b[0] == 'a' {
			return Add
		}
	case 2:
		switch {
		case b[0] == 'e' && b[1] == 'd':
			return Edit
		case b[0] == 's' && b[1] == 't':
			return SetStatus
		case b[0] == 's' && b[1] == 'u':
			return Supersede
		case b[0] == 'r' && b[1] == 'm':
			return Remove
		}
	}
	return CodeNone
}

// scanner is a strict single-pass JSON reader specialised for event lines.
type scanner struct {
	b     []byte
	i     int
	arena *Arena
	tmp   []byte
	list  []string
	// view: strings point into the line (valid until the next line) instead
	// of being copied; State.Apply copies what a decision keeps. fromTmp says
	// the last raw string is in tmp (it had escapes) and must be copied.
	view    bool
	fromTmp bool
}

func (s *scanner) syntax() error { return &DecodeError{Err: ErrSyntax, Offset: s.i} }

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

// keyString maps the keys we know to constants so matching them never allocates.
func keyString(b []byte) string {
	switch len(b) {
	case 1:
		switch b[0] {
		case 'v':
			return "v"
		case 't':
			return "t"
		case 'p':
			return "p"
		case 'e':
			return "e"
		case 'i':
			return "i"
		case 'd':
			return "d"
		case 'u':
			return "u"
		case 's':
			return "s"
		case 'r':
			return "r"
		case 'c':
			return "c"
		}
	case 2:
		a, c := b[0], b[1]
		switch {
		case a == 't' && c == 'i':
			return "ti"
		case a == 't' && c == 'x':
			return "tx"
		case a == 't' && c == 'g':
			return "tg"
		case a == 's' && c == 'p':
			return "sp"
		case a == 's' && c == 'b':
			return "sb"
		case a == 'c' && c == 'n':
			return "cn"
		case a == 's' && c == 'o':
			return "so"
		case a == 'c' && c == 'f':
			return "cf"
		case a == 'c' && c == 'g':
			return "cg"
		}
	}
	return "?"
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
	if depth > 64 {
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
	// window of it, valid until the next line.
	start := len(s.list)
	for {
		s.ws()
		if s.peek() == '"' {
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

func (s *scanner) data(d *Data) bool {
	s.i++ // {
	s.ws()
	if s.eat('}') {
		return true
	}
	for {
		s.ws()
		k, ok := s.key()
		if !ok {
			return false
		}
		s.ws()
		if !s.eat(':') {
			return false
		}
		s.ws()
		switch k {
		case "ti", "tx", "r", "sb", "cn", "so", "cg":
			if s.peek() == 'n' {
				if !s.literal("null") {
					return false
				}
				break
			}
			str, isStr, ok := s.stringOrSkip()
			if !ok {
				return false
			}
			if !isStr {
				break
			}
			switch k {
			case "ti":
				d.Title, d.Has = str, d.Has|HasTitle
			case "tx":
				d.Text, d.Has = str, d.Has|HasText
			case "r":
				d.Reason, d.Has = str, d.Has|HasReason
			case "sb":
				d.SupersededBy, d.Has = str, d.Has|HasSupersededBy
			case "cn":
				d.ConflictNote, d.Has = str, d.Has|HasConflictNote
			case "so":
				d.Source, d.Has = str, d.Has|HasSource
			case "cg":
				d.Category, d.Has = str, d.Has|HasCategory
			}
		case "sp":
			if s.peek() == 'n' {
				if !s.literal("null") {
					return false
				}
				break
			}
			str, isStr, ok := s.stringOrSkip()
			if !ok {
				return false
			}
			if isStr {
				d.Supersedes, d.Has = str, d.Has|HasSupersedes
			}
		case "s":
			b, isStr, ok := s.rawString()
			if !ok {
				return false
			}
			if isStr {
				if st := parseStatusBytes(b); st != StatusNone {
					d.Status, d.Has = st, d.Has|HasStatus
				}
			}
		case "tg", "c":
			list, isArr, ok := s.strings()
			if !ok {
				return false
			}
			if isArr {
				if k == "tg" {
					d.Tags, d.Has = list, d.Has|HasTags
				} else {
					d.Conflicts, d.Has = list, d.Has|HasConflicts
				}
			}
		case "cf":
			if c := s.peek(); c == '-' || c >= '0' && c <= '9' {
				f, ok := s.float()
				if !ok {
					return false
				}
				d.Confidence, d.Has = f, d.Has|HasConfidence
			} else if !s.skip() {
				return false
			}
		default:
			if !s.skip() {
				return false
			}
		}
		s.ws()
		if s.eat(',') {
			continue
		}
		return s.eat('}')
	}
}

// equal compares bytes with a string without converting: TinyGo allocates
// for string(b) == s, and a log compares a literal or a status on most lines.
func equal(b []byte, s string) bool {
	if len(b) != len(s) {
		return false
	}
	for i := range b {
		if b[i] != s[i] {
			return false
		}
	}
	return true
}

func parseStatusBytes(b []byte) Status {
	for i := Active; i < numStatus; i++ {
		if equal(b, statusNames[i]) {
			return i
		}
	}
	return StatusNone
}

// Encode writes an event as one compact line (without the newline), keys in
// the seed's order. Data keys are written when present in d.Has; an add always
// carries tx, tg, s, sp and c so older readers see a complete record.
//
//	Encode(nil, Event{V:1, Time:"2026-02-27T06:00:00.000Z", Project:"ab", Code:Add, ID:"D-2026-02-27-0001",
//	       Data:{Has:HasText|HasStatus, Text:"Use PostgreSQL", Status:Active}, Actor:"user"})
//	=> {"v":1,"t":"2026-02-27T06:00:00.000Z","p":"ab","e":"a","i":"D-2026-02-27-0001","d":{"tx":"Use PostgreSQL","tg":[],"s":"active","sp":null,"c":[]},"u":"user"}
func Encode(dst []byte, ev Event) []byte {
	w := jsonw.Open(dst)
	w.Int("v", int64(ev.V))
	w.Str("t", ev.Time)
	w.Str("p", ev.Project)
	w.Str("e", ev.Code.String())
	w.Str("i", ev.ID)
	d := ev.Data
	has := d.Has
	if ev.Code == Add {
		has |= HasText | HasTags | HasStatus | HasSupersedes | HasConflicts
		if d.Status == StatusNone {
			d.Status = Active
		}
	}
	dw := jsonw.Open(nil)
	if has&HasTitle != 0 {
		dw.Str("ti", d.Title)
	}
	if has&HasText != 0 {
		dw.Str("tx", d.Text)
	}
	if has&HasTags != 0 {
		dw.Strs("tg", nonNil(d.Tags))
	}
	if has&HasStatus != 0 {
		dw.Str("s", d.Status.String())
	}
	if has&HasReason != 0 {
		dw.Str("r", d.Reason)
	}
	if has&HasSupersedes != 0 {
		if d.Supersedes == "" {
			dw.Null("sp")
		} else {
			dw.Str("sp", d.Supersedes)
		}
	}
	if has&HasConflicts != 0 {
		dw.Strs("c", nonNil(d.Conflicts))
	}
	if has&HasSupersededBy != 0 {
		dw.Str("sb", d.SupersededBy)
	}
	if has&HasConflictNote != 0 {
		dw.Str("cn", d.ConflictNote)
	}
	if has&HasSource != 0 {
		dw.Str("so", d.Source)
	}
	if has&HasConfidence != 0 {
		dw.Float("cf", d.Confidence)
	}
	if has&HasCategory != 0 {
		dw.Str("cg", d.Category)
	}
	w.Raw("d", dw.Close())
	if ev.Actor != "" {
		w.Str("u", ev.Actor)
	}
	return w.Close()
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
