package decision

import (
	"errors"
	"fmt"
	"github.com/pi-memory/pi-memory/wasm/hostio"
	"strings"
	"testing"

	"github.com/pi-memory/pi-memory/internal/require"
	"github.com/pi-memory/pi-memory/wasm/internal/civil"
)

// snapshotOf writes st's snapshot into memory.
func snapshotOf(t *testing.T, st *state, cur cursor, sum, gen uint64) []byte {
	t.Helper()
	var file []byte
	require.NoError(t, st.WriteSnapshot(cur, logGuard{Sum: sum}, gen, func(b []byte) error { file = append(file, b...); return nil }))
	return file
}

// loadFrom reads a snapshot from bytes the way the driver reads a file.
func loadFrom(t *testing.T, file []byte) (*state, *snapshotHeader, error) {
	return loadCounting(t, file, new(int))
}

// loadCounting is loadFrom, counting in read the bytes read from the
// snapshot, then and later (the state reads its pages on first use).
func loadCounting(t *testing.T, file []byte, read *int) (*state, *snapshotHeader, error) {
	t.Helper()
	readAt := func(off int64, dst []byte) (int, error) {
		if off >= int64(len(file)) {
			return 0, nil
		}
		n := copy(dst, file[off:])
		*read += n
		return n, nil
	}
	off, n, err := headerSpan(file[len(file)-snapshotTrailer:])
	if err != nil {
		return nil, nil, err
	}
	if off < 0 || n < 0 || off+int64(n) > int64(len(file)) {
		return nil, nil, snapErr("header out of range")
	}
	h, err := parseSnapshotHeader(file[off:off+int64(n)], off, file[len(file)-snapshotTrailer:])
	if err != nil {
		return nil, nil, err
	}
	st, err := snapshotState(h, readAt)
	return st, h, err
}

func genLog(n int) string {
	var b strings.Builder
	base := civil.ParseTime("2026-01-01T00:00:00.000Z")
	for i := 1; i <= n; i++ {
		ts := civil.FormatTime(base + int64(i)*3600_000)
		id := fmt.Sprintf("D-%s-%04d", civil.Day(base+int64(i)*3600_000), i%24+1)
		switch {
		case i%7 == 0:
			b.WriteString(ev(ts, "ed", fmt.Sprintf("D-%s-%04d", civil.Day(base+int64(i-3)*3600_000), (i-3)%24+1), `{"tx":"edited `+fmt.Sprint(i)+`","tg":["e"]}`))
		case i%11 == 0:
			b.WriteString(ev(ts, "rm", fmt.Sprintf("D-%s-%04d", civil.Day(base+int64(i-5)*3600_000), (i-5)%24+1), `{}`))
		case i%17 == 0: // mark a conflict between the two decisions added before
			b.WriteString(ev(ts, "ed", fmt.Sprintf("D-%s-%04d", civil.Day(base+int64(i-1)*3600_000), (i-1)%24+1),
				`{"c":["`+fmt.Sprintf("D-%s-%04d", civil.Day(base+int64(i-2)*3600_000), (i-2)%24+1)+`"]}`))
		case i%13 == 0:
			b.WriteString(ev(ts, "st", fmt.Sprintf("D-%s-%04d", civil.Day(base+int64(i-2)*3600_000), (i-2)%24+1), `{"s":"draft"}`))
		default:
			b.WriteString(ev(ts, "a", id, `{"ti":"T`+fmt.Sprint(i)+`","tx":"Decision number `+fmt.Sprint(i)+` `+strings.Repeat("é", i%50)+`","tg":["t`+fmt.Sprint(i%5)+`","x"],"r":"because"}`))
		}
		if i == n/2 {
			b.WriteString("garbage line\n")
		}
	}
	return b.String()
}

func sameState(t *testing.T, a, b *state) {
	t.Helper()
	require.Equal(t, a.Len(), b.Len(), "live")
	require.Equal(t, a.counts, b.counts, "counts")
	require.Equal(t, a.Problems, b.Problems, "problems")
	require.Equal(t, a.Lines, b.Lines, "lines")
	require.Equal(t, a.Events, b.Events, "events")
	ax, bx := a.All(), b.All()
	require.Equal(t, ax.Len(), bx.Len(), "all")
	for i := 0; i < ax.Len(); i++ {
		da, db := *ax.At(i), *bx.At(i)
		da.h, db.h = 0, 0
		require.Equal(t, da, db, "decision "+da.ID)
	}
	// Removed decisions too, whole: a restore brings one back as it was.
	ar, br := a.removedNewest(1<<30), b.removedNewest(1<<30)
	require.Equal(t, len(ar), len(br), "removed")
	for i := range ar {
		da, db := *ar[i], *br[i]
		da.h, db.h = 0, 0
		require.Equal(t, da, db, "removed decision "+da.ID)
	}
	require.Equal(t, a.marked, b.marked, "marked")
	require.Equal(t, len(a.Conflicts()), len(b.Conflicts()), "conflicts")
	require.Equal(t, a.Section(20), b.Section(20), "section")
	now := civil.ParseTime("2026-06-01T00:00:00.000Z")
	require.Equal(t, a.NextID(now), b.NextID(now), "next id")
	require.Equal(t, ids(searchOf(t, a, "decision", "tag:x").All()), ids(searchOf(t, b, "decision", "tag:x").All()), "search")
}

func TestSnapshotRoundTripEqualsAFullReplay(t *testing.T) {
	log := genLog(3000)
	full, cur := replay(t, log)
	require.True(t, len(full.marked) > 0 && len(full.Conflicts()) > 0, "the log marks conflicts")
	file := snapshotOf(t, full, cur, 42, 7)
	got, h, err := loadFrom(t, file)
	require.NoError(t, err)
	require.Equal(t, cur, h.Log, "cursor")
	require.Equal(t, uint64(42), h.LogSum, "sum")
	sameState(t, full, got)
	require.Equal(t, false, got.Broken(), "broken")

	seen := hostio.NewFileInfo(int64(len(log)), 1772172000123, hostio.KindFile)
	seen.ID = 0xfedcba98
	var withSeen []byte
	require.NoError(t, full.WriteSnapshot(cur, logGuard{Sum: 42, Full: byteHash{99, 5, 3}, Seen: seen}, 7, func(b []byte) error { withSeen = append(withSeen, b...); return nil }))
	_, h, err = loadFrom(t, withSeen)
	require.NoError(t, err)
	require.Equal(t, seen, h.Seen, "the log as the writer last saw it")
	require.Equal(t, byteHash{99, 5, 3}, h.Full, "the hash of every byte it covers")
}

// rewrittenSince tells a log rewritten (another file, or the same file
// written at its old size) from one appended to or left alone.
func TestRewrittenSince(t *testing.T) {
	file := func(id uint32, size, mtime int64) hostio.FileInfo {
		fi := hostio.NewFileInfo(size, mtime, hostio.KindFile)
		fi.ID = id
		return fi
	}
	seen := file(7, 1000, 5000)
	for _, c := range []struct {
		name      string
		seen, now hostio.FileInfo
		want      bool
	}{
		{"unchanged", seen, seen, false},
		{"appended to", seen, file(7, 1200, 6000), false},
		{"appended to within the same millisecond", seen, file(7, 1200, 5000), false},
		{"renamed over, same size and mtime", seen, file(8, 1000, 5000), true},
		{"renamed over, grown", seen, file(8, 1200, 6000), true},
		{"written in place at its size", seen, file(7, 1000, 5001), true},
		{"written in place, touched back", seen, file(7, 1000, 4000), true},
		{"a host that cannot tell identity, same size, new mtime", file(0, 1000, 5000), file(0, 1000, 5001), true},
		{"a host that cannot tell identity, appended", file(0, 1000, 5000), file(0, 1200, 5001), false},
		{"identity unknown now", seen, file(0, 1000, 5000), false},
		{"nothing seen yet (an older snapshot)", hostio.FileInfo{}, file(9, 1000, 5000), false},
	} {
		require.Equal(t, c.want, rewrittenSince(c.seen, c.now), c.name)
	}
}

func TestSnapshotThenTailEqualsAFullReplay(t *testing.T) {
	log := genLog(2000)
	cut := strings.LastIndex(log[:len(log)/2], "\n") + 1
	head, _ := replay(t, log[:cut])
	_, headCur := replay(t, log[:cut])
	got, h, err := loadFrom(t, snapshotOf(t, head, headCur, 1, 2))
	require.NoError(t, err)
	var r reader
	read := func(off int64, dst []byte) (int, error) { return copy(dst, log[off:]), nil }
	_, err = r.Replay(got, read, h.Log, int64(len(log)))
	require.NoError(t, err)
	full, _ := replay(t, log)
	sameState(t, full, got)
}

func TestSnapshotKeepsOnlyLiveStrings(t *testing.T) {
	var b strings.Builder
	b.WriteString(ev(t1, "a", "D-2026-02-27-0001", `{"tx":"first"}`))
	for i := 0; i < 500; i++ {
		b.WriteString(ev(t2, "ed", "D-2026-02-27-0001", `{"tx":"`+strings.Repeat("v", 1000)+fmt.Sprint(i)+`"}`))
	}
	st, cur := replay(t, b.String())
	file := snapshotOf(t, st, cur, 0, 1)
	// The log is ~0.5 MB of edits; the snapshot holds one decision plus the
	// fixed id tables (2 × 1024 slots).
	require.True(t, len(file) <= 64<<10, "snapshot of one decision is %d bytes: edited-away text was kept", len(file))
}

// A removed decision read from a snapshot restores with its text: the
// snapshot once kept only its id, and a restore added an empty decision.
func TestARemovedDecisionRestoresWholeFromASnapshot(t *testing.T) {
	log := ev(t1, "a", "D-2026-02-27-0001", `{"ti":"Postgres","tx":"Use PostgreSQL 16","tg":["db"],"r":"managed offering"}`) +
		ev(t2, "rm", "D-2026-02-27-0001", `{}`)
	st, cur := replay(t, log)
	got, _, err := loadFrom(t, snapshotOf(t, st, cur, 0, 1))
	require.NoError(t, err)
	evs, err := got.Restore("D-2026-02-27-0001")
	require.NoError(t, err)
	require.Equal(t, 1, len(evs))
	require.Equal(t, "Use PostgreSQL 16", evs[0].Data.Text)
	require.Equal(t, "Postgres", evs[0].Data.Title)
	require.Equal(t, []string{"db"}, evs[0].Data.Tags)
	require.Equal(t, "managed offering", evs[0].Data.Reason)
}

func TestDamagedOrForeignSnapshotsAreRefused(t *testing.T) {
	st, cur := replay(t, genLog(500))
	good := snapshotOf(t, st, cur, 0, 1)
	flip := func(at int) []byte { b := append([]byte(nil), good...); b[at] ^= 0x55; return b }
	for name, file := range map[string][]byte{
		"truncated":      good[:len(good)-1],
		"not a snapshot": []byte(strings.Repeat("x", 64)),
		"other layout":   []byte(strings.Replace(string(good), layout(), "rec999@1,2,3,4/chunk1/page1", 1)),
	} {
		_, _, err := loadFrom(t, file)
		require.True(t, errors.Is(err, errSnapshot), "%s: err = %v, want ErrSnapshot", name, err)
	}
	// Damage anywhere is refused at load, or found when the damaged part is
	// first read (records and pages are read lazily, each with its checksum).
	headerAt, _, _ := headerSpan(good[len(good)-snapshotTrailer:])
	var spots []int
	for at := 0; at < len(good)-snapshotTrailer; at += 97 {
		spots = append(spots, at)
	}
	for at := int(headerAt); at < len(good); at++ {
		spots = append(spots, at)
	}
	for _, at := range spots {
		got, _, err := loadFrom(t, flip(at))
		if err != nil {
			continue
		}
		if got.Resident() {
			sameState(t, st, got) // a flip in unused bytes (padding, page slack) is harmless
		}
	}
}

func TestAPageFromAReplacedSnapshotMarksTheStateBroken(t *testing.T) {
	st, cur := replay(t, genLog(800))
	file := snapshotOf(t, st, cur, 0, 111)
	got, _, err := loadFrom(t, file)
	require.NoError(t, err)
	// Another process replaces the file: same shape, another generation.
	other := snapshotOf(t, st, cur, 0, 222)
	copy(file, other)
	got.Section(20)
	require.Equal(t, true, got.Broken(), "broken")
	require.Equal(t, false, got.Resident(), "resident")
}

func TestLogSumChangesWithARewriteNotWithAnAppend(t *testing.T) {
	log := genLog(3000)
	read := func(s string) readAt {
		return func(off int64, dst []byte) (int, error) { return copy(dst, s[off:]), nil }
	}
	a, err := logSum(read(log), int64(len(log)))
	require.NoError(t, err)
	b, _ := logSum(read(log+"appended\n"), int64(len(log)))
	require.Equal(t, a, b, "append keeps the prefix sum")
	edited := log[:len(log)-50] + strings.Repeat("Z", 10) + log[len(log)-40:]
	c, _ := logSum(read(edited), int64(len(edited)))
	require.True(t, c != a, "an edit near the end kept the sum")
	mid := len(log) / 2
	sampled := log[:mid] + "Q" + log[mid+1:]
	d, _ := logSum(read(sampled), int64(len(sampled)))
	_ = d // a single byte in the middle may fall between samples: that is the documented limit
}

func tailCase(t *testing.T, head, tail string) *state {
	t.Helper()
	hst, hcur := replay(t, head)
	got, h, err := loadFrom(t, snapshotOf(t, hst, hcur, 0, 9))
	require.NoError(t, err)
	log := head + tail
	var r reader
	_, err = r.Replay(got, func(off int64, dst []byte) (int, error) { return copy(dst, log[off:]), nil }, h.Log, int64(len(log)))
	require.NoError(t, err)
	full, _ := replay(t, log)
	require.Equal(t, full.Section(20), got.Section(20), "section")
	require.Equal(t, full.Section(3), got.Section(3), "section of 3")
	sameState(t, full, got)
	return got
}

func actives(n int) string {
	var b strings.Builder
	base := civil.ParseTime("2026-01-01T00:00:00.000Z")
	for i := 1; i <= n; i++ {
		ms := base + int64(i)*60_000
		b.WriteString(ev(civil.FormatTime(ms), "a", fmt.Sprintf("D-2026-01-01-%04d", i), fmt.Sprintf(`{"tx":"rule %d","tg":["t%d","all"]}`, i, i%4)))
	}
	return b.String()
}

func TestTailThatEmptiesTheHotListFallsBackToAScan(t *testing.T) {
	var tail strings.Builder
	for i := 200; i > 140; i-- { // deactivate the 60 newest
		tail.WriteString(ev("2026-02-01T00:00:00.000Z", "st", fmt.Sprintf("D-2026-01-01-%04d", i), `{"s":"rejected"}`))
	}
	got := tailCase(t, actives(200), tail.String())
	_, ok := got.newestFromBase(20)
	require.True(t, !ok, "4 hot decisions left cannot prove the top 20")
}

func TestTailOfEditsAndAddsStaysOnTheFastPath(t *testing.T) {
	var tail strings.Builder
	tail.WriteString(ev("2026-02-01T00:00:00.000Z", "ed", "D-2026-01-01-0003", `{"tx":"old rule edited, now newest","tg":["fresh"]}`))
	tail.WriteString(ev("2026-02-01T00:01:00.000Z", "a", "D-2026-02-01-0001", `{"tx":"a new rule","tg":["fresh","all"]}`))
	tail.WriteString(ev("2026-02-01T00:02:00.000Z", "rm", "D-2026-01-01-0199", `{}`))
	tail.WriteString(ev("2026-02-01T00:03:00.000Z", "su", "D-2026-01-01-0150", `{"s":"superseded"}`))
	for _, n := range []int{200, 30} { // 30: the hot list held every active decision
		got := tailCase(t, actives(n), tail.String())
		_, ok := got.newestFromBase(20)
		require.True(t, ok, "n=%d: the fast path should answer", n)
	}
}

// The first injection after a start from a snapshot once read a record
// chunk and a string page for each decision it showed: the newest active
// decisions of a long log are spread over it (an old one edited is new
// again), and a 100k-event log's first prompt read a megabyte of its
// snapshot every session for twenty lines the last session had rendered.
// The snapshot says each hot decision's line: nothing is read for those the
// log left alone, and a tail reads only what it touched.
func TestTheFirstSectionAfterASnapshotReadsOnlyWhatTheLogChanged(t *testing.T) {
	var head strings.Builder
	base := civil.ParseTime("2026-01-01T00:00:00.000Z")
	long := strings.Repeat("spelled out at length so the strings fill many pages ", 40)
	for i := 1; i <= 3000; i++ {
		head.WriteString(ev(civil.FormatTime(base+int64(i)*60_000), "a", fmt.Sprintf("D-2026-01-01-%04d", i), fmt.Sprintf(`{"tx":"rule %d %s","tg":["t%d","all"],"r":"%s"}`, i, long, i%4, long)))
	}
	for i := 0; i < 30; i++ { // the newest are old decisions edited, one per page or so
		head.WriteString(ev(civil.FormatTime(base+int64(4000+i)*60_000), "ed", fmt.Sprintf("D-2026-01-01-%04d", 1+i*97), `{"ti":"edited `+fmt.Sprint(i)+`"}`))
	}
	hst, hcur := replay(t, head.String())
	file := snapshotOf(t, hst, hcur, 0, 9)
	for _, tc := range []struct {
		name, tail string
		most       int
	}{
		{"the log as the snapshot left it", "", 0},
		{"a tail that edits a hot decision and adds one", ev("2026-03-01T00:00:00.000Z", "ed", "D-2026-01-01-0098", `{"ti":"edited again"}`) +
			ev("2026-03-01T00:01:00.000Z", "a", "D-2026-03-01-0001", `{"tx":"a new rule","tg":["all"]}`), 2 * (pageSize + 8)},
	} {
		read := 0
		got, h, err := loadCounting(t, file, &read)
		require.NoError(t, err)
		log := head.String() + tc.tail
		var r reader
		_, err = r.Replay(got, func(off int64, dst []byte) (int, error) { return copy(dst, log[off:]), nil }, h.Log, int64(len(log)))
		require.NoError(t, err)
		read = 0
		section := got.Section(20)
		require.True(t, read <= tc.most, "%s: %d bytes of the snapshot read for the section", tc.name, read)
		full, _ := replay(t, log)
		require.Equal(t, full.Section(20), section, tc.name)
	}
}

// Lists fill chunks of 4096 references exactly and spill into the next
// without spanning; both in memory and in a snapshot.
func TestManyTagsFillListChunksExactly(t *testing.T) {
	var b strings.Builder
	base := civil.ParseTime("2026-01-01T00:00:00.000Z")
	for i := 1; i <= 5000; i++ {
		ms := base + int64(i)*60_000
		b.WriteString(ev(civil.FormatTime(ms), "a", fmt.Sprintf("D-%s-%04d", civil.Day(ms), i%1440+1), fmt.Sprintf(`{"tx":"rule %d","tg":["a%d","b","c%d","d"]}`, i, i%9, i%3)))
	}
	full, cur := replay(t, b.String())
	got, _, err := loadFrom(t, snapshotOf(t, full, cur, 0, 3))
	require.NoError(t, err)
	sameState(t, full, got)
	require.Equal(t, true, got.Resident(), "resident")
	require.Equal(t, ids(full.withTag("c2").All()), ids(got.withTag("c2").All()), "by tag")
}

// byteHash written in pieces of any length equals it written whole, tells
// lines moved or swapped, and goes through a snapshot's header as it is.
func TestByteHash(t *testing.T) {
	log := []byte(genLog(50))
	var whole byteHash
	whole.write(log)
	for _, step := range []int{1, 3, 7, 8, 13, 4096} {
		var b byteHash
		for i := 0; i < len(log); i += step {
			b.write(log[i:min(len(log), i+step)])
		}
		require.Equal(t, whole, b, "pieces of %d", step)
	}
	lines := strings.SplitAfter(string(log), "\n")
	lines[3], lines[40] = lines[40], lines[3]
	var swapped byteHash
	swapped.write([]byte(strings.Join(lines, "")))
	require.True(t, swapped != whole, "two lines swapped")
	got, ok := parseByteHash(whole.String())
	require.True(t, ok)
	require.Equal(t, whole, got)
	for _, bad := range []string{"", "1.2", "1.2.8", "x.1.1", "1.2.3.4"} {
		_, ok := parseByteHash(bad)
		require.False(t, ok, bad)
	}
}
