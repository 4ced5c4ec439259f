package lifecycle_test

import (
	"bufio"
	"encoding/json"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

// BenchmarkContextWith1200Observations times context as bench row 11 calls
// it: a branch of 40 ledger records of 30 observations each and the scripted
// session's first 40 entries, the same messages on every call.
func BenchmarkContextWith1200Observations(b *testing.B) {
	f, err := os.Open("../../testdata/observe/session-200.jsonl")
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	var entries []map[string]any
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() && len(entries) < 40 {
		var e map[string]any
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			b.Fatal(err)
		}
		if e["type"] == "message" {
			entries = append(entries, e)
		}
	}
	first, _ := time.Parse(time.RFC3339, entries[0]["timestamp"].(string))
	start := first.UnixMilli() - 40*86400000
	marks := []string{"🔴", "🟡", "🟢"}
	var branch []any
	var msgs []any
	for _, e := range entries {
		branch = append(branch, e)
		msgs = append(msgs, e["message"])
	}
	parent := entries[len(entries)-1]["id"]
	for d := 0; d < 40; d++ {
		t := start + int64(d)*86400000
		var obs strings.Builder
		obs.WriteString("Date: " + time.UnixMilli(t).UTC().Format("Jan 2, 2006") + "\n")
		for i := 0; i < 30; i++ {
			obs.WriteString("* " + marks[i%3] + " (" + two(9+i/4) + ":" + two(i%4*15) + ") observation " + strconv.Itoa(d*30+i) + " about src/pkg" + strconv.Itoa(i) + "/file.go and its tests\n  * -> ran go test ./pkg" + strconv.Itoa(i) + "\n")
		}
		id := "om" + strconv.Itoa(d)
		branch = append(branch, map[string]any{"type": "custom", "id": id, "parentId": parent, "timestamp": time.UnixMilli(t).UTC().Format(time.RFC3339), "customType": "pi-memory-om",
			"data": map[string]any{"v": 1, "op": "observe", "t": t + 18*3600000, "from": "e1", "through": "e1", "tokens": 3000, "obs": obs.String()}})
		parent = id
	}
	r := newHSRig(b, "", map[string]any{"branch": branch, "zone": 0, "window": 128000})
	in, _ := json.Marshal(map[string]any{"messages": msgs})
	if out := string(r.e.Handle("context", in)); !strings.Contains(out, "observation 1199 about") {
		b.Fatalf("context injected no block of 1,200 observations: %.300s", out)
	}
	buf := make([]byte, 0, 256<<10)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		buf = r.e.HandleInto(buf[:0], "context", in)
	}
}

func two(n int) string {
	if n < 10 {
		return "0" + strconv.Itoa(n)
	}
	return strconv.Itoa(n)
}
