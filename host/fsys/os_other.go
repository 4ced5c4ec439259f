//go:build !unix

package fsys

import "io/fs"

// Elsewhere (Windows) a FIFO or device has no path in the file system, so an
// open cannot block on one; fstat still refuses what is not a regular file.
const (
	openFlags = 0
	dirOnly   = 0
	noFollow  = 0
)

// processExists cannot be told here without more code than it is worth: a
// lock is broken by its age alone.
func processExists(pid int) bool { return true }

// fileID is unknown here (0): the core then tells a rewrite by its bytes.
func fileID(fs.FileInfo) uint32 { return 0 }
