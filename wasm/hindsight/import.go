package hindsight

import (
	"github.com/pi-memory/pi-memory/wasm/internal/numstr"
	"path"
	"strings"

	"github.com/pi-memory/pi-memory/wasm/hsimport"
	"github.com/pi-memory/pi-memory/wasm/internal/files"
	"github.com/pi-memory/pi-memory/wasm/internal/text"
)

// /hindsight import's own rules: where it reads, which sessions it sends
// and to which bank, and what the server's answers mean. What a session
// becomes (its item, the checkpoint, the lines it says) is wasm/hsimport's.

// importPending is one session read and ready to send.
type importPending struct {
	f    hsimport.File
	s    hsimport.Session
	it   hsimport.Item
	bank string
}

// projectBankOf is the id of the project's bank among the selected banks,
// "" when none is selected: an import retains into project banks only.
func projectBankOf(banks []bank) string {
	for _, b := range banks {
		if b.Scope == bankProject {
			return b.ID
		}
	}
	return ""
}

// importDir is the DIR of /hindsight import as an absolute path: "~/" is
// home, a relative path is cwd's; the agent folder means its sessions/
// folder (its other files are pi-memory's own).
//
//	importDir("~/old", "/home/ada", "/w/app", "/home/ada/.pi/agent") => "/home/ada/old"
//	importDir("/home/ada/.pi/agent/", "/home/ada", "/w/app", "/home/ada/.pi/agent") => "/home/ada/.pi/agent/sessions"
func importDir(dir, home, cwd, agentDir string) string {
	switch {
	case dir == "~" || strings.HasPrefix(dir, "~/"):
		dir = path.Join(home, dir[1:])
	case !path.IsAbs(files.Clean(dir)):
		dir = path.Join(cwd, dir)
	}
	dir = files.Clean(dir)
	if dir == agentDir {
		dir = path.Join(dir, "sessions")
	}
	return dir
}

// importHead is the first line of a run: what it sends (or, dry, would),
// of how many session files listed, from DIR or the project at root, to
// which server, and where it resumes.
func importHead(dry bool, todo hsimport.Todo, listed int, dir, root, url string) string {
	from := "the sessions of " + root
	if dir != "" {
		from = dir
	}
	verb := "importing"
	if dry {
		verb = "dry run: would import"
	}
	head := verb + " " + numstr.Itoa(len(todo.Files)) + " of " + text.Plural(listed, "session file", "session files") + " from " + from + " to " + hideURLSecrets(url)
	if todo.Resume != "" {
		head += "; resuming after " + todo.Resume + " (" + numstr.Itoa(todo.Done) + " already imported)"
	}
	return head
}

// notSent says why a parsed session is not sent, "" when it is; record
// says the checkpoint records it, so it is not read again until it
// changes. Without DIR (all false) only the sessions of the project at root
// are sent; a session of another one is not recorded: an import of DIR, or
// one run in that project, sends it.
func notSent(s hsimport.Session, root string, all bool) (why string, record bool) {
	switch {
	case !all && !s.Under(root):
		return hsimport.SkipOtherProject(s), false
	case s.Cwd == "":
		return "its header names no working folder, so it belongs to no project's bank", true
	case s.Messages == 0:
		return hsimport.SkipEmpty, true
	}
	return "", false
}

// projectOf is the repo key and project bank of the project at root, whose
// git config is gitConfig: a session that ran outside the current project
// goes to its own project's bank.
func projectOf(root, gitConfig string) (key, bank string) {
	key = repoKeyOf(originURL(gitConfig), root)
	return key, ProjectBankID(key)
}

// importAnswers reads the server's answers to a batch of sessions (rs, in
// the batch's order): the sessions it took, by index; a line for each it
// refused (the run goes on: the next run sends it again); and why the run
// stops, "" when it goes on: a request that got no answer (the server is
// away), or an answer every later request would get too (stopsImport).
func importAnswers(batch []importPending, rs []response) (took []int, refused []string, down string) {
	for i, a := range rs {
		switch p := retainProblem(a); {
		case p == "":
			took = append(took, i)
		case a.Error == "aborted": // the host's word for a request it gave up (decision 001)
			down = "it was asked to stop before the server answered"
		case a.Error != "":
			down = "the server did not answer (" + a.Error + ")"
		case a.ok():
			refused = append(refused, "failed "+batch[i].f.Path+": "+p)
		default:
			why := p + " " + text.Whole(strings.TrimSpace(a.Body), 200) // never through a word: said redacted (say)
			refused = append(refused, "failed "+batch[i].f.Path+": "+why)
			if stopsImport(a.Status) {
				down = "the server answered " + strings.TrimSpace(why) + " (every session would get the same)"
			}
		}
	}
	return took, refused, down
}

// stopsImport reports a status that says nothing about the session sent,
// so every later request would get it too: a redirect (the URL is not the
// server's API; it is not followed), a refused key, "slow down" and a
// gateway's "the server is away". Sending the rest would only repeat it.
// Another status (a 400, a 413, a 422, a 500) is the session's own.
//
//	stopsImport(429) => true; stopsImport(422) => false
func stopsImport(status int) bool {
	return status >= 300 && status < 400 || status == 401 || status == 403 || status == 429 || status >= 502 && status <= 504
}
