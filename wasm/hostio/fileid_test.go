package hostio

import "testing"

// Both hosts fold a file's device and inode the same way (ts/core.ts fileID
// checks the same values), so a snapshot written under pi is judged alike
// by pimem.
func TestFileID(t *testing.T) {
	for _, c := range []struct {
		dev, ino uint64
		want     uint32
	}{
		{0, 0, 1768495365},
		{2049, 1234567, 1176686271},
		{1<<63 | 5, 1<<40 + 7, 1455615452},
	} {
		if got := FileID(c.dev, c.ino); got != c.want {
			t.Errorf("FileID(%d, %d) = %d, want %d", c.dev, c.ino, got, c.want)
		}
	}
	if FileID(1, 2) == FileID(1, 3) || FileID(1, 2) == FileID(2, 2) {
		t.Error("neighbouring inodes or devices share an identity")
	}
}
