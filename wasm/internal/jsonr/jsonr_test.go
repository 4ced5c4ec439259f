package jsonr

import (
	"math/rand"
	"strconv"
	"strings"
	"testing"

	"github.com/pi-memory/pi-memory/internal/require"
	"github.com/tidwall/gjson"
)

// same fails unless Get and gjson's own Get agree on path in doc: the judge of
// every lookup here.
func same(t testing.TB, doc, path string) gjson.Result {
	t.Helper()
	root := gjson.Parse(doc)
	want, got := root.Get(path), Get(root, path)
	require.Equal(t, want.Type, got.Type, "type of %q in %s", path, doc)
	require.Equal(t, want.Raw, got.Raw, "raw of %q in %s", path, doc)
	require.Equal(t, want.Str, got.Str, "str of %q in %s", path, doc)
	require.True(t, want.Num == got.Num || want.Num != want.Num && got.Num != got.Num, "num of %q in %s: %v and %v", path, doc, want.Num, got.Num)
	if want.Exists() {
		require.Equal(t, want.Index, got.Index, "index of %q in %s", path, doc)
	}
	return got
}

func TestGetFindsWhatGjsonFinds(t *testing.T) {
	tests := []struct {
		name, doc, path, want string
	}{
		{"a key", `{"v":2,"kind":"header"}`, "kind", `"header"`},
		{"a nested key", `{"log":{"size":120,"lines":3}}`, "log.lines", `3`},
		{"an index", `{"hot":[5,6,7]}`, "hot.1", `6`},
		{"an index of an index", `{"span":[[3,9],[1]]}`, "span.0.1", `9`},
		{"a whole object", `{"edge":{"id":"D-1","updated":4}}`, "edge", `{"id":"D-1","updated":4}`},
		{"a whole array", `{"tags":[["a",1]]}`, "tags", `[["a",1]]`},
		{"true, false and null", `{"a":true,"b":false,"c":null}`, "b", `false`},
		{"a hyphen and digits in a key", `{"flags":{"no-memory":true}}`, "flags.no-memory", `true`},
		{"a key that is a number, in an object", `{"sections":{"0":{"1":"x"}}}`, "sections.0.1", `"x"`},
		{"an escaped key", `{"a\u0062":1,"ab":2}`, "ab", `1`},
		{"an escaped quote in a key", `{"a\"b":1}`, `a"b`, `1`},
		{"the first of two keys", `{"a":1,"a":2}`, "a", `1`},
		{"a later key when the first does not hold the rest", `{"a":{"x":1},"a":{"b":2}}`, "a.b", `2`},
		{"a later key when the first is not an object", `{"a":5,"a":{"b":2}}`, "a.b", `2`},
		{"spaces everywhere", " { \"a\" : [ 1 , { \"b\" :\t\"c\" } ] } ", "a.1.b", `"c"`},
		{"strings with braces are skipped whole", `{"x":"{\"a\":1}]","a":"}{"}`, "a", `"}{"`},
		{"a leading zero in an index", `{"a":[1,2]}`, "a.01", `2`},
		{"a missing key", `{"a":1}`, "b", ``},
		{"past the end of an array", `{"a":[1]}`, "a.1", ``},
		{"a key in an array", `{"a":[{"b":1}]}`, "a.b", ``},
		{"an index in a number", `{"a":1}`, "a.0", ``},
		{"a negative index", `[1]`, "-1", ``},
		{"an empty path", `{"":1}`, "", `1`},
		{"an empty part", `{"a":{"":3}}`, "a.", `3`},
		{"an empty object", `{}`, "a", ``},
		{"an empty array", `[]`, "0", ``},
		{"a top-level array", `[{"id":"x"}]`, "0.id", `"x"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			require.Equal(t, tc.want, same(t, tc.doc, tc.path).Raw)
		})
	}
}

func TestGetInsideAFoundValueKeepsTheDocumentIndex(t *testing.T) {
	doc := `{"stores":[{"store":"notes","scopes":[{"file":"MEMORY.md"}]}]}`
	s := Get(gjson.Parse(doc), "stores.0")
	f := Get(Get(s, "scopes.0"), "file")
	require.Equal(t, gjson.Parse(doc).Get("stores.0.scopes.0.file").Index, f.Index)
	require.Equal(t, `"MEMORY.md"`, doc[f.Index:f.Index+len(f.Raw)])
}

func TestGetFindsNothingInsideAString(t *testing.T) {
	// gjson's own Get reads a string's text as JSON when asked for a key in
	// it; the core never wants that, and Get does not do it.
	v := gjson.Parse(`{"s":"{\"a\":1}"}`).Get("s")
	require.False(t, Get(v, "a").Exists())
	require.False(t, Get(gjson.Parse(`"x"`), "a").Exists())
	require.False(t, Get(gjson.Result{}, "a").Exists())
}

func TestGetStopsOnBrokenJSONWithinIt(t *testing.T) {
	for _, doc := range []string{`{"a`, `{"a":`, `{"a":"x`, `{"a":[1,`, `{"a" 1}`, `{1:2}`, `[`, `{"a":{"b":`, `{"\`} {
		for _, path := range []string{"a", "a.b", "0", "a.0"} {
			Get(gjson.Parse(doc), path)
		}
	}
}

// sameFields fails unless Fields finds, for each of keys, what Get finds in
// an object, and nothing in anything else (where Get reads a key of digits
// as an index).
func sameFields(t testing.TB, root gjson.Result, keys ...string) {
	t.Helper()
	got := Fields(root, keys...)
	require.Equal(t, len(keys), len(got))
	object := strings.HasPrefix(strings.TrimLeft(root.Raw, " \t\r\n"), "{")
	for k, key := range keys {
		var want gjson.Result
		if object {
			want = Get(root, key)
		}
		require.Equal(t, want, got[k], "%q in %s", key, root.Raw)
	}
}

func TestFieldsFindsWhatGetFindsForEachKey(t *testing.T) {
	for _, doc := range []string{
		`{"v":1,"op":"reflect","t":5,"obs":"Date: Feb 27, 2026\n* long"}`,
		`{"a":1,"a":2,"b":{"a":3}}`,                  // the first of two members of a name
		`{"o\u0070":"clear","op":"set"}`,             // an escaped key
		`{"a":1,"b":`, `{"a":1,"b" 2,"c":3}`, `{"a"`, // broken JSON: what comes before the break
		`[1,2]`, `["a"]`, `"a"`, `7`, ``, ` {"a" : [ 1 ] , "b":null} `,
	} {
		root := gjson.Parse(doc)
		sameFields(t, root, "v", "op", "a", "b", "c", "obs", "missing", "0")
		sameFields(t, root, "a", "a")
		sameFields(t, root)
	}
	inner := Get(gjson.Parse(`{"x":{"a":1,"b":[2]}}`), "x")
	sameFields(t, inner, "b", "a") // Index counts from the document's start
}

// Random documents with few key names (so keys repeat, within an object too),
// escaped keys, nesting and every kind of value, asked for paths built from
// those names: Get must find what gjson finds, hits and misses alike.
func TestGetAgreesWithGjsonOnRandomDocuments(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	keys := []string{"a", "b", "log", "0", "1", "no-memory"}
	var value func(b *strings.Builder, depth int)
	value = func(b *strings.Builder, depth int) {
		switch k := rng.Intn(9); {
		case k < 3 && depth < 4:
			b.WriteString("{")
			for i, n := 0, rng.Intn(4); i < n; i++ {
				if i > 0 {
					b.WriteString(", ")
				}
				key := keys[rng.Intn(len(keys))]
				if rng.Intn(5) == 0 {
					key = `\u00` + strconv.FormatInt(int64(key[0]), 16) + key[1:]
				}
				b.WriteString(`"` + key + `":`)
				value(b, depth+1)
			}
			b.WriteString("}")
		case k < 5 && depth < 4:
			b.WriteString("[ ")
			for i, n := 0, rng.Intn(4); i < n; i++ {
				if i > 0 {
					b.WriteString(",")
				}
				value(b, depth+1)
			}
			b.WriteString("]")
		case k == 5:
			b.WriteString(`"x{\"a\":[1]}\n"`)
		case k == 6:
			b.WriteString([]string{"true", "false", "null"}[rng.Intn(3)])
		default:
			b.WriteString([]string{"0", "-12", "3.5e2", "1E-3"}[rng.Intn(4)])
		}
	}
	for i := 0; i < 3000; i++ {
		var b strings.Builder
		value(&b, 0)
		doc := b.String()
		require.True(t, gjson.Valid(doc), doc)
		for j := 0; j < 8; j++ {
			parts := make([]string, 1+rng.Intn(3))
			for k := range parts {
				parts[k] = keys[rng.Intn(len(keys))]
			}
			if path := strings.Join(parts, "."); !insideString(doc, path) {
				same(t, doc, path)
			}
		}
	}
}

// plain reports whether path is only keys and indexes: gjson reads any other
// byte (wildcards, queries, modifiers, escapes, selectors) in its own path
// language, and a leading ".." as JSON Lines.
func plain(path string) bool {
	if strings.HasPrefix(path, "..") {
		return false
	}
	for i := 0; i < len(path); i++ {
		c := path[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.' || c == ' ' || c >= 0x80) {
			return false
		}
	}
	return true
}

// insideString reports whether gjson found path in doc by reading, as JSON,
// the text of a string on the way (TestGetFindsNothingInsideAString).
func insideString(doc, path string) bool {
	root := gjson.Parse(doc)
	if root.Type == gjson.String {
		return true
	}
	parts := strings.Split(path, ".")
	for i := 1; i < len(parts); i++ {
		if Get(root, strings.Join(parts[:i], ".")).Type == gjson.String {
			return true
		}
	}
	return false
}

func FuzzGet(f *testing.F) {
	f.Add(`{"log":{"size":120,"lines":3},"a":[1,{"b":"c"}]}`, "log.size")
	f.Add(`{"a":{"x":1},"a":{"b":2}}`, "a.b")
	f.Add(`{"span":[[3,9],[1]]}`, "span.0.1")
	f.Add(`{"a\u0062":1}`, "ab")
	f.Add(`[true,false,null,"x",-1.5e3]`, "4")
	f.Fuzz(func(t *testing.T, doc, path string) {
		Get(gjson.Parse(doc), path) // on any input it must only stop
		if !strings.Contains(path, ".") {
			sameFields(t, gjson.Parse(doc), path, "a", path) // on any input
		}
		if !gjson.Valid(doc) || !plain(path) || insideString(doc, path) {
			return // gjson finds keys inside a string's text (TestGetFindsNothingInsideAString)
		}
		same(t, doc, path)
	})
}

// A string with escapes is unescaped by jsonr (value), and must read as
// gjson reads it: every escape, a broken one, a control character, a lone
// or paired surrogate, a string cut short.
func TestAStringReadsAsGjsonReadsIt(t *testing.T) {
	for _, raw := range []string{
		`"Date: Feb 27, 2026\n* 🟡 (05:00) User keeps the old API\n"`,
		`"\\ \/ \" \b \f \n \r \t"`, `"\u00e9\u2028\uD83D\uDE00 \ud800 x \udc00\ud800"`,
		`"a\x"`, `"a\u12"`, `"a\u12zz b"`, `"a` + "\x01" + `b\n"`, `"a\n`, `"a\\"`, `"a\\\"b"`, `"\"`, `"\u"`,
		`"\uD83D\u0041"`, `"\uD83D\"`, `"no escape"`, `""`, `"`, `7`, `{"a":"\n"}`,
	} {
		sameValue(t, raw)
	}
	r := Get(gjson.Parse(`{"obs":"a\nb"}`), "obs")
	require.Equal(t, "a\nb", r.Str)
	require.Equal(t, 7, r.Index)
}

// FuzzValue: a value reads as gjson.Parse reads it, whatever the bytes.
func FuzzValue(f *testing.F) {
	f.Add(`"Date: Feb 27, 2026\n* 🟡 (05:00) User keeps the old API\n"`)
	f.Add(`"\\ \/ \" \b \f \n \r \t \u00e9\uD83D\uDE00 \ud800"`)
	f.Add(`"a\x"`)
	f.Add(`"a\u12zz"`)
	f.Add(`"\uD83D\u0041\\\""`)
	f.Add(`nAn`) // a number that is not one: NaN, which equals nothing
	f.Fuzz(func(t *testing.T, raw string) { sameValue(t, raw) })
}

// sameValue fails unless value reads raw as gjson.Parse does.
func sameValue(t testing.TB, raw string) {
	t.Helper()
	want, got := gjson.Parse(raw), value(raw, 11)
	want.Index = 11
	if want.Num != want.Num && got.Num != got.Num {
		want.Num, got.Num = 0, 0
	}
	require.Equal(t, want, got, "%q", raw)
}

func TestValidIsGjsonsValidAtAnyDepth(t *testing.T) {
	for _, s := range []string{
		`{}`, `[]`, ` {"a" : [1, -2.5e+3, "x\u00e9\n", true, false, null, {}] } `, `"s"`, `0`, `-0.1E5`,
		`{"a":1,}`, `[1,]`, `{"a"}`, `{"a":}`, `{1:2}`, `[1 2]`, `01`, `1.`, `.5`, `-`, `"\x"`, "\"a\tb\"", `"\u12"`, `tru`, `nul`, `{"a":1}}`, `[`, ``, ` `, `{"a":1} x`,
	} {
		require.Equal(t, gjson.Valid(s), Valid(s), "%q", s)
	}
	deep := strings.Repeat(`{"a":[`, 100_000) + `1` + strings.Repeat(`]}`, 100_000)
	require.True(t, Valid(deep), "100,000 levels deep")
	require.False(t, Valid(deep[:len(deep)-1]), "one bracket short")
}

// FuzzValid: the same answer as gjson.Valid, whose recursion bounds what it
// is given here.
func FuzzValid(f *testing.F) {
	for _, s := range []string{`{"a":[1,{"b":"c"}]}`, `[1,2,]`, `"\u00e9"`, `-0.5e-3`, `{"a" :null }`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if strings.Count(s, "[")+strings.Count(s, "{") > 200 {
			return
		}
		require.Equal(t, gjson.Valid(s), Valid(s), "%q", s)
	})
}
