package redact

import "strings"

// Passwords given to a command on its command line, as a person pastes the
// line into a note or a chat: mysql's -pPW glued to its flag (7z's too),
// curl's -u user:PW, sshpass -p PW (mongo's too), docker login -p PW (az
// login, helm registry login), zip's and sqlcmd's -P PW, redis-cli -a PW.
// The flag alone is not a secret (mysql -p prompts, curl -u user asks for the
// password, ssh -p 22 is a port, docker run -p 8080:80 publishes one), nor is
// a value that names where the password lives ($MYSQL_PWD, "$(cat pw.txt)"),
// nor the next flag after a flag whose value is optional (mongo -p --quiet).
//
// findCommandPassword: (?:MYSQL|SSHPASS|CURL|LOGIN|ZIP|REDIS), each CMD[^\n;|&]*?[ \t]FLAG
// VALUE (written out in expressions_test.go): a flag anywhere on the rest of
// the command (up to a newline, ';', '|' or '&'), the first whose value
// reads; the value is (?:"([^"\n]+)"|'([^'\n]+)'|([^\s"']+)), a quoted or a
// bare word (its group is the secret), and for curl what follows the first
// ':' of user:password. Only one command starts at a word, so the
// alternatives never compete; each command's groups are its three of the
// eighteen.
func findCommandPassword(s string, pos int) []int {
	var failed [cmdKinds]int // for each command, the end of the line where one found no flag
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
	cmdMySQL   = iota // -pVALUE, glued
	cmdSSHPass        // -p VALUE
	cmdCurl           // -u user:VALUE
	cmdLogin          // a registry tool's "login": -p VALUE, --password VALUE
	cmdZip            // -P VALUE
	cmdRedis          // -a VALUE
	cmdKinds
)

// shellCommand is the command the word s[i:e] names, -1 for none, and where
// its name ends (redis-cli's runs past the word).
func shellCommand(s string, i, e int) (int, int) {
	switch s[i:e] {
	case "mysql", "mysqldump", "mysqladmin", "mysqlimport", "mysqlshow", "mysqlcheck", "mysqlsh", "mariadb", "7z", "7za", "7zr":
		return cmdMySQL, e
	case "sshpass", "mongo", "mongosh", "mongodump", "mongorestore", "mongoexport", "mongoimport", "mongofiles", "mongostat", "mongotop":
		return cmdSSHPass, e
	case "curl":
		return cmdCurl, e
	case "docker", "podman", "nerdctl", "buildah", "skopeo", "oras", "az", "helm":
		return cmdLogin, e
	case "zip", "unzip", "zipcloak", "sqlcmd", "bcp":
		return cmdZip, e
	case "redis":
		if hasAt(s, e, "-cli") && (e+4 == len(s) || !isWord(s[e+4])) {
			return cmdRedis, e + 4
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
// the match's end and its twelve groups, with -1 for its start; nil when
// there is none.
//
//	mysql   -p(VALUE)                                  groups 1–3
//	sshpass -p[ \t]*(VALUE)                            groups 4–6
//	curl    (?:-u[ \t]*|--user[ \t]+)USER:(PASSWORD)   groups 7–9
//	login   (?:-p[ \t]*|--password(?:[ \t]+|=))(VALUE) groups 10–12
//	zip     -P[ \t]*(VALUE)                            groups 13–15
//	redis   -a[ \t]*(VALUE)                            groups 16–18
func commandFlag(c int, s string, j int) []int {
	v := -1
	switch {
	case c == cmdMySQL && hasAt(s, j, "-p"):
		v = j + 2
	case c == cmdCurl && hasAt(s, j, "-u"), (c == cmdSSHPass || c == cmdLogin) && hasAt(s, j, "-p"),
		c == cmdZip && hasAt(s, j, "-P"), c == cmdRedis && hasAt(s, j, "-a"):
		v = runEnd(s, j+2, isBlank)
	case c == cmdCurl && hasAt(s, j, "--user"):
		v = blanks(s, j+len("--user"))
	case c == cmdLogin && hasAt(s, j, "--password="):
		v = j + len("--password=")
	case c == cmdLogin && hasAt(s, j, "--password"):
		v = blanks(s, j+len("--password"))
	}
	if v < 0 {
		return nil
	}
	g, vs, ve, end := shellValue(s, v, c == cmdCurl)
	if g < 0 {
		return nil
	}
	m := make([]int, 2+6*cmdKinds)
	for k := range m {
		m[k] = -1
	}
	m[1], m[2+6*c+2*g], m[3+6*c+2*g] = end, vs, ve
	return m
}

// shellValue reads (?:"([^"\n]+)"|'([^'\n]+)'|([^\s"']+)) at s[v:]: which
// group (0 double-quoted, 1 single-quoted, 2 bare; -1 none), the value and
// where the match ends. With user, the value is what follows the first ':'
// of user:password: (?:"[^"\n:]*:([^"\n]+)"|'[^'\n:]*:([^'\n]+)'|[^\s:"']*:([^\s"']+)).
func shellValue(s string, v int, user bool) (g, vs, ve, end int) {
	if v < len(s) && isQuote(s[v]) {
		q := s[v]
		vs = v + 1
		if user {
			k := vs
			for k < len(s) && s[k] != q && s[k] != '\n' && s[k] != ':' {
				k++
			}
			if !hasAt(s, k, ":") {
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
	if user {
		k := runEnd(s, v, isUserByte)
		if !hasAt(s, k, ":") {
			return -1, 0, 0, 0
		}
		vs = k + 1
	}
	if ve = runEnd(s, vs, isBareShell); ve == vs {
		return -1, 0, 0, 0
	}
	return 2, vs, ve, ve
}

// isBareShell is [^\s"'], isUserByte [^\s:"'].
func isBareShell(c byte) bool { return !isSpace(c) && !isQuote(c) }

func isUserByte(c byte) bool { return c != ':' && isBareShell(c) }

// commandValue keeps a command line's value unless it names where the
// password lives: a reference ($MYSQL_PWD, ${PW}, <password>) or a
// command's output ("$(cat pw.txt)", `pass show db`); or it is the next flag,
// a bare word after a blank that starts with '-' (mongo -u a -p --quiet
// prompts).
func commandValue(s string, m []int) (int, int, int, int, bool) {
	vs, ve := firstGroup(m)
	v := s[vs:ve]
	if isReference(v) || strings.HasPrefix(v, "$(") || strings.HasPrefix(v, "`") || v[0] == '-' && isBlank(s[vs-1]) {
		return 0, 0, 0, 0, false
	}
	return vs, ve, m[0], m[1], true
}

// findTelegramToken: \b[0-9]{8,10}:AA[A-Za-z0-9_\-]{33}\b
//
// A bot's id, then its secret: 35 characters that start with AA.
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
		if k-d < 8 || k-d > 10 || d < pos || !wordStart(s, d) {
			continue
		}
		if e := exactly(s, k+3, isToken, 33); e >= 0 && (isWord(s[e-1]) != (e < len(s) && isWord(s[e]))) {
			return whole(d, e)
		}
	}
}
