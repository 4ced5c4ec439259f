// Package jsonr finds a value inside JSON that gjson has parsed, by a plain
// path of object keys and array indexes separated by dots ("log.size",
// "sections.tags.0"). The core reads every field through it instead of
// gjson's own Get, whose path language (wildcards, queries, modifiers) it
// never uses: gjson builds a table of modifiers (@pretty, @reverse…) when it
// starts and its Get reads that table, so a single call to gjson's Get keeps
// every modifier in the module, and with them encoding/json, fmt and
// reflection: about 300 KB of the TinyGo module
// (docs/decisions/009-module-size.md).
//
// It only looks values up; parsing and reading them stays gjson's job
// (Parse, ForEach, Int, String…), but for the unescaping of a string it
// found, which it does to the bytes gjson's gives, only faster (value), and
// writing is jsonw's. It must never grow a path language of its own.
package jsonr

import (
	"strconv"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/tidwall/gjson"
)

// Get returns the value at path in r, or a Result that does not Exist. Each
// dot-separated part of path is a key when the value is an object (the first
// key of that name holding the rest of the path, as gjson does) and an index
// when it is an array. Nothing is found inside a value that is not an object
// or an array. For valid JSON and a path of plain keys (letters, digits, '-',
// '_': none of gjson's wildcards, queries or modifiers), Get returns what
// r.Get(path) returns in gjson, except that gjson also looks for keys in the
// text of a string.
//
//	Get(gjson.Parse(`{"log":{"size":12}}`), "log.size").Int() => 12
//	Get(gjson.Parse(`{"span":[[3,9],[1]]}`), "span.0.1").Int() => 9
//
// Kept out of line: the core calls it at about ninety places, and inlined at
// each it cost the TinyGo module 12 KB.
//
//go:noinline
func Get(r gjson.Result, path string) gjson.Result {
	if r.Type != gjson.JSON {
		return gjson.Result{}
	}
	start, end, ok := locate(r.Raw, path, 0)
	if !ok {
		return gjson.Result{}
	}
	return value(r.Raw[start:end], r.Index+start)
}

// RawAt is the JSON text of the value Get would return, unread: a string
// with its quotes and escapes, "" when there is none. For a string that
// may be megabytes (a pasted log in a prompt), read only its ends (Ends)
// rather than all of it.
//
//	RawAt(gjson.Parse(`{"a":{"b":"x\ny"}}`), "a.b") => `"x\ny"`
func RawAt(r gjson.Result, path string) string {
	if r.Type != gjson.JSON {
		return ""
	}
	start, end, ok := locate(r.Raw, path, 0)
	if !ok {
		return ""
	}
	return r.Raw[start:end]
}

// Fields returns, for each of keys, what Get(r, key) returns (the value of
// the first member of that name when r is an object), reading r once: Get
// for each key would step over every member before it again, and a record
// whose last member is a string of megabytes was read that many times over
// (issue 19). A key is a key here, dots and all, never a path.
//
//	Fields(gjson.Parse(`{"op":"clear","t":1}`), "t", "op", "v") => 1, "clear", nothing
func Fields(r gjson.Result, keys ...string) []gjson.Result {
	out := make([]gjson.Result, len(keys))
	if r.Type != gjson.JSON {
		return out
	}
	json := r.Raw
	i := space(json, 0)
	if i == len(json) || json[i] != '{' {
		return out
	}
	found := make([]bool, len(keys))
	for i, left := i+1, len(keys); left > 0; {
		key, vstart, vend, ok := member(json, i)
		if !ok {
			break
		}
		for k := range keys {
			if !found[k] && keys[k] == key {
				out[k], found[k] = value(json[vstart:vend], r.Index+vstart), true
				left--
			}
		}
		i = vend
	}
	return out
}

// locate finds path in the object or array that starts json; base is the
// offset of json in the document. The value is document[start:end].
func locate(json, path string, base int) (start, end int, ok bool) {
	part, rest, more := cut(path)
	i := space(json, 0)
	if i == len(json) {
		return 0, 0, false
	}
	switch json[i] {
	case '{':
		return inObject(json, i+1, part, rest, more, base)
	case '[':
		return inArray(json, i+1, part, rest, more, base)
	}
	return 0, 0, false
}

func inObject(json string, i int, part, rest string, more bool, base int) (start, end int, ok bool) {
	for {
		key, vstart, vend, ok := member(json, i)
		if !ok {
			return 0, 0, false
		}
		if key == part {
			if !more {
				return base + vstart, base + vend, true
			}
			// A key that does not hold the rest of the path does not end the
			// search: a later key of the same name may (gjson reads it so).
			if c := json[vstart]; c == '{' || c == '[' {
				if start, end, ok := locate(json[vstart:vend], rest, base+vstart); ok {
					return start, end, true
				}
			}
		}
		i = vend
	}
}

// member reads the member of an object that starts at json[i] (after the
// '{', or after the member before it): its key and where its value starts
// and ends. ok is false at the end of the object and at JSON it cannot read.
func member(json string, i int) (key string, vstart, vend int, ok bool) {
	i = space(json, i)
	for i < len(json) && json[i] == ',' {
		i = space(json, i+1)
	}
	if i == len(json) || json[i] != '"' {
		return "", 0, 0, false
	}
	kstart := i
	kend, escaped := str(json, i)
	if kend < 0 {
		return "", 0, 0, false
	}
	key = json[kstart+1 : kend-1]
	if escaped {
		key = gjson.Parse(json[kstart:kend]).Str
	}
	i = space(json, kend)
	if i == len(json) || json[i] != ':' {
		return "", 0, 0, false
	}
	vstart = space(json, i+1)
	vend = skip(json, vstart)
	if vend <= vstart {
		return "", 0, 0, false
	}
	return key, vstart, vend, true
}

func inArray(json string, i int, part, rest string, more bool, base int) (start, end int, ok bool) {
	want, ok := index(part)
	if !ok {
		return 0, 0, false
	}
	for n := 0; ; n++ {
		i = space(json, i)
		for i < len(json) && json[i] == ',' {
			i = space(json, i+1)
		}
		if i == len(json) || json[i] == ']' {
			return 0, 0, false
		}
		end := skip(json, i)
		if end <= i {
			return 0, 0, false
		}
		if n == want {
			if !more {
				return base + i, base + end, true
			}
			if c := json[i]; c == '{' || c == '[' {
				return locate(json[i:end], rest, base+i)
			}
			return 0, 0, false
		}
		i = end
	}
}

// value is the Result for raw, one whole JSON value at index in the document:
// gjson.Parse's. A string with escapes is unescaped here rather than by
// gjson, to the same string (FuzzValue): gjson appends it a byte at a time,
// which under TinyGo took 6× as long as copying the runs between escapes,
// and a reflect record's observations are hundreds of kilobytes of text
// with an escape every line (issue 19).
func value(raw string, index int) gjson.Result {
	if len(raw) > 1 && raw[0] == '"' {
		if end, escaped := str(raw, 0); escaped && end == len(raw) {
			return gjson.Result{Type: gjson.String, Raw: raw, Str: unescape(raw[1 : len(raw)-1]), Index: index}
		}
	}
	r := gjson.Parse(raw)
	r.Index = index
	return r
}

// unescape is gjson's unescape (the text of a string between its quotes,
// escapes read, up to the first control character or broken escape), with
// the runs of bytes between escapes copied whole.
func unescape(json string) string {
	out := make([]byte, 0, len(json))
	for i := 0; i < len(json); i++ {
		j := i
		for j < len(json) && json[j] != '\\' && json[j] >= ' ' {
			j++
		}
		out = append(out, json[i:j]...)
		if i = j; i == len(json) || json[i] < ' ' {
			break
		}
		if i++; i >= len(json) {
			break
		}
		switch json[i] {
		case '\\', '/', '"':
			out = append(out, json[i])
			continue
		case 'b':
			out = append(out, '\b')
			continue
		case 'f':
			out = append(out, '\f')
			continue
		case 'n':
			out = append(out, '\n')
			continue
		case 'r':
			out = append(out, '\r')
			continue
		case 't':
			out = append(out, '\t')
			continue
		case 'u':
			if i+5 > len(json) {
				break
			}
			r := hex4(json[i+1:])
			i += 5
			if utf16.IsSurrogate(r) && len(json[i:]) >= 6 && json[i] == '\\' && json[i+1] == 'u' {
				r = utf16.DecodeRune(r, hex4(json[i+2:]))
				i += 6
			}
			out = utf8.AppendRune(out, r)
			i--
			continue
		}
		break
	}
	return string(out)
}

// hex4 reads the four hex digits of a \u escape as gjson does: 0 when
// they are not four hex digits.
func hex4(s string) rune {
	n, _ := strconv.ParseUint(s[:4], 16, 64)
	return rune(n)
}

// cut splits path at its first dot.
func cut(path string) (part, rest string, more bool) {
	for i := 0; i < len(path); i++ {
		if path[i] == '.' {
			return path[:i], path[i+1:], true
		}
	}
	return path, "", false
}

// index reads an array index: decimal digits only, as gjson reads them.
func index(part string) (int, bool) {
	if part == "" {
		return 0, false
	}
	var n uint64
	for i := 0; i < len(part); i++ {
		c := part[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + uint64(c-'0')
	}
	if n > uint64(^uint(0)>>1) {
		return 0, false
	}
	return int(n), true
}

func space(json string, i int) int {
	for i < len(json) && (json[i] == ' ' || json[i] == '\t' || json[i] == '\n' || json[i] == '\r') {
		i++
	}
	return i
}

// str returns the end of the string that starts at json[i] (just past its
// closing quote, or -1 when it is not closed) and whether it holds escapes.
func str(json string, i int) (int, bool) {
	escaped := false
	for i++; i < len(json); i++ {
		switch json[i] {
		case '"':
			return i + 1, escaped
		case '\\':
			escaped = true
			i++
		}
	}
	return -1, escaped
}

// skip returns the end of the value that starts at json[i]: a string, an
// object or array (strings inside it skipped whole), or a number or literal.
// On broken JSON it stops at the end of json, never past it.
func skip(json string, i int) int {
	if i >= len(json) {
		return i
	}
	switch json[i] {
	case '"':
		end, _ := str(json, i)
		if end < 0 {
			return len(json)
		}
		return end
	case '{', '[':
		depth := 0
		for ; i < len(json); i++ {
			switch json[i] {
			case '"':
				end, _ := str(json, i)
				if end < 0 {
					return len(json)
				}
				i = end - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1
				}
			}
		}
		return len(json)
	}
	for ; i < len(json); i++ {
		switch json[i] {
		case ',', '}', ']', ' ', '\t', '\n', '\r':
			return i
		}
	}
	return i
}
