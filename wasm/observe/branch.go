package observe

import (
	"github.com/pi-memory/pi-memory/wasm/internal/jsonr"
	"github.com/tidwall/gjson"
)

// ledgerRecords reads the thread-scope ledger out of a session branch, in
// the formats readEntries reads (a JSON array of entries, or a session
// file's JSON Lines): the data of every custom entry whose customType is
// CustomTypeLedger, oldest first. An entry whose data is not a record is a
// Problem naming its position in the branch (1-based) and its id; the
// records after it still load. It never panics on any input.
//
//	ledgerRecords(`[{"type":"custom","id":"e1","customType":"pi-memory-om","data":{"v":1,"op":"clear","t":1}}]`)
//	  => [Record{Op: "clear", Time: 1}], no problems
func ledgerRecords(branch []byte) ([]Record, []Problem) {
	return ledgerRecordsOf(entriesOf(branch), 0)
}

// ledgerRecordsOf is ledgerRecords over entries splitBranch gave, the
// first of them at position first of the branch (0-based): how the
// driver reads only the entries a branch added since the last event.
func ledgerRecordsOf(entries []gjson.Result, first int) ([]Record, []Problem) {
	var recs []Record
	var probs []Problem
	for k, v := range entries {
		i := first + k
		if !v.IsObject() || jsonr.Get(v, "type").Str != "custom" || jsonr.Get(v, "customType").Str != CustomTypeLedger {
			continue
		}
		data := jsonr.Get(v, "data")
		r, err := decode([]byte(data.Raw))
		if err != nil {
			probs = append(probs, Problem{Line: i + 1, Msg: "entry " + quote(jsonr.Get(v, "id").Str) + ": " + err.Error()})
			continue
		}
		r.Line = i + 1
		recs = append(recs, r)
	}
	return recs, probs
}

// entryIDs are the ids of a branch's entries, in order (entries without one
// give ""): how the driver tells a branch that grew from one that is
// another (a fork, a tree navigation) and must be read afresh.
func entryIDs(branch []byte) []string {
	raw := entriesOf(branch)
	ids := make([]string, 0, len(raw))
	for _, v := range raw {
		ids = append(ids, entryID(v))
	}
	return ids
}

// entryID is the id of one entry splitBranch gave ("" when it has none).
func entryID(entry gjson.Result) string { return jsonr.Get(entry, "id").Str }

// continues is how many of a branch's entries (splitBranch) are, in order,
// the entries ids named when it was last read: all of ids when the branch
// continues that one (a branch that grew), fewer when it is another (a fork,
// a tree navigation, an entry replaced).
//
//	continues([]string{"a", "b"}, entries with ids a, b, c) => 2
//	continues([]string{"a", "b"}, entries with ids a, x) => 1
func continues(ids []string, entries []gjson.Result) int {
	same := 0
	for same < len(ids) && same < len(entries) && entryID(entries[same]) == ids[same] {
		same++
	}
	return same
}
