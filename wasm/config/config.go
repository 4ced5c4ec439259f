// Package config reads the JSON configuration files of every store. A file
// is read strictly (RFC 8259 JSON, the last of duplicated keys wins, as in
// JSON.parse) so that what pi-memory reads is what a person or any other tool
// reads. Two rules follow: the key that turns a store off fails closed (a
// file that cannot be read as written, or a switch that is not true or false,
// means off: see Switch), and every other bad value never stops pi: it
// becomes a warning naming the file and the key and the safe value used
// instead. The package holds the reading and editing mechanics only; each
// store declares its own keys, defaults and clamps, and decides what a
// broken file means for it.
package config

import (
	"github.com/pi-memory/pi-memory/wasm/internal/numstr"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/pi-memory/pi-memory/wasm/internal/jsonr"
	"github.com/pi-memory/pi-memory/wasm/marker"
	"github.com/pi-memory/pi-memory/wasm/redact"
	"github.com/tidwall/gjson"
)

// File is one parsed configuration file. A missing file is Present=false and
// reads every key as absent; so does a file that is present but cannot be
// read as written (Switch says why).
type File struct {
	Name     string // path shown in warnings
	Present  bool
	broken   string // why the file cannot be read as written, naming it; "" when it can
	root     gjson.Result
	Warnings []string
}

// bom is the UTF-8 byte-order mark some editors write at the start of a file.
const bom = "\xEF\xBB\xBF"

// Parse reads data (nil when the file does not exist) for the file called
// name. A UTF-8 byte-order mark at the start is skipped.
//
//	Parse("/p/.pi/x.json", []byte(`{"enabled": "yes"}`)).Bool("enabled", true)
//	=> true, with the warning `/p/.pi/x.json: "enabled" must be true or false (got "yes"); using true`
func Parse(name string, data []byte) *File {
	f := &File{Name: name}
	if data == nil {
		return f
	}
	f.Present = true
	r := reader{data: trimBOM(data)}
	r.space()
	if r.pos == len(r.data) {
		f.broken = name + " is empty; write {} in it for the defaults, or delete it"
		return f
	}
	norm, err := Normalize(r.data)
	if err != nil {
		f.broken = name + " is not valid JSON: " + err.Error()
		return f
	}
	if norm[r.pos] != '{' {
		f.broken = notObject(name, norm[r.pos])
		return f
	}
	f.root = gjson.ParseBytes(norm)
	return f
}

// Unreadable is a file that exists but could not be read (permission
// denied, too large, a folder): it might turn a store off, so it counts as a
// file that cannot be read as written, and the store fails closed.
func Unreadable(name, why string) *File {
	return &File{Name: name, Present: true, broken: name + " cannot be read (" + why + "); fix or remove it"}
}

func trimBOM(data []byte) []byte {
	if len(data) >= len(bom) && string(data[:len(bom)]) == bom {
		return data[len(bom):]
	}
	return data
}

// notObject says that the file called name holds a JSON value other than an
// object; first is the value's first byte.
func notObject(name string, first byte) string {
	kind := "a number"
	switch first {
	case '[':
		kind = "an array"
	case '"':
		kind = "a string"
	case 't', 'f':
		kind = "a boolean"
	case 'n':
		kind = "null"
	}
	return name + " must hold a JSON object such as {\"enabled\": true} (it holds " + kind + ")"
}

// Switch reads the boolean key that turns a store on or off. That key fails
// closed: when the file cannot be read as written (not valid JSON, not an
// object) or the key holds anything but true or false, unclear says so,
// naming the file, the key or the line and column, and what to write; the
// store must then be off. set reports that the file says true or false.
//
//	Switch on {"enabled": false}   => on=false set=true  unclear=""
//	Switch on {}                   => on=false set=false unclear=""
//	Switch on {"enabled": "false"} => unclear=`FILE: "enabled" must be true or false without quotes (got "false")`
func (f *File) Switch(key string) (on, set bool, unclear string) {
	if f.broken != "" {
		return false, false, f.broken
	}
	v := jsonr.Get(f.root, key)
	switch {
	case !v.Exists():
		return false, false, ""
	case v.Type == gjson.True || v.Type == gjson.False:
		return v.Type == gjson.True, true, ""
	}
	hint := ""
	if v.Type == gjson.String && (v.Str == "true" || v.Str == "false") {
		hint = " without quotes"
	}
	return false, false, f.Name + ": " + strconv.Quote(key) + " must be true or false" + hint + " (got " + shown(key, v.Raw) + ")"
}

func (f *File) warn(msg string) { f.Warnings = append(f.Warnings, f.Name+": "+msg) }

func (f *File) bad(key, want string, got gjson.Result, using string) {
	f.warn(strconv.Quote(key) + " must be " + want + " (got " + shown(key, got.Raw) + "); using " + shown(key, using))
}

// maxShown is how much of a bad value a warning says back.
const maxShown = 60

// shown is a value of key as a warning says it back: redacted, then cut at
// maxShown bytes, and never the value of a key that holds a secret (apiKey:
// its value is one whatever it looks like, and a warning is shown on the
// screen, in a log, in pi's print mode).
//
//	shown("recall.timeoutMs", `"fast"`)  => `"fast"`
//	shown("apiKey", `["hsk_9f8e7d6c"]`) => "a value not shown (it is a secret)"
func shown(key, raw string) string {
	k := strings.ToLower(key[strings.LastIndexByte(key, '.')+1:])
	if raw != `""` && (strings.HasSuffix(k, "key") || strings.HasSuffix(k, "token") || strings.Contains(k, "secret") || strings.Contains(k, "password")) {
		return "a value not shown (it is a secret)"
	}
	// Redacted whole, then cut: a token cut short is no longer one the
	// redaction knows, and 13 of its 16 characters were said back.
	raw, _ = redact.String(raw)
	// JSON lets a string hold a line separator raw; said back it would end
	// the warning's line: written as JSON escapes it, as a key's is (h-v79 B7).
	raw = strings.NewReplacer("\u2028", `\u2028`, "\u2029", `\u2029`, "\u0085", `\u0085`).Replace(raw)
	if len(raw) > maxShown {
		cut := maxShown
		for cut > 0 && raw[cut]&0xC0 == 0x80 {
			cut--
		}
		raw = raw[:cut] + "…"
	}
	return raw
}

// Has reports whether key is set (any type). Keys are plain dotted paths ("a.b", see jsonr.Get).
func (f *File) Has(key string) bool { return jsonr.Get(f.root, key).Exists() }

// Object reports whether key holds an object; a key of another type is warned about.
func (f *File) Object(key string) bool {
	v := jsonr.Get(f.root, key)
	if !v.Exists() {
		return false
	}
	if !v.IsObject() {
		f.bad(key, "an object", v, "the defaults")
		return false
	}
	return true
}

// Bool returns the boolean at key, or def (ok=false) when absent or invalid.
func (f *File) Bool(key string, def bool) (bool, bool) {
	v := jsonr.Get(f.root, key)
	if !v.Exists() {
		return def, false
	}
	if v.Type != gjson.True && v.Type != gjson.False {
		f.bad(key, "true or false", v, strconv.FormatBool(def))
		return def, false
	}
	return v.Bool(), true
}

// Int returns the whole number at key clamped to [min, max], or def when
// absent or invalid. Clamping is warned about too.
func (f *File) Int(key string, def, min, max int) (int, bool) {
	v := jsonr.Get(f.root, key)
	if !v.Exists() {
		return def, false
	}
	if v.Type != gjson.Number || math.IsNaN(v.Num) || v.Num != math.Trunc(v.Num) {
		f.bad(key, "a whole number", v, numstr.Itoa(def))
		return def, false
	}
	n := v.Num
	if n < float64(min) {
		f.warn(strconv.Quote(key) + " is below " + numstr.Itoa(min) + " (got " + shown(key, v.Raw) + "); using " + numstr.Itoa(min))
		return min, true
	}
	if n > float64(max) {
		f.warn(strconv.Quote(key) + " is above " + numstr.Itoa(max) + " (got " + shown(key, v.Raw) + "); using " + numstr.Itoa(max))
		return max, true
	}
	return int(n), true
}

// Float returns the number at key clamped to [min, max], or def.
func (f *File) Float(key string, def, min, max float64) (float64, bool) {
	v := jsonr.Get(f.root, key)
	if !v.Exists() {
		return def, false
	}
	if v.Type != gjson.Number {
		f.bad(key, "a number", v, strconv.FormatFloat(def, 'g', -1, 64))
		return def, false
	}
	if v.Num < min || v.Num > max {
		c := math.Min(math.Max(v.Num, min), max)
		f.warn(strconv.Quote(key) + " must be between " + strconv.FormatFloat(min, 'g', -1, 64) + " and " + strconv.FormatFloat(max, 'g', -1, 64) + " (got " + shown(key, v.Raw) + "); using " + strconv.FormatFloat(c, 'g', -1, 64))
		return c, true
	}
	return v.Num, true
}

// Enum returns the string at key when it is one of allowed, else def.
func (f *File) Enum(key, def string, allowed ...string) (string, bool) {
	v := jsonr.Get(f.root, key)
	if !v.Exists() {
		return def, false
	}
	if v.Type == gjson.String {
		for _, a := range allowed {
			if v.Str == a {
				return a, true
			}
		}
	}
	want := ""
	for i, a := range allowed {
		if i > 0 {
			want += ", "
		}
		want += strconv.Quote(a)
	}
	f.bad(key, "one of "+want, v, strconv.Quote(def))
	return def, false
}

// Unknown warns about top-level keys (and keys of the given objects) that are
// not in known, which catches typos such as "maxDecision". It names the
// first maxUnknown and counts the rest: a file of 90,000 unknown keys is one
// screen of warnings, not 90,000.
func (f *File) Unknown(known map[string][]string) {
	if !f.root.IsObject() {
		return
	}
	n := 0
	unknown := func(key string) {
		if n++; n <= maxUnknown {
			f.warn("unknown key " + strconv.Quote(key) + " (ignored)")
		}
	}
	f.root.ForEach(func(k, v gjson.Result) bool {
		sub, ok := known[k.Str]
		if !ok {
			unknown(k.Str)
			return true
		}
		if sub != nil && v.IsObject() {
			v.ForEach(func(k2, _ gjson.Result) bool {
				if !slices.Contains(sub, k2.Str) {
					unknown(k.Str + "." + k2.Str)
				}
				return true
			})
		}
		return true
	})
	if n > maxUnknown {
		f.warn(numstr.Itoa(n-maxUnknown) + " more unknown keys (ignored)")
	}
}

// maxUnknown is how many unknown keys Unknown names.
const maxUnknown = 5

// Str returns the string at key, or def (ok=false) when absent or not a string.
func (f *File) Str(key, def string) (string, bool) {
	v := jsonr.Get(f.root, key)
	if !v.Exists() {
		return def, false
	}
	if v.Type != gjson.String {
		f.bad(key, "a string", v, strconv.Quote(def))
		return def, false
	}
	if f.unreadable(key, v.Str, strconv.Quote(def)) {
		return def, false
	}
	return v.Str, true
}

// unreadable warns, and says so, when the string s at key holds what a
// terminal or a model would read as something else (marker.Check: a
// control character, an escape, our own markers): a value is shown and
// sent on (a bank's id in a tool's answer), so it is refused here, once,
// for every store.
func (f *File) unreadable(key, s, using string) bool {
	why := marker.Check(s)
	if why == "" {
		return false
	}
	f.warn(strconv.Quote(key) + " holds " + marker.Data(why) + ", which a terminal or a model would read as something else; using " + shown(key, using))
	return true
}

// Strs returns the list of strings at key, or def (ok=false) when absent or
// not a list of strings.
func (f *File) Strs(key string, def []string) ([]string, bool) {
	v := jsonr.Get(f.root, key)
	if !v.Exists() {
		return def, false
	}
	var out []string
	good := v.IsArray()
	v.ForEach(func(_, s gjson.Result) bool {
		good = good && s.Type == gjson.String
		out = append(out, s.Str)
		return good
	})
	if !good {
		f.bad(key, "a list of strings", v, "the default")
		return def, false
	}
	for _, s := range out {
		if f.unreadable(key, s, "the default") {
			return def, false
		}
	}
	return out, true
}

// Broken says why the file cannot be read as written (naming it), or "".
func (f *File) Broken() string { return f.broken }
