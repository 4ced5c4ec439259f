package hindsight

import (
	"path"
	"strconv"
	"strings"

	"github.com/pi-memory/pi-memory/wasm/internal/sha1"
)

// Sources of a retained item (its "source:" tag).
const (
	sourcePi   = "pi"
	sourceTool = "tool"
)

// originURL is the url of the "origin" remote in the text of a .git/config
// file, "" when there is none.
//
//	originURL("[remote \"origin\"]\n\turl = git@github.com:o/r.git\n") => "git@github.com:o/r.git"
func originURL(gitConfig string) string {
	in := false
	for _, line := range strings.Split(gitConfig, "\n") {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "[") {
			in = strings.ReplaceAll(line, " ", "") == `[remote"origin"]`
			continue
		}
		if !in {
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if ok && strings.EqualFold(strings.TrimSpace(k), "url") {
			return strings.Trim(strings.TrimSpace(v), `"`)
		}
	}
	return ""
}

// gitDir is the git folder a worktree's or submodule's .git file points
// to ("gitdir: X"), relative to the project's root when X is.
//
//	gitDir("/p/wt", "gitdir: ../main/.git/worktrees/wt\n") => "/p/main/.git/worktrees/wt"
func gitDir(root, dotGit string) string {
	dir := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(dotGit), "gitdir:"))
	if !path.IsAbs(dir) {
		dir = path.Join(root, dir)
	}
	return dir
}

// commonDir is the folder a worktree's commondir file points to, which
// holds the config, relative to the worktree's git folder when it is.
//
//	commonDir("/p/main/.git/worktrees/wt", "../..\n") => "/p/main/.git"
func commonDir(gitdir, commondir string) string {
	dir := strings.TrimSpace(commondir)
	if !path.IsAbs(dir) {
		dir = path.Join(gitdir, dir)
	}
	return dir
}

// repoKeyOf is the project's identity across clones: its origin remote
// normalized to host/owner/repo (host lower-cased, no user, port, scheme or
// ".git"), else the project's root path.
//
//	repoKeyOf("git@GitHub.com:o/r.git", "/p")       => "github.com/o/r"
//	repoKeyOf("https://u@host/o/r.git/", "/p")      => "host/o/r"
//	repoKeyOf("", "/home/me/p")                      => "/home/me/p"
func repoKeyOf(origin, root string) string {
	u := strings.TrimSpace(origin)
	if u == "" {
		return root
	}
	host, p := "", ""
	if i := strings.Index(u, "://"); i >= 0 {
		rest := u[i+3:]
		host, p, _ = strings.Cut(rest, "/")
	} else if h, rest, ok := strings.Cut(u, ":"); ok && !strings.Contains(h, "/") {
		host, p = h, rest // scp-like: [user@]host:path
	} else {
		return strings.TrimRight(u, "/") // a local path remote
	}
	if i := strings.LastIndexByte(host, '@'); i >= 0 {
		host = host[i+1:]
	}
	if i := strings.LastIndexByte(host, ':'); i >= 0 && !strings.Contains(host[i:], "]") {
		host = host[:i]
	}
	p = strings.Trim(p, "/")
	p = strings.TrimSuffix(p, ".git")
	p = strings.Trim(p, "/")
	if host == "" {
		return root
	}
	return strings.ToLower(host) + "/" + p
}

// ProjectBankID is the bank of a repo key: "pimem-", a slug of its last
// part (at most 32 of [a-z0-9-]), "-", and the first 10 hex digits of the
// key's SHA-1. The same repository cloned twice gets the same bank.
//
//	ProjectBankID("github.com/o/My_Repo") => "pimem-my-repo-" + 10 hex digits
func ProjectBankID(key string) string {
	last := key[strings.LastIndexByte(key, '/')+1:]
	var slug []byte
	for i := 0; i < len(last) && len(slug) < 32; i++ {
		c := last[i]
		switch {
		case c >= 'A' && c <= 'Z':
			c += 'a' - 'A'
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9':
		default:
			c = '-'
		}
		if c == '-' && (len(slug) == 0 || slug[len(slug)-1] == '-') {
			continue
		}
		slug = append(slug, c)
	}
	s := strings.TrimRight(string(slug), "-")
	if s == "" {
		s = "project"
	}
	sum := sha1.Sum([]byte(key))
	return "pimem-" + s + "-" + hex(sum[:5])
}

func hex(b []byte) string {
	const digits = "0123456789abcdef"
	out := make([]byte, 0, 2*len(b))
	for _, c := range b {
		out = append(out, digits[c>>4], digits[c&15])
	}
	return string(out)
}

// bank is one selected bank: its scope word and its id.
type bank struct {
	Scope string // bankProject or bankUser
	ID    string
}

// Banks are the selected banks of a session in the configured order.
func selectedBanks(c settings, repoKey string) []bank {
	var out []bank
	for _, w := range c.Banks {
		switch w {
		case bankProject:
			id := c.ProjectBank
			if id == "" {
				id = ProjectBankID(repoKey)
			}
			out = append(out, bank{bankProject, id})
		case bankUser:
			out = append(out, bank{bankUser, c.UserBank})
		}
	}
	return out
}

// baseTags are on every retained item: project, session, source; and
// scope:user on what the user bank keeps (its explicit non-repo scope).
//
//	baseTags(bank{Scope: "user"}, "github.com/o/r", "s1", "pi") => [project:github.com/o/r session:s1 source:pi scope:user]
func baseTags(b bank, repoKey, session, source string) []string {
	tags := []string{"project:" + repoKey, "session:" + session, "source:" + source}
	if b.Scope == bankUser {
		tags = append(tags, "scope:user")
	}
	return tags
}

// recallTags are what a recall of bank b is filtered by: the project bank
// by its repo's tag (any of them), the user bank by none.
func recallTags(b bank, repoKey string) []string {
	if b.Scope == bankProject {
		return []string{"project:" + repoKey}
	}
	return nil
}

// liveDocumentID is the document a turn is retained as: a retry of the same
// job sends the same id, so the server replaces it instead of keeping two.
//
//	liveDocumentID("s1", 1767225600000) => "pimem:s1:1767225600000"
func liveDocumentID(session string, userMessageMs int64) string {
	return "pimem:" + session + ":" + strconv.FormatInt(userMessageMs, 10)
}
