package observe

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/tidwall/gjson"

	"github.com/pi-memory/pi-memory/internal/require"
	"github.com/pi-memory/pi-memory/wasm/config"
)

// The observer's and the reflector's answers are outside data: a model can
// write anything, including loops and garbage. Their readers must never
// panic, must refuse rather than half-apply, and what they accept must be
// stored and read back unchanged.

var answerSeeds = []string{
	"",
	"None.",
	"Date: Feb 12, 2026\n* 🔴 (14:30) User prefers tabs\n  * -> said twice\n* 🟢 x",
	"<observations>\nDate: Thu, Feb 12, 2026 (yesterday)\n- (09:05) 🟡 item\n    wrapped\n</observations>\n<current-task>t</current-task><suggested-response>r",
	"### Date: 2026-02-13\n1. 🔴️ numbered\n\t* tabbed sub\n[2 days later]\nDate: garbage\n* after a bad date",
	"* (25:99) not a time\n* ()\n* 🔴\n*\n- \n<current-task></current-task>",
	"Error: prompt is too long: 300000 tokens > 200000 maximum",
	strings.Repeat("* 🟡 loop\n", 50),
	"Date: Feb 12, 2026\n* \xff\xfe invalid utf8 \xc3",
	"* item <current-task>inside an item</current-task> after\n* (14:30)(15:30) 🔴🟡 twice",
}

func checkGroups(t *testing.T, groups []group) {
	t.Helper()
	for gi := range groups {
		require.True(t, len(groups[gi].Items) > 0, "an empty group")
		if gi > 0 {
			require.True(t, groups[gi].Day > groups[gi-1].Day, "groups out of order or repeated")
		}
		for _, it := range groups[gi].Items {
			require.True(t, it.Text != "" && !strings.ContainsAny(it.Text, "\n\r"), "item text %q", it.Text)
			require.True(t, it.Priority >= low && it.Priority <= high)
			require.True(t, it.Minute >= -1 && it.Minute < 1440)
			for _, s := range it.Sub {
				require.True(t, s != "" && !strings.ContainsAny(s, "\n\r"), "sub-item %q", s)
			}
		}
	}
}

func FuzzObserverAnswer(f *testing.F) {
	for _, s := range answerSeeds {
		f.Add(s, "")
	}
	f.Add("", "503 overloaded")
	f.Add("", "context_length_exceeded")
	f.Add(hostileAnswer, "")
	f.Fuzz(func(t *testing.T, text, failure string) {
		s := newSession(feb12)
		s.turn("hello", 200)
		tr := s.transcript()
		cfg := defaultConfig()
		st := fold(nil, "", cfg)
		a := plan(st, cfg, &tr, planEnv{Force: true, Clock: at(feb12)})
		require.Equal(t, doObserve, a.Do)
		stop := "stop"
		if len(failure) == 1 {
			stop, failure = "length", "" // a cut-off answer, whatever its text
		}
		r := st.Answer(a, modelAnswer{Text: text, StopReason: stop, Error: failure}, cfg, at(feb12))
		if r.Err != nil {
			require.True(t, r.Record == nil)
			require.Equal(t, Mark{}, st.Mark, "a refused answer moves nothing")
			require.Equal(t, 0, st.Observed)
			return
		}
		require.True(t, failure == "" && len(text) <= maxObserverAnswer && strings.TrimSpace(text) != "" && stop != "length")
		require.Equal(t, Mark{ID: "e2"}, st.Mark)
		checkGroups(t, st.Groups)
		// What was accepted is stored and read back unchanged.
		line := encode(*r.Record)
		back, err := decode(line)
		require.NoError(t, err, "%s", line)
		again := fold([]Record{back}, "", cfg)
		require.Equal(t, render(st.Groups), render(again.Groups))
		require.Equal(t, st.Task, again.Task)
		require.Equal(t, st.Response, again.Response)
		out := render(st.Groups)
		back2, _ := readGroups(out, 0)
		require.Equal(t, out, render(back2), "the canonical form is a fixed point")
		for _, part := range []string{out, st.Task, st.Response} {
			requireData(t, part)
		}
	})
}

// requireData checks what dataText promises of stored text: no control
// character but tab and newline, no escape, no marker or tag of ours.
func requireData(t *testing.T, s string) {
	t.Helper()
	require.True(t, utf8.ValidString(s), "%q", s)
	for _, r := range s {
		require.False(t, (r < 0x20 && r != '\t' && r != '\n') || (r >= 0x7f && r <= 0x9f) || (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069), "%U in %q", r, s)
	}
	for _, m := range []string{"<!--", "</observations", "<pi-memory-", "</pi-memory-", "</summary", "</current-task", "</suggested-response"} {
		require.False(t, strings.Contains(strings.ToLower(s), m), "%q holds %q", s, m)
	}
}

// FuzzDataText checks the data rules (data.go) on any text: sanitize and
// dataText leave data and are idempotent, taskText is short, data and
// idempotent, stripReasoning never grows a text.
func FuzzDataText(f *testing.F) {
	for _, s := range []string{hostileAnswer, "a\x1b]52;c;aGk=\x07b", "\x1b[31m", "\u009d52;\u009c", "<<!--!--", "<</observations>/observations>", "<think><think></think>", "```thinking\nx", "x\xc2", "\xe2\x80", strings.Repeat("</think>", 300), strings.Repeat("$ ", 1000)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		san := sanitize(s)
		require.Equal(t, san, sanitize(san))
		d := dataText(s)
		require.Equal(t, d, dataText(d))
		requireData(t, d)
		task := taskText(s)
		require.True(t, len(task) <= maxTaskBytes, "%d bytes", len(task))
		require.Equal(t, task, taskText(task))
		requireData(t, task)
		require.False(t, strings.Contains(task, "\n"))
		require.True(t, len(stripReasoning(s)) <= len(s))
	})
}

// FuzzModelName checks the "observerModel" rule on any string: a name it
// accepts is one word with a provider and an id around its first slash, and
// a config file holding it gives it back unchanged.
func FuzzModelName(f *testing.F) {
	for _, s := range []string{"", "anthropic/claude-haiku-4-5", "/x", "x/", "a b", "openrouter/a/b", "fake\x00"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		if checkModelName(name) != "" {
			return
		}
		require.True(t, len(name) <= maxModelName && !strings.ContainsAny(name, " \t\n\r\x00\x7f"), "%q", name)
		if p, id, ok := strings.Cut(name, "/"); ok {
			require.True(t, p != "" && id != "", "%q", name)
		}
		data, err := json.Marshal(map[string]string{"observerModel": name})
		require.NoError(t, err)
		c := parse(string(data), "")
		if utf8.ValidString(name) {
			require.Equal(t, name, c.ObserverModel)
		}
	})
}

func FuzzReflectorAnswer(f *testing.F) {
	for _, s := range answerSeeds {
		f.Add(s, false)
		f.Add("<observations>\n"+s+"\n</observations>", true)
	}
	f.Fuzz(func(t *testing.T, text string, aggressive bool) {
		cfg := defaultConfig()
		st := reflectState(20)
		before := render(st.Groups)
		a := plan(st, cfg, &transcript{}, planEnv{Reflect: true, Aggressive: aggressive})
		require.Equal(t, doReflect, a.Do)
		r := st.Answer(a, modelAnswer{Text: text}, cfg, at(feb12))
		if r.Err != nil {
			require.True(t, r.Record == nil)
			require.Equal(t, before, render(st.Groups), "a refused reflection keeps the old state")
			return
		}
		require.True(t, countItems(st.Groups) > 0, "a reflection never empties the memory")
		require.True(t, st.Tokens() <= cfg.ReflectorTokens, "a reflection ends below the reflector threshold")
		checkGroups(t, st.Groups)
		back, err := decode(encode(*r.Record))
		require.NoError(t, err)
		require.Equal(t, render(st.Groups), render(fold([]Record{back}, "", cfg).Groups))
	})
}

// FuzzLedgerPieces checks that a ledger read in pieces of any size decodes
// as the whole file does (issue 19, item 2: a ledger is read in pieces).
func FuzzLedgerPieces(f *testing.F) {
	var all []byte
	for _, r := range sampleRecords {
		all = append(append(all, encode(r)...), '\n')
	}
	f.Add(all, uint8(1))
	f.Add(all[:len(all)-9], uint8(7))
	f.Add(append([]byte("\xEF\xBB\xBF"), bytes.ReplaceAll(all, []byte("\n"), []byte("\r\n\n  \n"))...), uint8(3))
	f.Add([]byte("{\"v\":9}\n\xEF\xBB\xBF{}\nnot json"), uint8(2))
	f.Fuzz(func(t *testing.T, data []byte, size uint8) {
		want, wantProbs := DecodeLedger(data)
		read := func(off int64, dst []byte) (int, error) {
			if off >= int64(len(data)) {
				return 0, nil
			}
			return copy(dst, data[off:]), nil
		}
		var got []Record
		cfg := defaultConfig()
		folded := newFolder("", cfg)
		probs, err := readLedger(read, make([]byte, int(size)%16+1), func(r Record, line []byte) {
			again, err := decode(line)
			require.NoError(t, err)
			require.Equal(t, string(encode(r)), string(encode(again)), "a record comes with its own line")
			got = append(got, r)
			folded.apply(r)
		})
		require.NoError(t, err)
		requireSameState(t, recordByRecord(want, "", cfg), folded.done(), cfg, "the ledger read in pieces")
		require.Equal(t, len(want), len(got))
		for i := range want {
			require.Equal(t, string(encode(want[i])), string(encode(got[i])))
			require.Equal(t, want[i].Line, got[i].Line)
		}
		require.Equal(t, wantProbs, probs)
	})
}

func FuzzDecodeLedger(f *testing.F) {
	var all []byte
	for _, r := range sampleRecords {
		all = append(append(all, encode(r)...), '\n')
	}
	for _, s := range [][]byte{
		all,
		all[:len(all)-9],
		bytes.ReplaceAll(all, []byte("\n"), []byte("\r\n\n  \n")),
		[]byte(`{"v":1,"op":"observe","t":1,"through":"e1","off":-1}`),
		[]byte(`{"v":1.5,"op":"set","t":1e300,"retainTokens":-1,"mode":null}`),
		[]byte(`{"v":1,"op":"observe","t":1,"through":"e1","obs":"Date: Feb 12, 2026\n* 🔴 x","obs":"dup wins?"}`),
		[]byte("{\"v\":1,\"op\":\"reflect\",\"t\":2,\"obs\":\"\\ud800 \\u2028\",\"read\":[]}"),
		[]byte(`{"v":9,"op":"x"}` + "\n[]\nnull\n\"s\"\n{}"),
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		recs, probs := DecodeLedger(data)
		// Every line with something but white space is a record or a
		// problem (a byte-order mark at the start is not content).
		lines := 0
		for _, l := range bytes.Split(bytes.TrimPrefix(data, []byte("\xEF\xBB\xBF")), []byte("\n")) {
			if len(bytes.TrimSpace(l)) > 0 {
				lines++
			}
		}
		require.Equal(t, lines, len(recs)+len(probs), "one record or problem per line of %q", data)
		last := 0
		for _, p := range probs {
			require.True(t, p.Line > last && p.Msg != "", "problem %v out of order", p)
			last = p.Line
		}
		for _, r := range recs {
			line := encode(r)
			require.True(t, utf8.Valid(line))
			back, err := decode(line)
			require.NoError(t, err, "%s", line)
			back.Line = r.Line
			require.Equal(t, r, back, "%s", line)
		}
		// Merging only what no later reflect or clear replaces (folder)
		// folds as merging every record's observations does.
		requireSameFold(t, recs, "s-2", "the fuzzed ledger")
		st := fold(recs, "", defaultConfig())
		checkGroups(t, st.Groups)
		_ = inject(st, defaultConfig(), injectInput{Query: "x", At: at(feb12)})
		_, _, _ = summaryOf(st, summaryInput{})
	})
}

func FuzzReadEntries(f *testing.F) {
	s := newSession(feb12)
	s.user("Fix auth/login.go; password = hunter22x")
	s.assistant("look", call{"c1", "read", `{"path":"a.go"}`})
	s.result("c1", "read", "package a", false)
	s.compaction("e1", "summary", false)
	f.Add(s.jsonl(), 0)
	f.Add([]byte("["+strings.Join(s.lines[1:], ",")+"]"), 60)
	f.Add([]byte(`[{"role":"user","content":[{"type":"text","text":"bare"},{"type":"image"}]},{"type":"context_edit","targetId":"x","replacement":{}}]`), -300)
	f.Add([]byte(`{"type":"message","id":"a","timestamp":"2026-99-99T","message":{"role":"assistant","content":"not blocks","stopReason":"error"}}`), 840)
	f.Fuzz(func(t *testing.T, data []byte, zone int) {
		zone %= 24 * 60
		tr := readEntries(data, zone)
		for _, e := range tr.Entries {
			require.Equal(t, clean(e.Text), e.Text, "entry text is redacted")
			require.True(t, e.Tokens >= 0)
		}
		require.True(t, tr.LastCompaction < len(tr.Entries))
		if len(tr.Entries) > 0 {
			chunks := cutChunks(&tr, 0, 0, len(tr.Entries), Mark{}, 300)
			for _, c := range chunks {
				require.True(t, c.Tokens <= 300)
			}
		}
	})
}

// readContext reads pi's messages for every model request: whatever they
// hold, it never panics, the block goes inside the request, and the query
// never carries our own block back.
func FuzzReadContext(f *testing.F) {
	f.Add(`[{"role":"compactionSummary","summary":"…"},{"role":"user","content":"fix the search bug"}]`)
	f.Add(`[{"role":"user","content":[{"type":"text","text":"` + markerStart + `old` + markerEnd + ` new"}]},{"role":"custom","customType":"observational-memory-context","content":"x"}]`)
	f.Add(`[{"role":"branchSummary"},{"role":"assistant","content":[]},"text",[1],{"role":"user","content":{"a":1}}]`)
	f.Add(`{"role":"user"}`)
	f.Fuzz(func(t *testing.T, msgs string) {
		v := readContext(msgs)
		n := 0 // the messages as readContext walks them, leniently
		gjson.Parse(msgs).ForEach(func(_, _ gjson.Result) bool { n++; return true })
		require.True(t, v.At >= 0 && v.At <= n, "At %d within %d messages", v.At, n)
		require.NotContains(t, v.Query, markerStart)
	})
}

// The /om commands' words are typed by a person: the grammars never panic,
// refuse rather than half-read, and what they accept reads back the same.

func FuzzParseAutoCompact(f *testing.F) {
	for _, s := range []string{"", "on", "OFF blocking", "20000 50000 4000", "12000 buffered on", "1 2 3 4", "-1", "1000001", "+007", "30k", "on soon", "0 0 0 off Buffered"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		words := strings.Fields(line)
		set, why := parseAutoCompact(words)
		if why != "" {
			require.Equal(t, "", settingsText(set), "a refused command sets nothing")
			named := false
			for _, w := range words {
				named = named || strings.Contains(why, quote(w))
			}
			require.True(t, named, "%q names none of %q", why, words)
			return
		}
		counts := 0
		for _, w := range words {
			if n, err := strconv.Atoi(w); err == nil {
				require.True(t, n >= 0 && n <= maxTokensLimit, "%q accepted", w)
				counts++
				continue
			}
			require.True(t, has([]string{"on", "off", modeBuffered, modeBlocking}, strings.ToLower(w)), "%q accepted", w)
		}
		// The counts fill observer, reflector and retain in that order.
		nums := []*int{set.ObserverTokens, set.ReflectorTokens, set.RetainTokens}
		for i, p := range nums {
			require.Equal(t, i < counts, p != nil, "count %d of %d", i+1, counts)
		}
		// What was set, written back as words, reads the same.
		var again []string
		if set.AutoCompact != nil {
			again = append(again, onOff(*set.AutoCompact))
		}
		if set.Mode != nil {
			again = append(again, *set.Mode)
		}
		for _, p := range nums[:counts] {
			again = append(again, itoa(*p))
		}
		back, why := parseAutoCompact(again)
		require.Equal(t, "", why)
		require.Equal(t, settingsText(set), settingsText(back))
		eff := defaultConfig().With(set)
		require.True(t, eff.ObserverTokens >= 0 && eff.ObserverTokens <= maxTokensLimit && eff.RetainTokens >= 0 && eff.ReflectorTokens >= minReflectorTokens)
	})
}

func FuzzParseMode(f *testing.F) {
	for _, s := range []string{"", "buffered", "BLOCKING", "blocking whatever", "eager"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		words := strings.Fields(line)
		mode, ok := parseMode(words)
		require.Equal(t, len(words) == 1 && has([]string{modeBuffered, modeBlocking}, strings.ToLower(words[0])), ok)
		if ok {
			require.Equal(t, strings.ToLower(words[0]), mode)
		} else {
			require.Equal(t, "", mode)
		}
	})
}

func FuzzParseView(f *testing.F) {
	for _, s := range []string{"", "obs", "RAW 3", "raw obs", "20", "5 raw 8", "0", "-3", "obs all", "+1"} {
		f.Add(s)
	}
	s := newSession(feb12)
	for i := 0; i < 4; i++ {
		s.turn("line one\nline two\nline three", 200)
	}
	tr := s.transcript()
	st := &state{Groups: []group{{Day: d12, Items: []observation{item(high, 1, "a"), item(low, 2, "b"), item(medium, 3, "c")}}}, Task: "t"}
	f.Fuzz(func(t *testing.T, line string) {
		words := strings.Fields(line)
		sel, ok := parseView(words)
		known := true
		for _, w := range words {
			n, err := strconv.Atoi(w)
			known = known && (has([]string{"obs", "raw"}, strings.ToLower(w)) || err == nil && n > 0)
		}
		require.Equal(t, known, ok, "%q", words)
		if !ok {
			require.Equal(t, viewSel{}, sel)
			return
		}
		require.True(t, sel.obs || sel.raw, "something is shown")
		require.True(t, sel.limit >= 0)
		page := viewPage(st, &tr, sel)
		require.Equal(t, sel.obs, strings.HasPrefix(page, "--- observations ---\n"))
		require.Equal(t, sel.raw, strings.Contains(page, "--- not yet observed: ~"))
		if sel.limit > 0 && sel.limit < 1<<30 { // past that, parts*(limit+3) overflows and no page is so long
			parts := 0
			if sel.obs {
				parts++
			}
			if sel.raw {
				parts++
			}
			// Each part: a header, its lines, what was left out; a blank line between.
			require.True(t, strings.Count(page, "\n")+1 <= parts*(sel.limit+3)-1, "%d lines of each part at most", sel.limit)
		}
	})
}

// /om config edit writes a text only when the store reads it back as it was
// written: never one that would turn the store off, and its warnings are the
// ones the store then says.
func FuzzCheckConfigEdit(f *testing.F) {
	prefill := DefaultConfigJSON()
	for _, s := range []string{prefill, "", "{}", `{"observerTokens": 20000}`, `{"observerTokens": "many", "x": 1}`, `{"observerTokens": 5`, `{"enabled": "no"}`, `{"enabled": false}`, "[]", "// c\n{\"mode\": \"blocking\",}\n", "\xef\xbb\xbf{}"} {
		f.Add(s, true)
	}
	f.Add("{}", false)
	f.Fuzz(func(t *testing.T, answer string, saved bool) {
		e := checkConfigEdit(projectFile, prefill, saved, answer)
		require.True(t, e.say != "", "something is said")
		if e.text == "" {
			require.Equal(t, 0, len(e.warnings))
			require.Equal(t, e.fail, saved && answer != prefill, "only a changed text is refused")
			if e.fail {
				text := []byte(strings.TrimSuffix(answer, "\n") + "\n")
				back := parseConfigFiles(config.Parse("", nil), nil, config.Parse(projectFile, text), text)
				require.True(t, back.Why != "", "a refused text would turn the store off: %q", answer)
			}
			return
		}
		require.True(t, saved && answer != prefill && !e.fail)
		require.True(t, strings.HasSuffix(e.text, "\n") && strings.TrimSuffix(e.text, "\n") == strings.TrimSuffix(answer, "\n"))
		back := parseConfigFiles(config.Parse("", nil), nil, config.Parse(projectFile, []byte(e.text)), []byte(e.text))
		require.Equal(t, "", back.Why, "a written text never turns the store off")
		require.Equal(t, e.warnings, back.Warnings, "what is said is what the store says")
	})
}
