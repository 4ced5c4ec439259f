package redact

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// The precision corpus (testdata/secrets/ordinary/): files of ordinary code,
// lockfiles, styles, config and prose, with passwords and tokens named but
// never given. Not a byte of them may be redacted.
const ordinaryDir = "../../testdata/secrets/ordinary"

type ordinaryFile struct{ name, text string }

func loadOrdinary(t testing.TB) []ordinaryFile {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(filepath.FromSlash(ordinaryDir), "*"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no precision corpus in %s: %v", ordinaryDir, err)
	}
	sort.Strings(paths)
	var out []ordinaryFile
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, ordinaryFile{filepath.Base(p), string(b)})
	}
	return out
}

func TestOrdinaryCodeAndProseAreNotRedacted(t *testing.T) {
	for _, f := range loadOrdinary(t) {
		for _, found := range Find(f.text) {
			line := 1 + strings.Count(f.text[:found.Start], "\n")
			t.Errorf("ordinary/%s:%d: a %s: %q", f.name, line, found.Kind, f.text[found.Start:found.End])
		}
	}
}

// The matchers agree with their expressions on the precision corpus too,
// each file whole and line by line.
func TestMatchersAgreeWithTheirExpressionsOnOrdinaryText(t *testing.T) {
	for _, f := range loadOrdinary(t) {
		checkMatchers(t, f.text)
		for _, line := range strings.Split(f.text, "\n") {
			checkMatchers(t, line)
		}
	}
}

// TestCorpusRecallAndPrecision reports, over the whole corpus, how many
// secrets String removes (recall: secrets.jsonl, each secret gone and named
// by its kind) and how many texts it leaves alone that hold none (precision:
// of the texts it changed, how many held a secret; benign.jsonl lines and
// the ordinary files' lines are the texts that hold none). Both must be 1.
func TestCorpusRecallAndPrecision(t *testing.T) {
	var caught, missed, falsePositives, clean int
	for _, c := range loadSecrets(t) {
		out, kinds := String(c.Text)
		if strings.Contains(out, c.Secret) || !has(kinds, c.Kind) {
			missed++
			t.Errorf("secrets.jsonl:%d: missed the %s: %q", c.line, c.Kind, out)
			continue
		}
		caught++
	}
	var negatives []string
	for _, b := range loadBenign(t) {
		negatives = append(negatives, b.Text)
	}
	for _, f := range loadOrdinary(t) {
		negatives = append(negatives, strings.Split(f.text, "\n")...)
	}
	for _, s := range negatives {
		if Contains(s) {
			falsePositives++
			t.Errorf("redacted a text that holds no secret: %q", s)
			continue
		}
		clean++
	}
	recall := float64(caught) / float64(caught+missed)
	precision := float64(caught) / float64(caught+falsePositives)
	t.Logf("recall %.3f (%d of %d secrets), precision %.3f (%d false positives in %d texts without a secret)",
		recall, caught, caught+missed, precision, falsePositives, falsePositives+clean)
}

// docs/formats.md lists every kind a mark can name.
func TestFormatsDocumentsEveryKind(t *testing.T) {
	b, err := os.ReadFile(filepath.FromSlash("../../docs/formats.md"))
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	if i := strings.Index(doc, "## Redaction marks"); i >= 0 {
		doc = doc[i:]
	} else {
		t.Fatal(`docs/formats.md has no "## Redaction marks" section`)
	}
	setupOnce.Do(setup)
	for _, p := range patterns {
		if !strings.Contains(doc, "`"+p.kind+"`") {
			t.Errorf("docs/formats.md's redaction section does not list the kind %s", p.kind)
		}
	}
}
