package registry

// Release is pi-memory's version: the core's, the pi package's and pimem's.
// ts/package.json carries the same string; build/package.sh refuses to pack
// when the two differ, so a release changes both.
const Release = "0.1.0"

// About names a running core in one line: its release and, when the host
// said which module it loaded, the first 12 hex digits of the SHA-256 of that
// file. The host hashes the file because a module cannot read its own bytes;
// the hash tells two builds of one release apart. `/memory status` ends with
// this line and `pimem --version` prints it, so the two can be compared.
// A moduleSHA256 that is not at least 12 hex digits is left out.
//
//	About("0.1.0", "6f1e0c4b9a2d7e3f…") == "pi-memory 0.1.0 (core sha256:6f1e0c4b9a2d)"
//	About("0.1.0", "") == "pi-memory 0.1.0"
func About(release, moduleSHA256 string) string {
	line := "pi-memory " + release
	if len(moduleSHA256) < 12 {
		return line
	}
	digits := make([]byte, 12)
	for i := range digits {
		c := moduleSHA256[i]
		switch {
		case c >= '0' && c <= '9', c >= 'a' && c <= 'f':
		case c >= 'A' && c <= 'F':
			c += 'a' - 'A'
		default:
			return line
		}
		digits[i] = c
	}
	return line + " (core sha256:" + string(digits) + ")"
}
