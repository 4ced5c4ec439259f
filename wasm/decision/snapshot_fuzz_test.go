package decision

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"unsafe"

	"github.com/pi-memory/pi-memory/internal/require"
	"github.com/pi-memory/pi-memory/wasm/internal/civil"
)

// openSnapshot reads a snapshot from bytes as the driver reads the file:
// the trailer, the header it points to, then the state. Any error is
// errSnapshot; any input at all is fine.
func openSnapshot(file []byte) (*state, *snapshotHeader, error) {
	if len(file) < snapshotTrailer {
		return nil, nil, snapErr("shorter than a trailer")
	}
	trailer := file[len(file)-snapshotTrailer:]
	off, n, err := headerSpan(trailer)
	if err != nil {
		return nil, nil, err
	}
	if off < 0 || n < 0 || off+int64(n) > int64(len(file)) {
		return nil, nil, snapErr("header out of range")
	}
	h, err := parseSnapshotHeader(file[off:off+int64(n)], off, trailer)
	if err != nil {
		return nil, nil, err
	}
	st, err := snapshotState(h, func(o int64, dst []byte) (int, error) {
		if o < 0 || o >= int64(len(file)) {
			return 0, nil
		}
		return copy(dst, file[o:]), nil
	})
	return st, h, err
}

// reseal makes a snapshot's checksums agree with its bytes again, as far as
// its header and tables can be read: those of the records, pages and list
// chunks in the tables, of every section in the header, and of the header in
// the trailer. A changed byte then reaches the bounds checks behind the
// checksums instead of stopping at the first one.
func reseal(file []byte) []byte {
	if len(file) < snapshotTrailer {
		return file
	}
	off, n, err := headerSpan(file[len(file)-snapshotTrailer:])
	if err != nil || off < 0 || n < 0 || off+int64(n) > int64(len(file)-snapshotTrailer) {
		return file
	}
	var header map[string]any
	dec := json.NewDecoder(bytes.NewReader(file[off : off+int64(n)]))
	dec.UseNumber()
	if dec.Decode(&header) != nil {
		return file
	}
	body := append([]byte(nil), file[:off]...)
	at := func(o, size int64) ([]byte, bool) {
		if o < 0 || size < 0 || o > int64(len(body)) || size > int64(len(body))-o {
			return nil, false
		}
		return body[o : o+size], true
	}
	sections, _ := header["sections"].(map[string]any)
	span := func(name string) (o, n int64, set func(uint64)) {
		pair, _ := sections[name].([]any)
		if len(pair) != 2 {
			return -1, -1, func(uint64) {}
		}
		where, _ := pair[0].([]any)
		sum, _ := pair[1].([]any)
		if len(where) != 2 || len(sum) != 2 {
			return -1, -1, func(uint64) {}
		}
		o, _ = where[0].(json.Number).Int64()
		n, _ = where[1].(json.Number).Int64()
		return o, n, func(s uint64) { sum[0] = json.Number(strconv.FormatInt(int64(s), 10)) }
	}
	// Table entries are offset, count and checksum of what they point to.
	for _, table := range []struct {
		name        string
		unit, stamp int64
	}{{"chunks", int64(unsafe.Sizeof(rec{})), 0}, {"pages", 1, 8}, {"lists", 8, 0}} {
		o, n, _ := span(table.name)
		if n < 0 || n > int64(len(body))/24 {
			continue
		}
		entries, ok := at(o, n*24)
		for i := int64(0); ok && i < n; i++ {
			e := entries[i*24:]
			count := int64(getU64(e[8:]))
			if count < 0 || count > int64(len(body)) {
				continue
			}
			if b, ok := at(int64(getU64(e))+table.stamp, count*table.unit); ok {
				putU64(e[16:], sumWords(0, b))
			}
		}
	}
	_, idSlots, _ := span("idsKeys")
	_, daySlots, _ := span("daysKeys")
	for _, sec := range []struct {
		name string
		unit int64
		n    int64 // -1: the section's own count
	}{{"chunks", 24, -1}, {"pages", 24, -1}, {"lists", 24, -1}, {"idsKeys", 8, -1}, {"idsVals", 4, idSlots},
		{"daysKeys", 8, -1}, {"daysVals", 4, daySlots}, {"problems", 1, -1}} {
		o, n, set := span(sec.name)
		if sec.n >= 0 {
			n = sec.n
		}
		if n < 0 || n > int64(len(body)) {
			continue
		}
		if b, ok := at(o, n*sec.unit); ok {
			set(sumWords(0, b))
		}
	}
	h, err := json.Marshal(header)
	if err != nil {
		return file
	}
	var tr [trailerSize]byte
	putU64(tr[0:], uint64(len(body)))
	putU32(tr[8:], uint32(len(h)))
	putU64(tr[12:], sumWords(0, h))
	copy(tr[20:], snapMagic)
	return append(append(body, h...), tr[:]...)
}

func TestResealKeepsAGoodSnapshotGoodAndLetsDamageThrough(t *testing.T) {
	st, cur := replay(t, genLog(300))
	good := snapshotOf(t, st, cur, 5, 6)

	same, h, err := openSnapshot(reseal(good))
	require.NoError(t, err, "a resealed good snapshot")
	require.True(t, same.Resident(), "a resealed good snapshot reads whole")
	sameState(t, st, same)

	// A changed record byte fails its chunk's checksum unless resealed.
	table := h.root.Get("sections.chunks.0.0").Int()
	first := int(getU64(good[table:])) // where the first record chunk starts
	damaged := append([]byte(nil), good...)
	damaged[first+3] ^= 0x40
	plain, _, err := openSnapshot(damaged)
	require.NoError(t, err, "records are read lazily")
	require.False(t, plain.Resident(), "an unsealed change is caught by a checksum")
	_, _, err = openSnapshot(reseal(damaged))
	require.NoError(t, err, "a resealed change passes the checksums")
}

// FuzzLoadSnapshot: a snapshot is read from disk, so whatever its bytes,
// loading it gives errSnapshot or a state that is safe to use (possibly
// Broken), and never a panic. With sealed set, the checksums are made to
// agree with the bytes first, so the changes reach the bounds checks on
// sections, records, references and lists.
func FuzzLoadSnapshot(f *testing.F) {
	t := &testing.T{}
	empty, emptyCur := replay(t, "")
	problems, problemsCur := replay(t, "not json\n"+ev(t1, "a", "D-2026-02-27-0001", `{"tx":"Use tabs","tg":["style"]}`)+"{\"v\":2}\n")
	small, smallCur := replay(t, genLog(60))
	hot, hotCur := replay(t, actives(130)) // more actives than the hot list: an edge
	for _, s := range []struct {
		st  *state
		cur cursor
	}{{empty, emptyCur}, {problems, problemsCur}, {small, smallCur}, {hot, hotCur}} {
		var file []byte
		s.st.WriteSnapshot(s.cur, logGuard{Sum: 1}, 2, func(b []byte) error { file = append(file, b...); return nil })
		f.Add(file, false)
		f.Add(file, true)
		f.Add(file[:len(file)/2], false)
	}
	f.Add([]byte(strings.Repeat("x", snapshotTrailer-1)+snapMagic), false)
	f.Fuzz(func(t *testing.T, file []byte, sealed bool) {
		if sealed {
			file = reseal(file)
		}
		st, h, err := openSnapshot(file)
		if err != nil {
			require.ErrorIs(t, err, errSnapshot)
			return
		}
		// As a session uses it: the first injection reads lazily, a tail is
		// replayed, then commands make everything resident and query it.
		st.Section(20)
		tail := ev(t2, "a", "D-2026-02-27-0009", `{"tx":"Squash merge","tg":["git"]}`) +
			ev(t3, "ed", "D-2026-01-01-0001", `{"tx":"edited"}`)
		var r reader
		r.Replay(st, func(o int64, dst []byte) (int, error) { return copy(dst, tail[o:]), nil }, cursor{Line: h.Log.Line}, int64(len(tail)))
		st.Resident()
		st.Section(3)
		st.All().All()
		st.withTag("git").All()
		st.WithStatus(Active).All()
		searchOf(t, st, "merge", "tag:git").All()
		st.newestActive(5)
		st.Get("D-2026-01-01-0001")
		st.NextID(civil.ParseTime(t3))
	})
}

// Found by FuzzLoadSnapshot: a tail that adds tags after a snapshot whose
// last list chunk cannot be read (damaged on disk, or replaced by another
// process's snapshot before it was first read) indexed the missing chunk and
// trapped, at every session start. The state must be marked Broken instead, so
// the driver rebuilds it from the log.
func TestATailAddingTagsAfterAnUnreadableListChunkBreaksTheStateWithoutATrap(t *testing.T) {
	st, cur := replay(t, actives(10)) // ten decisions with two tags each: one list chunk, part full
	file := snapshotOf(t, st, cur, 1, 2)
	_, h, err := openSnapshot(file)
	require.NoError(t, err)
	table := h.root.Get("sections.lists.0.0").Int()
	require.Equal(t, int64(1), h.root.Get("sections.lists.0.1").Int(), "list chunks")
	file[getU64(file[table:])] ^= 0x01 // the chunk's first reference

	got, h, err := openSnapshot(file)
	require.NoError(t, err, "list chunks are read lazily")
	tail := ev(t2, "a", "D-2026-02-27-0042", `{"tx":"Squash merge","tg":["git"]}`)
	var r reader
	_, err = r.Replay(got, func(o int64, dst []byte) (int, error) { return copy(dst, tail[o:]), nil }, cursor{Line: h.Log.Line}, int64(len(tail)))
	require.NoError(t, err)
	require.True(t, got.Broken(), "the unreadable chunk marks the state broken")
	require.False(t, got.Resident(), "a broken state is not resident")
}
