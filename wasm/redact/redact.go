// Package redact removes secrets from text before it is written anywhere
// (no secret reaches disk or network). It owns the patterns and
// nothing else; callers decide what to redact, and always redact
// conversation-derived text before a write.
package redact

import (
	"regexp"
	"sort"
	"strings"
	"sync"
)

type pattern struct {
	kind string
	re   *regexp.Regexp
	// group is the submatch to replace (0 = the whole match), so a
	// "password=" label stays readable while its value goes.
	group int
}

// The patterns are compiled on first use: compiling eleven regular
// expressions is measurable at module start under TinyGo, and most turns
// write nothing.
var (
	patterns     []pattern
	patternsOnce sync.Once
)

func compilePatterns() {
	patterns = []pattern{
		{"private-key", regexp.MustCompile(`-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)`), 0},
		{"aws-key", regexp.MustCompile(`\b(?:AKIA|ASIA)[0-9A-Z]{16}\b`), 0},
		{"github-token", regexp.MustCompile(`\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{22,})`), 0},
		{"api-key", regexp.MustCompile(`\bsk-(?:ant-|proj-)?[A-Za-z0-9_\-]{20,}`), 0},
		{"slack-token", regexp.MustCompile(`\bxox[abposr]-[A-Za-z0-9-]{10,}`), 0},
		{"google-key", regexp.MustCompile(`\bAIza[0-9A-Za-z_\-]{35}\b`), 0},
		{"stripe-key", regexp.MustCompile(`\b(?:sk|rk|pk)_(?:live|test)_[0-9a-zA-Z]{16,}`), 0},
		{"jwt", regexp.MustCompile(`\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}`), 0},
		{"bearer", regexp.MustCompile(`(?i)\bbearer\s+([A-Za-z0-9._~+/=-]{16,})`), 1},
		{"url-password", regexp.MustCompile(`://[^/\s:@]+:([^/\s@]+)@`), 1},
		{"secret", regexp.MustCompile(`(?i)\b(?:password|passwd|pwd|secret|token|api[_-]?key|access[_-]?key|client[_-]?secret|private[_-]?key)["']?\s*[:=]\s*["']?([^\s"',;]{6,})`), 1},
	}
}

// String returns s with every secret replaced by "[REDACTED:kind]" and the
// kinds found, sorted. Text without secrets comes back unchanged.
//
//	String("deploy with token=abc123def456") => "deploy with token=[REDACTED:secret]", ["secret"]
func String(s string) (string, []string) {
	if s == "" {
		return s, nil
	}
	patternsOnce.Do(compilePatterns)
	found := map[string]bool{}
	for _, p := range patterns {
		if !p.re.MatchString(s) {
			continue
		}
		s = replace(s, p)
		found[p.kind] = true
	}
	if len(found) == 0 {
		return s, nil
	}
	kinds := make([]string, 0, len(found))
	for k := range found {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	return s, kinds
}

func replace(s string, p pattern) string {
	mark := "[REDACTED:" + p.kind + "]"
	if p.group == 0 {
		return p.re.ReplaceAllLiteralString(s, mark)
	}
	var b strings.Builder
	last := 0
	for _, m := range p.re.FindAllStringSubmatchIndex(s, -1) {
		gs, ge := m[2*p.group], m[2*p.group+1]
		if gs < 0 || strings.HasPrefix(s[gs:], "[REDACTED:") {
			continue
		}
		b.WriteString(s[last:gs])
		b.WriteString(mark)
		last = ge
	}
	b.WriteString(s[last:])
	return b.String()
}
