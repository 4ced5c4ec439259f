package jsonr

import "unsafe"

// Valid reports whether json is one JSON value (RFC 8259), with whitespace
// around it: what gjson.Valid reports, without its recursion. gjson's
// validator descends once per level of nesting, and a line nested a few
// thousand levels deep (a recorded tool call's arguments, a hostile MCP
// call) runs the module's stack out; here the open containers are a stack
// of bytes on the heap, and the work is linear in len(json).
//
//	Valid(`{"a":[1,2,{"b":null}]}`) => true
//	Valid(`{"a":1,}`) => false
func Valid(json string) bool {
	var open []byte // '{' or '[' for each container not yet closed
	i := space(json, 0)
	for {
		// A value starts at i.
		if i >= len(json) {
			return false
		}
		switch c := json[i]; {
		case c == '{' || c == '[':
			open = append(open, c)
			i = space(json, i+1)
			if i < len(json) && (c == '{' && json[i] == '}' || c == '[' && json[i] == ']') {
				open = open[:len(open)-1]
				i++
				break
			}
			if c == '{' {
				if i = validMember(json, i); i < 0 {
					return false
				}
			}
			continue
		case c == '"':
			if i = validString(json, i); i < 0 {
				return false
			}
		case c == '-' || c >= '0' && c <= '9':
			if i = validNumber(json, i); i < 0 {
				return false
			}
		case c == 't':
			if i = literal(json, i, "true"); i < 0 {
				return false
			}
		case c == 'f':
			if i = literal(json, i, "false"); i < 0 {
				return false
			}
		case c == 'n':
			if i = literal(json, i, "null"); i < 0 {
				return false
			}
		default:
			return false
		}
		// A value ended at i: close what it ends, then a comma starts the next.
		for {
			i = space(json, i)
			if len(open) == 0 {
				return i == len(json)
			}
			if i >= len(json) {
				return false
			}
			top := open[len(open)-1]
			switch {
			case json[i] == ',':
				i = space(json, i+1)
				if top == '{' {
					if i = validMember(json, i); i < 0 {
						return false
					}
				}
			case top == '{' && json[i] == '}' || top == '[' && json[i] == ']':
				open = open[:len(open)-1]
				i++
				continue
			default:
				return false
			}
			break
		}
	}
}

// validMember checks an object member's key and colon at json[i] and returns
// where its value starts, or -1.
func validMember(json string, i int) int {
	if i >= len(json) || json[i] != '"' {
		return -1
	}
	if i = validString(json, i); i < 0 {
		return -1
	}
	i = space(json, i)
	if i >= len(json) || json[i] != ':' {
		return -1
	}
	return space(json, i+1)
}

// validString returns the end of the string at json[i] (past its quote), or
// -1: no control characters, only JSON's escapes.
func validString(json string, i int) int {
	for i++; i < len(json); i++ {
		switch c := json[i]; {
		case c < ' ':
			return -1
		case c == '"':
			return i + 1
		case c == '\\':
			i++
			if i >= len(json) {
				return -1
			}
			switch json[i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				for k := 1; k <= 4; k++ {
					if i+k >= len(json) || !isHex(json[i+k]) {
						return -1
					}
				}
				i += 4
			default:
				return -1
			}
		}
	}
	return -1
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// validNumber returns the end of the number at json[i], or -1:
// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func validNumber(json string, i int) int {
	if json[i] == '-' {
		i++
	}
	digits := func(i int) int {
		start := i
		for i < len(json) && json[i] >= '0' && json[i] <= '9' {
			i++
		}
		if i == start {
			return -1
		}
		return i
	}
	switch {
	case i < len(json) && json[i] == '0':
		i++
	default:
		if i = digits(i); i < 0 {
			return -1
		}
	}
	if i < len(json) && json[i] == '.' {
		if i = digits(i + 1); i < 0 {
			return -1
		}
	}
	if i < len(json) && (json[i] == 'e' || json[i] == 'E') {
		i++
		if i < len(json) && (json[i] == '+' || json[i] == '-') {
			i++
		}
		if i = digits(i); i < 0 {
			return -1
		}
	}
	return i
}

func literal(json string, i int, word string) int {
	if len(json)-i < len(word) || json[i:i+len(word)] != word {
		return -1
	}
	return i + len(word)
}

// ValidBytes is Valid of b, without copying it.
func ValidBytes(b []byte) bool { return Valid(unsafe.String(unsafe.SliceData(b), len(b))) }
