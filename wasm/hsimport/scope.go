package hsimport

import "strings"

// SessionFolder is the folder under <agentDir>/sessions/ where pi keeps the
// sessions started in cwd: the path without its leading separator, each
// "/", "\" and ":" turned into "-", between "--" and "--" (pi 1.5.2's
// getDefaultSessionDir).
//
//	SessionFolder("/home/ada/app") => "--home-ada-app--"
func SessionFolder(cwd string) string {
	return "--" + strings.Map(func(r rune) rune {
		if r == '/' || r == '\\' || r == ':' {
			return '-'
		}
		return r
	}, trimOneSeparator(cwd)) + "--"
}

func trimOneSeparator(s string) string {
	if s != "" && (s[0] == '/' || s[0] == '\\') {
		return s[1:]
	}
	return s
}

// FolderMayHold reports whether a folder of <agentDir>/sessions/ may hold
// sessions started in root or below it: its name is root's SessionFolder,
// or begins like one for a folder inside root. pi's encoding loses which
// "-" was a "/", so this only saves reading other projects' files; each
// session's own cwd decides (Session.Under).
//
//	FolderMayHold("--home-ada-app-cmd--", "/home/ada/app") => true
//	FolderMayHold("--home-ada-lib--", "/home/ada/app")     => false
func FolderMayHold(folder, root string) bool {
	folder = strings.TrimSuffix(folder, "/")
	own := SessionFolder(root)
	return folder == own || strings.HasPrefix(folder, strings.TrimSuffix(own, "--")+"-") && strings.HasSuffix(folder, "--")
}

// Under reports whether the session ran in root or a folder inside it.
//
//	Session{Cwd: "/home/ada/app/cmd"}.Under("/home/ada/app") => true
//	Session{Cwd: "/home/ada/apple"}.Under("/home/ada/app")   => false
func (s Session) Under(root string) bool {
	root = strings.TrimRight(root, "/")
	if dotted(s.Cwd) {
		return false
	}
	return s.Cwd == root || strings.HasPrefix(s.Cwd, root+"/") || root == "" && strings.HasPrefix(s.Cwd, "/")
}

// dotted says a path has a "." or ".." element. pi writes its working folder
// resolved, so a header naming one was not written by pi, and read by its
// prefix "/home/ada/app/../other" would pass for a folder of /home/ada/app.
func dotted(p string) bool {
	for _, e := range strings.FieldsFunc(p, func(r rune) bool { return r == '/' || r == '\\' }) {
		if e == "." || e == ".." {
			return true
		}
	}
	return false
}

// SkipOtherProject is the reason recorded for a session of another project
// when the import covers only the current one.
func SkipOtherProject(s Session) string {
	return "ran in another project (" + s.Cwd + "); run the import there, or name this folder: /hindsight import DIR"
}
