package hsimport

import (
	"testing"

	"github.com/pi-memory/pi-memory/internal/require"
)

func TestSessionFolderIsPisName(t *testing.T) {
	for cwd, want := range map[string]string{
		"/home/ada/app":    "--home-ada-app--",
		"/w/app":           "--w-app--",
		"/":                "----",
		`C:\Users\ada\app`: "--C--Users-ada-app--",
		"/a:b/c":           "--a-b-c--",
		"//srv/x":          "---srv-x--",
	} {
		require.Equal(t, want, SessionFolder(cwd), cwd)
	}
}

func TestFolderMayHold(t *testing.T) {
	tests := []struct {
		folder, root string
		want         bool
	}{
		{"--home-ada-app--", "/home/ada/app", true},
		{"--home-ada-app--/", "/home/ada/app", true},
		{"--home-ada-app-cmd-tool--", "/home/ada/app", true},
		{"--home-ada-app-v2--", "/home/ada/app", true}, // may be /home/ada/app-v2: Under decides
		{"--home-ada-apple--", "/home/ada/app", false},
		{"--home-ada-lib--", "/home/ada/app", false},
		{"--home-ada--", "/home/ada/app", false},
		{"notes", "/home/ada/app", false},
	}
	for _, tc := range tests {
		require.Equal(t, tc.want, FolderMayHold(tc.folder, tc.root), "%s in %s", tc.folder, tc.root)
	}
}

func TestUnder(t *testing.T) {
	tests := []struct {
		cwd, root string
		want      bool
	}{
		{"/home/ada/app", "/home/ada/app", true},
		{"/home/ada/app/cmd", "/home/ada/app", true},
		{"/home/ada/app", "/home/ada/app/", true},
		{"/home/ada/app-v2", "/home/ada/app", false},
		{"/home/ada/apple", "/home/ada/app", false},
		{"/home/ada", "/home/ada/app", false},
		{"", "/home/ada/app", false},
		{"/anything", "/", true},
		// Not a header pi wrote: another project's folder, reached by "..".
		{"/home/ada/app/../other", "/home/ada/app", false},
		{"/home/ada/app/./..", "/home/ada/app", false},
		{"/home/ada/app/cmd/..", "/home/ada/app", false},
		{"/home/ada/app/..foo", "/home/ada/app", true},
	}
	for _, tc := range tests {
		require.Equal(t, tc.want, Session{Cwd: tc.cwd}.Under(tc.root), "%s under %s", tc.cwd, tc.root)
	}
	require.Contains(t, SkipOtherProject(Session{Cwd: "/w/lib"}), "ran in another project (/w/lib)")
}
