package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/pi-memory/pi-memory/host/internal/testmod"
	"github.com/pi-memory/pi-memory/internal/require"
)

// These tests merge decision logs with the real git binary, in temporary
// repositories, with the pimem this test run built as the merge driver.

// repo is a git repository in a temporary folder, with its own HOME and
// global git config so nothing of the person running the tests leaks in.
type repo struct {
	t   *testing.T
	dir string
	env []string
}

func newRepo(t *testing.T) *repo {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	home := t.TempDir()
	gitconfig := filepath.Join(home, ".gitconfig")
	require.NoError(t, os.WriteFile(gitconfig, nil, 0o644))
	r := &repo{t: t, dir: t.TempDir(), env: []string{
		"PATH=" + filepath.Dir(pimemBin) + string(os.PathListSeparator) + os.Getenv("PATH"),
		"HOME=" + home,
		"GIT_CONFIG_GLOBAL=" + gitconfig,
		"GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=Ada", "GIT_AUTHOR_EMAIL=ada@example.com",
		"GIT_COMMITTER_NAME=Ada", "GIT_COMMITTER_EMAIL=ada@example.com",
		"PIMEM_WASM=" + testmod.Cores[0].Path(t),
		"PI_CODING_AGENT_DIR=" + filepath.Join(home, "agent"),
		"XDG_CACHE_HOME=" + sharedCache,
	}}
	r.git("init", "-q", "-b", "main")
	require.NoError(t, os.WriteFile(filepath.Join(r.dir, "README.md"), []byte("# app\n"), 0o644))
	r.git("add", "README.md")
	r.git("commit", "-q", "-m", "start")
	return r
}

// try runs git and returns its exit code and output.
func (r *repo) try(args ...string) (int, string) {
	r.t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir, cmd.Env = r.dir, r.env
	out, err := cmd.CombinedOutput()
	code := 0
	if exit, ok := err.(*exec.ExitError); ok {
		code = exit.ExitCode()
	} else {
		require.NoError(r.t, err)
	}
	return code, string(out)
}

func (r *repo) git(args ...string) string {
	r.t.Helper()
	code, out := r.try(args...)
	require.Equal(r.t, 0, code, "git %s: %s", strings.Join(args, " "), out)
	return out
}

func (r *repo) pimem(args ...string) ran {
	r.t.Helper()
	return runBin(r.t, pimemBin, r.dir, r.env, args...)
}

// decide runs a pimem decision command that must succeed.
func (r *repo) decide(args ...string) {
	r.t.Helper()
	res := r.pimem(append([]string{"decision"}, args...)...)
	require.Equal(r.t, 0, res.exit, "pimem decision %s: %s", strings.Join(args, " "), res.stderr)
}

func (r *repo) commit(msg string) {
	r.git("add", "-A")
	r.git("commit", "-q", "-m", msg)
}

func (r *repo) log() string {
	b, err := os.ReadFile(filepath.Join(r.dir, logPath))
	require.NoError(r.t, err)
	return string(b)
}

// decisions lists every decision, keyed by its text.
func (r *repo) decisions() map[string]listed {
	r.t.Helper()
	res := r.pimem("decision", "list", "--all", "--json")
	require.Equal(r.t, 0, res.exit, res.stderr)
	var all []listed
	require.NoError(r.t, json.Unmarshal([]byte(res.stdout), &all))
	out := map[string]listed{}
	ids := map[string]string{}
	for _, d := range all {
		if other, ok := ids[d.ID]; ok {
			r.t.Fatalf("%s is the id of %q and of %q", d.ID, other, d.Text)
		}
		ids[d.ID] = d.Text
		out[d.Text] = d
	}
	return out
}

type listed struct {
	ID           string `json:"id"`
	Text         string `json:"text"`
	Status       string `json:"status"`
	Supersedes   string `json:"supersedes"`
	SupersededBy string `json:"supersededBy"`
}

// sameDay skips a test whose decisions were not all added on one UTC day:
// ids are numbered by day, and the tests are about two branches sharing one.
func sameDay(t *testing.T, start time.Time) {
	if start.UTC().Format("2006-01-02") != time.Now().UTC().Format("2006-01-02") {
		t.Skip("the UTC day changed while the test ran; ids of two days do not collide")
	}
}

// Two branches that each add and supersede decisions on the same day: ours
// (api) supersedes the decision they share, theirs (deploy) one of its own.
func (r *repo) twoBranches() {
	r.decide("add", "Use PostgreSQL for the primary database", "--tag", "db")
	r.commit("base decision")
	r.git("checkout", "-q", "-b", "deploy")
	r.decide("add", "Deploy with Docker Compose on one host", "--tag", "deploy")
	r.decide("add", "Tag every release with a semantic version", "--tag", "release")
	docker := r.decisions()["Deploy with Docker Compose on one host"].ID
	r.decide("supersede", docker, "Deploy with Kubernetes on the managed cluster", "--reason", "one host is not enough")
	r.commit("deploy decisions")
	r.git("checkout", "-q", "main")
	r.git("checkout", "-q", "-b", "api")
	r.decide("add", "Expose the public API over REST with JSON", "--tag", "api")
	pg := r.decisions()["Use PostgreSQL for the primary database"].ID
	r.decide("supersede", pg, "Use PostgreSQL 16 for the primary database", "--reason", "it has the JSON features we need")
	r.commit("api decisions")
}

// checkBoth says every decision of both branches is there under an id of its
// own, and each supersede still joins the decisions it joined on its branch.
func (r *repo) checkBoth() {
	r.t.Helper()
	d := r.decisions()
	require.Equal(r.t, 6, len(d), "decisions: %v", d)
	pg, pg16 := d["Use PostgreSQL for the primary database"], d["Use PostgreSQL 16 for the primary database"]
	docker, k8s := d["Deploy with Docker Compose on one host"], d["Deploy with Kubernetes on the managed cluster"]
	require.Equal(r.t, pg.ID, pg16.Supersedes)
	require.Equal(r.t, pg16.ID, pg.SupersededBy)
	require.Equal(r.t, "superseded", pg.Status)
	require.Equal(r.t, docker.ID, k8s.Supersedes)
	require.Equal(r.t, k8s.ID, docker.SupersededBy)
	require.Equal(r.t, "superseded", docker.Status)
	for _, text := range []string{"Expose the public API over REST with JSON", "Tag every release with a semantic version", "Use PostgreSQL 16 for the primary database", "Deploy with Kubernetes on the managed cluster"} {
		require.Equal(r.t, "active", d[text].Status, text)
	}
	doc := r.pimem("decision", "doctor")
	require.Equal(r.t, 0, doc.exit, "doctor: %s", doc.stdout)
}

func TestGitSetupIsIdempotentAndSaysWhatItDid(t *testing.T) {
	r := newRepo(t)
	first := r.pimem("git", "setup")
	require.Equal(t, 0, first.exit, first.stderr)
	require.Contains(t, first.stdout, `added ".pi/decision-memory/decisions.jsonl merge=pi-memory-decisions"`)
	require.Contains(t, first.stdout, `merge.pi-memory-decisions.driver: set to "pimem merge-driver %O %A %B %P"`)
	attrs, err := os.ReadFile(filepath.Join(r.dir, ".gitattributes"))
	require.NoError(t, err)
	require.Equal(t, ".pi/decision-memory/decisions.jsonl merge=pi-memory-decisions\n", string(attrs))
	config := r.git("config", "--local", "--get-regexp", "^merge\\.")

	second := r.pimem("git", "setup")
	require.Equal(t, 0, second.exit, second.stderr)
	require.Contains(t, second.stdout, "Nothing changed")
	again, err := os.ReadFile(filepath.Join(r.dir, ".gitattributes"))
	require.NoError(t, err)
	require.Equal(t, string(attrs), string(again))
	require.Equal(t, config, r.git("config", "--local", "--get-regexp", "^merge\\."))

	// A driver set another way is replaced, and the old value named.
	r.git("config", "--local", "merge.pi-memory-decisions.driver", "cat")
	third := r.pimem("--json", "git", "setup")
	require.Equal(t, 0, third.exit, third.stderr)
	require.Contains(t, third.stdout, `(was \"cat\")`)
	require.Contains(t, third.stdout, `"changed":true`)
}

func TestGitSetupNeedsARepository(t *testing.T) {
	r := newRepo(t)
	res := runBin(t, pimemBin, t.TempDir(), r.env, "git", "setup")
	require.Equal(t, 1, res.exit)
	require.Contains(t, res.stderr, "pimem git setup needs a git repository")
	res = r.pimem("git", "init")
	require.Equal(t, 2, res.exit)
}

func TestMergeWithTheDriverKeepsEveryDecisionOfBothBranches(t *testing.T) {
	start := time.Now()
	r := newRepo(t)
	require.Equal(t, 0, r.pimem("git", "setup").exit)
	r.commit("merge the decision log with pimem")
	r.twoBranches()
	code, out := r.try("merge", "--no-edit", "deploy")
	sameDay(t, start)
	require.Equal(t, 0, code, "git merge: %s", out)
	require.Contains(t, out, "is now") // the driver said what it renumbered
	r.checkBoth()
	require.Equal(t, "", r.git("status", "--porcelain"))
}

func TestUnionMergeWithoutTheDriverIsRepairedByDoctorFix(t *testing.T) {
	start := time.Now()
	r := newRepo(t)
	r.twoBranches()
	code, out := r.try("merge", "--no-edit", "deploy")
	sameDay(t, start)
	require.True(t, code != 0, "git merge without the driver: %s", out)
	require.Contains(t, out, "CONFLICT (content): Merge conflict in "+logPath)
	r.git("merge", "--abort")

	// The usual workaround: a union merge, which keeps both adds of each id.
	require.NoError(t, os.WriteFile(filepath.Join(r.dir, ".git", "info", "attributes"), []byte(logPath+" merge=union\n"), 0o644))
	r.git("merge", "--no-edit", "deploy")
	doc := r.pimem("decision", "doctor")
	require.Equal(t, 1, doc.exit, doc.stdout)
	require.Equal(t, 2, strings.Count(doc.stdout, "id-collision"), doc.stdout)
	require.Contains(t, doc.stdout, "\"Deploy with Docker Compose on one host\" is missing from memory")

	before := r.log()
	preview := r.pimem("decision", "doctor", "--fix")
	require.Equal(t, 1, preview.exit, preview.stderr)
	require.Contains(t, preview.stdout, "--fix would give 2 decisions a new id")
	require.Contains(t, preview.stdout, "Nothing was written")
	require.Equal(t, before, r.log())

	fixed := r.pimem("decision", "doctor", "--fix", "--yes")
	require.Equal(t, 0, fixed.exit, fixed.stdout+fixed.stderr)
	require.Contains(t, fixed.stdout, "--fix gave 2 decisions a new id")
	require.Equal(t, strings.Count(before, "\n"), strings.Count(r.log(), "\n"))
	r.checkBoth()
}

// git's octopus strategy merges file by file with `git merge-file`, which
// runs no merge driver (git 2.39): it stops at the log's conflict and leaves
// the tree as it was. Merging the branches one after another runs the
// driver each time and keeps every decision of the three.
func TestThreeBranchesMergeWithTheDriver(t *testing.T) {
	start := time.Now()
	r := newRepo(t)
	require.Equal(t, 0, r.pimem("git", "setup").exit)
	r.decide("add", "Use PostgreSQL for the primary database", "--tag", "db")
	r.commit("base")
	texts := map[string][]string{
		"one":   {"Write commit messages in the imperative mood"},
		"two":   {"Review every dependency update by hand", "Pin every container image by digest"},
		"three": {"Run the linters in CI on every push"},
	}
	for _, b := range []string{"one", "two", "three"} {
		r.git("checkout", "-q", "-b", b, "main")
		for _, text := range texts[b] {
			r.decide("add", text)
		}
		r.commit(b)
	}
	r.git("checkout", "-q", "one")
	code, out := r.try("merge", "--no-edit", "two", "three")
	sameDay(t, start)
	if code != 0 {
		require.Contains(t, out, "Should not be doing an octopus")
		require.Equal(t, "", r.git("status", "--porcelain"))
		r.git("merge", "--no-edit", "two")
		r.git("merge", "--no-edit", "three")
	}
	d := r.decisions()
	require.Equal(t, 5, len(d), "decisions: %v", d)
	for _, list := range texts {
		for _, text := range list {
			require.Equal(t, "active", d[text].Status, text)
		}
	}
	doc := r.pimem("decision", "doctor")
	require.Equal(t, 0, doc.exit, doc.stdout)
}

// A rebase replays the branch's commits one at a time through the driver:
// the first commit's decision gets a new id, and the next commit, which
// supersedes it by its old id, follows it there.
func TestRebaseWithTheDriverKeepsTheSupersedeChain(t *testing.T) {
	start := time.Now()
	r := newRepo(t)
	require.Equal(t, 0, r.pimem("git", "setup").exit)
	r.decide("add", "Use PostgreSQL for the primary database", "--tag", "db")
	r.commit("base")
	r.git("checkout", "-q", "-b", "cache")
	r.decide("add", "Cache sessions in Redis", "--tag", "cache")
	r.commit("redis")
	redis := r.decisions()["Cache sessions in Redis"].ID
	r.decide("supersede", redis, "Cache sessions in Memcached", "--reason", "no persistence needed")
	r.commit("memcached")
	r.git("checkout", "-q", "main")
	r.decide("add", "Expose the public API over REST with JSON", "--tag", "api")
	r.decide("add", "Log in JSON lines to stdout", "--tag", "ops")
	r.commit("main decisions")
	mainIDs := r.decisions()

	r.git("checkout", "-q", "cache")
	code, out := r.try("rebase", "main")
	sameDay(t, start)
	require.Equal(t, 0, code, "git rebase: %s", out)
	d := r.decisions()
	require.Equal(t, 5, len(d), "decisions: %v", d)
	for _, text := range []string{"Expose the public API over REST with JSON", "Log in JSON lines to stdout"} {
		require.Equal(t, mainIDs[text].ID, d[text].ID, "main's ids stay")
	}
	redisNow, memcached := d["Cache sessions in Redis"], d["Cache sessions in Memcached"]
	require.Equal(t, redisNow.ID, memcached.Supersedes)
	require.Equal(t, memcached.ID, redisNow.SupersededBy)
	require.Equal(t, "superseded", redisNow.Status)
	require.Equal(t, "active", memcached.Status)
	doc := r.pimem("decision", "doctor")
	require.Equal(t, 0, doc.exit, doc.stdout)
}

// A cherry-pick merges one commit through the driver: its decision keeps
// its text and gets an id of its own.
func TestCherryPickWithTheDriver(t *testing.T) {
	start := time.Now()
	r := newRepo(t)
	require.Equal(t, 0, r.pimem("git", "setup").exit)
	r.decide("add", "Use PostgreSQL for the primary database")
	r.commit("base")
	r.git("checkout", "-q", "-b", "hotfix")
	r.decide("add", "Pin every container image by digest")
	r.commit("hotfix")
	r.git("checkout", "-q", "main")
	r.decide("add", "Run the linters in CI on every push")
	r.commit("main")
	code, out := r.try("cherry-pick", "hotfix")
	sameDay(t, start)
	require.Equal(t, 0, code, "git cherry-pick: %s", out)
	d := r.decisions()
	require.Equal(t, 3, len(d), "decisions: %v", d)
	require.Equal(t, "active", d["Pin every container image by digest"].Status)
	doc := r.pimem("decision", "doctor")
	require.Equal(t, 0, doc.exit, doc.stdout)
}

// A merge driver that cannot merge stops git and leaves ours as it was.
func TestTheDriverStopsGitWhenASideIsNotALog(t *testing.T) {
	r := newRepo(t)
	require.Equal(t, 0, r.pimem("git", "setup").exit)
	r.decide("add", "Use PostgreSQL for the primary database")
	r.commit("base")
	r.git("checkout", "-q", "-b", "broken")
	require.NoError(t, os.WriteFile(filepath.Join(r.dir, logPath), []byte("<<<<<<< not a log\n=======\n>>>>>>>\n"), 0o644))
	r.commit("broken")
	r.git("checkout", "-q", "main")
	r.decide("add", "Run the linters in CI on every push")
	r.commit("main")
	ours := r.log()
	code, out := r.try("merge", "--no-edit", "broken")
	require.True(t, code != 0, "git merge: %s", out)
	require.Contains(t, out, "theirs is not a decision log")
	require.Equal(t, ours, r.log())
}

// .gitattributes comes with the repository (h-v93 d3): a symbolic link to a
// file outside it, a FIFO or a device is refused by name, with nothing
// written and no wait; a file too big to read is refused too.
func TestGitSetupAddsItsLineOnlyToAFile(t *testing.T) {
	for _, tc := range []struct {
		name string
		make func(t *testing.T, attrs, outside string)
		says string
	}{
		{"a link outside", func(t *testing.T, attrs, outside string) {
			require.NoError(t, os.WriteFile(outside, []byte("export PATH=/usr/bin\n"), 0o644))
			require.NoError(t, os.Symlink(outside, attrs))
		}, "is not a regular file (a symbolic link)"},
		{"a FIFO", func(t *testing.T, attrs, _ string) {
			require.NoError(t, syscall.Mkfifo(attrs, 0o644))
		}, "is not a regular file (a FIFO)"},
		{"a link to a device", func(t *testing.T, attrs, _ string) {
			require.NoError(t, os.Symlink("/dev/zero", attrs))
		}, "is not a regular file (a symbolic link)"},
		{"too big", func(t *testing.T, attrs, _ string) {
			require.NoError(t, os.WriteFile(attrs, bytes.Repeat([]byte("# x\n"), maxAttributes/4+1), 0o644))
		}, "over the"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRepo(t)
			outside := filepath.Join(t.TempDir(), "bashrc")
			tc.make(t, filepath.Join(r.dir, ".gitattributes"), outside)
			res := r.pimem("git", "setup")
			require.Equal(t, 1, res.exit, res.stdout)
			require.Contains(t, res.stderr, tc.says)
			if b, err := os.ReadFile(outside); err == nil {
				require.Equal(t, "export PATH=/usr/bin\n", string(b))
			}
		})
	}
}
