package notes

import (
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pi-memory/pi-memory/internal/require"
)

// TestIgnoresLocalAgreesWithGit asks git check-ignore about the personal
// notes under each .gitignore of ignoresLocalCases, and under random ones
// built from pieces of its path and of glob syntax, and compares. It needs
// git, so it runs only when asked: PIMEM_CHECK_GIT=1 go test ./wasm/notes/
// -run AgreesWithGit (PIMEM_CHECK_GIT=500 tries 500 random texts; a run with
// another seed: PIMEM_CHECK_GIT_SEED=7).
func TestIgnoresLocalAgreesWithGit(t *testing.T) {
	if os.Getenv("PIMEM_CHECK_GIT") == "" {
		t.Skip("set PIMEM_CHECK_GIT=1 to compare with git check-ignore")
	}
	repo := t.TempDir()
	git := func(args ...string) (string, bool) {
		cmd := exec.Command("git", args...)
		cmd.Dir = repo
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL="+os.DevNull, "GIT_CONFIG_NOSYSTEM=1")
		out, err := cmd.Output()
		if _, exit := err.(*exec.ExitError); err != nil && !exit {
			t.Fatalf("git %v: %v", args, err)
		}
		return string(out), err == nil
	}
	git("init", "-q", ".")
	file := filepath.Join(repo, notesProjectDir, notesLocal)
	require.NoError(t, os.MkdirAll(filepath.Dir(file), 0o755))
	require.NoError(t, os.WriteFile(file, nil, 0o644))
	rel := filepath.ToSlash(filepath.Join(notesProjectDir, notesLocal))
	check := func(gitignore string) (bool, string) {
		require.NoError(t, os.WriteFile(filepath.Join(repo, ".gitignore"), []byte(gitignore), 0o644))
		if _, ignored := git("check-ignore", "-q", "--no-index", rel); !ignored {
			return false, ""
		}
		// With -v it also names a negation that matched, and exits 0.
		out, _ := git("check-ignore", "-v", "--no-index", rel)
		// source:line:pattern<TAB>path (a pattern may hold a tab)
		src := out[:max(strings.LastIndexByte(out, '\t'), 0)]
		parts := strings.SplitN(src, ":", 3)
		require.Equal(t, 3, len(parts), "git check-ignore said %q", out)
		return true, parts[2]
	}
	for _, tt := range ignoresLocalCases {
		ignored, pattern := check(tt.gitignore)
		require.Equal(t, tt.ignored, ignored, "git on %s: %q", tt.name, tt.gitignore)
		require.Equal(t, tt.pattern, pattern, "git on %s: %q", tt.name, tt.gitignore)
	}

	n := 0
	if v := os.Getenv("PIMEM_CHECK_GIT"); v != "1" {
		for _, c := range v {
			n = n*10 + int(c-'0')
		}
	}
	seed := int64(1)
	for _, c := range os.Getenv("PIMEM_CHECK_GIT_SEED") {
		seed = seed*10 + int64(c-'0')
	}
	r := rand.New(rand.NewSource(seed))
	pieces := []string{"*", "**", "***", "?", "/", "/", ".pi", "memory", "MEMORY", ".local", ".md", "m", "M", "[a-z]", "[!a-z]",
		"[^.]", "[[:upper:]]", "[]]", "[", "]", "\\", "\\*", "!", ".", "-", "[a-]", "[:]", "[[:x]", " ", "\t"}
	paths := []string{"/" + rel, rel, notesLocal, ".pi/", "memory/", "/.pi/memory/", ".pi/memory", "**/" + notesLocal}
	for i := 0; i < n; i++ {
		var lines []string
		for l := 0; l < 1+r.Intn(3); l++ {
			line := paths[r.Intn(len(paths))]
			for m := r.Intn(4); m > 0 && line != ""; m-- {
				a := r.Intn(len(line))
				b := a + r.Intn(len(line)-a+1)
				line = line[:a] + pieces[r.Intn(len(pieces))] + line[b:]
			}
			if r.Intn(4) == 0 {
				line = "!" + line
			}
			if r.Intn(5) == 0 {
				line += "/"
			}
			lines = append(lines, line)
		}
		gitignore := strings.Join(lines, "\n") + "\n"
		wantIgnored, wantPattern := check(gitignore)
		ignored, pattern := ignoresLocal(gitignore)
		require.Equal(t, wantIgnored, ignored, "ignored under %q", gitignore)
		require.Equal(t, wantPattern, pattern, "pattern under %q", gitignore)
	}
}
