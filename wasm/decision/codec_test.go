package decision

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/pi-memory/pi-memory/internal/require"
	"github.com/pi-memory/pi-memory/wasm/internal/civil"
)

func TestDecodeReadsTheSeedExample(t *testing.T) {
	line := `{"v":1,"t":"2026-02-27T06:00:00.000Z","p":"abc","e":"a","i":"D-2026-02-27-0001","d":{"ti":"Use PostgreSQL","tx":"Primary datastore is PostgreSQL 16.","tg":["db","backend"],"s":"active","r":"Need relational integrity","sp":null,"c":[]},"u":"user"}`
	got, err := decode([]byte(line), nil)
	require.NoError(t, err)
	require.Equal(t, Add, got.Code, "code")
	require.Equal(t, "D-2026-02-27-0001", got.ID, "id")
	require.Equal(t, int64(1772172000000), got.TimeMs, "time")
	require.Equal(t, "Use PostgreSQL", got.Data.Title, "title")
	require.Equal(t, []string{"db", "backend"}, got.Data.Tags, "tags")
	require.Equal(t, Active, got.Data.Status, "status")
	require.Equal(t, Field(0), got.Data.Has&hasSupersedes, "sp null is absent")
	require.Equal(t, "user", got.Actor, "actor")
}

// A list keeps its first listChunk strings, as the state does; the rest
// are read past, and what follows the list is read (h-v97 a1: 300,000 tags
// took TinyGo 19 s).
func TestDecodeKeepsAListsFirstStringsAndReadsPastTheRest(t *testing.T) {
	tags := make([]string, 3*listChunk)
	for i := range tags {
		tags[i] = "t" + strings.Repeat("x", i%5)
	}
	b, _ := json.Marshal(tags)
	line := `{"v":1,"t":"2026-02-27T06:00:00.000Z","p":"abc","e":"a","i":"D-2026-02-27-0001","d":{"tx":"Use pnpm","tg":` + string(b) + `,"s":"active","ti":"After the tags"},"u":"user"}`
	got, err := decode([]byte(line), nil)
	require.NoError(t, err)
	require.Equal(t, tags[:listChunk], got.Data.Tags)
	require.Equal(t, "After the tags", got.Data.Title)
	_, err = decode([]byte(strings.Replace(line, `"],"s":`, `","s":`, 1)), nil)
	require.Error(t, err, "a list that does not close past the kept strings")
}

func TestDecodeKeepsPiDecisionMemoryExtraKeys(t *testing.T) {
	line := `{"v":1,"t":"2026-02-27T06:00:00.000Z","p":"abc","e":"a","i":"D-2026-02-27-0001","d":{"tx":"Use pnpm","so":"auto","cf":0.82,"cg":"tooling","zz":{"nested":[1,2]}},"u":"user","extra":true}`
	got, err := decode([]byte(line), nil)
	require.NoError(t, err)
	require.Equal(t, "auto", got.Data.Source, "so")
	require.Equal(t, 0.82, got.Data.Confidence, "cf")
	require.Equal(t, "tooling", got.Data.Category, "cg")
}

func TestDecodeRejectsBadLinesWithAReason(t *testing.T) {
	tests := []struct {
		name, line string
		want       error
	}{
		{"not json", `hello`, errSyntax},
		{"truncated", `{"v":1,"t":"2026-02-27T06:00:00.000Z","e":"a","i":"D-1`, errSyntax},
		{"trailing garbage", `{"v":1,"t":"x","e":"a","i":"D"} x`, errSyntax},
		{"array", `[1,2]`, errSyntax},
		{"newer version", `{"v":2,"t":"2026-02-27T06:00:00.000Z","e":"zz","i":"D-2026-02-27-0001"}`, errVersion},
		{"no version", `{"t":"2026-02-27T06:00:00.000Z","e":"a","i":"D-2026-02-27-0001"}`, errMissing},
		{"no id", `{"v":1,"t":"2026-02-27T06:00:00.000Z","e":"a"}`, errMissing},
		{"unknown code", `{"v":1,"t":"2026-02-27T06:00:00.000Z","e":"zz","i":"D-2026-02-27-0001"}`, errUnknownCode},
		{"bad escape", `{"v":1,"t":"\q","e":"a","i":"D"}`, errSyntax},
		{"control char in string", "{\"v\":1,\"t\":\"a\tb\",\"e\":\"a\",\"i\":\"D\"}", errSyntax},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := decode([]byte(tt.line), nil)
			require.True(t, errors.Is(err, tt.want), "Decode(%q) error = %v, want %v", tt.line, err, tt.want)
		})
	}
}

func TestDecodeUnescapesStrings(t *testing.T) {
	line := `{"v":1,"t":"2026-02-27T06:00:00.000Z","e":"a","i":"D-2026-02-27-0001","d":{"tx":"quote \" slash \\ nl \n \u00e9 \ud83d\ude00"}}`
	got, err := decode([]byte(line), nil)
	require.NoError(t, err)
	require.Equal(t, "quote \" slash \\ nl \n é 😀", got.Data.Text, "text")
}

func TestEncodeThenDecodeRoundTrips(t *testing.T) {
	in := Event{V: 1, Time: "2026-02-27T06:00:00.000Z", TimeMs: 1772172000000, Project: "p", Code: Supersede, ID: "D-2026-02-27-0002",
		Data: Data{Has: HasStatus | HasSupersededBy | HasReason | HasTags, Status: Superseded, SupersededBy: "D-2026-02-27-0003",
			Reason: "costs \"less\"\n", Tags: []string{"a", "b"}}, Actor: "user"}
	line := Encode(nil, in)
	require.True(t, json.Valid(line), "not JSON: %s", line)
	out, err := decode(line, nil)
	require.NoError(t, err)
	require.Equal(t, in, out, "round trip")
}

func TestEncodeAddCarriesTheFullRecordForOlderReaders(t *testing.T) {
	line := string(Encode(nil, Event{V: 1, Time: "2026-02-27T06:00:00.000Z", Project: "p", Code: Add, ID: "D-2026-02-27-0001",
		Data: Data{Text: "Use pnpm"}, Actor: "user"}))
	want := `{"v":1,"t":"2026-02-27T06:00:00.000Z","p":"p","e":"a","i":"D-2026-02-27-0001","d":{"tx":"Use pnpm","tg":[],"s":"active","sp":null,"c":[]},"u":"user"}`
	require.Equal(t, want, line, "line")
}

func TestParseTimeAcceptsRFC3339AndFormatsBack(t *testing.T) {
	require.Equal(t, int64(1772172000000), civil.ParseTime("2026-02-27T06:00:00.000Z"), "fixed layout")
	require.Equal(t, int64(1772172000000), civil.ParseTime("2026-02-27T07:00:00+01:00"), "offset")
	require.Equal(t, int64(0), civil.ParseTime("2026-02-30T06:00:00.000Z"), "no such day")
	require.Equal(t, int64(0), civil.ParseTime("yesterday"), "garbage")
	for _, ms := range []int64{0, 1772172000000, 951782400000, 4102444799999} {
		require.Equal(t, ms, civil.ParseTime(civil.FormatTime(ms)), "round trip of "+civil.FormatTime(ms))
	}
}

// FuzzDecode: any bytes decode or fail cleanly; whatever decodes re-encodes to
// a line that decodes to the same event; and a line encoding/json rejects is
// never accepted.
func FuzzDecode(f *testing.F) {
	f.Add([]byte(`{"v":1,"t":"2026-02-27T06:00:00.000Z","p":"abc","e":"a","i":"D-2026-02-27-0001","d":{"ti":"T","tx":"X","tg":["db"],"s":"active","r":"R","sp":null,"c":[]},"u":"user"}`))
	f.Add([]byte(`{"v":1,"t":"x","e":"rm","i":"D"}`))
	f.Add([]byte(`{"v":1,"t":"x","e":"ed","i":"D","d":{"tx":"\ud800","cf":1e3}}`))
	f.Add([]byte(`{}`))
	f.Add([]byte(`{"v":1.0,"e":"st","i":"D","t":"","d":{"s":"draft","zz":[{"a":[]}]}}`))
	f.Fuzz(func(t *testing.T, line []byte) {
		ev, err := decode(line, nil)
		if err != nil {
			return
		}
		require.True(t, json.Valid(line), "accepted invalid JSON %q", line)
		again, err := decode(Encode(nil, ev), nil)
		require.NoError(t, err, "re-encoded line does not decode")
		require.True(t, again.ID == ev.ID && again.Code == ev.Code && again.Data.Text == ev.Data.Text && strings.Join(again.Data.Tags, "\x00") == strings.Join(ev.Data.Tags, "\x00"), "round trip changed the event: %#v vs %#v", ev, again)
	})
}

// A log written by an editor that adds a byte order mark keeps its first
// event (it used to be reported as "not a JSON object at byte 1").
func TestReplayReadsTheFirstEventAfterAByteOrderMark(t *testing.T) {
	log := "\xEF\xBB\xBF" + ev("2026-02-27T06:00:00.000Z", "a", "D-2026-02-27-0001", `{"tx":"Use Go"}`) +
		ev("2026-02-27T07:00:00.000Z", "a", "D-2026-02-27-0002", `{"tx":"Use Rust"}`)
	st, _ := replay(t, log)
	require.Equal(t, 2, st.Len(), "decisions")
	require.Equal(t, 0, len(st.Problems), "problems")
	// Only at the very start: a BOM inside the log is a bad line.
	st, _ = replay(t, ev("2026-02-27T06:00:00.000Z", "a", "D-2026-02-27-0001", `{"tx":"Use Go"}`)+"\xEF\xBB\xBF"+ev("2026-02-27T07:00:00.000Z", "a", "D-2026-02-27-0002", `{"tx":"Use Rust"}`))
	require.Equal(t, 1, st.Len(), "decisions after a mid-log BOM")
}

// An event with a very deep unknown key says the depth limit, not "not a
// JSON object".
func TestDecodeNamesTheDepthLimit(t *testing.T) {
	deep := strings.Repeat(`{"x":`, 100) + "1" + strings.Repeat("}", 100)
	_, err := decode([]byte(`{"v":1,"t":"2026-02-27T06:00:00.000Z","p":"p","e":"a","i":"D-2026-02-27-0001","d":{"tx":"a"},"z":`+deep+`}`), nil)
	if !errors.Is(err, errDepth) || !strings.Contains(err.Error(), "64 levels") {
		t.Fatalf("Decode = %v, want the depth limit named", err)
	}
}

func TestDecodeReadsAnAddWithOnlyTextAndStatus(t *testing.T) {
	tests := []struct {
		line string
		want Event
	}{
		{`{"v":1,"t":"2026-02-27T06:00:00.000Z","p":"ab","e":"a","i":"D-2026-02-27-0001","d":{"tx":"Use PostgreSQL","s":"active"},"u":"user"}`,
			Event{V: 1, Time: "2026-02-27T06:00:00.000Z", TimeMs: 1772172000000, Project: "ab", Code: Add, ID: "D-2026-02-27-0001",
				Data: Data{Has: HasText | HasStatus, Text: "Use PostgreSQL", Status: Active}, Actor: "user"}},
		{`{"v":1,"t":"2026-02-27T06:00:00.000Z","p":"ab","e":"a","i":"D-2026-02-27-0002","d":{"tx":"Use Go"}}`,
			Event{V: 1, Time: "2026-02-27T06:00:00.000Z", TimeMs: 1772172000000, Project: "ab", Code: Add, ID: "D-2026-02-27-0002",
				Data: Data{Has: HasText, Text: "Use Go"}}},
	}
	for _, tt := range tests {
		got, err := decode([]byte(tt.line), nil)
		require.NoError(t, err, tt.line)
		require.Equal(t, tt.want, got, tt.line)
		require.Equal(t, "a", got.Code.String(), "the code as written")
	}
}
