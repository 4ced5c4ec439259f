package sha1_test

import (
	"encoding/hex"
	"fmt"

	"github.com/pi-memory/pi-memory/wasm/internal/sha1"
)

func ExampleSum() {
	s := sha1.Sum([]byte("abc"))
	fmt.Println(hex.EncodeToString(s[:]))
	// Output:
	// a9993e364706816aba3e25717850c26c9cd0d89d
}
