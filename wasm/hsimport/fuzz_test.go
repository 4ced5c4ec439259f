package hsimport

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/pi-memory/pi-memory/wasm/marker"
	"github.com/pi-memory/pi-memory/wasm/redact"
	"github.com/tidwall/gjson"
)

// FuzzParse: on any bytes Parse never panics; what it accepts has an id, a
// branch no longer than the file, no secret and none of our blocks in the
// item it becomes, and a request body that is valid JSON.
func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join(fixtures, "*", "*.jsonl"))
	for _, p := range files {
		if data, err := os.ReadFile(p); err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte(header + "\n" + userEntry("a", "b", "x") + "\n" + assistantEntry("b", "a", "y")))
	f.Add([]byte(header + "\n" + userEntry("a", "", "<pi-memory-recall>token=abc123def456</pi-memory-recall>")))
	f.Add([]byte("\uFEFF"))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := Parse(data, Limits{TextChars: 64, ArgChars: 16, ResultChars: 32, SessionChars: 512})
		if err != nil {
			if s.ID != "" || len(s.Turns) != 0 {
				t.Fatalf("refused (%v) but returned %+v", err, s)
			}
			return
		}
		if strings.TrimSpace(s.ID) == "" {
			t.Fatalf("accepted a session without an id: %q", data)
		}
		if s.Branch > s.Entries || s.Messages > len(s.Turns) || s.Messages < 0 {
			t.Fatalf("counts out of range: %+v", s)
		}
		it := NewItem(s, "k")
		for _, text := range []string{it.Content, it.Context} {
			if found := redact.Find(text); found != nil {
				t.Fatalf("a secret is left in %q: %v", text, found)
			}
		}
		for _, turn := range s.Turns {
			if marker.Has(turn.Text) && marker.Strip(turn.Text) != strings.TrimRight(turn.Text, " \t\r\n") {
				t.Fatalf("our block is left in %q", turn.Text)
			}
		}
		if body := RequestBody([]Item{it}); !gjson.ValidBytes(body) {
			t.Fatalf("invalid body: %s", body)
		}
	})
}

// FuzzDecodeCheckpoint: on any bytes DecodeCheckpoint never panics, and
// what it read is read again the same from Encode (strings that are not
// UTF-8 come back with U+FFFD once, as jsonw writes them; host paths are
// UTF-8, decision 001).
func FuzzDecodeCheckpoint(f *testing.F) {
	f.Add(done("/a", 1, 2, 3).Line())
	f.Add(append(skip("/b", 0, 0, 0).Line(), `{"v":1,"op":"done"`...))
	f.Add([]byte("\uFEFF{oops}\r\n[1]\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		c := DecodeCheckpoint(data)
		if len(c.Files) > c.Lines {
			t.Fatalf("%d files from %d records", len(c.Files), c.Lines)
		}
		again := DecodeCheckpoint(c.Encode())
		if len(again.Problems) != 0 || len(again.Files) != len(c.Files) || (again.Last != c.Last && utf8.ValidString(c.Last)) {
			t.Fatalf("Encode does not read back: %v, %d vs %d files, last %q vs %q", again.Problems, len(again.Files), len(c.Files), again.Last, c.Last)
		}
		for p, r := range c.Files {
			// Each field on its own: two invalid halves ("\xd7" + "\x90")
			// can make valid UTF-8 together.
			valid := utf8.ValidString(p) && utf8.ValidString(r.Doc) && utf8.ValidString(r.Bank) && utf8.ValidString(r.Reason)
			if valid && again.Files[p] != r {
				t.Fatalf("%q: %+v read back as %+v", p, r, again.Files[p])
			}
		}
		if third := DecodeCheckpoint(again.Encode()).Encode(); string(third) != string(again.Encode()) {
			t.Fatalf("Encode is not stable:\n%s\n%s", again.Encode(), third)
		}
	})
}
