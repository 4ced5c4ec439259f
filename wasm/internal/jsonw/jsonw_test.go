package jsonw

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/pi-memory/pi-memory/internal/require"
)

// decodes checks that out is one valid JSON value and returns it as
// encoding/json reads it: the judge of every output here.
func decodes(t *testing.T, out []byte) any {
	t.Helper()
	require.True(t, json.Valid(out), "not valid JSON: %s", out)
	var v any
	require.NoError(t, json.Unmarshal(out, &v), "%s", out)
	return v
}

// readBack is what a JSON reader must get back from String(s): s itself, with
// each byte that is not part of valid UTF-8 replaced by U+FFFD, as a conversion
// to runes does.
func readBack(s string) string { return string([]rune(s)) }

func TestStringEscapesWhatJSONRequiresAndNothingElse(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"plain text as is", "Use PostgreSQL 16", `"Use PostgreSQL 16"`},
		{"empty", "", `""`},
		{"quotes and backslashes", `say "hi" \ bye`, `"say \"hi\" \\ bye"`},
		{"newline, return and tab by name", "a\nb\rc\td", `"a\nb\rc\td"`},
		{"other control characters as \\u00XX", "\x00\x01\x08\x0b\x0c\x1f", `"\u0000\u0001\u0008\u000b\u000c\u001f"`},
		{"DEL and space are plain", "\x7f ", "\"\x7f \""},
		{"<, > and & are left alone", "<a href='x'>&amp;</a>", `"<a href='x'>&amp;</a>"`},
		{"multibyte UTF-8 as is", "café 😀 日本", `"café 😀 日本"`},
		{"U+2028 and U+2029 escaped for JavaScript", "a\u2028b\u2029c", `"a\u2028b\u2029c"`},
		{"a lone invalid byte becomes U+FFFD", "a\xffb", `"a\ufffdb"`},
		{"each byte of an invalid run becomes one U+FFFD", "\xc3\x28\xe2\x82", `"\ufffd(\ufffd\ufffd"`},
		{"a truncated rune at the end", "ok\xe2\x82", `"ok\ufffd\ufffd"`},
		{"an encoded surrogate is invalid", "\xed\xa0\x80", `"\ufffd\ufffd\ufffd"`},
		{"U+FFFD itself stays as is", "\uFFFD", "\"\uFFFD\""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out := String(nil, tc.in)
			require.Equal(t, tc.want, string(out))
			require.Equal(t, readBack(tc.in), decodes(t, out))
		})
	}
}

func TestStringAppendsToWhatIsThere(t *testing.T) {
	require.Equal(t, `["a","b\n"`, string(String(append(String([]byte("["), "a"), ','), "b\n")))
}

func TestNumbersAndBoolsAreValidJSON(t *testing.T) {
	tests := []struct {
		name string
		out  []byte
		want string
		read any // what encoding/json reads back
	}{
		{"zero", Int(nil, 0), "0", 0.0},
		{"negative", Int(nil, -42), "-42", -42.0},
		{"largest int64", Int(nil, math.MaxInt64), "9223372036854775807", float64(math.MaxInt64)},
		{"smallest int64", Int(nil, math.MinInt64), "-9223372036854775808", float64(math.MinInt64)},
		{"true", Bool(nil, true), "true", true},
		{"false", Bool(nil, false), "false", false},
		{"a float as short as round-trips", Float(nil, 0.1), "0.1", 0.1},
		{"a whole float has no point", Float(nil, 3), "3", 3.0},
		{"negative zero", Float(nil, math.Copysign(0, -1)), "-0", math.Copysign(0, -1)},
		{"a large float in exponent form", Float(nil, 1e21), "1e+21", 1e21},
		{"a small float in exponent form", Float(nil, 1e-7), "1e-07", 1e-7},
		{"the largest float", Float(nil, math.MaxFloat64), "1.7976931348623157e+308", math.MaxFloat64},
		{"the smallest float", Float(nil, math.SmallestNonzeroFloat64), "5e-324", math.SmallestNonzeroFloat64},
		{"NaN is null", Float(nil, math.NaN()), "null", nil},
		{"+Inf is null", Float(nil, math.Inf(1)), "null", nil},
		{"-Inf is null", Float(nil, math.Inf(-1)), "null", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			require.Equal(t, tc.want, string(tc.out))
			require.Equal(t, tc.read, decodes(t, tc.out))
		})
	}
}

func TestObjectWritesKeysInOrderWithEveryKindOfValue(t *testing.T) {
	o := Open([]byte("x:"))
	o.Str("text", "a \"quoted\"\nline")
	o.Int("n", -3)
	o.Bool("ok", true)
	o.Float("score", 0.5)
	o.Float("nan", math.NaN())
	o.Null("none")
	o.Strs("tags", []string{"db", "é\x00"})
	o.Strs("empty", nil)
	o.Raw("raw", []byte(`{"k":[1,2]}`))
	o.Str("key \"with\" quotes", "")
	out := o.Close()

	want := `x:{"text":"a \"quoted\"\nline","n":-3,"ok":true,"score":0.5,"nan":null,"none":null,` +
		`"tags":["db","é\u0000"],"empty":[],"raw":{"k":[1,2]},"key \"with\" quotes":""}`
	require.Equal(t, want, string(out))
	require.Equal(t, map[string]any{
		"text": "a \"quoted\"\nline", "n": -3.0, "ok": true, "score": 0.5, "nan": nil, "none": nil,
		"tags": []any{"db", "é\x00"}, "empty": []any{}, "raw": map[string]any{"k": []any{1.0, 2.0}},
		"key \"with\" quotes": "",
	}, decodes(t, out[len("x:"):]))
}

func TestObjectZeroValueAndEmptyObjects(t *testing.T) {
	var empty Object
	require.Equal(t, "{}", string(empty.Close()))

	var o Object
	o.Int("n", 1)
	require.Equal(t, `{"n":1}`, string(o.Close()), "a zero Object opens itself at its first key")

	opened := Open(nil)
	require.Equal(t, "{}", string(opened.Close()))
}

func TestArrayNestsArraysAndObjects(t *testing.T) {
	tests := []struct {
		name string
		out  []byte
		want string
	}{
		{"no elements", Array(nil, 0, nil), "[]"},
		{"numbers", Array(nil, 3, func(b []byte, i int) []byte { return Int(b, int64(i*i)) }), "[0,1,4]"},
		{"arrays of arrays", Array(nil, 3, func(b []byte, i int) []byte {
			return Array(b, i, func(b []byte, j int) []byte { return String(b, strings.Repeat("x", j+1)) })
		}), `[[],["x"],["x","xx"]]`},
		{"objects", Array(nil, 2, func(b []byte, i int) []byte {
			o := Open(b)
			o.Int("i", int64(i))
			o.Raw("sub", Array(nil, i, func(b []byte, _ int) []byte { return append(b, "null"...) }))
			return o.Close()
		}), `[{"i":0,"sub":[]},{"i":1,"sub":[null]}]`},
		{"after a prefix", Array([]byte(`{"a":`), 1, func(b []byte, _ int) []byte { return Bool(b, false) }), `{"a":[false]`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			require.Equal(t, tc.want, string(tc.out))
			if !strings.HasPrefix(tc.want, "{") {
				decodes(t, tc.out)
			}
		})
	}
}

// Whatever the bytes, String writes one valid JSON string that reads back as
// the text with its invalid bytes replaced.
func FuzzString(f *testing.F) {
	for _, s := range []string{
		"", "Use PostgreSQL 16 for the primary database", "say \"hi\" \\ \n\r\t\x00\x1f\x7f",
		"<a>&amp;</a>", "café 😀", "\u2028\u2029", "\xff\xfe", "\xc3\x28", "ok\xe2\x82", "\xed\xa0\x80",
		"Decision: use tabs\n- [ ] todo `code` **bold**",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := String([]byte("["), s)
		require.True(t, json.Valid(append(out, ']')), "String(%q) = %s is not valid JSON", s, out)
		var back string
		require.NoError(t, json.Unmarshal(out[1:], &back), "%s", out)
		require.Equal(t, readBack(s), back, "String(%q) read back", s)
	})
}
