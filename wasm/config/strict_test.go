package config

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

// The forms a tester found turning memory on, and their cousins: each is
// refused with the line, the column and what to write instead.
func TestNormalizeRefusesWhatIsNotJSONSayingWhereAndWhy(t *testing.T) {
	tests := []struct {
		name, in  string
		line, col int
		msg       string
	}{
		{"trailing comma in an object", `{"enabled": false,}`, 1, 18, "trailing comma; delete the ',' before '}'"},
		{"trailing comma on its own line", "{\n  \"enabled\": false,\n}\n", 2, 19, "trailing comma; delete the ',' before '}'"},
		{"trailing comma in an array", `{"a": [1, 2,]}`, 1, 12, "trailing comma; delete the ',' before ']'"},
		{"line comment", "{\n  // memory off\n  \"enabled\": false\n}", 2, 3, "comments are not JSON; delete the comment"},
		{"block comment", `{"enabled": /* off */ false}`, 1, 13, "comments are not JSON; delete the comment"},
		{"comment after the object", "{\"enabled\": false} // off", 1, 20, "comments are not JSON; delete the comment"},
		{"unquoted key", `{enabled: false}`, 1, 2, `keys need double quotes: write "enabled"`},
		{"single quotes", `{'enabled': false}`, 1, 2, "strings need double quotes, not single quotes"},
		{"capitalised literal", `{"enabled": False}`, 1, 13, `unknown word "False"; JSON has true, false and null (lower case) and strings in double quotes`},
		{"misspelt literal", `{"enabled": ture}`, 1, 13, `unknown word "ture"; JSON has true, false and null (lower case) and strings in double quotes`},
		{"literal with a tail", `{"enabled": falsey}`, 1, 13, `unknown word "falsey"; JSON has true, false and null (lower case) and strings in double quotes`},
		{"NaN", `{"threshold": NaN}`, 1, 15, "NaN is not JSON; write a number"},
		{"Infinity", `{"threshold": Infinity}`, 1, 15, "Infinity is not JSON; write a number"},
		{"minus Infinity", `{"threshold": -Infinity}`, 1, 15, "a '-' must be followed by a digit"},
		{"undefined", `{"enabled": undefined}`, 1, 13, "undefined is not JSON; write null or leave the key out"},
		{"leading zero", `{"staleDays": 07}`, 1, 15, "a number cannot start with 0 (write 7, not 07)"},
		{"leading plus", `{"staleDays": +7}`, 1, 15, "a number cannot start with '+'; delete it"},
		{"leading dot", `{"threshold": .5}`, 1, 15, "a number needs a digit before the '.' (write 0.5, not .5)"},
		{"trailing dot", `{"threshold": 1.}`, 1, 16, "a digit must follow the '.' (write 1.0, not 1.)"},
		{"empty exponent", `{"threshold": 1e+}`, 1, 16, "a digit must follow the exponent's 'e'"},
		{"hex number", `{"staleDays": 0x10}`, 1, 15, `"0x10" is not a JSON number; write plain decimal digits`},
		{"digit separators", `{"staleDays": 1_000}`, 1, 15, `"1_000" is not a JSON number; write plain decimal digits`},
		{"missing comma between lines", "{\n  \"enabled\": false\n  \"staleDays\": 9\n}", 3, 3, `a ',' is missing after the value of "enabled"`},
		{"missing comma in an array", `[1 2]`, 1, 4, "a ',' is missing between two array elements"},
		{"missing colon", `{"enabled" false}`, 1, 12, `a ':' is missing after the key "enabled"`},
		{"equals for colon", `{"enabled" = false}`, 1, 12, `unexpected '='; expected ':' after the key "enabled"`},
		{"double comma", `{"a": 1,, "b": 2}`, 1, 9, "an extra ','; delete it"},
		{"comma first", `{, "a": 1}`, 1, 2, "an extra ','; delete it"},
		{"missing value", `{"enabled": }`, 1, 13, "unexpected '}'; expected a value"},
		{"missing element", `[1, , 2]`, 1, 5, "unexpected ','; expected a value"},
		{"unclosed object", "{\n  \"enabled\": false\n", 3, 1, "the text ends before the object opened at line 1, column 1 is closed; add '}'"},
		{"unclosed array", `{"a": [1, 2`, 1, 12, "the text ends before the array opened at line 1, column 7 is closed; add ']'"},
		{"unclosed string", `{"enabled`, 1, 2, `this string is never closed; end it with '"'`},
		{"string across lines", "{\"a\": \"one\ntwo\"}", 1, 7, `this string is not closed on its line; end it with '"' (a line break inside a string is written \n)`},
		{"raw tab in a string", "{\"a\": \"x\ty\"}", 1, 9, `a tab inside a string must be written as an escape (\t)`},
		{"raw control character", "{\"a\": \"x\x01\"}", 1, 9, `a control character U+0001 inside a string must be written as an escape (\u0001)`},
		{"unknown escape", `{"a": "C:\dir"}`, 1, 10, `invalid escape; JSON has \" \\ \/ \b \f \n \r \t and \u followed by 4 hex digits (write \\ for a backslash)`},
		{"short unicode escape", `{"a": "\u12"}`, 1, 8, `\u must be followed by 4 hex digits`},
		{"text after the value", `{"enabled": false} {"enabled": true}`, 1, 20, "unexpected '{'; expected nothing after the end of the JSON value"},
		{"extra closing brace", `{"enabled": false}}`, 1, 19, "unexpected '}'; expected nothing after the end of the JSON value"},
		{"empty text", ``, 1, 1, "there is no JSON value (the text is empty); write {} for the defaults"},
		{"blank text", " \n ", 2, 2, "there is no JSON value (the text is empty); write {} for the defaults"},
		{"not UTF-8 in a string", "{\"name\": \"caf\xe9\"}", 1, 14, "byte 0xE9 is not UTF-8 text; save the file as UTF-8"},
		{"UTF-16", "\xff\xfe{\x00}\x00", 1, 1, "byte 0xFF is not UTF-8 text; save the file as UTF-8"},
		{"byte-order mark", "\xEF\xBB\xBF{}", 1, 1, "unexpected byte-order mark (U+FEFF); delete it"},
		{"no-break space", "{\u00a0}", 1, 2, `unexpected '\u00a0'; expected a key in double quotes`},
		{"vertical tab", "{\v}", 1, 2, "unexpected control character U+000B; expected a key in double quotes"},
		{"columns count characters", `{"é": "ü", "a": x}`, 1, 17, `unknown word "x"; JSON has true, false and null (lower case) and strings in double quotes`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := Normalize([]byte(tt.in))
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("Normalize(%q) = %q, %v; want a *SyntaxError", tt.in, out, err)
			}
			if se.Line != tt.line || se.Column != tt.col || se.Msg != tt.msg {
				t.Errorf("got line %d, column %d: %s\nwant line %d, column %d: %s", se.Line, se.Column, se.Msg, tt.line, tt.col, tt.msg)
			}
			if out != nil {
				t.Errorf("output %q with an error", out)
			}
		})
	}
}

func TestSyntaxErrorSaysLineColumnAndWhat(t *testing.T) {
	_, err := Normalize([]byte("{\n  \"enabled\": false,\n}"))
	if got, want := err.Error(), "line 2, column 19: trailing comma; delete the ',' before '}'"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
}

// JSON.parse, Python's json and jq keep the last of duplicated keys; so
// does Normalize, at every depth, and the rest of the text is untouched.
func TestNormalizeKeepsTheLastOfDuplicatedKeysAtEveryDepth(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"top level", `{"enabled":true,"enabled":false}`, `{"enabled":false}`},
		{"three times", `{"a":1,"b":2,"a":3,"a":4}`, `{"b":2,"a":4}`},
		{"formatting kept", "{\n  \"enabled\": true,\n  \"x\": 1,\n  \"enabled\": false\n}\n", "{\n  \"x\": 1,\n  \"enabled\": false\n}\n"},
		{"nested object", `{"autoCapture":{"enabled":false,"enabled":true}}`, `{"autoCapture":{"enabled":true}}`},
		{"the later object replaces, not merges", `{"a":{"x":1},"a":{"y":2}}`, `{"a":{"y":2}}`},
		{"duplicates inside a dropped member go with it", `{"a":{"b":1,"b":2},"a":{"c":[{"x":1,"x":2}]},"d":1}`, `{"a":{"c":[{"x":2}]},"d":1}`},
		{"inside arrays", `[{"k":1,"k":2},{"k":3}]`, `[{"k":2},{"k":3}]`},
		{"siblings and parents", `{"p":{"q":1,"q":2},"r":{"s":{"t":1,"t":2},"s":3},"p":{"q":4,"q":5}}`, `{"r":{"s":3},"p":{"q":5}}`},
		{"keys compare decoded", `{"\u0065nabled":true,"enabled":false}`, `{"enabled":false}`},
		{"escaped pair equals the character", `{"\ud83d\ude00":1,"😀":2}`, `{"😀":2}`},
		{"different lone surrogates differ", `{"\ud800":1,"\ud801":2}`, `{"\ud800":1,"\ud801":2}`},
		{"escaped slash", `{"a/b":1,"a\/b":2}`, `{"a\/b":2}`},
		{"keys differ by case", `{"Enabled":false,"enabled":true}`, `{"Enabled":false,"enabled":true}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := Normalize([]byte(tt.in))
			if err != nil || string(out) != tt.want {
				t.Errorf("Normalize(%s) = %s, %v\nwant %s", tt.in, out, err, tt.want)
			}
		})
	}
}

func TestNormalizeFindsDuplicatesInLargeObjects(t *testing.T) {
	var b strings.Builder
	b.WriteString("{")
	for i := 0; i < 100; i++ {
		b.WriteString(`"k` + string(rune('a'+i%26)) + `":` + string(rune('0'+i%10)) + ",")
	}
	b.WriteString(`"last":true}`)
	out, err := Normalize([]byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	var want map[string]any
	if err := json.Unmarshal([]byte(b.String()), &want); err != nil {
		t.Fatal(err)
	}
	if got := strings.Count(string(out), ":"); got != len(want) {
		t.Errorf("%d members left, want %d: %s", got, len(want), out)
	}
	var got map[string]any
	if err := json.Unmarshal(out, &got); err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("decoded %v (%v), want %v", got, err, want)
	}
}

func TestNormalizeReturnsTheTextItselfWithoutDuplicates(t *testing.T) {
	in := []byte("{\n  \"enabled\": true,\n  \"a\": [1, {\"b\": null}]\n}\n")
	out, err := Normalize(in)
	if err != nil || &out[0] != &in[0] || len(out) != len(in) {
		t.Errorf("Normalize copied or changed a text without duplicates: %q, %v", out, err)
	}
}

func TestNormalizeAcceptsEveryJSONForm(t *testing.T) {
	for _, in := range []string{
		`{}`, `[]`, `0`, `-0`, `-1.5e-3`, `1E+9`, `12.25`, `1e999`, `true`, `false`, `null`, `""`,
		` { "a" : [ 1 , 2 ] , "b" : { } } `,
		"{\r\n\t\"a\": 1\r\n}",
		`"\" \\ \/ \b \f \n \r \t \u00e9 \uD83D\uDE00 \ud800"`,
		`"caf` + "\u00e9 \u65e5\u672c \U0001F600" + `"`,
		"\"\x7f\"",
		`{"":1,"a":{"":2}}`,
	} {
		out, err := Normalize([]byte(in))
		if err != nil || string(out) != in {
			t.Errorf("Normalize(%q) = %q, %v; want it unchanged", in, out, err)
		}
	}
}

func TestNormalizeLimitsNesting(t *testing.T) {
	deep := func(n int) []byte {
		return []byte(strings.Repeat(`{"a":`, n) + "1" + strings.Repeat("}", n))
	}
	if _, err := Normalize(deep(MaxDepth)); err != nil {
		t.Errorf("%d levels: %v", MaxDepth, err)
	}
	if _, err := Normalize([]byte(strings.Repeat("[", MaxDepth) + strings.Repeat("]", MaxDepth))); err != nil {
		t.Errorf("%d levels of arrays: %v", MaxDepth, err)
	}
	_, err := Normalize(deep(MaxDepth + 1))
	if err == nil || err.Error() != "line 1, column 321: nested more than 64 levels deep" {
		t.Errorf("%d levels: %v", MaxDepth+1, err)
	}
	// A hostile file is refused at the limit, not after recursing through it.
	if _, err := Normalize([]byte(strings.Repeat("[", 1<<20))); err == nil || !strings.Contains(err.Error(), "nested more than") {
		t.Errorf("a million brackets: %v", err)
	}
}

func FuzzNormalize(f *testing.F) {
	for _, s := range []string{
		`{"enabled": false,}`, "{\n // c\n \"enabled\": false}", `{"enabled":"false"}`, `{"enabled":0}`,
		`{"enabled":true,"enabled":false}`, `{"a":{"b":1,"b":2},"a":{"c":[{"x":1,"x":2}]},"d":1}`,
		`{"\u0061":1,"a":2}`, `{"\ud800":1,"\ud801":2}`, `[1,2,{"k":[{"k":1,"k":2}],"k":3}]`,
		`-0.5e+10`, `1e999`, `"\u00e9\t"`, "\xEF\xBB\xBF{}", `{'a':1}`, `[01]`, `{"a":NaN}`,
		"\"caf\xe9\"", `{"a" 1}`, `[1 2]`, `{,}`, ``,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		out, err := Normalize(data)
		if err != nil {
			var se *SyntaxError
			if !errors.As(err, &se) || se.Line < 1 || se.Column < 1 || se.Offset < 0 || se.Offset > len(data) || se.Msg == "" {
				t.Fatalf("bad error for %q: %#v", data, err)
			}
			switch {
			case !utf8.Valid(data):
				// Refused on purpose: encoding/json lets invalid UTF-8 through.
			case strings.HasPrefix(se.Msg, "nested more than"):
				// Refused on purpose: encoding/json nests 10,000 levels deep.
			case json.Valid(data):
				t.Fatalf("Normalize refused valid JSON %q: %v", data, err)
			}
			return
		}
		if !json.Valid(data) {
			t.Fatalf("Normalize accepted invalid JSON %q", data)
		}
		if !utf8.Valid(data) {
			t.Fatalf("Normalize accepted invalid UTF-8 %q", data)
		}
		if !json.Valid(out) {
			t.Fatalf("Normalize(%q) = %q, not valid JSON", data, out)
		}
		var want, got any
		errWant, errGot := json.Unmarshal(data, &want), json.Unmarshal(out, &got)
		if (errWant == nil) != (errGot == nil) || !reflect.DeepEqual(got, want) {
			t.Fatalf("Normalize(%q) = %q, which decodes to %v (%v), not %v (%v)", data, out, got, errGot, want, errWant)
		}
		again, err := Normalize(out)
		if err != nil || string(again) != string(out) {
			t.Fatalf("Normalize is not idempotent on %q: %q, %v", out, again, err)
		}
	})
}
