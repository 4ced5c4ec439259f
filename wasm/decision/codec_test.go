package decision

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

func TestDecodeReadsTheSeedExample(t *testing.T) {
	line := `{"v":1,"t":"2026-02-27T06:00:00.000Z","p":"abc","e":"a","i":"D-2026-02-27-0001","d":{"ti":"Use PostgreSQL","tx":"Primary datastore is PostgreSQL 16.","tg":["db","backend"],"s":"active","r":"Need relational integrity","sp":null,"c":[]},"u":"user"}`
	got, err := Decode([]byte(line), nil)
	noErr(t, err)
	eq(t, got.Code, Add, "code")
	eq(t, got.ID, "D-2026-02-27-0001", "id")
	eq(t, got.TimeMs, int64(1772172000000), "time")
	eq(t, got.Data.Title, "Use PostgreSQL", "title")
	eq(t, got.Data.Tags, []string{"db", "backend"}, "tags")
	eq(t, got.Data.Status, Active, "status")
	eq(t, got.Data.Has&HasSupersedes, Field(0), "sp null is absent")
	eq(t, got.Actor, "user", "actor")
}

func TestDecodeKeepsPiDecisionMemoryExtraKeys(t *testing.T) {
	line := `{"v":1,"t":"2026-02-27T06:00:00.000Z","p":"abc","e":"a","i":"D-2026-02-27-0001","d":{"tx":"Use pnpm","so":"auto","cf":0.82,"cg":"tooling","zz":{"nested":[1,2]}},"u":"user","extra":true}`
	got, err := Decode([]byte(line), nil)
	noErr(t, err)
	eq(t, got.Data.Source, "auto", "so")
	eq(t, got.Data.Confidence, 0.82, "cf")
	eq(t, got.Data.Category, "tooling", "cg")
}

func TestDecodeRejectsBadLinesWithAReason(t *testing.T) {
	tests := []struct {
		name, line string
		want       error
	}{
		{"not json", `hello`, ErrSyntax},
		{"truncated", `{"v":1,"t":"2026-02-27T06:00:00.000Z","e":"a","i":"D-1`, ErrSyntax},
		{"trailing garbage", `{"v":1,"t":"x","e":"a","i":"D"} x`, ErrSyntax},
		{"array", `[1,2]`, ErrSyntax},
		{"newer version", `{"v":2,"t":"2026-02-27T06:00:00.000Z","e":"zz","i":"D-2026-02-27-0001"}`, ErrVersion},
		{"no version", `{"t":"2026-02-27T06:00:00.000Z","e":"a","i":"D-2026-02-27-0001"}`, ErrMissing},
		{"no id", `{"v":1,"t":"2026-02-27T06:00:00.000Z","e":"a"}`, ErrMissing},
		{"unknown code", `{"v":1,"t":"2026-02-27T06:00:00.000Z","e":"zz","i":"D-2026-02-27-0001"}`, ErrUnknownCode},
		{"bad escape", `{"v":1,"t":"\q","e":"a","i":"D"}`, ErrSyntax},
		{"control char in string", "{\"v\":1,\"t\":\"a\tb\",\"e\":\"a\",\"i\":\"D\"}", ErrSyntax},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Decode([]byte(tt.line), nil)
			if !errors.Is(err, tt.want) {
				t.Fatalf("Decode(%q) error = %v, want %v", tt.line, err, tt.want)
			}
		})
	}
}

func TestDecodeUnescapesStrings(t *testing.T) {
	line := `{"v":1,"t":"2026-02-27T06:00:00.000Z","e":"a","i":"D-2026-02-27-0001","d":{"tx":"quote \" slash \\ nl \n \u00e9 \ud83d\ude00"}}`
	got, err := Decode([]byte(line), nil)
	noErr(t, err)
	eq(t, got.Data.Text, "quote \" slash \\ nl \n é 😀", "text")
}

func TestEncodeThenDecodeRoundTrips(t *testing.T) {
	in := Event{V: 1, Time: "2026-02-27T06:00:00.000Z", TimeMs: 1772172000000, Project: "p", Code: Supersede, ID: "D-2026-02-27-0002",
		Data: Data{Has: HasStatus | HasSupersededBy | HasReason | HasTags, Status: Superseded, SupersededBy: "D-2026-02-27-0003",
			Reason: "costs \"less\"\n", Tags: []string{"a", "b"}}, Actor: "user"}
	line := Encode(nil, in)
	if !json.Valid(line) {
		t.Fatalf("not JSON: %s", line)
	}
	out, err := Decode(line, nil)
	noErr(t, err)
	eq(t, out, in, "round trip")
}

func TestEncodeAddCarriesTheFullRecordForOlderReaders(t *testing.T) {
	line := string(Encode(nil, Event{V: 1, Time: "2026-02-27T06:00:00.000Z", Project: "p", Code: Add, ID: "D-2026-02-27-0001",
		Data: Data{Text: "Use pnpm"}, Actor: "user"}))
	want := `{"v":1,"t":"2026-02-27T06:00:00.000Z","p":"p","e":"a","i":"D-2026-02-27-0001","d":{"tx":"Use pnpm","tg":[],"s":"active","sp":null,"c":[]},"u":"user"}`
	eq(t, line, want, "line")
}

func TestParseTimeAcceptsRFC3339AndFormatsBack(t *testing.T) {
	eq(t, ParseTime("2026-02-27T06:00:00.000Z"), int64(1772172000000), "fixed layout")
	eq(t, ParseTime("2026-02-27T07:00:00+01:00"), int64(1772172000000), "offset")
	eq(t, ParseTime("2026-02-30T06:00:00.000Z"), int64(0), "no such day")
	eq(t, ParseTime("yesterday"), int64(0), "garbage")
	for _, ms := range []int64{0, 1772172000000, 951782400000, 4102444799999} {
		eq(t, ParseTime(FormatTime(ms)), ms, "round trip of "+FormatTime(ms))
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
		ev, err := Decode(line, nil)
		if err != nil {
			return
		}
		if !json.Valid(line) {
			t.Fatalf("accepted invalid JSON %q", line)
		}
		again, err := Decode(Encode(nil, ev), nil)
		if err != nil {
			t.Fatalf("re-encoded line does not decode: %v", err)
		}
		if again.ID != ev.ID || again.Code != ev.Code || again.Data.Text != ev.Data.Text || strings.Join(again.Data.Tags, "\x00") != strings.Join(ev.Data.Tags, "\x00") {
			t.Fatalf("round trip changed the event: %#v vs %#v", ev, again)
		}
	})
}

// A log written by an editor that adds a byte order mark keeps its first
// event (it used to be reported as "not a JSON object at byte 1").
func TestReplayReadsTheFirstEventAfterAByteOrderMark(t *testing.T) {
	log := "\xEF\xBB\xBF" + ev("2026-02-27T06:00:00.000Z", "a", "D-2026-02-27-0001", `{"tx":"Use Go"}`) +
		ev("2026-02-27T07:00:00.000Z", "a", "D-2026-02-27-0002", `{"tx":"Use Rust"}`)
	st, _ := replay(t, log)
	eq(t, st.Len(), 2, "decisions")
	eq(t, len(st.Problems), 0, "problems")
	// Only at the very start: a BOM inside the log is a bad line.
	st, _ = replay(t, ev("2026-02-27T06:00:00.000Z", "a", "D-2026-02-27-0001", `{"tx":"Use Go"}`)+"\xEF\xBB\xBF"+ev("2026-02-27T07:00:00.000Z", "a", "D-2026-02-27-0002", `{"tx":"Use Rust"}`))
	eq(t, st.Len(), 1, "decisions after a mid-log BOM")
}

// An event with a very deep unknown key says the depth limit, not "not a
// JSON object".
func TestDecodeNamesTheDepthLimit(t *testing.T) {
	deep := strings.Repeat(`{"x":`, 100) + "1" + strings.Repeat("}", 100)
	_, err := Decode([]byte(`{"v":1,"t":"2026-02-27T06:00:00.000Z","p":"p","e":"a","i":"D-2026-02-27-0001","d":{"tx":"a"},"z":`+deep+`}`), nil)
	if !errors.Is(err, ErrDepth) || !strings.Contains(err.Error(), "64 levels") {
		t.Fatalf("Decode = %v, want the depth limit named", err)
	}
}
