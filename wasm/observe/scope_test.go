package observe

import (
	"testing"

	"github.com/pi-memory/pi-memory/internal/require"
	"github.com/pi-memory/pi-memory/wasm/store"
)

func TestScopeIsResourceOnlyWhenAskedForInATrustedProjectWithAnAgentFolder(t *testing.T) {
	trusted := store.Session{AgentDir: "/home/ada/.pi/agent", ProjectRoot: "/src/app", ProjectHash: "p1", Trusted: true}
	untrusted, noAgent, noProject := trusted, trusted, trusted
	untrusted.Trusted = false
	noAgent.AgentDir = ""
	noProject.ProjectRoot = ""
	const file = "/home/ada/.pi/agent/pi-memory/observations/p1.jsonl"
	tests := []struct {
		name     string
		vars     scopeVars
		session  store.Session
		resource bool
		why      string
	}{
		{"unset is thread scope", scopeVars{}, trusted, false, ""},
		{"thread is thread scope", scopeVars{scope: "thread"}, trusted, false, ""},
		{"resource in a trusted project", scopeVars{scope: "resource"}, trusted, true, ""},
		{"resource without the agent folder", scopeVars{scope: "resource"}, noAgent, false,
			"PI_OM_SCOPE=resource needs the agent folder, which the host did not give; thread scope is used."},
		{"resource in an untrusted project", scopeVars{scope: "resource"}, untrusted, false,
			"PI_OM_SCOPE=resource keeps the project's observations under the agent folder, and this project is not trusted; thread scope is used (the session's own entries)."},
		{"resource outside a project", scopeVars{scope: "resource"}, noProject, false,
			"PI_OM_SCOPE=resource keeps a project's observations under the agent folder, and this session has no project folder; thread scope is used (the session's own entries)."},
		{"the value is case-sensitive", scopeVars{scope: "Resource"}, trusted, false,
			"PI_OM_SCOPE=Resource is not thread or resource; thread scope is used. Set PI_OM_SCOPE=thread or PI_OM_SCOPE=resource."},
		{"anything else is named", scopeVars{scope: "sqlite"}, trusted, false,
			"PI_OM_SCOPE=sqlite is not thread or resource; thread scope is used. Set PI_OM_SCOPE=thread or PI_OM_SCOPE=resource."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sc := scopeOf(tt.vars, &tt.session)
			require.Equal(t, tt.resource, sc.resource)
			require.Equal(t, tt.why, sc.why)
			if tt.resource {
				require.Equal(t, "resource", sc.name())
				require.Equal(t, file, sc.file)
				require.Equal(t, "/home/ada/.pi/agent/pi-memory/observations", sc.dir)
				require.Equal(t, file+".lock", sc.lock)
				require.Equal(t, "for every session of this project", sc.keptIn())
			} else {
				require.Equal(t, "thread", sc.name())
				require.Equal(t, omScope{why: tt.why}, sc, "thread scope names no file")
				require.Equal(t, "in this session", sc.keptIn())
			}
		})
	}
}

func TestScopeNamesTheSQLiteVariablesThatSelectNothing(t *testing.T) {
	session := store.Session{AgentDir: "/a", ProjectRoot: "/p", ProjectHash: "h", Trusted: true}
	tests := []struct {
		name   string
		vars   scopeVars
		sqlite string
		line   string
	}{
		{"none set", scopeVars{scope: "resource"}, "", ""},
		{"PI_OM_SQLITE in thread scope", scopeVars{sqlite: "1"}, "PI_OM_SQLITE",
			"PI_OM_SQLITE selects nothing: pi-memory keeps observations as a JSON Lines ledger a person can read (decision 010), here the session's own entries (thread scope); unset the variable to silence this."},
		{"PI_OM_SQLITE_PATH in resource scope", scopeVars{scope: "resource", sqlitePath: "/tmp/om.db"}, "PI_OM_SQLITE_PATH",
			"PI_OM_SQLITE_PATH selects nothing: pi-memory keeps observations as a JSON Lines ledger a person can read (decision 010), here /a/pi-memory/observations/h.jsonl; unset the variable to silence this."},
		{"both", scopeVars{sqlite: "yes", sqlitePath: "x"}, "PI_OM_SQLITE and PI_OM_SQLITE_PATH",
			"PI_OM_SQLITE and PI_OM_SQLITE_PATH select nothing: pi-memory keeps observations as a JSON Lines ledger a person can read (decision 010), here the session's own entries (thread scope); unset the variable to silence this."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sc := scopeOf(tt.vars, &session)
			require.Equal(t, tt.sqlite, sc.sqlite)
			require.Equal(t, tt.line, sc.sqliteLine())
		})
	}
}
