package redact

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// The shared corpus (testdata/secrets/README.md): every store's tests load it.
const (
	secretsFile = "../../testdata/secrets/secrets.jsonl"
	benignFile  = "../../testdata/secrets/benign.jsonl"
)

type secretLine struct {
	Kind   string   `json:"kind"`
	Text   string   `json:"text"`
	Secret string   `json:"secret"`
	Keep   []string `json:"keep"`
	Alone  bool     `json:"alone"`
	line   int
}

type benignLine struct {
	Text string `json:"text"`
	Note string `json:"note"`
	line int
}

// readJSONL decodes one object per line into a new T, naming the line of
// any bad entry.
func readJSONL[T any](t testing.TB, path string, check func(*T, int) string) []T {
	t.Helper()
	f, err := os.Open(filepath.FromSlash(path))
	if err != nil {
		t.Fatalf("open the secret corpus: %v", err)
	}
	defer f.Close()
	var out []T
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for n := 1; sc.Scan(); n++ {
		var v T
		dec := json.NewDecoder(strings.NewReader(sc.Text()))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&v); err != nil {
			t.Fatalf("%s:%d: %v", path, n, err)
		}
		if msg := check(&v, n); msg != "" {
			t.Fatalf("%s:%d: %s", path, n, msg)
		}
		out = append(out, v)
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("read %s: %v", path, err)
	}
	if len(out) == 0 {
		t.Fatalf("%s holds no lines", path)
	}
	return out
}

func loadSecrets(t testing.TB) []secretLine {
	return readJSONL(t, secretsFile, func(s *secretLine, n int) string {
		s.line = n
		switch {
		case s.Kind == "" || s.Text == "" || s.Secret == "":
			return "kind, text and secret are required"
		case strings.Count(s.Text, s.Secret) != 1:
			return "the secret must occur exactly once in the text"
		}
		for _, k := range s.Keep {
			if !strings.Contains(s.Text, k) {
				return "keep " + k + " is not in the text"
			}
		}
		return ""
	})
}

func loadBenign(t testing.TB) []benignLine {
	return readJSONL(t, benignFile, func(b *benignLine, n int) string {
		b.line = n
		if b.Text == "" {
			return "text is required"
		}
		return ""
	})
}

func corpusTexts(t testing.TB) []string {
	var out []string
	for _, s := range loadSecrets(t) {
		out = append(out, s.Text)
	}
	for _, b := range loadBenign(t) {
		out = append(out, b.Text)
	}
	return out
}

func TestCorpusSecretsAreRedactedKeepingTheirLabels(t *testing.T) {
	for _, c := range loadSecrets(t) {
		out, kinds := String(c.Text)
		if strings.Contains(out, c.Secret) {
			t.Errorf("secrets.jsonl:%d: the %s survived: %q", c.line, c.Kind, out)
		}
		if !has(kinds, c.Kind) {
			t.Errorf("secrets.jsonl:%d: kinds = %v, want %s (%q)", c.line, kinds, c.Kind, out)
		}
		if !strings.Contains(out, mark(c.Kind)) {
			t.Errorf("secrets.jsonl:%d: %q has no %s", c.line, out, mark(c.Kind))
		}
		for _, k := range c.Keep {
			if !strings.Contains(out, k) {
				t.Errorf("secrets.jsonl:%d: lost %q: %q", c.line, k, out)
			}
		}
	}
}

func TestCorpusFindNamesTheKindAndBytesOfEachSecret(t *testing.T) {
	for _, c := range loadSecrets(t) {
		start := strings.Index(c.Text, c.Secret)
		end := start + len(c.Secret)
		var cover *Finding
		found := Find(c.Text)
		for i, f := range found {
			if f.Start <= start && end <= f.End {
				cover = &found[i]
			}
		}
		switch {
		case cover == nil:
			t.Errorf("secrets.jsonl:%d: no finding covers bytes %d-%d: %v", c.line, start, end, found)
		case cover.Kind != c.Kind:
			t.Errorf("secrets.jsonl:%d: the finding is a %s, want %s", c.line, cover.Kind, c.Kind)
		}
		if !Contains(c.Text) {
			t.Errorf("secrets.jsonl:%d: Contains is false", c.line)
		}
	}
}

func TestCorpusBenignLinesComeBackUnchanged(t *testing.T) {
	for _, b := range loadBenign(t) {
		if out, kinds := String(b.Text); out != b.Text || kinds != nil {
			t.Errorf("benign.jsonl:%d (%s): String = %q %v", b.line, b.Note, out, kinds)
		}
		if f := Find(b.Text); f != nil {
			t.Errorf("benign.jsonl:%d (%s): Find = %v", b.line, b.Note, f)
		}
		if Contains(b.Text) {
			t.Errorf("benign.jsonl:%d (%s): Contains is true", b.line, b.Note)
		}
	}
}

func TestCorpusRedactionIsIdempotent(t *testing.T) {
	for _, s := range corpusTexts(t) {
		once, _ := String(s)
		if twice, kinds := String(once); twice != once || kinds != nil {
			t.Errorf("second pass over %q changed %q to %q (%v)", s, once, twice, kinds)
		}
	}
}

func TestCorpusContainsAgreesWithFind(t *testing.T) {
	for _, s := range corpusTexts(t) {
		if got, want := Contains(s), len(Find(s)) > 0; got != want {
			t.Errorf("Contains(%q) = %v, Find found %v", s, got, Find(s))
		}
	}
}

func TestPrefilterNeverHidesAMatch(t *testing.T) {
	for _, s := range corpusTexts(t) {
		checkPrefilter(t, s)
	}
}

// checkPrefilter: every match of every pattern holds one of its triggers, and
// scanning only the triggered patterns finds what scanning all of them does.
func checkPrefilter(t *testing.T, s string) {
	t.Helper()
	setupOnce.Do(setup)
	for _, p := range patterns {
		for _, m := range findAll(p, s) {
			if !holdsTrigger(s[m[0]:m[1]], p.triggers) {
				t.Fatalf("%s matched %q, which holds none of %v", p.kind, s[m[0]:m[1]], p.triggers)
			}
		}
	}
	if all, some := scanEvery(s), Find(s); !reflect.DeepEqual(all, some) {
		t.Fatalf("%q: every pattern over the whole text finds %v, the triggered ones on their lines %v", s, all, some)
	}
}

// scanEvery is scan without the prefilter: every pattern over the whole
// text in its plain form (as scan reads it).
func scanEvery(s string) []Finding {
	setupOnce.Do(setup)
	return views(s, false, func(p string) []Finding {
		var r run
		r.patterns(p, 0, len(p), allPatterns)
		return r.result()
	})
}

func holdsTrigger(match string, triggers []string) bool {
	for i := range match {
		if startsTrigger(match[i:], triggers) {
			return true
		}
	}
	return false
}

func has(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
