package hindsight

import (
	"path"
	"strings"
	"testing"

	"github.com/pi-memory/pi-memory/internal/require"
)

func TestRepoKeyIsTheSameForEveryFormOfOneRemote(t *testing.T) {
	tests := []struct{ origin, root, want string }{
		{"git@github.com:o/r.git", "/p", "github.com/o/r"},
		{"ssh://git@github.com/o/r", "/p", "github.com/o/r"},
		{"ssh://git@GitHub.com:22/o/r.git", "/p", "github.com/o/r"},
		{"https://user@github.com/o/r.git/", "/p", "github.com/o/r"},
		{"https://GITHUB.COM/o/r", "/p", "github.com/o/r"},
		{"", "/home/me/proj", "/home/me/proj"},
		{"/srv/git/r.git", "/p", "/srv/git/r.git"},
		{"https:///o/r", "/p", "/p"},
		{"git@GitHub.com:acme/widgets.git", "/p", "github.com/acme/widgets"},
		{"https://ada@github.com/acme/widgets.git/", "/p", "github.com/acme/widgets"},
		{"", "/home/ada/widgets", "/home/ada/widgets"},
	}
	for _, tc := range tests {
		require.Equal(t, tc.want, repoKeyOf(tc.origin, tc.root), tc.origin)
	}
}

func TestOriginURLReadsOnlyTheOriginRemote(t *testing.T) {
	cfg := "[core]\n\turl = no\n[remote \"upstream\"]\n\turl = git@h:u/r.git\n[remote \"origin\"]\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n\turl = git@h:o/r.git\n[branch \"main\"]\n\turl = no\n"
	require.Equal(t, "git@h:o/r.git", originURL(cfg))
	require.Equal(t, "", originURL("[core]\n\tbare = false\n"))
}

func TestProjectBankIDIsASlugAndAHashOfTheKey(t *testing.T) {
	id := ProjectBankID("github.com/o/My_Repo.js")
	require.True(t, strings.HasPrefix(id, "pimem-my-repo-js-"), id)
	require.Equal(t, len("pimem-my-repo-js-")+10, len(id))
	require.Equal(t, id, ProjectBankID("github.com/o/My_Repo.js"))
	require.True(t, id != ProjectBankID("github.com/x/My_Repo.js"))
	long := ProjectBankID("/" + strings.Repeat("a", 80))
	require.Equal(t, len("pimem-")+32+1+10, len(long))
	require.True(t, strings.HasPrefix(ProjectBankID("/"), "pimem-project-"))
}

func TestBanksTagsAndDocumentIDs(t *testing.T) {
	c := defaultConfig()
	c.Banks = []string{bankProject, bankUser}
	b := selectedBanks(c, "github.com/o/r")
	require.Equal(t, 2, len(b))
	require.Equal(t, ProjectBankID("github.com/o/r"), b[0].ID)
	require.Equal(t, "pimem-user", b[1].ID)
	c.ProjectBank = "mine"
	require.Equal(t, "mine", selectedBanks(c, "k")[0].ID)
	require.Equal(t, []string{"project:k", "session:s", "source:pi"}, baseTags(b[0], "k", "s", sourcePi))
	require.Equal(t, []string{"project:k", "session:s", "source:tool", "scope:user"}, baseTags(b[1], "k", "s", sourceTool))
	require.Equal(t, []string{"project:k"}, recallTags(b[0], "k"))
	require.Equal(t, 0, len(recallTags(b[1], "k")))
	for ms, want := range map[int64]string{42: "pimem:s1:42", 1767225600000: "pimem:s1:1767225600000"} {
		require.Equal(t, want, liveDocumentID("s1", ms))
	}
}

func TestAGitFilePointsToItsFolderRelativeToTheProject(t *testing.T) {
	tests := []struct{ root, dotGit, want string }{
		{"/p/wt", "gitdir: ../main/.git/worktrees/wt\n", "/p/main/.git/worktrees/wt"},
		{"/p/sub", "gitdir: /p/.git/modules/sub", "/p/.git/modules/sub"},
		{"/p/sub", "  gitdir:   .git/x  \n\n", "/p/sub/.git/x"},
		{"/p", "", "/p"},
		{"/p", "../elsewhere", "/elsewhere"},
		{"/p", "gitdir: /abs//x/", "/abs//x/"}, // an absolute path is taken as written
	}
	for _, tc := range tests {
		require.Equal(t, tc.want, gitDir(tc.root, tc.dotGit), tc.dotGit)
	}
}

func TestAWorktreesCommonFolderIsRelativeToItsGitFolder(t *testing.T) {
	tests := []struct{ gitdir, commondir, want string }{
		{"/p/main/.git/worktrees/wt", "../..\n", "/p/main/.git"},
		{"/p/main/.git/worktrees/wt", "/srv/repo.git\n", "/srv/repo.git"},
		{"/p/main/.git/worktrees/wt", "", "/p/main/.git/worktrees/wt"},
		{"/g", "gitdir: x", "/g/gitdir: x"}, // no "gitdir:" here: the file holds a path
	}
	for _, tc := range tests {
		require.Equal(t, tc.want, commonDir(tc.gitdir, tc.commondir), tc.commondir)
	}
}

func FuzzGitDir(f *testing.F) {
	f.Add("gitdir: ../main/.git/worktrees/wt\n", "../..\n")
	f.Add("gitdir:/abs", " /abs/common ")
	f.Add("\x00gitdir: ..", "")
	f.Fuzz(func(t *testing.T, dotGit, commondir string) {
		g := gitDir("/p/wt", dotGit)
		c := commonDir(g, commondir)
		if !path.IsAbs(g) || !path.IsAbs(c) {
			t.Fatalf("a relative folder: %q, %q", g, c)
		}
		// A file that names an absolute folder is taken at its word.
		if a := strings.TrimSpace(commondir); path.IsAbs(a) && c != a {
			t.Fatalf("%q read as %q", commondir, c)
		}
	})
}
