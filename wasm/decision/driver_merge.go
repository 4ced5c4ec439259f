package decision

import (
	"bytes"

	"github.com/pi-memory/pi-memory/wasm/internal/files"
	"github.com/pi-memory/pi-memory/wasm/internal/jsonr"
	"github.com/pi-memory/pi-memory/wasm/store"
	"github.com/tidwall/gjson"
)

// maxMergeLog bounds each version of a log the merge reads: the whole file
// is held at once, three times over.
const maxMergeLog = 256 << 20

// GitMerge is git's merge driver for the decision log (the merge export,
// which the orchestrator routes here): {ancestor, ours, theirs, path} names
// git's %O %A %B %P. It reads the three files through h, merges them by
// merge and writes the result over ours, as git expects. It needs no
// session and consults no configuration: git runs it because `pimem git
// setup` registered it, and it changes only the file git is merging, so h
// may guard nothing (files.Guard with neither folder). The host passes
// paths, not bytes, so a torn line reaches the merge byte for byte (an
// envelope is JSON text).
//
// Exit 0 when merged; 1 when git must stop (a side is not a decision log, a
// file cannot be read or written): ours is then left as it was.
func GitMerge(out *store.Out, in gjson.Result, h *files.FS) {
	name := jsonr.Get(in, "path").String()
	if name == "" {
		name = decisionDirName + "/" + decisionLogName
	}
	var paths [3]string
	var data [3][]byte
	for i, key := range [3]string{"ancestor", "ours", "theirs"} {
		paths[i] = jsonr.Get(in, key).String()
		if paths[i] == "" {
			out.Usage("merge: needs ancestor, ours and theirs (git's %O %A %B)")
			return
		}
		b, err := files.Read(h, paths[i], maxMergeLog)
		if err != nil {
			out.Fail("pi-memory could not merge " + name + ": reading " + key + " (" + paths[i] + "): " + err.Error() + ". Resolve the conflict by hand, then run pimem decision doctor.")
			return
		}
		data[i] = b
	}
	res, err := merge(data[0], data[1], data[2])
	if err != nil {
		out.Fail("pi-memory did not merge " + name + ": " + err.Error() + " (is the path right in .gitattributes?). Git leaves the conflict to you; ours is unchanged.")
		return
	}
	if !bytes.Equal(res.Out, data[1]) {
		if err := h.WriteAtomic(paths[1], res.Out); err != nil {
			out.Fail("pi-memory could not write the merged " + name + ": " + err.Error())
			return
		}
	}
	if text := res.Text(); text != "" {
		level := "info"
		if len(res.Bad) > 0 {
			level = "warning"
		}
		out.Notify(level, "pi-memory merged "+name+":"+text)
	}
}
