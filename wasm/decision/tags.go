package decision

import (
	"strings"
	"unicode"
)

// splitTags reads the values of --tag: it is repeatable, each value is a
// comma-separated list, and a leading "#" is optional. Spaces around a tag
// and its "#" are dropped, and so are empty entries; nil when there is no
// tag.
//
//	splitTags(["db, #infra", "go", "# x"]) => ["db", "infra", "go", "x"]
func splitTags(values []string) []string {
	var tags []string
	for _, v := range values {
		for _, p := range strings.Split(v, ",") {
			if p = strings.TrimSpace(strings.TrimLeftFunc(p, hashOrSpace)); p != "" {
				tags = append(tags, p)
			}
		}
	}
	return tags
}

func hashOrSpace(r rune) bool { return r == '#' || unicode.IsSpace(r) }
