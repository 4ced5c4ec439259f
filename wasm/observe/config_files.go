package observe

import (
	"path"
	"strings"
)

// Where om-config.json is read from, which of its two paths is read, and
// what /om config edit accepts. The driver (driver.go, driver_command.go)
// reads and writes the files; these rules say which and what.

// The folders of om-config.json (docs/formats.md): the documented one, and
// seed 004's, read when only that one exists.
const (
	omConfigDir = ".pi"                             // in the project
	omSeedDir   = "extensions/observational-memory" // seed 004's folder, under the project's .pi and the agent folder
)

// omConfigFile is where one scope's om-config.json is read from: the
// documented path, or seed 004's when only that one exists.
type omConfigFile struct {
	primary, alias string
	used           string // the file read, "" when neither exists
}

// configFiles are the global and the project om-config.json of a session
// (a zero omConfigFile when there is no such folder). An untrusted
// project's file is never read; the observations still work, since they
// live in the session, not in the project.
//
//	configFiles("/a", "/p", true)[1] => {primary "/p/.pi/om-config.json", alias "/p/.pi/extensions/observational-memory/om-config.json"}
func configFiles(agentDir, projectRoot string, trusted bool) [2]omConfigFile {
	var fs [2]omConfigFile
	if agentDir != "" {
		fs[0] = omConfigFile{primary: path.Join(agentDir, configFile), alias: path.Join(agentDir, omSeedDir, configFile)}
	}
	if projectRoot != "" && trusted {
		dir := path.Join(projectRoot, omConfigDir)
		fs[1] = omConfigFile{primary: path.Join(dir, configFile), alias: path.Join(dir, omSeedDir, configFile)}
	}
	return fs
}

// configName is the file of f to read, given which of its paths exist:
// the documented one, or seed 004's when only that one exists. both is a
// warning when both exist (the documented one is read).
func configName(f omConfigFile, primaryExists, aliasExists bool) (name, both string) {
	switch {
	case f.primary == "":
		return "", ""
	case !primaryExists && aliasExists:
		return f.alias, ""
	case primaryExists && aliasExists:
		return f.primary, "both " + f.primary + " and " + f.alias + " exist; " + f.primary + " is read and the other is ignored. Merge them into " + f.primary + " and remove the other."
	}
	return f.primary, ""
}

// configSources names the files the configuration was read from, for /om
// status and /om config.
func configSources(fs [2]omConfigFile, trusted bool) string {
	var used []string
	for _, f := range fs {
		if f.used != "" {
			used = append(used, f.used)
		}
	}
	if len(used) == 0 {
		return "defaults (no " + configFile + ")"
	}
	s := strings.Join(used, ", then ")
	if !trusted {
		s += " (the project is not trusted: its file is not read)"
	}
	return s
}

// editTarget is the om-config.json /om config edit opens: the project's
// when the project's is read (a trusted project), else the agent folder's;
// of that one, the file read, else the documented path. "" when there is
// neither folder.
func editTarget(fs [2]omConfigFile) string {
	f := fs[0]
	if fs[1].primary != "" {
		f = fs[1]
	}
	if f.used != "" {
		return f.used
	}
	return f.primary
}

// editHint is what /om config edit says without an editor: the file to
// edit (exists says whether it does yet) and how to make the edit count.
func editHint(target string, exists bool) string {
	msg := "Edit " + target
	if !exists {
		msg += " (it does not exist yet: create it with the keys to change, e.g. {\"observerTokens\": 20000})"
	}
	return msg + ", then run /om config reload. Keys and defaults: /om config."
}

// configEdit is what /om config edit does with the editor's answer.
type configEdit struct {
	text     string   // what to write to the file, "" when nothing is written
	warnings []string // what the store says of text's keys once it reads it back
	say      string   // why nothing is written; or, once text is written, what the person is told
	fail     bool     // nothing is written because the answer cannot be read as written
}

// checkConfigEdit reads the editor's answer for target, which was opened
// with prefill: saved is false when the editor was closed without saving.
// An answer is written only when it changed, with a newline at its end,
// and only when the store reads it back as written (checkConfigFile): a
// text that would turn the store off is refused, with the reason. What the
// store will say of its keys is said once it is written.
//
//	checkConfigEdit("p.json", "{}\n", true, `{"observerTokens": 5`) => nothing written, fail: "Nothing written: p.json is not valid JSON: …"
func checkConfigEdit(target, prefill string, saved bool, answer string) configEdit {
	switch {
	case !saved:
		return configEdit{say: "Nothing written: the editor was closed without saving."}
	case answer == prefill:
		return configEdit{say: "Nothing written: " + target + " is unchanged."}
	}
	text := answer
	if !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	warnings, why := checkConfigFile(target, []byte(text))
	if why != "" {
		return configEdit{say: "Nothing written: " + why + ". Run /om config edit again to fix it.", fail: true}
	}
	msg := "Wrote " + target + "; it is in force now (/om config shows the values)."
	for _, w := range warnings {
		msg += "\nwarning: " + w
	}
	return configEdit{text: text, warnings: warnings, say: msg}
}
