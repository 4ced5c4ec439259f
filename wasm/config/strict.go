package config

import (
	"github.com/pi-memory/pi-memory/wasm/internal/numstr"
	"strconv"
	"unicode/utf8"
)

// MaxDepth is how deeply objects and arrays may nest in a config file. Real
// files nest two levels; the limit keeps the recursive reader's stack small
// (a TinyGo export runs on a 64 KiB stack).
const MaxDepth = 64

// A SyntaxError says where a file stops being JSON and what to do about it.
// Line and Column count from 1; Column counts characters, not bytes.
type SyntaxError struct {
	Line, Column int
	Offset       int // bytes from the start of the text
	Msg          string
}

func (e *SyntaxError) Error() string {
	return "line " + numstr.Itoa(e.Line) + ", column " + numstr.Itoa(e.Column) + ": " + e.Msg
}

// Normalize checks that data is exactly one JSON value as RFC 8259 defines it
// (UTF-8; no comments, trailing commas, single quotes or NaN) and returns it
// with every object member that a later member of the same name overrides
// removed, at every depth. That is how JSON.parse, Python's json and jq read
// a duplicated key (the last one wins); readers that stop at the first match,
// such as gjson, then read the same value. Without duplicates, data itself is
// returned.
//
//	Normalize([]byte(`{"enabled": true, "enabled": false}`)) => {"enabled": false}
//	Normalize([]byte(`{"enabled": false,}`)) => error: line 1, column 18: trailing comma; delete the ',' before '}'
func Normalize(data []byte) ([]byte, error) {
	r := reader{data: data}
	if !r.document() {
		return nil, r.err
	}
	return r.normalized(), nil
}

// member is one "key": value of the object being read.
type member struct {
	key     []byte // the key as decoded (escapes resolved), for comparisons
	start   int    // offset of the key's opening quote
	value   int    // offset of the value
	end     int    // offset just after the value
	dropped bool   // a later member has the same key
}

// span is a byte range [from, to) of the text.
type span struct{ from, to int }

// reader is a recursive-descent reader of one JSON text. Errors stop it: err
// is set and every method returns false.
type reader struct {
	data    []byte
	pos     int
	depth   int
	members []member // stack: the members of every object being read
	drops   []span   // members to leave out, sorted and disjoint
	top     []member // the members of a top-level object, for SetTopLevel
	err     *SyntaxError
}

func (r *reader) document() bool {
	r.space()
	if r.pos == len(r.data) {
		return r.fail(r.pos, "there is no JSON value (the text is empty); write {} for the defaults")
	}
	if !r.value() {
		return false
	}
	r.space()
	if r.pos < len(r.data) {
		return r.unexpected(expectEnd, nil)
	}
	return true
}

// normalized is the text without the dropped members.
func (r *reader) normalized() []byte {
	if len(r.drops) == 0 {
		return r.data
	}
	size := len(r.data)
	for _, d := range r.drops {
		size -= d.to - d.from
	}
	out := make([]byte, 0, size)
	at := 0
	for _, d := range r.drops {
		out = append(out, r.data[at:d.from]...)
		at = d.to
	}
	return append(out, r.data[at:]...)
}

func (r *reader) space() {
	for r.pos < len(r.data) {
		switch r.data[r.pos] {
		case ' ', '\t', '\n', '\r':
			r.pos++
		default:
			return
		}
	}
}

func (r *reader) value() bool {
	if r.pos == len(r.data) {
		return r.fail(r.pos, "the text ends where a value should be")
	}
	switch c := r.data[r.pos]; {
	case c == '{':
		return r.object()
	case c == '[':
		return r.array()
	case c == '"':
		_, ok := r.str()
		return ok
	case c == '-' || isDigit(c):
		return r.number()
	case c == '+':
		return r.fail(r.pos, "a number cannot start with '+'; delete it")
	case c == '.':
		return r.fail(r.pos, "a number needs a digit before the '.' (write 0.5, not .5)")
	case c == 't' || c == 'f' || c == 'n':
		return r.literal()
	}
	return r.unexpected(expectValue, nil)
}

func (r *reader) object() bool {
	open := r.pos
	if !r.enter() {
		return false
	}
	mark, dmark := len(r.members), len(r.drops)
	r.space()
	if r.pos < len(r.data) && r.data[r.pos] == '}' {
		r.pos++
		return r.leave(mark, dmark)
	}
	for {
		r.space()
		if r.pos == len(r.data) {
			return r.unclosed(open)
		}
		start := r.pos
		if r.data[start] != '"' {
			return r.unexpected(expectKey, nil)
		}
		key, ok := r.str()
		if !ok {
			return false
		}
		r.space()
		if r.pos == len(r.data) {
			return r.unclosed(open)
		}
		if r.data[r.pos] != ':' {
			return r.unexpected(expectColon, key)
		}
		r.pos++
		r.space()
		value := r.pos
		if !r.value() {
			return false
		}
		// Appended after the value: a nested object has put its members on
		// the stack and taken them off again by now.
		r.members = append(r.members, member{key: key, start: start, value: value, end: r.pos})
		r.space()
		if r.pos == len(r.data) {
			return r.unclosed(open)
		}
		switch r.data[r.pos] {
		case ',':
			comma := r.pos
			r.pos++
			r.space()
			if r.pos < len(r.data) && r.data[r.pos] == '}' {
				return r.fail(comma, "trailing comma; delete the ',' before '}'")
			}
		case '}':
			r.pos++
			return r.leave(mark, dmark)
		default:
			return r.unexpected(expectMember, key)
		}
	}
}

func (r *reader) array() bool {
	open := r.pos
	if !r.enter() {
		return false
	}
	r.space()
	if r.pos < len(r.data) && r.data[r.pos] == ']' {
		r.pos++
		r.depth--
		return true
	}
	for {
		r.space()
		if r.pos == len(r.data) {
			return r.unclosed(open)
		}
		if !r.value() {
			return false
		}
		r.space()
		if r.pos == len(r.data) {
			return r.unclosed(open)
		}
		switch r.data[r.pos] {
		case ',':
			comma := r.pos
			r.pos++
			r.space()
			if r.pos < len(r.data) && r.data[r.pos] == ']' {
				return r.fail(comma, "trailing comma; delete the ',' before ']'")
			}
		case ']':
			r.pos++
			r.depth--
			return true
		default:
			return r.unexpected(expectElement, nil)
		}
	}
}

func (r *reader) enter() bool {
	r.depth++
	if r.depth > MaxDepth {
		return r.fail(r.pos, "nested more than "+numstr.Itoa(MaxDepth)+" levels deep")
	}
	r.pos++
	return true
}

// leave closes the object whose members start at mark: a member is dropped
// when a later one has the same key. drops[dmark:] holds the drops of the
// objects nested in this one, sorted; this object's own drops are merged in
// and the nested drops inside a dropped member are forgotten, so drops stays
// sorted and disjoint without a sort.
func (r *reader) leave(mark, dmark int) bool {
	r.depth--
	ms := r.members[mark:]
	if markDuplicates(ms) {
		nested := append([]span(nil), r.drops[dmark:]...)
		r.drops = r.drops[:dmark]
		k := 0
		for i := range ms {
			if !ms[i].dropped {
				continue
			}
			// The last member of an object is never dropped, so i+1 exists.
			d := span{ms[i].start, ms[i+1].start}
			for k < len(nested) && nested[k].from < d.from {
				r.drops = append(r.drops, nested[k])
				k++
			}
			for k < len(nested) && nested[k].from < d.to {
				k++
			}
			r.drops = append(r.drops, d)
		}
		r.drops = append(r.drops, nested[k:]...)
	}
	if r.depth == 0 {
		r.top = append(r.top[:0], ms...)
	}
	r.members = r.members[:mark]
	return true
}

// markDuplicates marks every member that a later member overrides and
// reports whether there was one. Small objects compare pairwise; large ones
// (a hostile or generated file) use a set.
func markDuplicates(ms []member) bool {
	found := false
	if len(ms) <= 32 {
		for i := range ms {
			for j := i + 1; j < len(ms); j++ {
				if string(ms[i].key) == string(ms[j].key) {
					ms[i].dropped, found = true, true
					break
				}
			}
		}
		return found
	}
	seen := make(map[string]struct{}, len(ms))
	for i := len(ms) - 1; i >= 0; i-- {
		if _, ok := seen[string(ms[i].key)]; ok {
			ms[i].dropped, found = true, true
			continue
		}
		seen[string(ms[i].key)] = struct{}{}
	}
	return found
}

// str reads a string at r.pos and returns its decoded value: the text
// itself when it holds no escape, else a decoded copy. Escaped surrogates
// that do not pair up are kept as they are (WTF-8), so two keys compare equal
// exactly when JSON.parse would call them equal.
func (r *reader) str() ([]byte, bool) {
	open := r.pos
	r.pos++
	start := r.pos
	var dec []byte // nil until the first escape
	for r.pos < len(r.data) {
		c := r.data[r.pos]
		switch {
		case c == '"':
			s := r.data[start:r.pos]
			r.pos++
			if dec != nil {
				return append(dec, s...), true
			}
			return s, true
		case c == '\\':
			if dec == nil {
				dec = make([]byte, 0, r.pos-start+8)
			}
			dec = append(dec, r.data[start:r.pos]...)
			var ok bool
			if dec, ok = r.escape(dec); !ok {
				return nil, false
			}
			start = r.pos
		case c == '\n' || c == '\r':
			return nil, r.fail(open, "this string is not closed on its line; end it with '\"' (a line break inside a string is written \\n)")
		case c < 0x20:
			name := "control character U+00" + string(hexDigit(c>>4)) + string(hexDigit(c&15))
			if c == '\t' {
				name = "tab"
			}
			return nil, r.fail(r.pos, "a "+name+" inside a string must be written as an escape ("+controlEscape(c)+")")
		case c < utf8.RuneSelf:
			r.pos++
		default:
			ch, size := utf8.DecodeRune(r.data[r.pos:])
			if ch == utf8.RuneError && size == 1 {
				return nil, r.notUTF8()
			}
			r.pos += size
		}
	}
	return nil, r.fail(open, "this string is never closed; end it with '\"'")
}

// escape decodes the escape at r.pos onto dec.
func (r *reader) escape(dec []byte) ([]byte, bool) {
	at := r.pos
	if at+1 >= len(r.data) {
		return nil, r.fail(at, "the text ends inside an escape")
	}
	r.pos += 2
	switch c := r.data[at+1]; c {
	case '"', '\\', '/':
		return append(dec, c), true
	case 'b':
		return append(dec, '\b'), true
	case 'f':
		return append(dec, '\f'), true
	case 'n':
		return append(dec, '\n'), true
	case 'r':
		return append(dec, '\r'), true
	case 't':
		return append(dec, '\t'), true
	case 'u':
		u, ok := r.hex4(at)
		if !ok {
			return nil, false
		}
		if u >= 0xD800 && u < 0xDC00 && r.pos+1 < len(r.data) && r.data[r.pos] == '\\' && r.data[r.pos+1] == 'u' {
			save := r.pos
			r.pos += 2
			lo, ok := r.hex4(save)
			if !ok {
				return nil, false
			}
			if lo >= 0xDC00 && lo < 0xE000 {
				return utf8.AppendRune(dec, 0x10000+(u-0xD800)<<10+(lo-0xDC00)), true
			}
			r.pos = save
		}
		if u >= 0xD800 && u < 0xE000 {
			return append(dec, byte(0xE0|u>>12), byte(0x80|(u>>6)&0x3F), byte(0x80|u&0x3F)), true
		}
		return utf8.AppendRune(dec, u), true
	}
	return nil, r.fail(at, "invalid escape; JSON has \\\" \\\\ \\/ \\b \\f \\n \\r \\t and \\u followed by 4 hex digits (write \\\\ for a backslash)")
}

// hex4 reads the 4 hex digits of a \u escape that starts at at.
func (r *reader) hex4(at int) (rune, bool) {
	var u rune
	for i := 0; i < 4; i++ {
		if r.pos >= len(r.data) {
			return 0, r.fail(at, "the text ends inside a \\u escape")
		}
		c := r.data[r.pos]
		var d byte
		switch {
		case isDigit(c):
			d = c - '0'
		case c >= 'a' && c <= 'f':
			d = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			d = c - 'A' + 10
		default:
			return 0, r.fail(at, "\\u must be followed by 4 hex digits")
		}
		u = u<<4 | rune(d)
		r.pos++
	}
	return u, true
}

// number reads -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
func (r *reader) number() bool {
	start := r.pos
	if r.data[r.pos] == '-' {
		r.pos++
		if r.pos == len(r.data) || !isDigit(r.data[r.pos]) {
			return r.fail(start, "a '-' must be followed by a digit")
		}
	}
	if r.data[r.pos] == '0' {
		r.pos++
		if r.pos < len(r.data) && isDigit(r.data[r.pos]) {
			return r.fail(start, "a number cannot start with 0 (write 7, not 07)")
		}
	} else {
		r.digits()
	}
	if r.pos < len(r.data) && r.data[r.pos] == '.' {
		r.pos++
		if r.pos == len(r.data) || !isDigit(r.data[r.pos]) {
			return r.fail(r.pos-1, "a digit must follow the '.' (write 1.0, not 1.)")
		}
		r.digits()
	}
	if r.pos < len(r.data) && (r.data[r.pos] == 'e' || r.data[r.pos] == 'E') {
		e := r.pos
		r.pos++
		if r.pos < len(r.data) && (r.data[r.pos] == '+' || r.data[r.pos] == '-') {
			r.pos++
		}
		if r.pos == len(r.data) || !isDigit(r.data[r.pos]) {
			return r.fail(e, "a digit must follow the exponent's 'e'")
		}
		r.digits()
	}
	if r.pos < len(r.data) && (isWordByte(r.data[r.pos]) || r.data[r.pos] == '.') {
		end := r.pos
		for end < len(r.data) && (isWordByte(r.data[end]) || r.data[end] == '.') {
			end++
		}
		return r.fail(start, strconv.Quote(string(r.data[start:end]))+" is not a JSON number; write plain decimal digits")
	}
	return true
}

func (r *reader) digits() {
	for r.pos < len(r.data) && isDigit(r.data[r.pos]) {
		r.pos++
	}
}

// literal reads true, false or null.
func (r *reader) literal() bool {
	w := r.word()
	switch string(w) {
	case "true", "false", "null":
		r.pos += len(w)
		return true
	}
	return r.unexpected(expectValue, nil)
}

// word is the run of letters, digits, '_' and '$' at r.pos: an unquoted
// word, as JavaScript and JSON5 allow and JSON does not.
func (r *reader) word() []byte {
	end := r.pos
	for end < len(r.data) && isWordByte(r.data[end]) {
		end++
	}
	return r.data[r.pos:end]
}

// expect is what the reader was looking for when it found something else.
type expect int

const (
	expectValue   expect = iota
	expectKey            // a key, or the '}' of an empty object
	expectColon          // the ':' after a key
	expectMember         // ',' or '}' after a member's value
	expectElement        // ',' or ']' after an array element
	expectEnd            // nothing after the top-level value
)

// unexpected fails at r.pos, saying what was found instead of want and, for
// the usual mistakes, what to write instead. key is the member's key for
// expectColon and expectMember.
func (r *reader) unexpected(want expect, key []byte) bool {
	at := r.pos
	c := r.data[at]
	var what string
	switch want {
	case expectValue:
		what = "a value"
	case expectKey:
		what = "a key in double quotes"
	case expectColon:
		what = "':' after the key " + strconv.Quote(string(key))
	case expectMember:
		what = "',' or '}' after the value of " + strconv.Quote(string(key))
	case expectElement:
		what = "',' or ']' after an array element"
	case expectEnd:
		what = "nothing after the end of the JSON value"
	}
	startsValue := c == '"' || c == '{' || c == '[' || c == '-' || isDigit(c) || isWordByte(c)
	switch {
	case c == '/' && at+1 < len(r.data) && (r.data[at+1] == '/' || r.data[at+1] == '*'):
		return r.fail(at, "comments are not JSON; delete the comment")
	case c == '\'':
		return r.fail(at, "strings need double quotes, not single quotes")
	case want == expectMember && startsValue:
		return r.fail(at, "a ',' is missing after the value of "+strconv.Quote(string(key)))
	case want == expectColon && startsValue:
		return r.fail(at, "a ':' is missing after the key "+strconv.Quote(string(key)))
	case want == expectElement && startsValue:
		return r.fail(at, "a ',' is missing between two array elements")
	case c == ',' && want == expectKey:
		return r.fail(at, "an extra ','; delete it")
	case isWordByte(c):
		w := string(r.word())
		switch {
		case want == expectKey:
			return r.fail(at, "keys need double quotes: write "+strconv.Quote(w))
		case w == "NaN" || w == "Infinity":
			return r.fail(at, w+" is not JSON; write a number")
		case w == "undefined":
			return r.fail(at, "undefined is not JSON; write null or leave the key out")
		case want == expectValue:
			return r.fail(at, "unknown word "+strconv.Quote(w)+"; JSON has true, false and null (lower case) and strings in double quotes")
		}
		return r.fail(at, "unexpected "+strconv.Quote(w)+"; expected "+what)
	case c >= utf8.RuneSelf:
		ch, size := utf8.DecodeRune(r.data[at:])
		if ch == utf8.RuneError && size == 1 {
			return r.notUTF8()
		}
		if ch == 0xFEFF {
			return r.fail(at, "unexpected byte-order mark (U+FEFF); delete it")
		}
		return r.fail(at, "unexpected "+strconv.QuoteRune(ch)+"; expected "+what)
	case c < 0x20 || c == 0x7F:
		return r.fail(at, "unexpected control character U+00"+string(hexDigit(c>>4))+string(hexDigit(c&15))+"; expected "+what)
	}
	return r.fail(at, "unexpected '"+string(rune(c))+"'; expected "+what)
}

func (r *reader) unclosed(open int) bool {
	line, col := r.position(open)
	kind, close := "object", "}"
	if r.data[open] == '[' {
		kind, close = "array", "]"
	}
	return r.fail(r.pos, "the text ends before the "+kind+" opened at line "+numstr.Itoa(line)+
		", column "+numstr.Itoa(col)+" is closed; add '"+close+"'")
}

func (r *reader) notUTF8() bool {
	b := r.data[r.pos]
	return r.fail(r.pos, "byte 0x"+string(hexDigit(b>>4))+string(hexDigit(b&15))+" is not UTF-8 text; save the file as UTF-8")
}

// fail records the first error, at byte offset at, and returns false.
//
//go:noinline
func (r *reader) fail(at int, msg string) bool {
	if r.err == nil {
		line, col := r.position(at)
		r.err = &SyntaxError{Line: line, Column: col, Offset: at, Msg: msg}
	}
	return false
}

// position turns a byte offset into a line and a column in characters.
func (r *reader) position(at int) (line, col int) {
	line, lineStart := 1, 0
	for i := 0; i < at && i < len(r.data); i++ {
		if r.data[i] == '\n' {
			line, lineStart = line+1, i+1
		}
	}
	return line, utf8.RuneCount(r.data[lineStart:at]) + 1
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || isDigit(c) || c == '_' || c == '$'
}

func hexDigit(b byte) byte { return "0123456789ABCDEF"[b] }

func controlEscape(c byte) string {
	switch c {
	case '\t':
		return "\\t"
	case '\b':
		return "\\b"
	case '\f':
		return "\\f"
	}
	return "\\u00" + string(hexDigit(c>>4)) + string(hexDigit(c&15))
}
