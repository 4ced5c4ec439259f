// Package config reads the JSON configuration files of every store with one
// rule: a bad value never stops pi. Each problem becomes a warning that names
// the file and the key and says which safe value is used instead. It holds the
// reading mechanics only; each store declares its own keys, defaults and clamps.
package config

import (
	"math"
	"strconv"

	"github.com/tidwall/gjson"
)

// File is one parsed configuration file. A missing file is Present=false and
// reads every key as absent.
type File struct {
	Name     string // path shown in warnings
	Present  bool
	root     gjson.Result
	Warnings []string
}

// Parse reads data (nil when the file does not exist) for the file called name.
//
//	Parse("/p/.pi/x.json", []byte(`{"enabled": "yes"}`)).Bool("enabled", true)
//	=> true, with the warning `/p/.pi/x.json: "enabled" must be true or false (got "yes"); using true`
func Parse(name string, data []byte) *File {
	f := &File{Name: name}
	if data == nil {
		return f
	}
	f.Present = true
	if !gjson.ValidBytes(data) {
		f.warn("is not valid JSON; ignoring the whole file (fix it or delete it)")
		return f
	}
	f.root = gjson.ParseBytes(data)
	if !f.root.IsObject() {
		f.warn("must hold a JSON object; ignoring the whole file")
		f.root = gjson.Result{}
	}
	return f
}

func (f *File) warn(msg string) { f.Warnings = append(f.Warnings, f.Name+": "+msg) }

func (f *File) bad(key, want string, got gjson.Result, using string) {
	f.warn(strconv.Quote(key) + " must be " + want + " (got " + got.Raw + "); using " + using)
}

// Has reports whether key is set (any type). Keys are gjson paths ("a.b").
func (f *File) Has(key string) bool { return f.root.Get(key).Exists() }

// Object reports whether key holds an object; a key of another type is warned about.
func (f *File) Object(key string) bool {
	v := f.root.Get(key)
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
	v := f.root.Get(key)
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
	v := f.root.Get(key)
	if !v.Exists() {
		return def, false
	}
	if v.Type != gjson.Number || math.IsNaN(v.Num) || v.Num != math.Trunc(v.Num) {
		f.bad(key, "a whole number", v, strconv.Itoa(def))
		return def, false
	}
	n := v.Num
	if n < float64(min) {
		f.warn(strconv.Quote(key) + " is below " + strconv.Itoa(min) + " (got " + v.Raw + "); using " + strconv.Itoa(min))
		return min, true
	}
	if n > float64(max) {
		f.warn(strconv.Quote(key) + " is above " + strconv.Itoa(max) + " (got " + v.Raw + "); using " + strconv.Itoa(max))
		return max, true
	}
	return int(n), true
}

// Float returns the number at key clamped to [min, max], or def.
func (f *File) Float(key string, def, min, max float64) (float64, bool) {
	v := f.root.Get(key)
	if !v.Exists() {
		return def, false
	}
	if v.Type != gjson.Number {
		f.bad(key, "a number", v, strconv.FormatFloat(def, 'g', -1, 64))
		return def, false
	}
	if v.Num < min || v.Num > max {
		c := math.Min(math.Max(v.Num, min), max)
		f.warn(strconv.Quote(key) + " must be between " + strconv.FormatFloat(min, 'g', -1, 64) + " and " + strconv.FormatFloat(max, 'g', -1, 64) + " (got " + v.Raw + "); using " + strconv.FormatFloat(c, 'g', -1, 64))
		return c, true
	}
	return v.Num, true
}

// Enum returns the string at key when it is one of allowed, else def.
func (f *File) Enum(key, def string, allowed ...string) (string, bool) {
	v := f.root.Get(key)
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
// not in known, which catches typos such as "maxDecision".
func (f *File) Unknown(known map[string][]string) {
	if !f.root.IsObject() {
		return
	}
	f.root.ForEach(func(k, v gjson.Result) bool {
		sub, ok := known[k.Str]
		if !ok {
			f.warn("unknown key " + strconv.Quote(k.Str) + " (ignored)")
			return true
		}
		if sub != nil && v.IsObject() {
			v.ForEach(func(k2, _ gjson.Result) bool {
				found := false
				for _, s := range sub {
					if s == k2.Str {
						found = true
						break
					}
				}
				if !found {
					f.warn("unknown key " + strconv.Quote(k.Str+"."+k2.Str) + " (ignored)")
				}
				return true
			})
		}
		return true
	})
}

// SetTopLevel returns data with the top-level key set to the raw JSON value,
// keeping every other key, its order and formatting. Used by enable/disable so
// a person's config file is edited, not rewritten.
//
//	SetTopLevel([]byte(`{"a": 1, "enabled": true}`), "enabled", "false") => {"a": 1, "enabled": false}
func SetTopLevel(data []byte, key, raw string) []byte {
	root := gjson.ParseBytes(data)
	if len(data) == 0 || !gjson.ValidBytes(data) || !root.IsObject() {
		return []byte("{\n  " + strconv.Quote(key) + ": " + raw + "\n}\n")
	}
	v := root.Get(gjson.Escape(key))
	if v.Exists() && v.Index > 0 {
		out := make([]byte, 0, len(data)+len(raw))
		out = append(out, data[:v.Index]...)
		out = append(out, raw...)
		out = append(out, data[v.Index+len(v.Raw):]...)
		return out
	}
	// Insert as the first key, after the opening brace.
	i := 0
	for i < len(data) && data[i] != '{' {
		i++
	}
	entry := "\n  " + strconv.Quote(key) + ": " + raw
	rest := data[i+1:]
	empty := true
	for _, c := range rest {
		if c == '}' {
			break
		}
		if c != ' ' && c != '\n' && c != '\t' && c != '\r' {
			empty = false
			break
		}
	}
	if !empty {
		entry += ","
	}
	out := make([]byte, 0, len(data)+len(entry))
	out = append(out, data[:i+1]...)
	out = append(out, entry...)
	if empty {
		out = append(out, '\n')
		j := 0
		for j < len(rest) && rest[j] != '}' {
			j++
		}
		rest = rest[j:]
	}
	out = append(out, rest...)
	return out
}
