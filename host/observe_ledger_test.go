package host

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/pi-memory/pi-memory/host/fsys"
	"github.com/pi-memory/pi-memory/host/internal/testmod"
	"github.com/pi-memory/pi-memory/internal/require"
	"github.com/pi-memory/pi-memory/wasm/lifecycle"
)

// ledgerProject makes a project and an agent folder under root, writes the
// project's resource-scope observation ledger with write, and returns the
// session_start input of a session that reads it, and the ledger's size.
func ledgerProject(t testing.TB, root string, write func(f *os.File) error) (string, int64) {
	t.Helper()
	project, agent := filepath.Join(root, "project"), filepath.Join(root, "agent")
	require.NoError(t, os.MkdirAll(filepath.Join(project, ".git"), 0o755))
	path := filepath.Join(agent, "pi-memory", "observations", lifecycle.ProjectHash(project)+".jsonl")
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
	f, err := os.Create(path)
	require.NoError(t, err)
	require.NoError(t, write(f))
	require.NoError(t, f.Close())
	info, err := os.Stat(path)
	require.NoError(t, err)
	return fmt.Sprintf(`{"cwd":%q,"agentDir":%q,"trusted":true,"hasUI":false,"mode":"cli","reason":"startup","flags":{},"sessionId":"s1","env":{"PI_OM_SCOPE":"resource"}}`, project, agent), info.Size()
}

// paddedLedger is issue 19's ledger over 64 MiB: 66 observe records of
// 1 MiB each, padded by a member no reader uses.
func paddedLedger(f *os.File) error {
	pad := strings.Repeat("x", 1<<20)
	for i := 0; i < 66; i++ {
		if _, err := f.WriteString(`{"v":1,"op":"observe","t":1772170000000,"session":"old","through":"x` + strconv.Itoa(i) + `","obs":"Date: Feb 27, 2026\n* 🔴 (05:00) User keeps the old API number ` + strconv.Itoa(i) + `\n","pad":"` + pad + `"}` + "\n"); err != nil {
			return err
		}
	}
	return nil
}

// longLivedLedger is the ledger of a long-lived project, over 64 MiB:
// observer runs of 10 observations each, and every fourth run a
// reflection, whose record carries every observation kept (1,200 of about
// 150 bytes).
func longLivedLedger(f *os.File) error {
	item := func(n int) string {
		return "* 🟡 (05:00) User keeps the old API number " + strconv.Itoa(n) + " for the billing client, since " + strings.Repeat("it is stable ", 6) + `\n`
	}
	var size int
	for run, n := 0, 0; size <= 64<<20; run++ {
		var obs strings.Builder
		obs.WriteString(`Date: Feb 27, 2026\n`)
		line := `{"v":1,"op":"observe","t":1772170000000,"session":"old","from":"x` + strconv.Itoa(run) + `","through":"x` + strconv.Itoa(run) + `","tokens":900,`
		if run%4 == 3 {
			line = `{"v":1,"op":"reflect","t":1772170000000,"session":"old",`
			for k := max(0, n-1200); k < n; k++ {
				obs.WriteString(item(k))
			}
		} else {
			for k := 0; k < 10; k++ {
				obs.WriteString(item(n))
				n++
			}
		}
		k, err := f.WriteString(line + `"obs":"` + obs.String() + `"}` + "\n")
		if err != nil {
			return err
		}
		size += k
	}
	return nil
}

// Issue 19: a resource ledger over 64 MiB is read in pieces, and what the
// module keeps of it is the folded state: no record, and no line a record's
// string was cut from. Every decoded record stayed in memory before, each
// pinning its line: linear memory after this session_start was 128 MiB
// under TinyGo and 107 MiB in the standard Go build; now 8 and 11 MiB. The
// ceiling is generous: the point is that memory does not follow the
// ledger's size.
func TestAHugeResourceLedgerIsFoldedNotHeld(t *testing.T) {
	start, size := ledgerProject(t, t.TempDir(), paddedLedger)
	require.True(t, size > 64<<20, "%d bytes", size)
	eachCore(t, func(t *testing.T, rt *Runtime) {
		i := newInstance(t, rt, Config{FS: fsys.NewOS()})
		call(t, i, "session_start", start)
		status := string(envelopeJSON(call(t, i, "command", `{"name":"om","argv":["status"]}`)))
		require.Contains(t, status, "Observations: 66 ")
		require.Contains(t, status, ": 66 records")
		require.NotContains(t, status, "could not be read")
		mem := int64(i.mem.Size())
		require.True(t, mem < 32<<20, "linear memory after reading a %d MiB ledger is %d MiB", size>>20, mem>>20)
	})
}

// The figures docs/benchmarks.md gives for a long-lived project's ledger
// (go test ./host -run NONE -bench LongLivedLedger -benchtime 1x): the time
// of session_start, which folds it (the module's compilation and
// instantiation are not timed), and linear memory after it and /om status,
// for each build.
func BenchmarkSessionStartOnALongLivedLedger(b *testing.B) {
	start, size := ledgerProject(b, b.TempDir(), longLivedLedger)
	for _, m := range testmod.Cores {
		b.Run(m.Name, func(b *testing.B) { sessionStartOnALongLivedLedger(b, runtimeFor(b, m.Path(b)), start, size) })
	}
}

func sessionStartOnALongLivedLedger(b *testing.B, rt *Runtime, start string, size int64) {
	b.ResetTimer()
	for n := 0; n < b.N; n++ {
		b.StopTimer()
		i := newInstance(b, rt, Config{FS: fsys.NewOS()})
		b.StartTimer()
		call(b, i, "session_start", start)
		b.StopTimer()
		status := string(envelopeJSON(call(b, i, "command", `{"name":"om","argv":["status"]}`)))
		require.Contains(b, status, "Observations: 1200 ")
		b.ReportMetric(float64(i.mem.Size())/(1<<20), "linear-MiB")
		b.ReportMetric(float64(size)/(1<<20), "ledger-MiB")
		b.StartTimer()
	}
}
