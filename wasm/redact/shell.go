package redact

import (
	"slices"
	"strings"
	"sync"
	"unsafe"

	"github.com/pi-memory/pi-memory/wasm/internal/text"
)

// Passwords given to a command on its command line, as a person pastes the
// line into a note or a chat: mysql's -pPW glued to its flag (7z's too),
// curl's -u user:PW (-U and --proxy-user, --user=), sshpass -p PW (mongo's,
// vsce's, psexec's, rdesktop's and ncftp's too), docker login -p PW (az
// login, helm registry login, Cloud Foundry's cf login, OpenShift's oc
// login), zip's, sqlcmd's, ipmitool's and mosquitto_pub's -P PW, redis-cli -a PW (--pass PW),
// smbclient's -U user%PW, lftp's -u user,PW, HTTPie's -a user:PW (--auth),
// openssl's -pass pass:PW (-passin, -passout; enc's -k PW, and nuget push's
// API key), htpasswd -b's
// last word (htpasswd -b FILE USER PW, -nb USER PW), the LDAP tools' -w PW,
// ssh-keygen's -N and -P passphrases and keytool's -storepass PW (-keypass,
// -srcstorepass, -deststorepass, -new).
// The flag alone is not a secret (mysql -p prompts, curl -u user asks for the
// password, ssh -p 22 is a port, docker run -p 8080:80 publishes one), nor is
// a value that names where the password lives ($MYSQL_PWD, "$(cat pw.txt)"),
// nor the next flag after a flag whose value is optional (mongo -p --quiet),
// nor openssl's env:VAR, file:PATH or stdin.
//
// findCommandPassword: (?:MYSQL|SSHPASS|CURL|LOGIN|ZIP|REDIS|SMB|OPENSSL|HTPASSWD|LDAP|KEYGEN|KEYTOOL|LFTP|HTTPIE), each CMD[^\n;|&]*?[ \t]FLAG
// VALUE (written out in expressions_test.go): a flag anywhere on the rest of
// the command (up to a newline, ';', '|' or '&'), the first whose value
// reads; the value is (?:"([^"\n]+)"|'([^'\n]+)'|([^\s"']+)), a quoted or a
// bare word (its group is the secret), and for curl what follows the first
// ':' of user:password (smbclient's '%', lftp's ','). HTTPie's command is
// http or https and a blank (a URL's scheme is none). htpasswd's value is the last word
// of its command (see htpasswdValue). Only one command starts at a word, so
// the alternatives never compete; each command's groups are its three.
func findCommandPassword(s string, pos int) []int {
	cmdMemo.Lock()
	defer cmdMemo.Unlock()
	// For each command, the end of the line where one found no flag: kept
	// from the call that ended at pos on this text (cmdMemo).
	var failed [cmdKinds]int
	if pos > 0 && cmdMemo.data == unsafe.StringData(s) && cmdMemo.n == len(s) && cmdMemo.pos == pos {
		failed = cmdMemo.failed
	}
	m := findCommandPasswordFrom(s, pos, &failed)
	cmdMemo.data, cmdMemo.n, cmdMemo.failed = nil, 0, failed
	if m != nil {
		cmdMemo.data, cmdMemo.n, cmdMemo.pos = unsafe.StringData(s), len(s), m[1]
	}
	return m
}

// cmdMemo carries where each command found no flag from one call of
// findCommandPassword to the next over the same text: the pattern's
// FindAll loop asks again from where the last match ended. Each call began
// afresh, and looked again to the end of the line for the flag of every
// command before the next match that had none: a 1 MiB line of "curl x
// mysql -pX " took minutes. It holds only for the call that continues
// from the end of the last match on the same bytes; any other call starts
// afresh.
var cmdMemo struct {
	sync.Mutex
	data   *byte
	n, pos int
	failed [cmdKinds]int
}

func findCommandPasswordFrom(s string, pos int, failed *[cmdKinds]int) []int {
	for i := pos; i < len(s); i++ {
		if !isWord(s[i]) || !wordStart(s, i) {
			continue
		}
		e := runEnd(s, i, isWord)
		c, e := shellCommand(s, i, e)
		if c < 0 || i < failed[c] {
			i = e - 1
			continue
		}
		if c == cmdLogin {
			if e = registryLogin(s, e); e < 0 {
				continue
			}
		}
		if c == cmdHtpasswd {
			m, end := htpasswdValue(s, e)
			if m != nil {
				m[0] = i
				return m
			}
			failed[c] = end
			i = e - 1
			continue
		}
		j := e
		for ; j < len(s) && strings.IndexByte("\n;|&", s[j]) < 0; j++ {
			if isBlank(s[j]) {
				if m := commandFlag(c, s, j+1); m != nil {
					m[0] = i
					return m
				}
			}
		}
		// A flag the rest of this line lacks after this command, it lacks
		// after a later one of its kind: the search stays linear.
		failed[c] = j
		i = e - 1
	}
	return nil
}

const (
	cmdMySQL      = iota // -pVALUE, glued
	cmdSSHPass           // -p VALUE
	cmdCurl              // -u user:VALUE
	cmdLogin             // a registry tool's "login": -p VALUE, --password VALUE
	cmdZip               // -P VALUE
	cmdRedis             // -a VALUE, --pass VALUE
	cmdSMB               // -U user%VALUE
	cmdOpenSSL           // -pass pass:VALUE
	cmdOpenSSLKey        // openssl's -k VALUE: a kind of its own only for its groups
	cmdHtpasswd          // -b … VALUE, the command's last word
	cmdLDAP              // -w VALUE
	cmdKeygen            // -N VALUE, -P VALUE
	cmdKeytool           // -storepass VALUE, -keypass VALUE, …
	cmdLftp              // -u user,VALUE
	cmdHTTPie            // -a user:VALUE, --auth user:VALUE
	cmdKinds
)

// shellCommand is the command the word s[i:e] names, -1 for none, and where
// its name ends (redis-cli's runs past the word).
func shellCommand(s string, i, e int) (int, int) {
	// Windows' commands in any case: PSEXEC, NuGet.exe.
	switch w := s[i:e]; {
	case strings.EqualFold(w, "psexec"), strings.EqualFold(w, "psexec64"):
		return cmdSSHPass, e
	case strings.EqualFold(w, "nuget"):
		return cmdOpenSSL, e
	case strings.EqualFold(w, "ipmitool"):
		return cmdZip, e
	}
	switch s[i:e] {
	case "mysql", "mysqldump", "mysqladmin", "mysqlimport", "mysqlshow", "mysqlcheck", "mysqlsh", "mariadb", "7z", "7za", "7zr":
		return cmdMySQL, e
	case "sshpass", "twine", "vsce", "ovsx", "poetry", "rdesktop", "ncftp", "ncftpput", "ncftpget", "cqlsh", "altool", "rabbitmqadmin", "mongo", "mongosh", "mongodump", "mongorestore", "mongoexport", "mongoimport", "mongofiles", "mongostat", "mongotop":
		return cmdSSHPass, e
	case "curl":
		return cmdCurl, e
	case "docker", "podman", "nerdctl", "buildah", "skopeo", "oras", "az", "helm", "cf", "oc", "expo":
		return cmdLogin, e
	case "zip", "unzip", "zipcloak", "sqlcmd", "bcp", "osql", "isql", "p4", "mosquitto_pub", "mosquitto_sub":
		return cmdZip, e
	case "smbclient", "smbcacls", "smbget", "rpcclient":
		return cmdSMB, e
	case "openssl", "ibmcloud", "codecov":
		return cmdOpenSSL, e
	case "keytool", "jarsigner":
		return cmdKeytool, e
	case "htpasswd":
		return cmdHtpasswd, e
	case "lftp":
		return cmdLftp, e
	case "http", "https", "xh", "xhs":
		if e < len(s) && isBlank(s[e]) {
			return cmdHTTPie, e
		}
	case "ldapsearch", "ldapmodify", "ldapadd", "ldapdelete", "ldapwhoami", "ldappasswd", "ldapcompare", "ldapmodrdn", "ldapexop":
		return cmdLDAP, e
	case "ssh":
		if hasAt(s, e, "-keygen") && (e+7 == len(s) || !isWord(s[e+7])) {
			return cmdKeygen, e + 7
		}
	case "redis":
		if hasAt(s, e, "-cli") && (e+4 == len(s) || !isWord(s[e+4])) {
			return cmdRedis, e + 4
		}
	case "security":
		// macOS's keychain tool: -p is a password for its keychain
		// commands only (find-identity -p codesigning is a policy).
		if k := blanks(s, e); k > 0 && (hasAt(s, k, "unlock-keychain") || hasAt(s, k, "create-keychain")) && wordEnd(s, k+15) {
			return cmdSSHPass, k + 15
		} else if k > 0 && hasAt(s, k, "import") && wordEnd(s, k+6) {
			return cmdZip, k + 6 // security import cert.p12 -P PW
		}
	case "jenkins":
		if hasAt(s, e, "-cli") && (e+4 == len(s) || !isWord(s[e+4])) {
			return cmdCurl, e + 4 // -auth USER:PW
		}
	case "cypher":
		if hasAt(s, e, "-shell") && (e+6 == len(s) || !isWord(s[e+6])) {
			return cmdSSHPass, e + 6
		}
	}
	return -1, e
}

// registryLogin is the end of "[ \t]+(?:registry[ \t]+)?login\b" at s[e:],
// -1 when there is none (helm registry login).
func registryLogin(s string, e int) int {
	l := runEnd(s, e, isBlank)
	if l == e {
		return -1
	}
	if hasAt(s, l, "registry") {
		if r := runEnd(s, l+8, isBlank); r > l+8 {
			l = r
		}
	}
	if !hasAt(s, l, "login") || l+5 < len(s) && isWord(s[l+5]) {
		return -1
	}
	return l + 5
}

// commandFlag reads command c's flag and value at s[j:], after a blank:
// the match's end and its groups, with -1 for its start; nil when there is
// none.
//
//	mysql   -p(VALUE)                                  groups 1–3
//	sshpass (?:-p[ \t]*|--pat(?:[ \t]+|=))(VALUE)      groups 4–6
//	curl    (?:-[uU][ \t]*|--(?:proxy-)?user(?:[ \t]+|=)|-auth[ \t]+)USER:(PASSWORD) groups 7–9
//	login   (?:-p[ \t]*|--password(?:[ \t]+|=))(VALUE) groups 10–12
//	zip     -P[ \t]*(VALUE)                            groups 13–15
//	redis   (?:-a[ \t]*|--pass[ \t]+)(VALUE)              groups 16–18
//	smb     (?:-U[ \t]*|--user(?:[ \t]+|=))USER%(PASSWORD) groups 19–21
//	openssl -pass(?:in|out)?[ \t]+pass:(VALUE)          groups 22–24
//	        |(?:-[kt]|-APIKEY)[ \t]+(VALUE)             groups 25–27
//	ldap    -w[ \t]*(VALUE)                            groups 31–33
//	keygen  -[NP][ \t]*(VALUE)                         groups 34–36
//	keytool -(?:(?:src|dest)?(?:store|key)pass|new)[ \t]+(VALUE) groups 37–39
//	lftp    -u[ \t]*USER,(PASSWORD)                   groups 40–42
//	httpie  (?:-a[ \t]*|--auth(?:[ \t]+|=))USER:(PASSWORD) groups 43–45
func commandFlag(c int, s string, j int) []int {
	v, sep, user := -1, byte(0), ""
	switch {
	case c == cmdMySQL && hasAt(s, j, "-p"):
		v = j + 2
	case c == cmdCurl && (hasAt(s, j, "-u") || hasAt(s, j, "-U")), (c == cmdSSHPass || c == cmdLogin) && hasAt(s, j, "-p"),
		c == cmdZip && hasAt(s, j, "-P"), c == cmdRedis && hasAt(s, j, "-a"), c == cmdSMB && hasAt(s, j, "-U"),
		c == cmdLDAP && hasAt(s, j, "-w"), c == cmdKeygen && (hasAt(s, j, "-N") || hasAt(s, j, "-P")),
		c == cmdLftp && hasAt(s, j, "-u"), c == cmdHTTPie && hasAt(s, j, "-a"):
		v = runEnd(s, j+2, isBlank)
	case c == cmdCurl && (hasAt(s, j, "--user=") || hasAt(s, j, "--proxy-user=")):
		v = j + strings.IndexByte(s[j:], '=') + 1
	case c == cmdCurl && hasAt(s, j, "--user"):
		v = blanks(s, j+len("--user"))
	case c == cmdCurl && hasAt(s, j, "--proxy-user"):
		v = blanks(s, j+len("--proxy-user"))
	case c == cmdCurl && hasAt(s, j, "-auth"):
		v = blanks(s, j+len("-auth")) // jenkins-cli's
	case c == cmdSMB && hasAt(s, j, "--user="):
		v = j + len("--user=")
	case c == cmdSMB && hasAt(s, j, "--user"):
		v = blanks(s, j+len("--user"))
	case c == cmdOpenSSL && hasAt(s, j, "-pass"):
		k := j + len("-pass")
		if hasAt(s, k, "in") {
			k += 2
		} else if hasAt(s, k, "out") {
			k += 3
		}
		v, sep, user = blanks(s, k), ':', "pass"
	case c == cmdRedis && hasAt(s, j, "--pass"):
		v = blanks(s, j+len("--pass"))
	case c == cmdOpenSSL && (hasAt(s, j, "-k") || hasAt(s, j, "-t")):
		v, c = blanks(s, j+len("-k")), cmdOpenSSLKey // codecov's -t
	case c == cmdOpenSSL && text.HasFoldPrefix(s[j:], "-apikey"):
		v, c = blanks(s, j+len("-apikey")), cmdOpenSSLKey // nuget's
	case c == cmdSSHPass && hasAt(s, j, "--pat="):
		v = j + len("--pat=")
	case c == cmdSSHPass && hasAt(s, j, "--pat"):
		v = blanks(s, j+len("--pat")) // vsce's and ovsx's
	case c == cmdKeytool:
		v = blanks(s, keytoolFlag(s, j))
	case c == cmdHTTPie && hasAt(s, j, "--auth="):
		v = j + len("--auth=")
	case c == cmdHTTPie && hasAt(s, j, "--auth"):
		v = blanks(s, j+len("--auth"))
	case c == cmdLogin && hasAt(s, j, "--password="):
		v = j + len("--password=")
	case c == cmdLogin && hasAt(s, j, "--password"):
		v = blanks(s, j+len("--password"))
	}
	if v < 0 {
		return nil
	}
	switch c {
	case cmdCurl, cmdHTTPie:
		sep = ':'
	case cmdSMB:
		sep = '%'
	case cmdLftp:
		sep = ','
	}
	g, vs, ve, end := shellValue(s, v, sep)
	if g < 0 || user != "" && userPart(s[v:vs], g) != user+string(sep) {
		return nil
	}
	return groups(c, g, vs, ve, end)
}

// keytoolFlag is the end of keytool's password flag at s[j:]:
// -(?:(?:src|dest)?(?:store|key)pass|new); -1 when none is there.
func keytoolFlag(s string, j int) int {
	if !hasAt(s, j, "-") {
		return -1
	}
	k := j + 1
	if hasAt(s, k, "new") {
		return k + 3
	}
	if hasAt(s, k, "src") {
		k += 3
	} else if hasAt(s, k, "dest") {
		k += 4
	}
	if hasAt(s, k, "store") {
		k += 5
	} else if hasAt(s, k, "key") {
		k += 3
	} else {
		return -1
	}
	if !hasAt(s, k, "pass") {
		return -1
	}
	return k + 4
}

// groups is the match of command c's group g (0–2) at s[vs:ve], ending at
// end, with -1 for its start.
func groups(c, g, vs, ve, end int) []int {
	return groupOf(-1, end, 3*cmdKinds, 3*c+g, vs, ve)
}

// shellValue reads (?:"([^"\n]+)"|'([^'\n]+)'|([^\s"']+)) at s[v:]: which
// group (0 double-quoted, 1 single-quoted, 2 bare; -1 none), the value and
// where the match ends. With a separator, the value is what follows the
// first one of user:password (sep ':'), quoted whole, after the separator
// or each alone: (?:(?:"[^"\n:]*:|[^\s:"']*:"|"[^"\n:]*":"|'[^'\n:]*':")([^"\n]+)"|(?:'[^'\n:]*:|[^\s:"']*:'|"[^"\n:]*":'|'[^'\n:]*':')([^'\n]+)'|(?:[^\s:"']*|"[^"\n:]*"|'[^'\n:]*'):([^\s"']+)).
func shellValue(s string, v int, sep byte) (g, vs, ve, end int) {
	if v < len(s) && isQuote(s[v]) {
		q := s[v]
		vs = v + 1
		if sep != 0 {
			k := vs
			for k < len(s) && s[k] != q && s[k] != '\n' && s[k] != sep {
				k++
			}
			if k+1 < len(s) && s[k] == q && s[k+1] == sep {
				return sepValue(s, k+2) // the user quoted alone: curl -u "deploy":"PW" (h-v98 b7)
			}
			if k == len(s) || s[k] != sep {
				return -1, 0, 0, 0
			}
			vs = k + 1
		}
		ve = vs
		for ve < len(s) && s[ve] != q && s[ve] != '\n' {
			ve++
		}
		if ve == vs || ve == len(s) || s[ve] != q {
			return -1, 0, 0, 0
		}
		if q == '"' {
			return 0, vs, ve, ve + 1
		}
		return 1, vs, ve, ve + 1
	}
	vs = v
	if sep != 0 {
		k := runEnd(s, v, func(c byte) bool { return c != sep && isBareShell(c) })
		if k == len(s) || s[k] != sep {
			return -1, 0, 0, 0
		}
		return sepValue(s, k+1)
	}
	if ve = runEnd(s, vs, isBareShell); ve == vs {
		return -1, 0, 0, 0
	}
	return 2, vs, ve, ve
}

// sepValue is shellValue's value after the separator at s[:vs]: quoted
// (curl -u admin:"PW") or bare.
func sepValue(s string, vs int) (g, vs2, ve, end int) {
	if vs < len(s) && isQuote(s[vs]) {
		q := s[vs]
		ve = vs + 1
		for ve < len(s) && s[ve] != q && s[ve] != '\n' {
			ve++
		}
		if ve == vs+1 || ve == len(s) || s[ve] != q {
			return -1, 0, 0, 0
		}
		return 1 - boolInt(q == '"'), vs + 1, ve, ve + 1
	}
	if ve = runEnd(s, vs, isBareShell); ve == vs {
		return -1, 0, 0, 0
	}
	return 2, vs, ve, ve
}

// userPart is the user and its separator in u, what shellValue read
// before a value of group g: without the quote that opens the pair
// ("pass:PW") or the value ('pass:'PW').
func userPart(u string, g int) string {
	if isQuote(u[0]) {
		return u[1:]
	}
	if g < 2 {
		return u[:len(u)-1]
	}
	return u
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// isBareShell is [^\s"'].
func isBareShell(c byte) bool { return !isSpace(c) && !isQuote(c) }

// htpasswdValue reads, after "htpasswd" at s[:e], a flag that holds "b"
// (batch: the password is on the command line) and the command's last
// word: [^\n;|&<>]*?[ \t]-[A-Za-z]*b[A-Za-z]*[^\n;|&<>]*?[ \t](?:"([^"\n]+)"|'([^'\n]+)'|([^\s"';|&<>]+))[ \t]*(?:[\n;|&<>]|$).
// Its match, with -1 for its start; else nil and where the command ends.
// The first such flag decides: a later one's last word is the first's.
func htpasswdValue(s string, e int) (m []int, end int) {
	flag, lineEnd := -1, len(s)
	if n := strings.IndexByte(s[e:], '\n'); n >= 0 {
		lineEnd = e + n
	}
	for j := e; j < len(s); j++ {
		if isShellEnd(s[j]) {
			return nil, j
		}
		if flag < 0 {
			if isBlank(s[j]) && hasAt(s, j+1, "-") {
				l := runEnd(s, j+2, isLetter)
				if strings.IndexByte(s[j+2:l], 'b') >= 0 {
					flag = l
					j = l - 1
				}
			}
			continue
		}
		if !isBlank(s[j]) {
			continue
		}
		v := j + 1
		g, vs, ve, k := -1, v, v, v
		if v < len(s) && isQuote(s[v]) {
			if q := strings.IndexByte(s[v+1:lineEnd], s[v]); q > 0 {
				g, vs, ve, k = 1, v+1, v+1+q, v+2+q
				if s[v] == '"' {
					g = 0
				}
			}
		} else if ve = runEnd(s, v, func(c byte) bool { return isBareShell(c) && !isShellEnd(c) }); ve > v {
			g, k = 2, ve
		}
		if g < 0 {
			continue
		}
		if k = runEnd(s, k, isBlank); k < len(s) && isShellEnd(s[k]) {
			k++
		} else if k < len(s) {
			continue
		}
		return groups(cmdHtpasswd, g, vs, ve, k), 0
	}
	return nil, len(s)
}

// isShellEnd is what ends htpasswd's command: [\n;|&<>].
func isShellEnd(c byte) bool { return strings.IndexByte("\n;|&<>", c) >= 0 }

// commandValue keeps a command line's value unless it names where the
// password lives: a reference ($MYSQL_PWD, ${PW}, <password>) or a
// command's output ("$(cat pw.txt)", `pass show db`); or it is the next flag,
// a bare word after a blank that starts with '-' (mongo -u a -p --quiet
// prompts).
func commandValue(s string, m []int) (int, int, int, int, bool) {
	vs, ve := firstGroup(m)
	v := s[vs:ve]
	// On a command line "$password" is the shell's variable whatever its
	// case (echo "$password" | sudo -S true), as "$(…)" is its output.
	// "@PATH" is a file the tool reads it from (ibmcloud -apikey @key.json).
	if isReference(v) || len(v) > 1 && v[0] == '$' && isName(v[1:]) || strings.HasPrefix(v, "$(") || strings.HasPrefix(v, "`") || v[0] == '-' && isBlank(s[vs-1]) ||
		len(v) > 1 && v[0] == '@' && isPath(v[1:]) ||
		text.HasFoldPrefix(v, "$env:") && isName(v[5:]) { // PowerShell's: -ApiKey $env:NUGET_KEY
		return 0, 0, 0, 0, false
	}
	return vs, ve, m[0], m[1], true
}

// lineCommandValue is commandValue for a password given on a command
// line, which is no prose about the command either (commandProse).
func lineCommandValue(s string, m []int) (int, int, int, int, bool) {
	vs, ve, ws, we, ok := commandValue(s, m)
	if ok && commandProse(s, vs, ve) {
		return 0, 0, 0, 0, false
	}
	return vs, ve, ws, we, ok
}

// commandProse: the bare word s[vs:ve] after a command's flag or its user is
// prose about the command, not a password: "ipmitool -P is insecure",
// "vsce publish -p takes a token", "the net user command lists accounts".
func commandProse(s string, vs, ve int) bool {
	if vs == 0 || isQuote(s[vs-1]) || ve < len(s) && isQuote(s[ve]) {
		return false
	}
	w := strings.ToLower(s[vs:ve])
	return isFunctionWord(w) || labelProse(s[vs:ve], s[ve:lineEnd(s, ve)]) ||
		inList(" flag option argument arguments parameter switch setting value command takes needs requires expects accepts lists shows prints sets reads gives asks prompts ", w)
}

// findStdinPassword: \b(?:echo[ \t]+(?:-[ne]+[ \t]+)?|yes[ \t]+(?:-[ne]+[ \t]+)?|printf[ \t]+(?:-[ne]+[ \t]+|--[ \t]+)?(?:FORMAT[ \t]+)?)(?:"([^"\n]+)"|'([^'\n]+)'|([^\s"'|]+))[ \t]*\|STDIN
//
// A password echoed into a command that reads it from its input (docker,
// podman and helm login, oras, skopeo take --password-stdin, gh auth login
// --with-token, sudo -S; STDIN is stdinFlag's expression): echo PW |
// docker login -u ada --password-stdin. The value is the echo's one word,
// quoted or bare, after printf's format if it has one (printf '%s\n' PW;
// FORMAT is printfFormat's expression); echo $PW (a reference) is left to
// commandValue.
func findStdinPassword(s string, pos int) []int {
	for i := pos; i < len(s); i++ {
		w := 0
		switch {
		case !wordStart(s, i):
			continue
		case hasAt(s, i, "echo"):
			w = 4
		case hasAt(s, i, "printf"):
			w = 6
		case hasAt(s, i, "yes"):
			w = 3 // yes PW | passwd ada
		default:
			continue
		}
		b := runEnd(s, i+w, isBlank)
		if b == i+w {
			continue
		}
		// (?:-[ne]+[ \t]+)? takes "-n ", "-e ", "-ne " when the rest then
		// matches, else not (printf's "-- " too); printf's format the same
		// after it.
		f := runEnd(s, b+1, func(c byte) bool { return c == 'n' || c == 'e' })
		if w == 6 && hasAt(s, b, "--") {
			f = b + 2
		}
		if hasAt(s, b, "-") && f > b+1 {
			if n := runEnd(s, f, isBlank); n > f {
				if m := stdinAfterFormat(s, i, n, w == 6); m != nil {
					return m
				}
			}
		}
		if m := stdinAfterFormat(s, i, b, w == 6); m != nil {
			return m
		}
	}
	return nil
}

// stdinAfterFormat is stdinPipe after printf's format at s[v:], when
// printf has one there and the rest then matches, else at s[v:].
func stdinAfterFormat(s string, i, v int, printf bool) []int {
	if f := printfFormat(s, v); printf && f >= 0 {
		if m := stdinPipe(s, i, f); m != nil {
			return m
		}
	}
	return stdinPipe(s, i, v)
}

// printfFormat is the end of (?:"%s[^"\n]*"|'%s[^'\n]*'|%s[^\s"'|]*)[ \t]+
// at s[v:], a format that prints the next word first ('%s\n'), -1 when none
// is there.
func printfFormat(s string, v int) int {
	e := -1
	switch {
	case v < len(s) && isQuote(s[v]) && hasAt(s, v+1, "%s"):
		if k := strings.IndexAny(s[v+3:], "\n"+s[v:v+1]); k >= 0 && s[v+3+k] == s[v] {
			e = v + 3 + k + 1
		}
	case hasAt(s, v, "%s"):
		e = runEnd(s, v+2, func(c byte) bool { return isBareShell(c) && c != '|' })
	}
	return blanks(s, e)
}

// stdinPipe reads, from the echo at s[i:] and its value at s[v:], the rest
// of findStdinPassword's expression: its match, or nil.
func stdinPipe(s string, i, v int) []int {
	var g, vs, ve, end int
	if v < len(s) && isQuote(s[v]) {
		k := v + 1
		for k < len(s) && s[k] != s[v] && s[k] != '\n' {
			k++
		}
		if k == v+1 || k == len(s) || s[k] != s[v] {
			return nil
		}
		g, vs, ve, end = boolInt(s[v] == '\''), v+1, k, k+1
	} else {
		if ve = runEnd(s, v, func(c byte) bool { return isBareShell(c) && c != '|' }); ve == v {
			return nil
		}
		g, vs, end = 2, v, ve
	}
	p := runEnd(s, end, isBlank)
	if p == len(s) || s[p] != '|' {
		return nil
	}
	e := stdinFlag(s, p+1)
	if e < 0 {
		return nil
	}
	return groupOf(i, e, 3, g, vs, ve)
}

// stdinFlag reads, at s[j:] after a pipe or before a here-string, a
// command that reads a password from its input:
// (?:[^\n;|&]*?[ \t]--(?:password-stdin|with-token)\b|[ \t]*sudo[ \t]SUDOSTDIN|[ \t]*(?:sudo[ \t]+)?(?:chpasswd\b|passwd[ \t]+--stdin\b))
// (docker login --password-stdin, gh auth login --with-token, sudo -S,
// chpasswd's user:password lines, passwd --stdin): where it ends, -1 for
// none.
func stdinFlag(s string, j int) int {
	seg := j
	for seg < len(s) && strings.IndexByte("\n;|&", s[seg]) < 0 {
		seg++
	}
	for k := j; k < seg; k++ {
		if isBlank(s[k]) {
			if e := stdinLong(s, k+1); e >= 0 {
				return e
			}
		}
	}
	k := runEnd(s, j, isBlank)
	if !sudoAt(s, k) {
		return chpasswdAt(s, k)
	}
	if e := stdinCluster(s, k+5); e >= 0 {
		return e
	}
	// (?:…[ \t])? prefers to take something: a flag after the first word
	// after sudo, the first such; only then the one right after sudo.
	for c := k + 6; c < seg; c++ {
		if isBlank(s[c-1]) {
			if e := stdinExact(s, c); e >= 0 {
				return e
			}
		}
	}
	if e := stdinExact(s, k+5); e >= 0 {
		return e
	}
	return chpasswdAt(s, runEnd(s, k+4, isBlank))
}

// stdinValue is commandValue for findStdinPassword's value; chpasswd reads
// user:password, and the user stays.
func stdinValue(s string, m []int) (int, int, int, int, bool) {
	vs, ve, ws, we, ok := commandValue(s, m)
	if k := strings.IndexByte(s[vs:ve], ':'); ok && k >= 0 && k+1 < ve-vs && strings.Contains(s[m[0]:m[1]], "chpasswd") {
		vs += k + 1
		if strings.HasSuffix(s[vs:ve], `\n`) && ve-vs > 2 {
			ve -= 2 // printf 'ada:PW\n' | chpasswd
		}
		if v := s[vs:ve]; v[0] == '$' && isName(strings.Trim(v[1:], "{}")) || strings.HasPrefix(v, "$(") {
			return 0, 0, 0, 0, false // echo "ada:$PW" | chpasswd
		}
	}
	if ok && ve-vs < 4 {
		return 0, 0, 0, 0, false // an answer, not a password: yes y | passwd -l ada
	}
	return vs, ve, ws, we, ok
}

// chpasswdAt is the end of (?:chpasswd\b|passwd[ \t]+--stdin\b) at s[k:],
// -1 for none.
func chpasswdAt(s string, k int) int {
	if e := k + len("chpasswd"); hasAt(s, k, "chpasswd") && (e == len(s) || !isWord(s[e])) {
		return e
	}
	if e := k + len("passwd"); hasAt(s, k, "passwd") && (e == len(s) || !isWord(s[e])) {
		if f := blanks(s, e); f >= 0 {
			if g := flagAt(s, f, "--stdin"); g >= 0 {
				return g
			}
		}
		return e // echo -e "PW\nPW" | passwd ada
	}
	return storeStdin(s, k)
}

// storeStdin is where a secret store's command that reads the secret from
// its input ends at s[k:] (echo X | gh secret set NAME, vercel env add
// NAME <<< X: h-v99 b4): (?:gh[ \t]+secret[ \t]+set|wrangler[ \t]+secret[ \t]+put|vercel[ \t]+env[ \t]+add|gcloud[ \t]+secrets[ \t]+(?:versions[ \t]+add|create))\b;
// -1 for none.
func storeStdin(s string, k int) int {
	for _, c := range [...][]string{{"gh", "secret", "set"}, {"wrangler", "secret", "put"}, {"vercel", "env", "add"}, {"gcloud", "secrets", "versions", "add"}, {"gcloud", "secrets", "create"}} {
		if !hasAt(s, k, c[0]) {
			continue
		}
		if e := words(s, k+len(c[0]), c[1:]...); e >= 0 && (e == len(s) || !isWord(s[e])) {
			return e
		}
	}
	return -1
}

// SUDOSTDIN is sudo's flag that reads the password from its input: right
// after sudo, its options clustered (-S, -kS, -Sk); anywhere on the line,
// -S or --stdin alone (a command's own -Syu or -lS is not sudo's):
// (?:-[A-Za-z]*S[A-Za-z]*\b|(?:[^\n;|&]*?[ \t])?(?:-S|--stdin)\b) after
// "sudo[ \t]".

// stdinCluster is the end of -[A-Za-z]*S[A-Za-z]*\b at s[c:], -1 for none.
func stdinCluster(s string, c int) int {
	if !hasAt(s, c, "-") {
		return -1
	}
	l := runEnd(s, c+1, isLetter)
	if strings.IndexByte(s[c+1:l], 'S') < 0 || l < len(s) && isWord(s[l]) {
		return -1
	}
	return l
}

// stdinExact is the end of (?:-S|--stdin)\b at s[c:], -1 for none.
func stdinExact(s string, c int) int { return flagAt(s, c, "-S", "--stdin") }

// stdinLong is the end of --(?:password-stdin|with-token)\b at s[c:], -1
// for none.
func stdinLong(s string, c int) int { return flagAt(s, c, "--password-stdin", "--with-token") }

// flagAt is the end of the first of flags at s[c:] that a word boundary
// ends, -1 for none.
func flagAt(s string, c int, flags ...string) int {
	for _, f := range flags {
		if e := c + len(f); hasAt(s, c, f) && (e == len(s) || !isWord(s[e])) {
			return e
		}
	}
	return -1
}

// sudoAt reports \bsudo[ \t] at s[i:].
func sudoAt(s string, i int) bool {
	return hasAt(s, i, "sudo") && wordStart(s, i) && i+4 < len(s) && isBlank(s[i+4])
}

// findHereString: (?:--(?:password-stdin|with-token)\b|\bsudo[ \t]SUDOSTDIN|\bchpasswd\b|\bSTORE\b)[^\n;|&<]*?<<<[ \t]*(?:"([^"\n]+)"|'([^'\n]+)'|([^\s"']+))
//
// A password given as a here-string to a command that reads it from its
// input (STORE storeStdin's commands too): docker login --password-stdin <<< PW, gh auth login --with-token
// <<< T, sudo -S <<< PW. The value is the here-string's one word, quoted or
// bare.
//
// Nothing of a match crosses [\n;|&<] before its "<<<", so the text is read
// a run of other bytes at a time, each once: a run that ends at "<<<" with
// a value after it matches at its first flag, if it holds one (a sudo's
// -S is the first one after that sudo; none after the first sudo, none
// after any later one).
func findHereString(s string, pos int) []int {
	var ends valueEnds
	for a := pos; a < len(s); {
		b := a
		for b < len(s) && strings.IndexByte("\n;|&<", s[b]) < 0 {
			b++
		}
		if hasAt(s, b, "<<<") {
			if i := hereFlag(s, a, b); i >= 0 {
				if g, vs, ve, end := ends.value(s, runEnd(s, b+3, isBlank)); g >= 0 {
					return groupOf(i, end, 3, g, vs, ve)
				}
			}
		}
		a = b + 1
	}
	return nil
}

// valueEnds reads shellValue's (?:"([^"\n]+)"|'([^'\n]+)'|([^\s"']+)) with
// no separator, remembering where the last run of each kind ended: a value
// read from inside that run ends there too, so a text of thousands of
// here-strings with no blank ("--with-token<<<--with-token<<<…") is read
// once, not once per here-string.
type valueEnds struct{ from, to [3]int }

func (m *valueEnds) value(s string, v int) (g, vs, ve, end int) {
	if v >= len(s) {
		return -1, 0, 0, 0
	}
	k := 2
	switch s[v] {
	case '"':
		k = 0
	case '\'':
		k = 1
	}
	start := v
	if k < 2 {
		start++
	}
	e := m.to[k]
	if !(start > m.from[k] && start <= e && e > 0) {
		stop := func(c byte) bool { return c != s[v] && c != '\n' }
		if k == 2 {
			stop = isBareShell
		}
		e = runEnd(s, start, stop)
		m.from[k], m.to[k] = start, e
	}
	if e == start || k < 2 && (e == len(s) || s[e] != s[v]) {
		return -1, 0, 0, 0
	}
	if k < 2 {
		return k, start, e, e + 1
	}
	return 2, v, e, e
}

// hereFlag is where the first flag of findHereString starts in s[a:b], a
// run of no [\n;|&<], -1 for none: the first --password-stdin or
// --with-token, or the first sudo that takes the password from its input
// (SUDOSTDIN: its options clustered right after it, -S or --stdin anywhere
// after it), whichever comes first. The first sudo takes any -S after it;
// a later one only its own cluster.
func hereFlag(s string, a, b int) int {
	first, cluster, flag := -1, -1, -1
	firstTakes := false
	for i := a; i < b; i++ {
		// Neither holds a separator: one that starts in the run ends in it.
		if flag < 0 && (stdinLong(s, i) >= 0 || wordStart(s, i) && (hasAt(s, i, "chpasswd") && chpasswdAt(s, i) == i+len("chpasswd") || storeStdin(s, i) >= 0)) {
			flag = i // chpasswd <<< 'ada:PW', vercel env add NAME <<< X too
		}
		if sudoAt(s, i) {
			if first < 0 {
				first = i
			}
			if cluster < 0 && stdinCluster(s, i+5) >= 0 {
				cluster = i
			}
		}
		if first >= 0 && !firstTakes && i >= first+5 && isBlank(s[i-1]) && stdinExact(s, i) >= 0 {
			firstTakes = true
		}
	}
	if firstTakes {
		cluster = first
	}
	switch {
	case flag < 0:
		return cluster
	case cluster < 0:
		return flag
	}
	return min(flag, cluster)
}

// findConfigSet: \b(?:npm|yarn|pnpm|git|aws|gh|pip|poetry|composer|bundle|conda)[ \t]+config(?:ure)?(?:[ \t]+(?:set|-\S*))*[ \t]+\S*?LABEL["']?[ \t]+(?:"([^"\n]+)"|'([^'\n]+)'|([^\s"'|&<>;][^\s"']*))
//
// A secret set by a tool's config command, its key a word that ends like a
// label (secretLabel), after "set" and flags: npm config set
// //registry.npmjs.org/:_authToken T, aws configure set
// aws_secret_access_key V, git config --global github.token T. The words
// "set" and the flags are skipped greedily; when the word after them is no
// label, fewer are (a flag may be the key), as the expression backtracks.
func findConfigSet(s string, pos int) []int {
	for i := pos; ; i++ {
		k := strings.Index(s[i:], "config")
		if k < 0 {
			return nil
		}
		i += k
		t := configTool(s, i)
		if t < 0 {
			continue
		}
		e := i + len("config")
		if hasAt(s, e, "ure") {
			e += 3
		}
		// The words after it: starts[j] is where word j starts; the first
		// len(starts)-1 may be skipped ("set" or a flag).
		var starts []int
		for w := blanks(s, e); w >= 0 && w < len(s); {
			starts = append(starts, w)
			we := runEnd(s, w, func(c byte) bool { return !isSpace(c) })
			if !(we-w == 3 && hasAt(s, w, "set") || s[w] == '-') || len(starts) > 64 {
				break
			}
			w = blanks(s, we)
		}
		for j := len(starts) - 1; j >= 0; j-- {
			if m := configValue(s, t, starts[j]); m != nil {
				return m
			}
		}
	}
}

// configTool is where the tool's name before the word "config" at s[i:]
// starts (npm config, aws configure), -1 when none is.
func configTool(s string, i int) int {
	b := i
	for b > 0 && isBlank(s[b-1]) {
		b--
	}
	if b == i {
		return -1
	}
	a := b
	for a > 0 && isWord(s[a-1]) {
		a--
	}
	switch s[a:b] {
	case "npm", "yarn", "pnpm", "git", "aws", "gh", "pip", "poetry", "composer", "bundle", "conda":
		return a
	}
	return -1
}

// configValue reads a key that ends like a label at s[k:] (a quote after it
// allowed), blanks and a value: the match from t, or nil.
func configValue(s string, t, k int) []int {
	ke := runEnd(s, k, func(c byte) bool { return !isSpace(c) })
	le := ke
	if le > k && isQuote(s[le-1]) {
		le--
	}
	if !secretLabel(s, k, le) && !(le < ke && secretLabel(s, k, ke)) {
		return nil
	}
	v := blanks(s, ke)
	if v < 0 {
		return nil
	}
	// A bare value is no shell operator: git config --get KEY | cat reads.
	g, vs, ve, end := shellValue(s, v, 0)
	if g < 0 || g == 2 && strings.IndexByte("|&<>;", s[vs]) >= 0 {
		return nil
	}
	return groupOf(t, end, 3, g, vs, ve)
}

// findTelegramToken: (?:\b|\bbot)([0-9]{8,10}:AA[A-Za-z0-9_\-]{33})\b
//
// A bot's id, then its secret: 35 characters that start with AA; alone or
// in the Bot API's path (/bot123…:AA…/sendMessage).
func findTelegramToken(s string, pos int) []int {
	for b := pos; ; {
		k := strings.Index(s[b:], ":AA")
		if k < 0 {
			return nil
		}
		k += b
		b = k + 1
		d := k
		for d > 0 && s[d-1] >= '0' && s[d-1] <= '9' {
			d--
		}
		start := d
		if !wordStart(s, d) && d >= 3 && hasAt(s, d-3, "bot") && wordStart(s, d-3) {
			start = d - 3 // the Bot API's path: api.telegram.org/bot123…:AA…/sendMessage
		}
		if k-d < 8 || k-d > 10 || start < pos || !wordStart(s, start) {
			continue
		}
		if e := exactly(s, k+3, isToken, 33); e >= 0 && (isWord(s[e-1]) != (e < len(s) && isWord(s[e]))) {
			return group1(start, e, d, e)
		}
	}
}

// configTokens are the settings poetry and composer keep a token in, its
// host or repository after the prefix.
var configTokens = [...]string{"pypi-token.", "github-oauth.", "gitlab-token.", "gitlab-oauth.", "bearer."}

// findStoreSecret: (?:STORE\b[^\n;|&]*?[ \t](?:-b[ \t]*|(?:--body|--value|--secret-string)(?:[ \t]+|=))|\bdoppler[ \t]+secrets[ \t]+set[ \t]+[A-Za-z_][A-Za-z0-9_]*[ \t]+|\bnetlify[ \t]+env:set[ \t]+[A-Za-z_][A-Za-z0-9_]*[ \t]+|\bpulumi[ \t]+config[ \t]+set(?:[ \t]+--path)?[ \t]+--secret(?:[ \t]+--path)?[ \t]+(?:"[^"\n]*"|'[^'\n]*'|[^\s"'-][^\s"']*)[ \t]+|\bdotnet[ \t]+user-secrets[ \t]+set[ \t]+(?:"[^"\n]*"|[^\s"']+)[ \t]+|\brabbitmqctl[ \t]+(?:add_user|change_password)[ \t]+[^\s"']+[ \t]+|\bCONVERTTO-SECURESTRING[ \t]+(?:-STRING[ \t]+)?|POSITIONAL)(?:"([^"\n]+)"|'([^'\n]+)'|([^\s"']+))
// with STORE \b(?:gh[ \t]+secret[ \t]+set|az[ \t]+keyvault[ \t]+secret[ \t]+set|aws[ \t]+secretsmanager[ \t]+(?:create-secret|put-secret-value|update-secret)|aws[ \t]+ssm[ \t]+put-parameter)
// and PowerShell's words in any ASCII case, and POSITIONAL
// \bmc(?:li)?[ \t]+(?:(?:alias[ \t]+set|config[ \t]+host[ \t]+add)(?:[ \t]+ARG){3}|admin[ \t]+user[ \t]+add(?:[ \t]+ARG){2})[ \t]+|\b(?:poetry|composer(?:\.phar)?(?:[ \t]+global)?)[ \t]+config(?:[ \t]+-[^\s"']*)*[ \t]+(?:http-basic\.[^\s"']+[ \t]+ARG|(?:pypi-token|github-oauth|gitlab-token|gitlab-oauth|bearer)\.[^\s"']+)[ \t]+|\bNET(?:\.EXE)?[ \t]+USER(?:[ \t]+/[^\s"']*)*[ \t]+USER[ \t]+|\bNUGET(?:\.EXE)?[ \t]+SETAPIKEY[ \t]+
// with ARG (?:"[^"\n]*"|'[^'\n]*'|[^\s"']+) (bareWords) and USER an ARG
// that does not start with '/' (a switch)
//
// A secret given to a secret store's command: gh secret set NAME --body V,
// az keyvault secret set … --value V, aws secretsmanager create-secret …
// --secret-string V, doppler secrets set NAME V, pulumi config set --secret
// KEY V, dotnet user-secrets set
// KEY V, rabbitmqctl add_user USER V, ConvertTo-SecureString "V"
// -AsPlainText, mc alias set NAME URL ACCESS V (mc admin user add ALIAS
// USER V), poetry config http-basic.REPO USER V (pypi-token.REPO V), net
// user USER V, nuget setapikey V. A flag the rest of a line lacks after one store's command,
// it lacks after a later one's: the search stays linear.
func findStoreSecret(s string, pos int) []int {
	noFlag := -1
	for i := pos; i < len(s); i++ {
		if !isWord(s[i]) || !wordStart(s, i) {
			continue
		}
		v := -1
		if e := storeCommand(s, i); e >= 0 {
			if i < noFlag {
				continue
			}
			j := e
			for ; j < len(s) && strings.IndexByte("\n;|&", s[j]) < 0; j++ {
				if isBlank(s[j]) {
					if f := storeFlag(s, j+1); f >= 0 {
						if g, vs, ve, end := shellValue(s, f, 0); g >= 0 {
							return groupOf(i, end, 3, g, vs, ve)
						}
					}
				}
			}
			noFlag = j
			continue
		}
		switch {
		case hasAt(s, i, "doppler"):
			v = afterName(s, words(s, i+7, "secrets", "set"))
		case hasAt(s, i, "netlify"):
			v = afterName(s, words(s, i+7, "env:set"))
		case hasAt(s, i, "pulumi"):
			v = pulumiSecret(s, i+6)
		case hasAt(s, i, "dotnet"):
			// KEY: "[^"\n]*" or [^\s"']+
			if k := blanks(s, words(s, i+6, "user-secrets", "set")); k >= 0 {
				if s[k] == '"' {
					if q := strings.IndexAny(s[k+1:], "\"\n"); q >= 0 && s[k+1+q] == '"' {
						v = blanks(s, k+2+q)
					}
				} else if e := runEnd(s, k, isBareShell); e > k {
					v = blanks(s, e)
				}
			}
		case hasAt(s, i, "rabbitmqctl"):
			if k := blanks(s, i+11); k >= 0 {
				if u := blanks(s, flagAt(s, k, "add_user", "change_password")); u >= 0 {
					if e := runEnd(s, u, isBareShell); e > u {
						v = blanks(s, e)
					}
				}
			}
		case hasAt(s, i, "mc"):
			n := i + 2
			if hasAt(s, n, "li") {
				n += 2 // mcli, Debian's name for it
			}
			if e := words(s, n, "alias", "set"); e >= 0 {
				v = blanks(s, bareWords(s, e, 3))
			} else if e := words(s, n, "config", "host", "add"); e >= 0 {
				v = blanks(s, bareWords(s, e, 3))
			} else if e := words(s, n, "admin", "user", "add"); e >= 0 {
				v = blanks(s, bareWords(s, e, 2))
			}
		case hasAt(s, i, "poetry"), hasAt(s, i, "composer"):
			n := i + len("poetry")
			if s[i] == 'c' {
				n = i + len("composer")
				if hasAt(s, n, ".phar") {
					n += len(".phar") // php composer.phar config …
				}
				if g := words(s, n, "global"); g >= 0 && words(s, g, "config") >= 0 {
					n = g // composer global config …
				}
			}
			if k := blanks(s, words(s, n, "config")); k >= 0 {
				for k >= 0 && k < len(s) && s[k] == '-' { // flags: --local, -g
					k = blanks(s, runEnd(s, k, isBareShell))
				}
				if k < 0 {
					break
				}
				// http-basic.REPO USER V, pypi-token.REPO V (composer's
				// github-oauth.HOST V…): REPO's first byte after the prefix.
				if r := k + len("http-basic."); hasAt(s, k, "http-basic.") && r < len(s) && isBareShell(s[r]) {
					v = blanks(s, bareWords(s, runEnd(s, r, isBareShell), 1))
				}
				for _, p := range configTokens {
					if r := k + len(p); hasAt(s, k, p) && r < len(s) && isBareShell(s[r]) {
						v = blanks(s, runEnd(s, r, isBareShell))
					}
				}
			}
		case text.HasFoldPrefix(s[i:], "net"):
			// NET USER, net.exe user, in any case.
			if u := blanks(s, exeEnd(s, i+3)); u >= 0 && text.HasFoldPrefix(s[u:], "user") {
				k, _ := switches(s, u+4) // its switches first: net user /add ada PW
				if b := blanks(s, k); b >= 0 && b < len(s) && s[b] != '/' {
					v = blanks(s, bareWords(s, k, 1))
				}
			} else if u >= 0 && text.HasFoldPrefix(s[u:], "use") && u+3 < len(s) && isBlank(s[u+3]) {
				v = netUse(s, u+3) // net use Z: \\fs01\share PW /user:ada
			}
		case text.HasFoldPrefix(s[i:], "nuget"):
			if k := blanks(s, exeEnd(s, i+5)); k >= 0 && text.HasFoldPrefix(s[k:], "setapikey") {
				v = blanks(s, k+len("setapikey"))
			}
		case text.HasFoldPrefix(s[i:], "convertto-securestring"):
			if v = blanks(s, i+22); v >= 0 && text.HasFoldPrefix(s[v:], "-string") {
				if k := blanks(s, v+7); k >= 0 {
					if g, _, _, _ := shellValue(s, k, 0); g >= 0 {
						v = k // -String names the value only when one follows it
					}
				}
			}
		}
		if v >= 0 {
			if g, vs, ve, end := shellValue(s, v, 0); g >= 0 {
				return groupOf(i, end, 3, g, vs, ve)
			}
		}
	}
	return nil
}

// exeEnd is the end of a Windows command's name ending at n, past its
// ".exe" (any case) if it has one.
func exeEnd(s string, n int) int {
	if text.HasFoldPrefix(s[n:], ".exe") {
		return n + 4
	}
	return n
}

// bareWords is the end of n arguments (?:[ \t]+(?:"[^"\n]*"|'[^'\n]*'|[^\s"']+)){n}
// at s[i:], -1 for none (i < 0 too).
func bareWords(s string, i, n int) int {
	for ; n > 0 && i >= 0; n-- {
		if i = blanks(s, i); i < 0 || i == len(s) {
			return -1
		}
		if isQuote(s[i]) {
			if e := strings.IndexAny(s[i+1:], s[i:i+1]+"\n"); e >= 0 && s[i+1+e] == s[i] {
				i += e + 2
			} else {
				i = -1
			}
		} else if e := runEnd(s, i, isBareShell); e > i {
			i = e
		} else {
			i = -1
		}
	}
	return i
}

// netUse is where the password of net use starts after "use" at s[k:],
// -1 for none: (?:[ \t]+[A-Za-z]:)?[ \t]+\\\\[^\s"']*(?:[ \t]+/[^\s"']*)*[ \t]+
// before findStoreSecret's value; a switch is the value only when no other
// word follows them, as the expression backtracks (and storeValue keeps no
// switch).
func netUse(s string, k int) int {
	if d := blanks(s, k); d >= 0 && d+1 < len(s) && isLetter(s[d]) && s[d+1] == ':' && blanks(s, d+2) >= 0 {
		k = d + 2 // the drive
	}
	b := blanks(s, k)
	if !hasAt(s, b, `\\`) {
		return -1
	}
	k, last := switches(s, runEnd(s, b, isBareShell))
	if b := blanks(s, k); b >= 0 {
		if g, _, _, _ := shellValue(s, b, 0); g >= 0 {
			return b
		}
	}
	return last
}

// switches skips a Windows command's /switches, each after blanks, at
// s[k:]: where the last ends (k when there are none) and where it starts
// (-1 for none).
func switches(s string, k int) (end, last int) {
	last = -1
	for b := blanks(s, k); hasAt(s, b, "/"); b = blanks(s, k) {
		last, k = b, runEnd(s, b, isBareShell)
	}
	return k, last
}

// afterName is where the value starts after blanks, a NAME
// ([A-Za-z_][A-Za-z0-9_]*) and blanks at s[e:] (doppler secrets set NAME V,
// netlify env:set NAME V), -1 for none (e < 0 too).
func afterName(s string, e int) int {
	if n := blanks(s, e); n >= 0 && n < len(s) && (isLetter(s[n]) || s[n] == '_') {
		return blanks(s, runEnd(s, n, isWord))
	}
	return -1
}

// pulumiSecret is where the value starts after "pulumi" at s[:k]:
// [ \t]+config[ \t]+set(?:[ \t]+--path)?[ \t]+--secret(?:[ \t]+--path)?[ \t]+KEY[ \t]+
// with KEY (?:"[^"\n]*"|'[^'\n]*'|[^\s"'-][^\s"']*); -1 when there is none.
func pulumiSecret(s string, k int) int {
	path := func(k int) int {
		if p := words(s, k, "--path"); p >= 0 && blanks(s, p) >= 0 {
			return p
		}
		return k
	}
	if k = words(s, path(words(s, k, "config", "set")), "--secret"); k < 0 || blanks(s, k) < 0 {
		return -1
	}
	if b := blanks(s, path(k)); b >= 0 && b < len(s) && s[b] != '-' {
		return blanks(s, bareWords(s, path(k), 1))
	}
	return -1
}

// storeValue is commandValue for a secret store's command, which also
// takes a file (@secret.txt, file://creds.json), PowerShell's reference to
// the environment ($env:PW) or a subexpression ((Get-Content pw.txt)), and
// is written of in prose ("gh secret set takes --body or stdin"); net
// user's "*" prompts for the password and its /add is a switch.
func storeValue(s string, m []int) (int, int, int, int, bool) {
	vs, ve := firstGroup(m)
	v := s[vs:ve]
	if v[0] == '@' || v[0] == '(' || strings.HasPrefix(v, "file://") || strings.HasPrefix(v, "fileb://") || text.HasFoldPrefix(v, "$env:") ||
		m[6] >= 0 && (isFunctionWord(strings.ToLower(v)) || v == "*" || v[0] == '/') {
		return 0, 0, 0, 0, false
	}
	return lineCommandValue(s, m)
}

// storeCommand is where STORE\b (findStoreSecret) at s[i:] ends, -1 for
// none.
func storeCommand(s string, i int) int {
	e := -1
	switch {
	case hasAt(s, i, "gh"):
		e = words(s, i+2, "secret", "set")
	case hasAt(s, i, "az"):
		e = words(s, i+2, "keyvault", "secret", "set")
	case hasAt(s, i, "aws"):
		if k := blanks(s, words(s, i+3, "secretsmanager")); k >= 0 {
			e = flagAt(s, k, "create-secret", "put-secret-value", "update-secret")
		} else if k := blanks(s, words(s, i+3, "ssm")); k >= 0 {
			e = flagAt(s, k, "put-parameter") // --value (h-v99 b4)
		}
	}
	if e >= 0 && e < len(s) && isWord(s[e]) {
		return -1
	}
	return e
}

// words is the end of [ \t]+w1[ \t]+w2… at s[i:], -1 for none (i < 0
// too).
func words(s string, i int, ws ...string) int {
	for _, w := range ws {
		if i = blanks(s, i); i < 0 || !hasAt(s, i, w) {
			return -1
		}
		i += len(w)
	}
	return i
}

// storeFlag is where the value of a store's flag at s[j:] starts:
// -b[ \t]* or (?:--body|--value|--secret-string)(?:[ \t]+|=); -1 for none.
func storeFlag(s string, j int) int {
	if hasAt(s, j, "-b") {
		return runEnd(s, j+2, isBlank)
	}
	for _, f := range [...]string{"--body", "--value", "--secret-string"} {
		if hasAt(s, j, f) {
			if k := j + len(f); hasAt(s, k, "=") {
				return k + 1
			} else if b := blanks(s, k); b >= 0 {
				return b
			}
		}
	}
	return -1
}

// findFlagSecret: (?:^|\s)--(?:(?:[a-z0-9]+[-_])*(?:password|passwd|passphrase|pass|token|api-key|api_key|apikey|secret|secret-key|private-key|private_key|key)|[a-z][a-z0-9]*(?:Token|Password|Secret|ApiKey))[ \t]+(?:"([^"\n]+)"|'([^'\n]+)'|([^\s"']+))
//
// Any command's long flag that names a secret, its value after a blank:
// kubectl --token T, vault --client-secret S, a tool's --db-password P,
// --app-secret S, --ks-pass P, --apiToken T (with "=" the label's pattern
// reads it; --password-file names a file); any other key's, --account-key
// K, --master-key K, when its value looks made at random (flagValue).
func findFlagSecret(s string, pos int) []int {
	for i := pos; i+1 < len(s); i++ {
		if s[i] != '-' || s[i+1] != '-' || i > 0 && (!isSpace(s[i-1]) || i-1 < pos) {
			continue
		}
		e := runEnd(s, i+2, func(c byte) bool { return isAlnum(c) || c == '-' || c == '_' })
		v := blanks(s, e)
		if !secretFlag(s[i+2:e]) || v < 0 {
			i = max(i, e-1)
			continue
		}
		if g, vs, ve, end := shellValue(s, v, 0); g >= 0 {
			return groupOf(max(i-1, 0), end, 3, g, vs, ve)
		}
		i = max(i, e-1)
	}
	return nil
}

// secretFlag: a long flag's name (after "--") names a secret, as
// findFlagSecret's expression reads it: words of small letters and digits
// each ended by "-" or "_" and a secret's word last, or a camel-cased name
// that ends in one (apiToken).
func secretFlag(name string) bool {
	for _, w := range [...]string{"password", "passwd", "passphrase", "pass", "token", "api-key", "api_key", "apikey", "secret", "secret-key", "private-key", "private_key", "key"} {
		if p := len(name) - len(w); p >= 0 && name[p:] == w && segments(name[:p]) {
			return true
		}
	}
	for _, w := range [...]string{"Token", "Password", "Secret", "ApiKey"} {
		if p := len(name) - len(w); p > 0 && name[p:] == w && name[0] >= 'a' && name[0] <= 'z' &&
			strings.Trim(name[:p], "abcdefghijklmnopqrstuvwxyz0123456789") == "" {
			return true
		}
	}
	return false
}

// flagValue is commandValue for findFlagSecret's value, a bare one cut
// where the shell would end the word: a redirect, a pipe, a ";" or an "&"
// glued to it (--password X<<EOF, --token T;echo).
func flagValue(s string, m []int) (int, int, int, int, bool) {
	vs, ve, ws, we, ok := commandValue(s, m)
	if !ok {
		return 0, 0, 0, 0, false
	}
	// pulumi config set --secret KEY V: a switch, then the key's name. The
	// line's start is looked for in the 8 KiB before the match: past that,
	// from the match (h-v99 a1: a slice from after vs panicked the core).
	if ls := lineStart(s, m[0]); ls <= vs {
		if f := strings.Fields(s[ls:vs]); len(f) >= 4 && f[len(f)-1] == "--secret" && slices.Contains(f, "pulumi") {
			return 0, 0, 0, 0, false
		}
	}
	if ok && m[6] >= 0 {
		if k := strings.IndexAny(s[vs:ve], "<>;|&"); k == 0 {
			return 0, 0, 0, 0, false
		} else if k > 0 {
			ve = vs + k
		}
		// Prose names the flag: "the --token flag takes …", "the
		// --password option"; a file (--private-key ~/.ssh/id_rsa) or a
		// spec of keys and values (docker build --secret id=npm,src=.npmrc).
		if w := strings.ToLower(s[vs:ve]); isFunctionWord(w) || labelProse(w, s[ve:lineEnd(s, ve)]) ||
			inList(" flag option argument parameter switch setting directive value field ", w) ||
			isPath(w) || keyFile(w) || strings.HasPrefix(w, "~") || specPair(w) {
			return 0, 0, 0, 0, false
		}
	}
	// A key's flag that names no secret's word (--account-key,
	// --master-key, --sort-key): a value that looks made at random
	// (h-v101 b1).
	if f, _, _ := strings.Cut(strings.TrimLeft(s[m[0]:vs], " \t\r\n"), " "); strings.HasSuffix(strings.TrimRight(f, "\t"), "key") && !strings.HasSuffix(f, "api-key") && !strings.HasSuffix(f, "api_key") &&
		!strings.HasSuffix(f, "apikey") && !strings.HasSuffix(f, "secret-key") && !strings.HasSuffix(f, "private-key") && !strings.HasSuffix(f, "private_key") && !randomKey(s[vs:ve]) {
		return 0, 0, 0, 0, false
	}
	return vs, ve, ws, we, ok
}

// specPair: w starts with a small word and "=" and then goes on (id=npm,src=…).
func specPair(w string) bool {
	k := strings.IndexByte(w, '=')
	return k > 0 && k+1 < len(w) && w[k+1] != '=' && strings.Trim(w[:k], "abcdefghijklmnopqrstuvwxyz") == ""
}

// segments: p is (?:[a-z0-9]+[-_])*, words of small letters and digits
// each ended by "-" or "_".
func segments(p string) bool {
	for p != "" {
		k := strings.IndexAny(p, "-_")
		if k <= 0 || strings.Trim(p[:k], "abcdefghijklmnopqrstuvwxyz0123456789") != "" {
			return false
		}
		p = p[k+1:]
	}
	return true
}
