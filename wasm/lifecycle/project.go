package lifecycle

import (
	"encoding/hex"

	"github.com/pi-memory/pi-memory/wasm/internal/files"
	"github.com/pi-memory/pi-memory/wasm/internal/sha1"
)

// ProjectHash is the stable project id stored in events ("p"): the first 16
// hex digits of the SHA-1 of the normalised project root, as
// pi-decision-memory computes it, so logs written by either agree.
//
//	ProjectHash("/home/ada/src/app") => "…16 hex digits…"
func ProjectHash(root string) string {
	sum := sha1.Sum([]byte(files.Clean(root)))
	return hex.EncodeToString(sum[:])[:16]
}
