package decision

import (
	"errors"
	"github.com/pi-memory/pi-memory/wasm/internal/numstr"
	"strconv"

	"github.com/pi-memory/pi-memory/wasm/internal/civil"
	"github.com/pi-memory/pi-memory/wasm/internal/jsonw"
)

// version is the event format version this code writes and reads.
const version = 1

// The errors of decode. Each is reported by doctor with its line number.
var (
	errSyntax        = errors.New("not a JSON object")
	errVersion       = errors.New("unsupported version")
	errMissing       = errors.New("missing field")
	errUnknownCode   = errors.New("unknown event code")
	errDepth         = errors.New("too deeply nested")
	errUnknownStatus = errors.New("unknown status")
)

// decodeError says what is wrong with a line and where.
type decodeError struct {
	Err    error
	Offset int    // byte offset in the line, for syntax errors
	Detail string // the field or value concerned
}

func (e *decodeError) Error() string {
	s := e.Err.Error()
	if e.Detail != "" {
		s += ": " + e.Detail
	}
	if e.Err == errSyntax || e.Err == errDepth {
		s += " (at byte " + numstr.Itoa(e.Offset+1) + ")"
	}
	return s
}

func (e *decodeError) Unwrap() error { return e.Err }

// decode reads one log line into its readable form. Strings are copied into
// arena (nil allocates normally). Unknown keys are skipped, never an error.
//
//	decode([]byte(`{"v":1,"t":"2026-02-27T06:00:00.000Z","p":"ab","e":"a","i":"D-2026-02-27-0001","d":{"tx":"Use PostgreSQL","s":"active"},"u":"user"}`), nil)
//	=> Event{V:1, Code:Add, ID:"D-2026-02-27-0001", Data:{Text:"Use PostgreSQL", Status:Active}, …}
func decode(line []byte, arena *arena) (Event, error) {
	var ev Event
	var s scanner
	err := s.decode(line, arena, &ev)
	return ev, err
}

// decode is decode into reusable storage: the reader keeps one scanner and one
// Event for a whole replay, so nothing escapes to the heap per line.
func (s *scanner) decode(line []byte, arena *arena, ev *Event) error {
	*ev = Event{}
	s.b, s.i, s.arena, s.deep, s.status = line, 0, arena, false, ""
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
					return &decodeError{Err: errVersion, Detail: "v is not a number"}
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
					ev.TimeMs = civil.ParseTime(str)
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
					if ev.Code == codeNone {
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
		return &decodeError{Err: errMissing, Detail: "v"}
	case ev.V != version:
		return &decodeError{Err: errVersion, Detail: "v=" + numstr.Itoa(ev.V) + " (this pi-memory reads v=1; a newer version wrote this line)"}
	case seen&4 == 0:
		return &decodeError{Err: errMissing, Detail: "e"}
	case badCode != nil:
		return unknownCode(badCode)
	case seen&8 == 0:
		return &decodeError{Err: errMissing, Detail: "i"}
	case seen&2 == 0:
		return &decodeError{Err: errMissing, Detail: "t"}
	case s.status != "":
		return &decodeError{Err: errUnknownStatus, Detail: "s=" + s.status + " (active, draft, rejected or superseded)"}
	}
	return nil
}

func unknownCode(raw []byte) error {
	return &decodeError{Err: errUnknownCode, Detail: "e=" + string(raw)}
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
	return codeNone
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
				d.ConflictNote, d.Has = str, d.Has|hasConflictNote
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
				d.Supersedes, d.Has = str, d.Has|hasSupersedes
			}
		case "s":
			b, isStr, ok := s.rawString()
			if !ok {
				return false
			}
			if isStr {
				if st := parseStatusBytes(b); st != statusNone {
					d.Status, d.Has = st, d.Has|HasStatus
				} else {
					s.status = strconv.Quote(string(b[:min(len(b), 64)])) // h-v77 B3: it was taken for active
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
					d.Conflicts, d.Has = list, d.Has|hasConflicts
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
	return statusNone
}

// Encode writes an event as one compact line (without the newline), keys in
// the documented order (docs/formats.md). Data keys are written when present in d.Has; an add always
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
		has |= HasText | HasTags | HasStatus | hasSupersedes | hasConflicts
		if d.Status == statusNone {
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
		dw.Strs("tg", d.Tags)
	}
	if has&HasStatus != 0 {
		dw.Str("s", d.Status.String())
	}
	if has&HasReason != 0 {
		dw.Str("r", d.Reason)
	}
	if has&hasSupersedes != 0 {
		if d.Supersedes == "" {
			dw.Null("sp")
		} else {
			dw.Str("sp", d.Supersedes)
		}
	}
	if has&hasConflicts != 0 {
		dw.Strs("c", d.Conflicts)
	}
	if has&HasSupersededBy != 0 {
		dw.Str("sb", d.SupersededBy)
	}
	if has&hasConflictNote != 0 {
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
