package config

import (
	"errors"
	"strconv"
)

// SetTopLevel returns data, the content of the file called name, with the
// top-level key set to the raw JSON value, keeping every other key, its
// order and formatting, so that a person's file is edited, not rewritten.
// When the key appears more than once, the last occurrence (the one that
// counts) gets the value and the earlier ones are removed. A missing or
// blank file becomes a new object. A file that is not valid JSON, or holds
// something other than an object, is refused with an error that names it
// (and the line and column): only a person can tell what it meant.
//
//	SetTopLevel("c.json", []byte(`{"a": 1, "enabled": true}`), "enabled", "false") => {"a": 1, "enabled": false}
func SetTopLevel(name string, data []byte, key, raw string) ([]byte, error) {
	body := trimBOM(data)
	head := data[:len(data)-len(body)]
	r := reader{data: body}
	r.space()
	if r.pos == len(body) {
		out := append([]byte(nil), head...)
		return append(out, "{\n  "+strconv.Quote(key)+": "+raw+"\n}\n"...), nil
	}
	open := r.pos
	if !r.document() {
		return nil, errors.New(name + " is not valid JSON: " + r.err.Error())
	}
	if body[open] != '{' {
		return nil, errors.New(notObject(name, body[open]))
	}
	entry := strconv.Quote(key) + ": " + raw
	out := make([]byte, 0, len(data)+len(entry)+4)
	out = append(out, head...)
	last := -1
	for i := range r.top {
		if string(r.top[i].key) == key {
			last = i
		}
	}
	switch {
	case len(r.top) == 0:
		// An empty object: whatever stood between the braces was blank.
		closing := open + 1
		for body[closing] != '}' {
			closing++
		}
		out = append(out, body[:open+1]...)
		out = append(out, "\n  "+entry+"\n"...)
		return append(out, body[closing:]...), nil
	case last < 0:
		// A new first key, spaced like the key that follows it.
		first := r.top[0].start
		gap := body[open+1 : first]
		if len(gap) == 0 {
			gap = []byte(" ")
		}
		out = append(out, body[:first]...)
		out = append(out, entry+","...)
		out = append(out, gap...)
		return append(out, body[first:]...), nil
	}
	at := 0
	for i := 0; i < last; i++ {
		if string(r.top[i].key) == key {
			// Up to the next key: the member, its comma and the space after.
			out = append(out, body[at:r.top[i].start]...)
			at = r.top[i+1].start
		}
	}
	m := r.top[last]
	out = append(out, body[at:m.value]...)
	out = append(out, raw...)
	return append(out, body[m.end:]...), nil
}
