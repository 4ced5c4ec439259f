package decision

import (
	"strconv"
	"testing"
	"unicode/utf8"

	"github.com/pi-memory/pi-memory/internal/require"
	"github.com/pi-memory/pi-memory/wasm/internal/jsonw"
	"github.com/tidwall/gjson"
)

func TestVerdictsOfReadsTheModelsAnswerAndRefusesAFailedCall(t *testing.T) {
	tests := []struct {
		name, answer string
		want         verdicts
		ok           bool
	}{
		{"an answer", `{"text":"[{\"n\":1,\"decision\":true,\"confidence\":0.9}]"}`,
			verdicts{Conf: []float64{0.9, 0}, Judged: []bool{true, false}}, true},
		{"prose around the array", `{"text":"Sure:\n[{\"n\":2,\"decision\":true,\"confidence\":0.7}]\nDone."}`,
			verdicts{Conf: []float64{0, 0.7}, Judged: []bool{false, true}}, true},
		{"not a decision", `{"text":"[{\"n\":1,\"decision\":false,\"confidence\":0.9}]"}`,
			verdicts{Conf: []float64{0, 0}, Judged: []bool{true, false}}, true},
		{"confidence clamped", `{"text":"[{\"n\":1,\"decision\":true,\"confidence\":7},{\"n\":2,\"decision\":true,\"confidence\":-1}]"}`,
			verdicts{Conf: []float64{1, 0}, Judged: []bool{true, true}}, true},
		{"entries of the wrong shape ignored", `{"text":"[1,\"x\",{\"n\":0},{\"n\":3},{\"n\":1.5},{\"n\":\"1\",\"decision\":true}]"}`,
			verdicts{Conf: []float64{0, 0}, Judged: []bool{false, false}}, true},
		{"a failed call", `{"error":"timeout","text":"[]"}`, verdicts{}, false},
		{"no text", `{}`, verdicts{}, false},
		{"no array", `{"text":"I cannot tell."}`, verdicts{}, false},
		{"an object, not an array", `{"text":"{\"n\":1}"}`, verdicts{}, false},
		// The array is the first balanced one that parses: brackets in
		// prose around it, or in its strings, do not hide it (a bracket
		// after it once sent the answer to the rule classifier).
		{"a bracket after the array", `{"text":"[{\"n\":1,\"decision\":true,\"confidence\":0.9}] (see [1])"}`,
			verdicts{Conf: []float64{0.9, 0}, Judged: []bool{true, false}}, true},
		{"a bracket before the array", `{"text":"[Note] candidates judged: [{\"n\":2,\"decision\":true,\"confidence\":0.8}]"}`,
			verdicts{Conf: []float64{0, 0.8}, Judged: []bool{false, true}}, true},
		{"an unclosed bracket before the array", `{"text":"[1 of 2: [{\"n\":1,\"decision\":true,\"confidence\":0.8}]"}`,
			verdicts{Conf: []float64{0.8, 0}, Judged: []bool{true, false}}, true},
		{"brackets in a string", `{"text":"[{\"n\":1,\"why\":\"says ] and [\",\"decision\":true,\"confidence\":0.6}] [x]"}`,
			verdicts{Conf: []float64{0.6, 0}, Judged: []bool{true, false}}, true},
		{"an escaped quote in a string", `{"text":"[{\"n\":1,\"why\":\"a \\\" ]\",\"decision\":true,\"confidence\":0.6}]"}`,
			verdicts{Conf: []float64{0.6, 0}, Judged: []bool{true, false}}, true},
		{"only prose in brackets", `{"text":"[none of these] [see above]"}`, verdicts{}, false},
		{"an unclosed array", `{"text":"[{\"n\":1,\"decision\":true}"}`, verdicts{}, false},
	}
	for _, tt := range tests {
		v, ok := verdictsOf(gjson.Parse(tt.answer), 2)
		require.Equal(t, tt.ok, ok, tt.name)
		require.Equal(t, tt.want, v, tt.name)
	}
}

func TestToAskSendsTheModelWhatTheClassifierLeavesToIt(t *testing.T) {
	cands := []candidate{{Text: "Use pnpm", Score: 1, Explicit: true}, {Text: "From now on squash", Score: 0.8}, {Text: "Use zod", Score: 0.4}}
	tests := []struct {
		classifier string
		want       []string
	}{
		{"rule", nil},
		{"llm", []string{"Use pnpm", "From now on squash", "Use zod"}},
		{"hybrid", []string{"Use zod"}},
	}
	for _, tt := range tests {
		c := defaultSettings()
		c.Classifier = tt.classifier
		require.Equal(t, tt.want, texts(c.ToAsk(cands)), tt.classifier)
	}
}

func TestByRuleAndByModelKeepWhatPassesTheThreshold(t *testing.T) {
	cands := []candidate{{Text: "Use pnpm", Score: 1, Explicit: true}, {Text: "From now on squash", Score: 0.8}, {Text: "Use zod", Score: 0.4}}
	c := defaultSettings() // threshold 0.65
	require.Equal(t, []string{"Use pnpm", "From now on squash"}, texts(c.ByRule(cands)), "rule")

	asked := cands[2:]
	c.Classifier = "hybrid"
	got := c.ByModel(cands, asked, verdicts{Conf: []float64{0.9}, Judged: []bool{true}})
	require.Equal(t, []string{"Use pnpm", "From now on squash", "Use zod"}, texts(got), "hybrid, judged a decision")
	require.Equal(t, 0.9, got[2].Score, "the model's confidence becomes the score")
	got = c.ByModel(cands, asked, verdicts{Conf: []float64{0.5}, Judged: []bool{true}})
	require.Equal(t, []string{"Use pnpm", "From now on squash"}, texts(got), "hybrid, under the threshold")

	c.Classifier = "llm"
	got = c.ByModel(cands, cands, verdicts{Conf: []float64{0.9, 0, 0.7}, Judged: []bool{true, true, false}})
	require.Equal(t, []string{"Use pnpm"}, texts(got), "llm: only what the model judged a decision")
}

func texts(cands []candidate) []string {
	var out []string
	for _, c := range cands {
		out = append(out, c.Text)
	}
	return out
}

// FuzzParseVerdicts: whatever the model answers, the verdicts are one per
// candidate, confidences in [0, 1], and only judged candidates have one.
func TestFirstArrayIsTheFirstBalancedSpanThatParses(t *testing.T) {
	tests := []struct{ in, want string }{
		{`[1]`, `[1]`},
		{`[{"n":1,"why":"a ]"}] (see [1])`, `[{"n":1,"why":"a ]"}]`},
		{`[sic] then [1]`, `[1]`},
		{`[a [1] b] [2]`, `[2]`}, // a span that is not JSON is skipped whole
		{`[ [1]`, `[1]`},
		{`] [1]`, `[1]`},
		{`"[" [1]`, `[1]`}, // a quote outside any bracket is prose
		{`[1`, ``},
		{`no array`, ``},
	}
	for _, tt := range tests {
		got, ok := firstArray(tt.in)
		require.Equal(t, tt.want, got, tt.in)
		require.Equal(t, tt.want != "", ok, tt.in)
	}
}

func FuzzParseVerdicts(f *testing.F) {
	for _, s := range []string{
		`[{"n":1,"decision":true,"confidence":0.9}]`,
		`Sure: [{"n":2,"decision":true,"confidence":7}] ok`,
		`[1,"x",{"n":0},{"n":3},{"n":1.5},{"n":"1"}]`,
		`[{"n":1,"decision":true,"confidence":NaN}]`,
		`] [`, `[]`, `{}`, ``, `[{"n":1e300,"decision":true}]`,
		`[{"n":1,"decision":true,"confidence":0.9}] (see [1])`, `[x] [{"n":1,"why":"] [\""}]`, `[[[[`,
	} {
		f.Add(s, uint8(2))
	}
	f.Fuzz(func(t *testing.T, answer string, n uint8) {
		v, ok := parseVerdicts(answer, int(n%8))
		if utf8.ValidString(answer) {
			// The same answer as the host hands it over.
			ev, eok := verdictsOf(gjson.Parse(`{"text":`+string(jsonw.String(nil, answer))+`}`), int(n%8))
			require.Equal(t, ok, eok, "ok in an envelope: %q", answer)
			require.Equal(t, v, ev, "verdicts in an envelope: %q", answer)
		}
		if !ok {
			require.Equal(t, verdicts{}, v, answer)
			return
		}
		require.Equal(t, int(n%8), len(v.Conf), "conf")
		require.Equal(t, int(n%8), len(v.Judged), "judged")
		for i, c := range v.Conf {
			require.True(t, c >= 0 && c <= 1, "confidence %v of %q", c, answer)
			require.True(t, c == 0 || v.Judged[i], "unjudged candidate %d has a confidence", i)
		}
	})
}

func TestRepeatsIsTheNearDuplicateMeasureOfAdd(t *testing.T) {
	declined := []string{"Use black for Python formatting", "Deploy on Fridays"}
	tests := []struct {
		text string
		want bool
	}{
		{"Use black for Python formatting", true},
		{"use Black for python formatting", true},
		{"Use black for Python formatting.", true},
		{"Use PostgreSQL 16 for the primary database", false},
		{"Use ruff for Python linting", false},
	}
	for _, tt := range tests {
		if got := repeats(declined, tt.text); got != tt.want {
			t.Errorf("repeats(%q) = %v, want %v", tt.text, got, tt.want)
		}
	}
	if repeats(nil, "anything") {
		t.Error("nothing declined repeats nothing")
	}
}

func TestDeclineKeepsTheNewest(t *testing.T) {
	var texts []string
	for i := range maxDeclined + 5 {
		texts = decline(texts, strconv.Itoa(i))
	}
	if len(texts) != maxDeclined || texts[0] != "5" || texts[len(texts)-1] != strconv.Itoa(maxDeclined+4) {
		t.Errorf("kept %d, from %s to %s", len(texts), texts[0], texts[len(texts)-1])
	}
}
