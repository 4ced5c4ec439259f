// Package hostio is the core's view of its host: the local I/O, time, randomness
// and logging that the module asks for through imports (see
// docs/decisions/001-core-host-contract.md). It holds the interface, the error
// codes shared by every host, and (in wasm builds) the implementation over the
// imports. It never decides anything: policy lives in the packages that use it.
package hostio

import (
	"errors"
	"strings"

	"github.com/pi-memory/pi-memory/wasm/internal/errs"
	"github.com/pi-memory/pi-memory/wasm/internal/jsonr"
	"github.com/tidwall/gjson"
)

// Unlisted reads an entry of List that is a name which could not travel as
// a line: the name, whether it is a folder, and true; false for any other
// entry. The name may hold a newline or U+FFFD; whoever shows it escapes it.
//
//	Unlisted(`/"a\nb.md"`) => "a\nb.md", false, true
//	Unlisted("MEMORY.md")  => "", false, false
func Unlisted(entry string) (name string, dir, ok bool) {
	if !strings.HasPrefix(entry, "/") {
		return "", false, false
	}
	q := entry[1:]
	if dir = strings.HasSuffix(q, "/"); dir {
		q = q[:len(q)-1]
	}
	if len(q) < 2 || q[0] != '"' || !jsonr.Valid(q) {
		return "", false, false
	}
	return gjson.Parse(q).String(), dir, true
}

// Kind is what a path names, numbered as in the contract's stat record
// (pm_fs_stat, pm_fs_lstat).
type Kind uint32

const (
	// KindOther is anything else: a FIFO, a socket, a device. Hosts never
	// open one for reading or appending (a FIFO would block the host).
	KindOther Kind = 0
	// KindFile is a regular file.
	KindFile Kind = 1
	// KindFolder is a folder.
	KindFolder Kind = 2
	// KindSymlink is a symbolic link; only Lstat reports it, Stat follows.
	KindSymlink Kind = 3
)

// FileInfo is what Stat and Lstat report. Size counts the bytes of a file and
// of a link's target path, for a folder what its entries take as the file
// system counts them (st_size; 0 where there is none); 0 for anything else.
type FileInfo struct {
	Size    int64
	MtimeMs int64
	Kind    Kind
	// Dir is Kind == KindFolder, for callers that only ask that. NewFileInfo
	// keeps the two in step.
	Dir bool
	// ID names the file itself, not its path (FileID of its device and
	// inode): a file renamed over the path (an atomic rewrite, a checkout)
	// has another, one written in place keeps it. 0 where the host cannot
	// tell.
	ID uint32
}

// FileID folds a file's device and inode numbers into the stat record's
// identity, as every host does: 32-bit FNV-1a over the device, then the
// inode, each 8 bytes little-endian; never 0, which means unknown.
func FileID(dev, ino uint64) uint32 {
	h := uint32(2166136261)
	for _, v := range [2]uint64{dev, ino} {
		for i := 0; i < 8; i++ {
			h ^= uint32(byte(v >> (8 * i)))
			h *= 16777619
		}
	}
	if h == 0 {
		h = 1
	}
	return h
}

// NewFileInfo is the FileInfo every host builds, so Dir and Kind agree.
func NewFileInfo(size, mtimeMs int64, kind Kind) FileInfo {
	return FileInfo{Size: size, MtimeMs: mtimeMs, Kind: kind, Dir: kind == KindFolder}
}

// Host is everything the core may ask of the outside world synchronously.
// Paths are absolute host paths.
type Host interface {
	// ReadAt reads up to len(dst) bytes at off; 0 at end of file.
	// Only a regular file is read: anything else (a folder, a FIFO, a socket,
	// a device) is ErrKind, and reading never blocks.
	ReadAt(path string, off int64, dst []byte) (int, error)
	// Stat reports size, mtime and kind, following symbolic links.
	Stat(path string) (FileInfo, error)
	// Lstat is Stat without following a link in the last name, so the core
	// can see a link (KindSymlink) for what it is.
	Lstat(path string) (FileInfo, error)
	// Append writes data with a single write on an O_APPEND descriptor,
	// creating the file (never its folder, never through a dangling link).
	// Only a regular file is appended to: anything else is ErrKind, and
	// appending never blocks.
	Append(path string, data []byte) error
	// WriteAtomic replaces path by writing a temp file beside it and renaming.
	// A link at path is replaced, never written through; a folder, FIFO,
	// socket or device at path is ErrKind.
	WriteAtomic(path string, data []byte) error
	// List returns the entries of a folder, sorted; folders end in "/". A
	// name that cannot travel as a line (it holds a newline, or is not
	// UTF-8) is "/" and the name as a JSON string, then "/" for a folder
	// (Unlisted reads it): it can be named, not opened.
	List(path string) ([]string, error)
	// Mkdir creates the folder and its parents.
	Mkdir(path string) error
	// Remove deletes a file or an empty folder.
	Remove(path string) error
	// Rename moves a file to another path (replacing a file there), within one
	// file system; it is how large derived files are replaced atomically.
	Rename(from, to string) error
	// Lock takes a cross-process lock by creating path exclusively, waiting up
	// to waitMs and breaking a lock older than staleMs.
	Lock(path string, waitMs, staleMs int) error
	Unlock(path string) error
	// Now is the wall clock in Unix milliseconds.
	Now() int64
	Random(dst []byte)
	Log(level Level, msg string)
}

// Level is a log level.
type Level int

const (
	Debug Level = iota
	Info
	Warn
	Error
)

// Error codes returned by imports, shared by every host.
const (
	CodeNotFound   = -1
	CodeExists     = -2
	CodePermission = -3
	CodeKind       = -4
	CodeBusy       = -5
	CodeIO         = -6
	CodeInvalid    = -7
)

var (
	ErrNotFound   = errors.New("not found")
	ErrExists     = errors.New("already exists")
	ErrPermission = errors.New("permission denied")
	ErrKind       = errors.New("wrong kind of file")
	ErrBusy       = errors.New("busy")
	ErrIO         = errors.New("i/o error")
	ErrInvalid    = errors.New("invalid argument")
)

// ErrorForCode maps an import's negative result to its error.
func ErrorForCode(code int64) error {
	switch code {
	case CodeNotFound:
		return ErrNotFound
	case CodeExists:
		return ErrExists
	case CodePermission:
		return ErrPermission
	case CodeKind:
		return ErrKind
	case CodeBusy:
		return ErrBusy
	case CodeInvalid:
		return ErrInvalid
	default:
		return ErrIO
	}
}

// CodeForError is the inverse of ErrorForCode, for hosts written in Go.
func CodeForError(err error) int64 {
	switch {
	case errs.Is(err, ErrNotFound):
		return CodeNotFound
	case errs.Is(err, ErrExists):
		return CodeExists
	case errs.Is(err, ErrPermission):
		return CodePermission
	case errs.Is(err, ErrKind):
		return CodeKind
	case errs.Is(err, ErrBusy):
		return CodeBusy
	case errs.Is(err, ErrInvalid):
		return CodeInvalid
	default:
		return CodeIO
	}
}

// PathError carries the host's message with the sentinel, so a person sees
// what failed and where.
type PathError struct {
	Op, Path string
	Err      error  // one of the sentinels
	Msg      string // the host's own words, may be empty
}

func (e *PathError) Error() string {
	s := e.Op + " " + e.Path + ": " + e.Err.Error()
	if e.Msg != "" && e.Msg != e.Err.Error() {
		s += " (" + e.Msg + ")"
	}
	return s
}

func (e *PathError) Unwrap() error { return e.Err }

// IsNotFound reports whether err means the file or folder does not exist.
func IsNotFound(err error) bool { return errs.Is(err, ErrNotFound) }
