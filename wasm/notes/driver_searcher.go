package notes

import (
	"path"
	"strconv"

	"github.com/pi-memory/pi-memory/wasm/internal/files"
	"github.com/pi-memory/pi-memory/wasm/search"
)

// SearchSources is markdown memory as memory_search reads it
// (store.Searcher): every scope the session may read (global; project and
// local when the project is trusted), each index and, but for the personal
// file, the topic files beside it (archive/ stays out, as it does of
// /memory recall), one source per file, stamped with its size and mtime.
// Each entry is a fact, pointer or paragraph (headings name sections: they
// are searched as the section of the pages under them); its Ref is
// "<absolute file>:<line>", which the notes store's Forgetter takes, and
// its Cite the file as the person knows it. A file is read, redacted and
// parsed again only when its stamp changed. Entries carry no time: a
// file's mtime is not when one line of it was written.
func (n *driver) SearchSources() []search.Source {
	if !n.cfg.Enabled {
		return nil
	}
	var srcs []search.Source
	add := func(scope, file, display string) {
		info, err := n.h.Stat(file)
		if err != nil || info.Dir {
			return
		}
		srcs = append(srcs, search.Source{
			Key:   "notes:" + file,
			Stamp: strconv.FormatInt(info.Size, 10) + "@" + strconv.FormatInt(info.MtimeMs, 10),
			Load:  func() []search.Doc { return n.searchDocs(scope, file, display) },
		})
	}
	for _, sc := range n.scopes {
		add(sc.name, sc.file, sc.display)
		topics, _ := n.topics(sc)
		for _, e := range topics {
			add(sc.name, path.Join(sc.dir, e), path.Join(path.Dir(sc.display), e))
		}
	}
	return srcs
}

// searchDocs reads one memory file for the search index: its pages, from
// the redacted view, as entries. A file that cannot be read gives none
// (/memory recall and /memory verify name it).
func (n *driver) searchDocs(scope, file, display string) []search.Doc {
	data, err := files.Read(n.h, file, maxNoteFile)
	if err != nil {
		return nil
	}
	view, _ := redactedView(data, nil)
	var docs []search.Doc
	for _, p := range parse(scope, view) {
		if p.Kind == kindHeading || p.Text == "" {
			continue
		}
		line := ":" + strconv.Itoa(p.Line)
		docs = append(docs, search.Doc{
			Kind: search.Note, Ref: file + line, Cite: display + line,
			Text: p.Text, Extra: p.Section,
		})
	}
	return docs
}
