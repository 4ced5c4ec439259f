package notes

import (
	"path"
	"strconv"

	"github.com/pi-memory/pi-memory/wasm/hostio"
	"github.com/pi-memory/pi-memory/wasm/internal/files"
	"github.com/pi-memory/pi-memory/wasm/search"
)

// Searches is what a search of the store reads (store.Searcher).
func (n *driver) Searches() string { return "notes" }

// SearchSources is markdown memory as memory_search reads it
// (store.Searcher): every scope the session may read (global; project and
// local when the project is trusted), each index and, but for the personal
// file, the topic files beside it (archive/ stays out, as it does of
// /memory recall), one source per file, stamped with its size and mtime.
// Each entry is a fact, pointer or paragraph (headings name sections: they
// are searched as the section of the pages under them); its Ref is
// "<absolute file>:<line>#<page id>", which the notes store's Forgetter
// takes (forget.go), and its Cite the same with the file as the person
// knows it. A file is read, redacted and
// parsed again only when its stamp changed. Entries carry no time: a
// file's mtime is not when one line of it was written.
func (n *driver) SearchSources() []search.Source {
	if !n.cfg.Enabled {
		return nil
	}
	var srcs []search.Source
	add := func(sc *noteScope, file, display string) {
		info, err := n.h.Stat(file)
		if hostio.IsNotFound(err) {
			return
		}
		// A name that is there but not a regular file we may read (a link,
		// a FIFO, a device, a folder, a loop) is said in the answer, as one
		// too large is: left out silently, its absence would pass for
		// nothing remembered.
		if err != nil || info.Dir {
			srcs = append(srcs, search.Source{Key: "notes:" + file, Stamp: "unreadable",
				Load: func() []search.Doc { return search.Unreadable(display) }})
			return
		}
		// Its ids change with the ids its forgotten entries keep (forgottenIDs).
		now := files.StampOf(info)
		srcs = append(srcs, search.Source{
			Key:   "notes:" + file,
			Stamp: now + "+" + n.forgottenIDs(sc).stamp,
			Load:  func() []search.Doc { return n.searchDocs(sc, file, display, now) },
		})
	}
	for _, sc := range n.scopes {
		add(sc, sc.file, sc.display)
		topics, unlisted, _ := n.topics(sc)
		for _, e := range topics {
			add(sc, path.Join(sc.dir, e), path.Join(path.Dir(sc.display), e))
		}
		// A topic file whose name holds a newline is named, quoted (no raw
		// newline or escape reaches an answer), not read: a hit could not
		// cite it on one line, nor a forget name it.
		for _, name := range unlisted {
			display := path.Dir(sc.display) + "/" + strconv.Quote(name)
			srcs = append(srcs, search.Source{Key: "notes-unlisted:" + sc.dir + "/" + strconv.Quote(name), Stamp: "unreadable",
				Load: func() []search.Doc { return search.Unreadable(display) }})
		}
	}
	// What was forgotten, for a forget by words (search.Doc.Gone): after
	// the files, stamped after them and read after them (the index loads in
	// this order), so an entry another process forgot is in one or the
	// other: Forget keeps its record before it writes the file.
	seen := map[string]bool{}
	for _, sc := range n.scopes {
		if records := path.Join(sc.dataDir, forgottenName); !seen[records] {
			seen[records] = true
			srcs = append(srcs, search.Source{
				Key:   "notes-forgotten:" + records,
				Stamp: files.Stamp(n.h, records),
				Load:  func() []search.Doc { return n.goneDocs(records) },
			})
		}
	}
	return srcs
}

// goneDocs are the entries a recovery records file holds still forgotten,
// each cited by the id that restores it (search.Doc.Gone).
func (n *driver) goneDocs(records string) []search.Doc {
	var docs []search.Doc
	n.readForgotten(records, "", func(f *forgottenFile) {
		for _, r := range f.unrestored() {
			if _, display, mine, err := n.noteFile(r.File); mine && err == nil {
				docs = append(docs, search.Doc{Kind: search.Note, Ref: r.ID, Cite: display, Title: r.Section, Text: r.Text, Gone: true})
			}
		}
	})
	return docs
}

// searchDocs reads one memory file for the search index: its pages, from
// the redacted view, as entries. A file that cannot be read is said in the
// answer (search.Unreadable; /memory recall and /memory verify say why).
func (n *driver) searchDocs(sc *noteScope, file, display, now string) []search.Doc {
	data, err := readNote(n.h, file, nil)
	if err != nil {
		return search.Unreadable(display)
	}
	_, pages := readView(sc.name, data, n.forgottenIDs(sc).taken(file, now))
	var docs []search.Doc
	for _, p := range pages {
		if !searchable(&p) {
			continue
		}
		docs = append(docs, search.Doc{
			Kind: search.Note, Ref: formatRef(file, p.Line, p.ID), Cite: formatRef(display, p.Line, p.ID),
			Title: p.Section, Text: p.Text, // a hit shows its section
		})
	}
	return docs
}

// bulkyNotes is how large this session's memory files may be together
// before their first read would hold a thread for long: each entry is
// parsed, redacted and fitted. In pi, on its thread, a plain 48 KiB
// MEMORY.md held it 62 ms at the first prompt, 48 KiB of bullets each
// holding a secret 170–330 ms, a 4 MiB file 1–2.5 s; 15 KiB of bullets
// each holding a secret 54–99 ms on a loaded machine, 8 KiB of them 29 ms.
// 8 KiB is about half what the default maxMemoryTokens injects (4,096
// tokens).
const bulkyNotes = 8 << 10

// Bulky says this session's memory files (each scope's index, and the
// topic files beside it, which a search reads whole) are bulkyNotes or more
// together, or there are more than maxTopics topic files (store.Bulky): pi
// then reads them off its event loop. Each is looked at, none is read.
func (n *driver) Bulky() bool {
	if n.Off() != "" {
		return false
	}
	var size int64
	for _, sc := range n.scopes {
		topics, _, _ := n.topics(sc)
		if len(topics) > maxTopics {
			return true
		}
		files := []string{sc.file}
		for _, t := range topics {
			files = append(files, path.Join(sc.dir, t))
		}
		for _, f := range files {
			if info, err := n.h.Stat(f); err == nil && !info.Dir {
				size += info.Size
			}
		}
	}
	return size >= bulkyNotes
}

// maxTopics: more topic files than this make the notes Bulky without a
// look at each.
const maxTopics = 100
