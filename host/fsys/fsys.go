// Package fsys is the file-system layer under every Go runner of the core:
// the wazero host, pimem, and the native conformance tests. It holds the FS
// interface with exactly the semantics of the contract's file imports
// (docs/decisions/001-core-host-contract.md), a real implementation (OS), an
// in-memory one with the same behaviour (Mem), clocks, and NewHost, which turns
// an FS into the hostio.Host the core's lifecycle engine runs on natively.
//
// It never decides what to read or write, nor when to create a folder: the
// core does. Every error wraps one of the hostio sentinels, so errors.Is works
// the same whether the core runs in WebAssembly or natively.
package fsys

import (
	"path"
	"path/filepath"
	"runtime"
	"strings"
	"unicode/utf8"

	"github.com/pi-memory/pi-memory/wasm/hostio"
)

// FS is the core's view of files. Paths are absolute host paths.
type FS interface {
	// ReadAt reads up to len(dst) bytes at off; 0 at end of file. It follows
	// links, and reads only a regular file: a folder, FIFO, socket or device
	// is ErrKind, found without waiting on it.
	ReadAt(path string, off int64, dst []byte) (int, error)
	// Stat reports size, mtime and kind, following symbolic links.
	Stat(path string) (hostio.FileInfo, error)
	// Lstat is Stat for the last name itself: a link is KindSymlink.
	Lstat(path string) (hostio.FileInfo, error)
	// Append writes data with one write on an O_APPEND descriptor, creating
	// the file if missing but never its folder, and never through a dangling
	// link (ErrKind). Like ReadAt it follows links and appends only to a
	// regular file, without waiting on anything else.
	Append(path string, data []byte) error
	// WriteAtomic replaces path by writing a temp file beside it, syncing it
	// and renaming it over the target; readers see the old or the new bytes.
	// A link at path is replaced, not written through; a folder, FIFO,
	// socket or device there is ErrKind.
	WriteAtomic(path string, data []byte) error
	// List returns the names in a folder sorted bytewise, each as Entry
	// gives it: folders (and links to folders) end in "/", and a name that
	// cannot travel as a line is quoted after a "/".
	List(path string) ([]string, error)
	// Mkdir creates the folder and its parents; an existing folder is fine.
	Mkdir(path string) error
	// Remove deletes a file or an empty folder.
	Remove(path string) error
	// Rename moves a file, replacing a file at the destination. The
	// destination's folder must exist; folders are not moved.
	Rename(from, to string) error
	// Lock creates path exclusively, writing who holds it. It retries until
	// waitMs has passed (ErrBusy), breaking a lock file whose mtime is older
	// than staleMs (0: never break). Locking a path this FS already holds is
	// ErrExists; anything but a regular file at path (a folder, a link, a
	// FIFO) is ErrKind at once.
	Lock(path string, waitMs, staleMs int) error
	// Unlock removes a lock this FS holds. ErrInvalid if it holds none at
	// path; ErrNotFound or ErrBusy if another process broke it meanwhile;
	// ErrKind, leaving it alone, if something else replaced it.
	Unlock(path string) error
}

// Special is a kind of file that is neither a regular file, a folder nor a
// link. Hosts never read or append to one (a FIFO would block them), and Stat
// reports it as hostio.KindOther; Mem.MakeSpecial puts one in a tree so tests
// see what OS does with the real thing.
type Special uint8

const (
	FIFO Special = iota + 1
	Socket
	CharDevice
	BlockDevice
)

// String names the kind as error messages do ("character device").
func (s Special) String() string {
	switch s {
	case FIFO:
		return "FIFO"
	case Socket:
		return "socket"
	case CharDevice:
		return "character device"
	case BlockDevice:
		return "block device"
	}
	return "special file"
}

// notRegular is how both implementations (and the Node host) say what a path
// is when a regular file was needed: "is a FIFO, not a regular file".
func notRegular(what string) string {
	switch what {
	case "folder":
		return "is a folder"
	case "":
		return "is not a regular file"
	}
	return "is a " + what + ", not a regular file"
}

// readOnly is the refusal to replace a regular file no one may write (a
// person's chmod a-w): a rename would replace it all the same, as root's
// write would; so neither a write nor a rename does (decision 001).
const readOnly = "is read-only (no one may write it), so nothing replaces it; chmod u+w lets pi-memory change it"

// readOnlyAppend is the same refusal to add to such a file (an append).
const readOnlyAppend = "is read-only (no one may write it), so nothing is added to it; chmod u+w lets pi-memory change it"

// readOnlyFolder is the refusal to create, replace, rename or remove a
// file in a folder no one may write (a person's chmod a-w on the folder):
// root's create, rename and unlink there succeed, anyone else's are refused,
// so neither host does either, for anyone (decision 001).
const readOnlyFolder = "is in a read-only folder (no one may write it), so nothing is created, replaced or removed in it; chmod u+w on the folder lets pi-memory change it"

// danglingLink is Append's refusal to create a file through a link.
const danglingLink = "is a symbolic link to a missing file; append creates a missing file, but never through a link"

// pollMs is how long Lock sleeps between tries: short enough that a waiter
// notices a release quickly, long enough not to spin.
const pollMs = 5

// fail builds the error every FS method returns: the sentinel for errors.Is,
// and the detail a person needs to act on it.
func fail(op, p string, sentinel error, msg string) error {
	return &hostio.PathError{Op: op, Path: p, Err: sentinel, Msg: msg}
}

// checkPath rejects what no host can honour the same way: relative paths,
// NUL bytes and invalid UTF-8 (Node would mangle it). It returns the cleaned
// slash path.
func checkPath(op, p string) (string, error) {
	switch {
	case p == "":
		return "", fail(op, p, hostio.ErrInvalid, "empty path")
	case strings.IndexByte(p, 0) >= 0:
		return "", fail(op, p, hostio.ErrInvalid, "path contains a NUL byte")
	case !utf8.ValidString(p):
		return "", fail(op, p, hostio.ErrInvalid, "path is not valid UTF-8")
	}
	// Only on Windows is a backslash a separator; elsewhere it is a legal
	// character in a name.
	slash := filepath.ToSlash(p)
	if !isAbs(slash) {
		return "", fail(op, p, hostio.ErrInvalid, "path is not absolute; the core must pass absolute paths")
	}
	return cleanAbs(slash), nil
}

// isAbs accepts "/x", and on Windows drive paths ("C:/x").
func isAbs(p string) bool {
	if strings.HasPrefix(p, "/") {
		return true
	}
	return runtime.GOOS == "windows" && len(p) >= 3 && p[1] == ':' && p[2] == '/' &&
		(p[0] >= 'a' && p[0] <= 'z' || p[0] >= 'A' && p[0] <= 'Z')
}

func cleanAbs(p string) string {
	if strings.HasPrefix(p, "/") {
		return path.Clean(p)
	}
	return p[:2] + path.Clean(p[2:])
}

// Entry is a name as List gives it, one line of the list the core reads:
// the name, then "/" for a folder. A name that cannot travel as a line (it
// holds a newline, or is not UTF-8) is "/" and the name as a JSON string
// (invalid bytes as U+FFFD), then "/" for a folder: no name starts with
// "/", so the core can tell it, name it, and never take it for a file to
// open.
//
//	Entry("MEMORY.md", false) => "MEMORY.md"
//	Entry("a\nb.md", false)   => `/"a\nb.md"`
func Entry(name string, dir bool) string {
	if strings.IndexByte(name, '\n') >= 0 || !utf8.ValidString(name) {
		name = "/" + quoteJSON(name)
	}
	if dir {
		name += "/"
	}
	return name
}

// quoteJSON is s as a JSON string, as JavaScript's JSON.stringify writes
// it (the TypeScript host's list says the same). Bytes that are not UTF-8
// are one U+FFFD for each maximal part of a sequence, as Node decodes a
// name (badRun): "a\xe2\x82.md" is "a\uFFFD.md" in both hosts.
func quoteJSON(s string) string {
	const hex = "0123456789abcdef"
	b := []byte{'"'}
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			n = badRun(s[i:])
		}
		i += n
		switch {
		case r == '"' || r == '\\':
			b = append(b, '\\', byte(r))
		case r == '\n':
			b = append(b, `\n`...)
		case r == '\r':
			b = append(b, `\r`...)
		case r == '\t':
			b = append(b, `\t`...)
		case r == '\b':
			b = append(b, `\b`...)
		case r == '\f':
			b = append(b, `\f`...)
		case r < 0x20:
			b = append(b, '\\', 'u', '0', '0', hex[r>>4], hex[r&15])
		default:
			b = utf8.AppendRune(b, r)
		}
	}
	return string(append(b, '"'))
}

// badRun: how many bytes at the start of s, which is not UTF-8 there, Node
// (and the WHATWG decoder) reads as one U+FFFD: a lead byte and the
// continuation bytes that could still have made a character of it.
func badRun(s string) int {
	c := s[0]
	var need int
	lo, hi := byte(0x80), byte(0xBF)
	switch {
	case c >= 0xC2 && c <= 0xDF:
		need = 1
	case c >= 0xE0 && c <= 0xEF:
		need = 2
		if c == 0xE0 {
			lo = 0xA0
		} else if c == 0xED {
			hi = 0x9F
		}
	case c >= 0xF0 && c <= 0xF4:
		need = 3
		if c == 0xF0 {
			lo = 0x90
		} else if c == 0xF4 {
			hi = 0x8F
		}
	default:
		return 1
	}
	n := 1
	for ; n <= need && n < len(s) && s[n] >= lo && s[n] <= hi; n++ {
		lo, hi = 0x80, 0xBF
	}
	return n
}
