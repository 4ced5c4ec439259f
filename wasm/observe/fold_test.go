package observe

import (
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/pi-memory/pi-memory/internal/require"
)

// The folder (state.go) merges only the observations no later reflect or
// clear replaces. These tests fold the same ledgers both ways, with it and
// record by record (Apply, what fold did before), and require the same
// state and the same texts from it.

// recordByRecord folds recs applying each record's observations as it
// comes: the fold the folder must equal.
func recordByRecord(recs []Record, session string, cfg omConfig) *state {
	s := &state{session: session}
	for _, r := range recs {
		s.Apply(r, cfg)
	}
	return s
}

// requireSameState fails unless got is want: every field, then what is
// shown from them.
func requireSameState(t testing.TB, want, got *state, cfg omConfig, what string) {
	t.Helper()
	require.Equal(t, render(want.Groups), render(got.Groups), "observations of %s", what)
	require.Equal(t, [5]int{want.Observed, want.Empty, want.Reflected, want.SinceReflect, want.version},
		[5]int{got.Observed, got.Empty, got.Reflected, got.SinceReflect, got.version}, "counters of %s", what)
	require.True(t, reflect.DeepEqual(want, got), "state of %s", what)
	env := planEnv{Clock: at(feb12 + 30*86400000)}
	require.Equal(t, status(want, cfg, nil, env), status(got, cfg, nil, env), "/om status of %s", what)
	require.Equal(t, footer(want, cfg), footer(got, cfg), "footer of %s", what)
	require.Equal(t, want.Text(), got.Text(), "/om observations of %s", what)
	in := injectInput{Query: "the billing client", At: env.Clock}
	require.Equal(t, inject(want, cfg, in), inject(got, cfg, in), "block of %s", what)
	sw, dw, ww := summaryOf(want, summaryInput{})
	sg, dg, wg := summaryOf(got, summaryInput{})
	require.Equal(t, sw+string(dw)+ww, sg+string(dg)+wg, "summary of %s", what)
}

// requireSameFold folds recs both ways, for session, under the default
// configuration and under one that keeps three observations (so that
// observations are pruned, and the folder settles whenever more than three
// wait).
func requireSameFold(t testing.TB, recs []Record, session, what string) {
	t.Helper()
	small := defaultConfig()
	small.MaxObservationItems = 3
	for _, cfg := range []omConfig{defaultConfig(), small} {
		requireSameState(t, recordByRecord(recs, session, cfg), fold(recs, session, cfg), cfg, what)
	}
}

// requireSameRead reads data as the driver does (readLedger, each record
// into the folder as it is read) and as DecodeLedger then recordByRecord,
// and requires the same state and problems.
func requireSameRead(t testing.TB, data []byte, session, what string) {
	t.Helper()
	recs, wantProbs := DecodeLedger(data)
	cfg := defaultConfig()
	f := newFolder(session, cfg)
	probs, err := readLedger(bytesReader(data), make([]byte, 64), func(r Record, _ []byte) { f.apply(r) })
	require.NoError(t, err)
	require.Equal(t, wantProbs, probs, "problems of %s", what)
	requireSameState(t, recordByRecord(recs, session, cfg), f.done(), cfg, what)
}

func bytesReader(data []byte) func(off int64, dst []byte) (int, error) {
	return func(off int64, dst []byte) (int, error) {
		if off >= int64(len(data)) {
			return 0, nil
		}
		return copy(dst, data[off:]), nil
	}
}

func obsRec(t int64, session, through, obs string) Record {
	return Record{Op: opObserve, Time: t, Session: session, From: through, Through: Mark{ID: through}, Tokens: 100, Obs: obs}
}

func reflectRec(t int64, session, obs string) Record {
	return Record{Op: opReflect, Time: t, Session: session, Obs: obs}
}

// items is observations first to last-1 of the long-lived ledger's kind,
// under a date; prio cycles through the priorities when mixed.
func items(first, last int, mixed bool) string {
	var b strings.Builder
	b.WriteString("Date: Feb 27, 2026\n")
	for k := first; k < last; k++ {
		emoji := emojiMedium
		if mixed {
			emoji = priority(1 + k%3).Emoji()
		}
		b.WriteString("* " + emoji + " (05:00) User keeps the old API number " + strconv.Itoa(k) + " for the billing client\n")
	}
	return b.String()
}

func TestTheFolderFoldsAsRecordByRecord(t *testing.T) {
	d := dayMs(2026, 2, 27)
	withTask := obsRec(d+5, "s1", "e5", items(4, 6, true))
	withTask.Task, withTask.HasTask, withTask.Response, withTask.HasResponse = "Ship the billing client", true, "Ask about the API", true
	withTask.Read, withTask.Modified = []string{"a.go", "b.go"}, []string{"b.go"}
	reflectTask := reflectRec(d+6, "s2", items(0, 5, true))
	reflectTask.Task, reflectTask.HasTask = "Release", true
	set := Record{Op: opSet, Time: d + 7, Settings: settings{Mode: strp(modeBlocking), ObserverTokens: intp(9000)}}
	tests := []struct {
		name string
		recs []Record
	}{
		{"no record", nil},
		{"observations only", []Record{obsRec(d, "s1", "e1", items(0, 2, true)), obsRec(d+1, "s1", "e2", ""), obsRec(d+2, "s1", "e3", items(1, 6, true))}},
		{"a reflect last", []Record{obsRec(d, "s1", "e1", items(0, 4, false)), reflectTask}},
		{"observations after a reflect, some already in it", []Record{obsRec(d, "s1", "e1", items(0, 4, true)), reflectTask, obsRec(d+8, "s1", "e8", items(3, 9, true)), withTask}},
		{"reflects one after another", []Record{reflectRec(d, "s1", items(0, 3, true)), reflectRec(d+1, "s1", items(2, 8, true)), reflectRec(d+2, "s1", "")}},
		{"a reflect that reads as nothing", []Record{obsRec(d, "s1", "e1", items(0, 4, true)), reflectRec(d+1, "s1", "not an observation"), obsRec(d+2, "s1", "e2", items(4, 5, true))}},
		{"a clear followed by records", []Record{obsRec(d, "s1", "e1", items(0, 4, true)), withTask, {Op: opClear, Time: d + 9}, obsRec(d+10, "s1", "e9", items(2, 3, true)), set, obsRec(d+11, "s1", "e10", "")}},
		{"a clear after a reflect and its observations", []Record{reflectTask, obsRec(d+8, "s1", "e8", items(7, 9, true)), {Op: opClear, Time: d + 9}}},
		{"a reflect after a clear", []Record{obsRec(d, "s1", "e1", items(0, 4, true)), {Op: opClear, Time: d + 1}, reflectTask, set}},
		{"settings between", []Record{set, obsRec(d, "s1", "e1", items(0, 4, true)), set, reflectTask, set, withTask}},
		{"the sample records", sampleRecords},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, session := range []string{"", "s1", "s2"} {
				requireSameFold(t, tt.recs, session, tt.name+", session "+quote(session))
			}
		})
	}
}

// Every order of the sample records: whichever comes last, and whatever
// comes between a reflect or a clear and the end.
func TestTheFolderFoldsEveryOrderOfTheSampleRecords(t *testing.T) {
	var permute func(recs []Record, k int)
	permute = func(recs []Record, k int) {
		if k == len(recs) {
			requireSameFold(t, recs, "s-2", "sample records in the order "+recordOps(recs))
			return
		}
		for i := k; i < len(recs); i++ {
			recs[k], recs[i] = recs[i], recs[k]
			permute(recs, k+1)
			recs[k], recs[i] = recs[i], recs[k]
		}
	}
	permute(append([]Record(nil), sampleRecords...), 0)
}

func recordOps(recs []Record) string {
	ops := make([]string, len(recs))
	for i, r := range recs {
		ops[i] = r.Op
	}
	return strings.Join(ops, ", ")
}

// Resource scope: several sessions append to one ledger, reflect and clear
// for all of them; each folds it for itself (the watermark is its own).
func TestTheFolderFoldsAResourceLedgerOfSeveralSessions(t *testing.T) {
	d := dayMs(2026, 2, 27)
	var recs []Record
	for i := 0; i < 60; i++ {
		s := "s" + strconv.Itoa(i%3)
		switch {
		case i%17 == 16:
			recs = append(recs, Record{Op: opClear, Time: d + int64(i), Session: s})
		case i%7 == 6:
			recs = append(recs, reflectRec(d+int64(i), s, items(i, i+5, true)))
		default:
			recs = append(recs, obsRec(d+int64(i), s, "e"+strconv.Itoa(i), items(i, i+3, true)))
		}
	}
	for _, session := range []string{"s0", "s1", "s2", "s3"} {
		requireSameFold(t, recs, session, "session "+session)
	}
}

// Thread scope: a fork's branch holds the records of the branch it left up
// to the fork, then its own; each branch folds its own.
func TestTheFolderFoldsEveryBranchOfAFork(t *testing.T) {
	d := dayMs(2026, 2, 27)
	trunk := []Record{
		obsRec(d, "", "e1", items(0, 3, true)), obsRec(d+1, "", "e2", items(3, 5, true)),
		reflectRec(d+2, "", items(1, 5, true)), obsRec(d+3, "", "e4", items(5, 6, true)),
		{Op: opClear, Time: d + 4}, obsRec(d+5, "", "e6", items(6, 8, true)),
		reflectRec(d+6, "", items(6, 7, true)),
	}
	own := []Record{obsRec(d+10, "", "f1", items(20, 22, true)), reflectRec(d+11, "", items(0, 2, true)), obsRec(d+12, "", "f2", items(22, 23, true))}
	for k := 0; k <= len(trunk); k++ {
		for j := 0; j <= len(own); j++ {
			branch := append(append([]Record(nil), trunk[:k]...), own[:j]...)
			requireSameFold(t, branch, "", "the fork after "+strconv.Itoa(k)+" records, "+strconv.Itoa(j)+" of its own")
		}
	}
}

// The folder settles when more observations wait than the configuration
// keeps, or more than a piece's worth of text: the state is the same.
func TestTheFolderSettlesWhatWaitsAndFoldsTheSame(t *testing.T) {
	d := dayMs(2026, 2, 27)
	long := strings.Repeat("since it is stable ", 20000) // ~380 KB an item
	var recs []Record
	recs = append(recs, reflectRec(d, "s1", items(0, 5, true)))
	for i := 0; i < 4; i++ {
		recs = append(recs, obsRec(d+int64(i), "s1", "e"+strconv.Itoa(i), "Date: Feb 27, 2026\n* 🟡 (05:00) item "+strconv.Itoa(i)+" "+long+"\n"))
	}
	f := newFolder("s1", defaultConfig())
	settled := false
	for _, r := range recs {
		f.apply(r)
		settled = settled || f.s.Groups != nil
		require.True(t, f.bytes <= ledgerPiece, "%d bytes of observations wait", f.bytes)
	}
	require.True(t, settled, "more than %d bytes waited and the folder did not settle", ledgerPiece)
	requireSameFold(t, recs, "s1", "observations over a piece of text")

	// At most the configuration's count of observations waits.
	cfg := defaultConfig()
	cfg.MaxObservationItems = 15
	f = newFolder("s1", cfg)
	recs = longLivedRecords(t, 12)
	for _, r := range recs {
		f.apply(r)
		require.True(t, f.items <= 15, "%d observations wait", f.items)
	}
	requireSameState(t, recordByRecord(recs, "s1", cfg), f.done(), cfg, "the long-lived ledger keeping 15 observations")
}

func longLivedRecords(t testing.TB, runs int) []Record {
	recs, probs := DecodeLedger(longLivedLedger(runs))
	require.Equal(t, 0, len(probs))
	return recs
}

// The long-lived project's ledger (bench_test.go), read as the driver reads
// it, with a bad line, a record of a newer version and a torn last line.
func TestTheFolderReadsALongLivedLedgerAsRecordByRecord(t *testing.T) {
	data := longLivedLedger(48)
	requireSameRead(t, data, "s1", "the long-lived ledger")
	lines := strings.SplitAfter(string(data), "\n")
	bad := strings.Join(lines[:30], "") + "not json\n" + `{"v":9,"op":"compact","t":1}` + "\n" +
		strings.Join(lines[30:len(lines)-1], "") + `{"v":1,"op":"clear","t":1}` + "\n" + strings.TrimSuffix(lines[len(lines)-2], "\n")[:50]
	requireSameRead(t, []byte(bad), "old", "the long-lived ledger with bad lines and a torn last line")
	whole := strings.Join(lines[:len(lines)-1], "") + `{"v":1,"op":"observe","t":1,"session":"old","through":"x","obs":"* torn but whole"}`
	requireSameRead(t, []byte(whole), "old", "the long-lived ledger whose last line lost only its newline")
}

// The fuzz corpus of FuzzDecodeLedger and its seeds fold the same both ways
// (the fuzz target checks every input it makes).
func TestTheFolderFoldsTheFuzzCorpus(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join("testdata", "fuzz", "FuzzDecodeLedger", "*"))
	require.NoError(t, err)
	for _, p := range paths {
		data, err := os.ReadFile(p)
		require.NoError(t, err)
		_, lit, _ := strings.Cut(string(data), "\n")
		s, err := strconv.Unquote(strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(lit), "[]byte("), ")"))
		require.NoError(t, err, p)
		requireSameRead(t, []byte(s), "", p)
	}
	var all []byte
	for _, r := range sampleRecords {
		all = append(append(all, encode(r)...), '\n')
	}
	requireSameRead(t, all, "s-2", "the sample records")
	requireSameRead(t, all[:len(all)-9], "", "the sample records, torn")
}
