package decision

import "strings"

// splitTags reads the values of --tag: it is repeatable, each value is a
// comma-separated list, and a leading "#" is optional. Empty entries are
// dropped; nil when there is no tag.
//
//	splitTags(["db, #infra", "go"]) => ["db", "infra", "go"]
func splitTags(values []string) []string {
	var tags []string
	for _, v := range values {
		for _, p := range strings.Split(v, ",") {
			if p = strings.TrimLeft(strings.TrimSpace(p), "#"); p != "" {
				tags = append(tags, p)
			}
		}
	}
	return tags
}
