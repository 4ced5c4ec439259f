package redact

import (
	"strings"
	"unsafe"

	"github.com/pi-memory/pi-memory/wasm/internal/text"
)

// A pattern is one kind of secret.
type pattern struct {
	kind string
	// triggers are literals, lowercase where ASCII, of two bytes or more, or
	// of one that every match follows with another; every match of the pattern
	// contains one of them (compared without ASCII case; other bytes exactly,
	// so a Cyrillic word lists each of its cases), which is what lets
	// scan skip the pattern on a text that holds none. The patterns fold
	// ASCII case only, so that this stays exact (a Kelvin sign is not a K).
	triggers []string
	// find returns the leftmost match at or after s[pos] and its groups, as
	// regexp's FindStringSubmatchIndex would for the pattern's expression
	// (written above each matcher in match.go), or nil.
	find func(s string, pos int) []int
	// span turns a match into the bytes to replace and the whole match (what
	// must not overlap an earlier mark). Nil means: the first capture group
	// that took part, else the whole match.
	span func(s string, m []int) (start, end, wholeStart, wholeEnd int, ok bool)
	// multiline: a match may cross a newline, so the pattern runs over the
	// whole text instead of the lines that hold its triggers.
	multiline bool
}

// patterns is the table, built on first use (see setup) so that module
// start does no work for it.
var patterns []*pattern

// newPatterns returns the table. Ordered by precedence: where matches of two
// patterns overlap, they become one redaction named for the pattern listed
// first (a GitHub token given as password= is reported as a github-token).
func newPatterns() []*pattern {
	return []*pattern{
		{kind: "private-key", triggers: []string{"private key"},
			// PEM (PKCS#1, PKCS#8, EC, DSA, OpenSSH, encrypted), PGP blocks and
			// SSH2 keys, also with literal \n escapes inside JSON; a key without
			// its END line is redacted to its last line (keySpan).
			find: findPrivateKey, span: keySpan, multiline: true},
		{kind: "private-key", triggers: []string{"private-lines:"}, find: findPuTTYKey, span: puttySpan, multiline: true},
		{kind: "private-key", triggers: []string{"ibadanbgkqhkig9w0baqefaasc", "ibaakc", "mhccaqeei", "migkagebbd", "mighagea", "mc4caqawbqydk2vwbciei", "ls0tls1crudjtib"},
			// A key's DER in base64 without its BEGIN and END lines: MIIEvQIBADANBgkqhkiG9w0BAQEFAASC….
			find: findKeyBody},
		{kind: "aws-key", triggers: []string{"akia", "asia"}, find: findAWSKey},
		{kind: "aws-secret-key", triggers: []string{"secret"},
			// 40 characters after a label that names it (aws_secret_access_key,
			// secretAccessKey); unlabelled they are indistinguishable from any
			// other base64.
			find: findAWSSecretKey},
		{kind: "aws-secret-key", triggers: []string{"secret"},
			// In prose: "aws … secret wJalr…", "secret access key is wJalr…"
			// (prose.go).
			find: findSecretWord, span: awsProseSecret},
		{kind: "github-token", triggers: []string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"},
			find: findGitHubToken},
		{kind: "gitlab-token", triggers: []string{"glpat-", "gldt-", "glrt-", "glptt-", "glcbt-", "glsoat-", "glffct-", "glimt-", "glagent-", "gloas-", "gr1348941"},
			find: findGitLabToken},
		{kind: "api-key", triggers: []string{"sk-", "dckr_", "lin_", "gsk_", "xai-", "pplx-", "r8_", "glsa_", "sntrys_", "atatt", "tskey-", "dp.st.", "ops_",
			"glc_", "dp.", "figd_", "pmak-", "key-", "nrak-", "pul-", "dapi", "sbp_", "pscale_", "nfp_", "ntn_", "fo1_", "rnd_", "sq0", "cfpat-", "sl.",
			"sntryu_", "glft-", "rubygems_", "phx_", "bkua_", "ccipat_", "sk.eyj", "1//0", "eyjrijoi", "eaacedeose0cba", "nsec1", "xprv", "tprv", "eyjhdxrocyi6",
			"akcp", "pat-na1-", "pat-eu1-", "dt0c01.", "sgp_", "fm2_", "eaag", "eaab", "ltai", "akid", "squ_", "sqp_", "sqa_", "oauth:", "syt_", "xkeysib-", "oy2", "lsv2_", "pcsk_", "tvly-", "nvapi-", "pnu_", "swmtkn-1-",
			"atbb", "aio_", "flwseck", "tfp_", "shippo_", "clojars_", "fio-u-", "eaaa", "secret_", "live_", "access_token$"},
			// OpenAI (sk-, sk-proj-, sk-svcacct-) and Anthropic (sk-ant-…) keys,
			// and other vendors' that need no label (apiKeys).
			find: findAPIKey},
		{kind: "slack-token", triggers: []string{"xox", "xapp-"},
			// Bot, user, app-level, legacy and refresh (xoxe-) tokens.
			find: findSlackToken},
		{kind: "slack-webhook", triggers: []string{"hooks.slack.com/"},
			// The host stays readable; the path is the credential.
			find: findSlackWebhook},
		{kind: "discord-webhook", triggers: []string{"discord"},
			// The host stays readable; the path is the credential.
			find: findDiscordWebhook},
		{kind: "google-key", triggers: []string{"aiza", "gocspx-", "ya29."},
			// API keys, OAuth client secrets and OAuth access tokens.
			find: findGoogleKey},
		{kind: "stripe-key", triggers: []string{"_live_", "_test_", "whsec_"}, find: findStripeKey},
		{kind: "npm-token", triggers: []string{"npm_"}, find: findNPMToken},
		{kind: "huggingface-token", triggers: []string{"hf_"}, find: findHuggingFaceToken},
		{kind: "pypi-token", triggers: []string{"pypi-"}, find: findPyPIToken},
		{kind: "heroku-key", triggers: []string{"hrku-"},
			// Heroku's API keys since 2024: HRKU- and a UUID, or 60-odd characters.
			find: findHerokuKey},
		{kind: "sendgrid-key", triggers: []string{"sg."}, find: findSendGridKey},
		{kind: "twilio-key", triggers: []string{"sk"},
			// An API key's SID; the auth token is 32 hex digits with no prefix,
			// found by its label (TWILIO_AUTH_TOKEN=).
			find: findTwilioKey},
		{kind: "shopify-token", triggers: []string{"shp"}, find: findShopifyToken},
		{kind: "digitalocean-token", triggers: []string{"_v1_"}, find: findDigitalOceanToken},
		{kind: "vault-token", triggers: []string{"hvs.", "hvb."}, find: findVaultToken},
		{kind: "age-key", triggers: []string{"age-secret-key-1"}, find: findAgeKey},
		{kind: "azure-sas", triggers: []string{"sig="},
			// A shared access signature's sig= in a URL's query or a
			// connection string (after ';' or a blank); the rest (expiry,
			// permissions) stays readable.
			find: findAzureSAS},
		{kind: "jwt", triggers: []string{"eyj"}, find: findJWT},
		{kind: "telegram-token", triggers: []string{":aa"},
			// A bot's id, ':' and 35 characters starting with AA.
			find: findTelegramToken},
		{kind: "bearer", triggers: []string{"bearer"}, find: findBearer},
		{kind: "auth-header", triggers: []string{"authorization"},
			// Bearer has its own pattern (it also appears outside headers).
			find: findAuthHeader, span: authValue},
		{kind: "url-password", triggers: []string{"://"},
			// scheme://user: — the rest is found by urlPassword.
			find: findURLUser, span: urlPassword},
		{kind: "url-password", triggers: []string{"@"},
			// user:password@host without a scheme: root:pw@10.0.0.1.
			find: findUserPassword, span: userPassword},
		{kind: "secret", triggers: []string{"pass", "pw", "secret", "token", "key", "cred", "sessid", "sessionid", "salt", "pepper", "psk", "_auth", ".auth", "-auth", "_pat",
			"masterauth", "authtok", "rootpw"},
			// label = value in env, YAML, JSON, TOML, shell and code forms. The
			// label is one identifier that ends in a keyword (aws_secret_access_key,
			// DB_PASSWORD, apiKey, creds, //registry/:_authToken), so token_count and
			// password_min_length are not labels. Values: quoted (4+ characters,
			// backslash escapes allowed) or bare (6+ characters up to a space,
			// quote, backtick, comma or semicolon).
			find: findSecret, span: labelledValue},
		{kind: "secret", triggers: []string{"pass", "pw", "wifi", "wi-fi"},
			// In prose: "my password is hunter2", "pw: hunter2", "my passphrase
			// is correct horse battery staple", "the wifi key is …" (prose.go).
			find: findPasswordWord, span: prosePassword},
		{kind: "secret", triggers: []string{"token", "key", "secret", "clave", "chiave", "chave", "sleutel", "nyckel", "klucz", "schlüssel", "schluessel", "segreto", "geheimnis"},
			// In prose: "my token is …", "the secret is …", "the api key for staging is …", a
			// value that looks like a token (prose.go). Its triggers are other
			// patterns' too, so the prefilter compares nothing more for it.
			find: findTokenWord, span: tokenProse},
		{kind: "secret", triggers: []string{"passwort", "kennwort", "wachtwoord", "senha", "mot de passe", "contrase", "passord",
			"ösenord", "Ösenord", "ło", "Ło", "salasana", "adgangskode", "heslo", "jelsz", "kata sandi", "şifre", "Şifre", "şİfre", "Şİfre", "пароль", "Пароль", "ПАРОЛЬ", "密码", "密碼", "口令", "パスワード", "비밀번호", "비밀 번호", "암호"},
			// In German, Dutch, French, Spanish, Catalan, Portuguese,
			// Swedish, Norwegian, Polish, Turkish, Russian, Chinese, Japanese
			// and Korean: "mein Passwort ist …", "пароль: …", "密码是…" (foreign.go). Italian writes the English
			// word: the prose pattern above reads "la password è …".
			find: findForeignPasswordWord, span: foreignPassword},
		{kind: "secret", triggers: []string{"_auth"},
			// .npmrc's _auth=base64(user:password); "basic_auth" is not it.
			find: findNPMAuth},
		{kind: "secret", triggers: []string{"login"},
			// .netrc: machine api.example.com login ada password secret
			find: findNetrc, span: commandValue},
		{kind: "secret", triggers: []string{":"},
			// ~/.pgpass: localhost:5432:shop:ada:PW (match.go).
			find: findPgpass, span: pgpassValue},
		{kind: "secret", triggers: []string{"requirepass", "masterauth", "identified", "storepass", "keypass",
			"enable", "username", "snmp-server", "tacacs-server", "radius-server", "key-string", "auth_pass", "pre-shared-key"},
			// redis.conf's requirepass PW, CONFIG SET masterauth PW,
			// redis-server --requirepass PW, SQL's IDENTIFIED BY 'PW';
			// "requirepass is required" and "the --requirepass flag" are prose;
			// a device's or daemon's line: enable secret 0 PW, snmp-server
			// community PW, keepalived's auth_pass PW.
			find: findRedisAuth, span: redisValue},
		{kind: "secret", triggers: []string{"mysql", "mariadb", "sshpass", "curl", "login", "7z", "mongo", "zip", "sqlcmd", "bcp", "redis",
			"smb", "rpcclient", "openssl", "htpasswd", "ldap", "ssh-keygen", "keytool", "jarsigner", "twine",
			"vsce", "ovsx", "poetry", "psexec", "ipmitool", "nuget", "lftp", "http", "xh", "rdesktop", "ncftp", "mosquitto_", "cqlsh", "altool", "rabbitmqadmin", "osql", "isql", "p4", "expo", "security", "cypher-shell", "jenkins-cli", "ibmcloud", "codecov"},
			// A password on a command line: mysql -u root -pPW, sshpass -p PW,
			// curl -u user:PW, docker login -p PW, zip -P PW, redis-cli -a PW,
			// smbclient -U user%PW, openssl -pass pass:PW, htpasswd -b f u PW,
			// ldapsearch -w PW, ssh-keygen -N PW, keytool -storepass PW
			// (jarsigner's too), twine upload -p PW, ipmitool -P PW, psexec -p
			// PW, vsce publish -p PAT, nuget push -k KEY, lftp -u user,PW,
			// http -a user:PW
			// (shell.go); "mysql -p" alone prompts.
			find: findCommandPassword, span: lineCommandValue},
		{kind: "secret", triggers: []string{"gh", "az", "aws", "doppler", "netlify", "pulumi", "dotnet", "rabbitmqctl", "convertto-securestring", "mc", "poetry", "composer", "net", "nuget"},
			// A secret given to a secret store's command: gh secret set NAME
			// --body V, doppler secrets set NAME V, ConvertTo-SecureString
			// "V" -AsPlainText, mc alias set N URL ACCESS V, poetry config
			// http-basic.R USER V, net user USER V (shell.go).
			find: findStoreSecret, span: storeValue},
		{kind: "secret", triggers: []string{"--"},
			// Any command's long flag that names a secret, its value after a
			// blank: kubectl --token T (shell.go).
			find: findFlagSecret, span: flagValue},
		{kind: "secret", triggers: []string{"--password-stdin", "--with-token", "sudo", "chpasswd", "passwd", "secret", "vercel"},
			// A password echoed into a command that reads it from its input:
			// echo PW | docker login -u ada --password-stdin, echo PW | sudo -S,
			// echo 'ada:PW' | chpasswd (shell.go).
			find: findStdinPassword, span: stdinValue},
		{kind: "secret", triggers: []string{"config"},
			// A secret set by a tool's config command: npm config set
			// //registry.npmjs.org/:_authToken T, aws configure set
			// aws_secret_access_key V (shell.go).
			find: findConfigSet, span: commandValue},
		{kind: "secret", triggers: []string{"<<<"},
			// The same given as a here-string: sudo -S <<< PW, gh auth login
			// --with-token <<< T (shell.go).
			find: findHereString, span: stdinValue},
		// A value a file format names (structured.go): an XML element or a
		// key/value attribute pair, a Kubernetes env entry, a variable set
		// with a blank (ENV, setx, set -x), a typed declaration, a secret's
		// quoted name and a literal after it in an argument list. A property
		// list's <key> names the <string> on the next line: multiline.
		{kind: "secret", triggers: labelTriggers[:], find: findXMLSecret, span: structuredValue, multiline: true},
		{kind: "secret", triggers: labelTriggers[:], find: findAttrSecret, span: structuredValue},
		{kind: "secret", triggers: labelTriggers[:], find: findEnvEntry, span: lineValue, multiline: true},
		{kind: "secret", triggers: labelTriggers[:], find: findEnvCommand, span: lineValue},
		{kind: "secret", triggers: labelTriggers[:], find: findTypedSecret, span: structuredValue},
		{kind: "secret", triggers: labelTriggers[:], find: findQuotedPair, span: pairValue},
		{kind: "secret", triggers: labelTriggers[:], find: findReadDefault, span: structuredValue},
		{kind: "secret", triggers: labelTriggers[:], find: findLabelCall, span: callDefault},
		{kind: "secret", triggers: labelTriggers[:], find: findYAMLNext, span: nextLineValue, multiline: true},
		{kind: "secret", triggers: labelTriggers[:], find: findFencedValue, span: fencedValue, multiline: true},
		{kind: "secret", triggers: []string{"variable"}, find: findTFVariable, span: tfDefault, multiline: true},
		{kind: "secret", triggers: []string{"cookie", ";", "-b"},
			// A session's cookie in a Cookie or Set-Cookie header, given to
			// curl or a page, or set in code by its name and value, over
			// lines (structured.go).
			find: findCookie, span: cookieValue, multiline: true},
		{kind: "secret", triggers: []string{"pin", "puk", "recovery", "backup"},
			// A PIN, a list of recovery codes (structured.go).
			find: findPinOrCodes, span: codesValue},
		{kind: "secret", triggers: []string{"cred", "login", "user", "u/p", "account", "auth"},
			// A user and a password after a label: credentials: ada / PW (structured.go).
			find: findUserSlashPassword, span: slashValue},
		{kind: "secret", triggers: []string{"auth"}, find: findBasicAuth, span: structuredValue},
		{kind: "secret", triggers: []string{`"auth"`, `"d"`, `"k"`, `"p"`, `"q"`, `"dp"`, `"dq"`, `"qi"`}, find: findDockerAuth, span: dockerAuth},
		{kind: "secret", triggers: []string{"getconnection", "pdo", "mysql", "ftp", "credential", "bind_s", "passwordauthentication", ".login(",
			"hmac", "cipheriv", "jwt.", "fernet", "secretkeyspec", ".new(", "signedstring", "openssl_", "from_secret", "aesgcm", "aesccm", "aessiv",
			"chacha20poly1305", "algorithms.aes", "aes.", "jws.", "symmetricsecuritykey", "authenticationheadervalue", "_auth(", "plainauth", "wifi.begin", "plaincredentials", "credentials.basic", "ldap3.connection",
			"ftp_login", "ldap_bind", "clientsecretcredential", "create_superuser", "basicawscredentials"}, find: findPositional, span: positionalValue},
		{kind: "secret", triggers: labelTriggers[:], find: findLabelArg, span: argValue},
		{kind: "secret", triggers: []string{"|"},
			// A cell of a Markdown table whose header names a secret:
			// | user | password | … | admin | Tabl3Pass! | (tableCell).
			find: findTableCell, span: tableCell, multiline: true},
	}
}

// labelTriggers are what every label holds (secretLabel), npm's _auth too (a fuzzed "_Auth=a(" matched a label pattern the prefilter then skipped).
var labelTriggers = [...]string{"pass", "pw", "secret", "token", "key", "cred", "sessid", "sessionid", "salt", "pepper", "psk", "_auth", ".auth", "-auth", "masterauth", "authtok", "rootpw"}

// firstGroup is the default span: the first capture group that took part,
// else the whole match.
func firstGroup(m []int) (int, int) {
	for g := 2; g+1 < len(m); g += 2 {
		if m[g] >= 0 {
			return m[g], m[g+1]
		}
	}
	return m[0], m[1]
}

// urlPassword finds the password of scheme://user:password@host. The password
// may hold '/', ':' and '@': it runs to the last '@' before the first '/', '?'
// or '#' that follows an '@'. "host:8080/path@x" is a port and a path, not a
// password.
//
//	mysql://root:p@ss@db/app       => p@ss
//	https://user:pa/ss@host        => pa/ss
//	http://localhost:8080/@scope/x => (none)
func urlPassword(s string, m []int) (int, int, int, int, bool) {
	start := m[1]
	end := start
	for end < len(s) && end-start < maxUserinfo && !urlStop(s[end]) {
		end++
	}
	rest := s[start:end]
	first := strings.IndexByte(rest, '@')
	if first <= 0 {
		return 0, 0, 0, 0, false
	}
	host := len(rest)
	if i := strings.IndexAny(rest[first+1:], "/?#"); i >= 0 {
		host = first + 1 + i
	}
	at := strings.LastIndexByte(rest[:host], '@')
	pw := rest[:at]
	if isPort(pw) || isReference(pw) || inList(" password pass secret pwd PASSWORD ", pw) {
		return 0, 0, 0, 0, false // a placeholder: postgres://user:password@localhost
	}
	return start, start + at, m[0], start + at + 1, true
}

// userPassword keeps the password of user:password@host, written without
// a scheme, where the host is one: an IPv4 address, localhost or a name
// with a port, where any password of 4+ bytes that is not only digits
// stands; or a dotted name, where the password must look like one that a
// person chose, not the start of an e-mail address after a glued label:
// "email:ada42@example.com", "Signed-off-by:ada@x.org". "app:v1.2@sha256:…"
// (an image's digest) has no host.
//
//	root:Adm1nSecret@10.0.0.1       => Adm1nSecret
//	postgres:postgres@localhost     => postgres
//	admin:S3cr3t!x@db.example.com   => S3cr3t!x
//	mailto:ada2024@example.com      => (none)
func userPassword(s string, m []int) (int, int, int, int, bool) {
	user, pw, host := s[m[2]:m[3]], s[m[4]:m[5]], strings.TrimRight(s[m[6]:m[7]], ".-")
	if isReference(pw) || inList(" password pass secret pwd PASSWORD ", pw) { // a placeholder: user:password@tcp(host:3306)/db
		return 0, 0, 0, 0, false
	}
	if s[m[4]-1] == '/' {
		// Oracle's user/password@db names its database by any word (@orcl,
		// @prod): the password must look chosen, not a path's part
		// (images/logo@2x.png, library/nginx@sha256) or a ref's (org/Repo2@main).
		if !chosenPassword(pw) || strings.ContainsAny(pw, ".") || inList(" main master develop dev HEAD head latest next stable beta alpha canary trunk wiki ", host) {
			return 0, 0, 0, 0, false
		}
		return m[4], m[5], m[2], m[7], true
	}
	port := m[6]+len(host) < len(s) && s[m[6]+len(host)] == ':' && isPortAt(s, m[6]+len(host)+1)
	// Go's MySQL driver names the host's protocol: app:pw@tcp(db:3306)/app.
	goDSN := hasAt(s, m[6]+len(host), "(") && (host == "tcp" || host == "tcp6" || host == "unix" || host == "udp")
	switch {
	case isIPv4(host) || strings.EqualFold(host, "localhost") || port || goDSN:
		if len(pw) < 4 || strings.Trim(pw, "0123456789") == "" {
			return 0, 0, 0, 0, false
		}
	case strings.IndexByte(host, '.') > 0 && isLetter(host[len(host)-1]):
		if !chosenPassword(pw) || isMailLabel(user) {
			return 0, 0, 0, 0, false
		}
	default:
		return 0, 0, 0, 0, false
	}
	return m[4], m[5], m[2], m[7], true
}

// isPortAt: 1 to 5 digits at s[i:] and then no word byte.
func isPortAt(s string, i int) bool {
	e := runEnd(s, i, func(c byte) bool { return c >= '0' && c <= '9' })
	return e > i && e-i <= 5 && (e == len(s) || !isWord(s[e]))
}

func isIPv4(h string) bool {
	parts := strings.Split(h, ".")
	if len(parts) != 4 {
		return false
	}
	for _, p := range parts {
		if p == "" || len(p) > 3 || strings.Trim(p, "0123456789") != "" {
			return false
		}
	}
	return true
}

// chosenAuth: v, the value of an authLabel, looks chosen: a token, a
// password with a letter in each case or a symbol, or user:password.
func chosenAuth(v string) bool {
	if methodName(v) {
		return false
	}
	if looksLikeToken(v) || chosenPassword(v) && !isReference(v) {
		return true
	}
	user, pw, ok := strings.Cut(v, ":")
	return ok && user != "" && len(pw) >= 4 && !strings.HasPrefix(pw, "//") && !isReference(v)
}

// methodName: v names a method, words of lowercase letters or of digits
// joined by "-": scram-sha-256, aes-256-gcm.
func methodName(v string) bool {
	if !strings.Contains(v, "-") {
		return false
	}
	for _, p := range strings.Split(v, "-") {
		if p == "" || strings.Trim(p, "abcdefghijklmnopqrstuvwxyz") != "" && strings.Trim(p, "0123456789") != "" {
			return false
		}
	}
	return true
}

// chosenPassword: a password a person chose, as looksLikePassword says,
// holding a letter in each case or a symbol: "S3cr3t!x", "Adm1nSecret",
// not "ada2024" (an e-mail address's name).
func chosenPassword(w string) bool {
	if !looksLikePassword(w) {
		return false
	}
	var upper, lower, symbol bool
	for i := 0; i < len(w); i++ {
		c := w[i]
		upper = upper || c >= 'A' && c <= 'Z'
		lower = lower || c >= 'a' && c <= 'z'
		symbol = symbol || strings.IndexByte("!#$%^&*+=?~", c) >= 0
	}
	return upper && lower || symbol
}

// isMailLabel: a label glued to an e-mail address: mailto:, email:,
// from:, cc:, Signed-off-by:.
func isMailLabel(user string) bool {
	u := strings.ToLower(user)
	return strings.HasSuffix(u, "mailto") || strings.HasSuffix(u, "mail") || strings.HasSuffix(u, "-by") ||
		strings.HasSuffix(u, "-to") || u == "from" || u == "to" || u == "cc" || u == "bcc"
}

// maxUserinfo bounds how far past "scheme://user:" the password and host
// are looked for, so a line of many "a://b:" costs linear time, not
// quadratic. No real password comes near it.
const maxUserinfo = 1024

func urlStop(c byte) bool {
	switch c {
	case ' ', '\t', '\n', '\r', '\f', '\v', '"', '\'', '<', '>', '`':
		return true
	}
	return false
}

// ternary: a bare value ending at s[e:] is a condition whose "?" picks a
// quoted literal: the literals' span, from the first's text to the end of
// the second's after ":" when there is one (h-v78 B1: the mark took the
// condition and left the literal).
func ternary(s string, e int) (ts, te int, ok bool) {
	q := runEnd(s, e, isBlank)
	if !hasAt(s, q, "?") || hasAt(s, q, "??") {
		return 0, 0, false
	}
	v := runEnd(s, q+1, isBlank)
	g, ce := closedLiteral(s, v)
	if g < 0 {
		return 0, 0, false
	}
	ts, te = v+1, ce
	if c := runEnd(s, ce+1, isBlank); hasAt(s, c, ":") {
		if w := runEnd(s, c+1, isBlank); w < len(s) {
			if g2, ce2 := closedLiteral(s, w); g2 >= 0 {
				te = ce2
			}
		}
	}
	return ts, te, true
}

// keyFile: v names a file that holds a key, by its extension
// (server.pem, /etc/ssl/client.key, keys/sa.json), not a key itself (base64
// has no '.', a token's dotted parts end in no such word).
func keyFile(v string) bool {
	dot := strings.LastIndexByte(v, '.')
	if dot <= 0 || strings.ContainsAny(v, " \t=+") {
		return false
	}
	return inList(" pem key crt cer p12 pfx jks der json asc gpg ppk pub keystore ", strings.ToLower(v[dot+1:]))
}

// isPort reports digits followed by a path, query or fragment: "8080/x@y".
func isPort(pw string) bool {
	i := 0
	for i < len(pw) && pw[i] >= '0' && pw[i] <= '9' {
		i++
	}
	return i > 0 && i < len(pw) && (pw[i] == '/' || pw[i] == '?' || pw[i] == '#')
}

// labelledValue keeps a label's value unless it cannot be a secret: a
// reference to where the secret lives (${DB_PASSWORD}, $TOKEN,
// process.env.API_KEY, <your-token>, {{ vault_token }}) or, for the shell's
// PWD and OLDPWD, a path. A "label" right after "://" is a URL's user
// (https://x-access-token:…@host), left to urlPassword, which keeps the host;
// one that ends a path is a file's name, not a label (see inPath).
// replacedValue is the span of a secret a substitution writes, inside the
// value s[vs:ve] that follows its pattern's label: sed's or perl's
// s/^DB_PASSWORD=.*/DB_PASSWORD=X/ (the pattern's ".*/…" is no value, and
// the label inside it is read no more once the whole was: h-v100 b1). It is
// the text after a secret label and its "=" that a delimiter ("/", "|",
// "#", "@", ",", "!") puts before the label, up to that delimiter.
func replacedValue(s string, vs, ve int) (int, int, bool) {
	for k := vs + 1; k < ve; k++ {
		if s[k] != '=' {
			continue
		}
		lo := k
		for lo > vs && isIdent(s[lo-1]) {
			lo--
		}
		if lo == k || lo == vs || strings.IndexByte("/|#@,!", s[lo-1]) < 0 || !secretLabel(s, lo, k) {
			continue
		}
		// Quoted (s/DB_PASSWORD=.*/DB_PASSWORD="X"/: h-v101 b5): the
		// quoted text, which the bare value before it ended at.
		if k+1 < len(s) && isQuote(s[k+1]) {
			q := s[k+2 : min(len(s), k+2+maxReplaced+1)]
			if c := strings.IndexByte(q, s[k+1]); c >= 4 && !isReference(q[:c]) && !strings.ContainsAny(q[:c], "*$\\\n") {
				return k + 2, k + 2 + c, true
			}
			continue
		}
		// Its end within 256 bytes: each "=" reads no further, so a value
		// of thousands of "/password=" costs what it holds (h-v101 a2: its
		// square, a minute for a 512 KiB line).
		w := s[k+1 : min(ve, k+1+maxReplaced+1)]
		e := k + 1 + strings.IndexByte(w, s[lo-1])
		if e == k {
			e = k + 1 + len(w)
		}
		if n := e - k - 1; n >= 4 && n <= maxReplaced && !isReference(s[k+1:e]) && !strings.ContainsAny(s[k+1:e], "*$\\") {
			return k + 1, e, true
		}
	}
	return 0, 0, false
}

// maxReplaced is the longest value replacedValue reads.
const maxReplaced = 256

// randomKey: v looks like a key made at random: a token of 16 bytes or
// more (looksLikeToken), no dot (a file, a version), not a snake_case name
// (created_at_idx9, its first word small letters), and three digits or
// more.
func randomKey(v string) bool {
	d := 0
	for i := 0; i < len(v); i++ {
		if v[i] >= '0' && v[i] <= '9' {
			d++
		}
	}
	w, _, snake := strings.Cut(v, "_")
	return len(v) >= 16 && d >= 3 && strings.IndexByte(v, '.') < 0 && !(snake && strings.ToLower(w) == w && runEnd(w, 0, isLetter) == len(w)) && looksLikeToken(v)
}

func labelledValue(s string, m []int) (int, int, int, int, bool) {
	if m[0] >= 3 && s[m[0]-3:m[0]] == "://" || inPath(s, m[0]) || inARN(s, m[0]) {
		return 0, 0, 0, 0, false
	}
	vs, ve := firstGroup(m)
	v := s[vs:ve]
	label := s[m[0]:vs]
	if rs, re, ok := replacedValue(s, vs, ve); ok {
		return rs, re, m[0], max(re, m[1]), true
	}
	if id := m[0] + identEnd(label); !secretLabel(s, m[0], id) && (!randomKey(v) || openKey(s[m[0]:id])) {
		return 0, 0, 0, 0, false // a name of its own for a key (upperKey) needs a value that looks like one: SORT_KEY=created_at
	}
	if id := m[0] + identEnd(label); (authLabel(s, m[0], id) || authLabel(s, m[0], envEnd(s, m[0], id))) && !chosenAuth(v) {
		return 0, 0, 0, 0, false // a setting: SMTP_AUTH=starttls, REDIS_AUTH=${REDIS_PASSWORD}
	}
	if v[0] == ':' && vs > 0 && s[vs-1] == ':' {
		return 0, 0, 0, 0, false // a path in Rust or C++: use jsonwebtoken::encode
	}
	if vs >= 3 && isQuote(s[vs-1]) && s[vs-2] == ':' && isBlank(s[vs-3]) && isName(v) {
		return 0, 0, 0, 0, false // psql's variable: WITH PASSWORD :'app_password'
	}
	if ps := printrValue(s, m[0], vs); ps > 0 {
		pe := runEndBack(s, lineEnd(s, ps), func(c byte) bool { return isBlank(c) || c == '\r' })
		return ps, pe, m[0], pe, pe > ps && !isReference(s[ps:pe])
	}
	if k := strings.Index(v, "</"); k > 0 {
		v, ve = v[:k], vs+k // its element closes: <span>Password: {password}</span>
	}
	if hasAt(s, ve, "\":") || hasAt(s, ve, "':") {
		return 0, 0, 0, 0, false // a key that holds a label: "token:refresh": "node …"
	}
	if w, rest, _ := strings.Cut(v, " "); len(m) > 8 && m[8] >= 0 && (labelProse(w, " "+rest) || isCode(label[:identEnd(label)], v, true) || inList(" Bearer Basic Token ", w)) {
		return 0, 0, 0, 0, false // in Markdown's code a word that says what the value is, or a type: `required`, `read from vault`, `Bearer`, `string`
	}
	if l := strings.TrimRight(label, " \t"); strings.HasSuffix(strings.TrimRight(l[:len(l)-1], " \t"), `"`) && l[len(l)-1] == ':' {
		// A JSON key's bare value is a number or a literal: it ends
		// before ",", "}" or "]" ({"a":{"token":false}}), and true,
		// false and null are no secret.
		if k := strings.IndexAny(v, ",}]"); k >= 0 {
			v, ve = v[:k], vs+k
		}
		if v == "" || v == "true" || v == "false" || v == "null" {
			return 0, 0, 0, 0, false
		}
	}
	if s[vs-1] == ':' && inList(subcommands, v) {
		return 0, 0, 0, 0, false // a tool's subcommand: eas secret:create, npm run token:refresh
	}
	if strings.HasSuffix(v, "(") {
		// A call's start: a conversion of a literal is the literal
		// (jwtKey := []byte("x"), String::from("x")); another call is code
		// ([]byte(os.Getenv("JWT_KEY"))).
		if g, e := closedLiteral(s, ve); g >= 0 && inList(conversions, v[:len(v)-1]) && !isReference(s[ve+1:e]) && !callText(s, ve+1, e) {
			return ve + 1, e, m[0], max(e+1, m[1]), true
		}
		return 0, 0, 0, 0, false
	}
	if ds, de, ok := codeDefault(s, vs); ok {
		return ds, de, m[0], max(de, m[1]), true
	}
	if isReference(strings.TrimSuffix(v, "!")) || closesLabel(s, m[0], vs, label) || v != "" && notValue(v) {
		return 0, 0, 0, 0, false
	}
	if fieldFromVariable(s, m[0], vs, ve) {
		return 0, 0, 0, 0, false
	}
	if se := schemeEnd(v); se > 0 {
		if at := strings.IndexByte(v[se:], '@'); at > 0 && strings.IndexByte(v[se:se+at], ':') >= 0 {
			return 0, 0, 0, 0, false // a URL with user:password@: urlPassword marks the password alone, the host stays
		}
	}
	if n := len(v) - 1; n > 0 && v[n] == '=' && isName(v[:n]) && secretLabel(v, 0, n) {
		// A label's value is another label's assignment (db secret:
		// PGPASSWORD='x' psql): that label's value.
		if im := secretValue(s, m[0], ve); im != nil {
			ivs, ive := firstGroup(im)
			return ivs, ive, m[0], im[1], true
		}
	}
	n := identEnd(label)
	if n >= 3 && strings.EqualFold(label[n-3:n], "pwd") && isPath(v) || codeAt(s, label[:n], m[0], vs, ve) ||
		endsFold(label, 0, n, "key") && keyFile(v) {
		return 0, 0, 0, 0, false // a key's file: client_key: /etc/ssl/client.key, PRIVATE_KEY=server.pem
	}
	if strings.EqualFold(label[:n], "passwd") && inList(nssSources, v) ||
		inList(" secret existingSecret imagePullSecret secretName secretRef ", strings.TrimLeft(label[:n], "-")) && secretName(v) {
		return 0, 0, 0, 0, false // nsswitch.conf's source (passwd: files); a Kubernetes Secret's name (secret: db-credentials, gcloud's --secret=db-password)
	}
	if len(m) > 6 && m[6] >= 0 {
		if ts, te, ok := ternary(s, ve); ok {
			return ts, te, m[0], max(te, m[1]), true // password = isProd ? "X" : "dev": the literals, not the condition
		}
	}
	if passLabel(label, 0, n) || endsFold(label, 0, n, "creds") {
		return passValue(s, m, label, n, vs, ve)
	}
	// A bare value after ": " or " = " runs to the end of its clause, as
	// in prose (prose.go): "passphrase: correct horse battery staple". Glued
	// to its operator or after ":=" or "=>" it is one word: "--password=x -u
	// root", "PASSWORD=x make".
	if len(m) > 6 && m[6] >= 0 && isBlank(s[vs-1]) {
		op := runEndBack(s, vs, isBlank) - 1
		if (s[op] == ':' || s[op] == '=') && s[op-1] != ':' && s[op-1] != '=' {
			if labelProse(s[vs:ve], s[ve:]) {
				return 0, 0, 0, 0, false
			}
			ve = tagCut(s, vs, clauseEnd(s, vs, ve))
			return vs, ve, m[0], max(ve, m[1]), true
		}
	}
	return vs, ve, m[0], m[1], true
}

// codeDefault: the default that code at s[v:] gives when what it reads is
// unset, which may be the secret: a quoted literal after "||", "??", "or",
// ",", a block's "{" or a template's "default" (ENV.fetch('PW', 'Hunter2x!'),
// process.env.PW || "Hunter2x!", {{ .Values.pw | default "Hunter2x!" }}),
// inside Ruby's #{…}, ERB's <%…%>, a template's {{…}} or a statement that
// starts by reading the environment (envAccessors): the literal's span; ok
// false when there is none (a reference or other code: fetch("PW", nil),
// link_to "Reset", …, an empty or a path default). Read on its line's first
// KiB.
func codeDefault(s string, v int) (ds, de int, ok bool) {
	code, _, _ := strings.Cut(s[v:min(len(s), v+1024)], "\n")
	k, from := -1, 2 // a template's opener is not code before a literal: #{'*' * 8}
	switch {
	case strings.HasPrefix(code, "<%"):
		k = strings.Index(code, "%>")
	case strings.HasPrefix(code, "{{"):
		k = strings.Index(code, "}}")
	case strings.HasPrefix(code, "#{"):
		k = exprEnd(code[1:]) + 1 // its own "}"
	default:
		if readsSetting(code) {
			k, from = exprEnd(code), 0
		}
	}
	for i := from; i < k; i++ {
		q := code[i]
		if !isQuote(q) {
			continue
		}
		e := strings.IndexByte(code[i+1:k], q)
		if e < 0 {
			return
		}
		before := strings.TrimRight(code[from:i], " \t")
		lit := code[i+1 : i+1+e]
		if e > 0 && strings.IndexAny(lit, " \t") < 0 && givesDefault(before) && !isReference(lit) && !isPath(lit) && (!strings.HasSuffix(before, ",") || readsDefault(before)) {
			return v + i + 1, v + i + 1 + e, true
		}
		i += e + 1
	}
	return
}

// readsSetting: code starts by reading the environment or a setting: an
// accessor (envAccessors) or a call of a name that reads one
// (props.getProperty(, Environment.GetEnvironmentVariable(, Deno.env.get().
func readsSetting(code string) bool {
	for _, a := range envAccessors {
		if strings.HasPrefix(code, a) {
			return true
		}
	}
	if len(code) > 2 && code[0] == '.' && code[1] >= 'A' && code[1] <= 'Z' {
		return true // a Go template's field: .Values.password | default "x"
	}
	i := runEnd(code, 0, func(c byte) bool { return isIdent(c) || strings.IndexByte(":$[]\"'", c) >= 0 }) // parser["db"].get(
	if i == len(code) || code[i] != '(' {
		return false
	}
	return readerName(strings.ReplaceAll(code[:i], "::", "."), code[i:])
}

// settingReaders are the calls that read a setting and take its default
// after it.
const settingReaders = " fetch get getenv Getenv getEnv env config getProperty getOrDefault GetEnvironmentVariable setdefault var Or "

// secretKey: the first quoted argument in args names a secret, whole or by
// its last dotted part ("DB_PASSWORD", "database.password").
func secretKey(args string) bool {
	q := strings.IndexAny(args, "\"'")
	if q < 0 {
		return false
	}
	e := strings.IndexByte(args[q+1:], args[q])
	if e <= 0 {
		return false
	}
	key := strings.ReplaceAll(args[q+1:q+1+e], "-", "_")
	key = key[strings.LastIndexByte(key, '.')+1:]
	return isName(key) && secretLabel(key, 0, len(key))
}

// givesDefault: code that ends in before gives a default next: "||", "??",
// "or", an argument's ",", a block's "{", a template's default (| default,
// default(, default=).
func givesDefault(before string) bool {
	for _, op := range [...]string{"||", "??", "?:", " or", ",", "{", "default", "default(", "default=", "| d(", "unwrap_or(", "fallback="} {
		if k := len(before) - len(op); strings.HasSuffix(before, op) && (!isLetter(op[0]) || k == 0 || !isWord(before[k-1])) {
			return true // a word: not setdefault(
		}
	}
	return strings.HasSuffix(before, "|") && (strings.Contains(before, "{ |") || strings.Contains(before, "(|")) // a closure's parameter: { |k| 'x' }, unwrap_or_else(|_| "x"
}

// readsDefault: the argument list open at the end of before is a call that
// reads a setting and takes its default next (fetch, get, getenv, env,
// config, getProperty: ENV.fetch("PW", "x"), os.environ.get("PW", "x")),
// not any call (lookup('env', 'PW'), mask(pw, "****")). Ruby's call may
// go without parentheses: ENV.fetch "PW", "x".
func readsDefault(before string) bool {
	depth, open := 0, -1
	for i := len(before) - 1; i >= 0 && open < 0; i-- {
		switch before[i] {
		case ')', ']', '}':
			depth++
		case '[', '{':
			depth--
		case '(':
			depth--
		}
		if depth < 0 {
			open = i
		}
	}
	if open < 0 {
		open = runEndBack(before, strings.IndexAny(before, "\"'"), isBlank) // fetch "PW", …
	} else if before[open] != '(' {
		return false
	}
	name := before[runEndBack(before, max(open, 0), isIdent):max(open, 0)]
	return readerName(name, before[max(open, 0):])
}

// readerName: a call of name, its arguments starting args, reads a setting
// and takes its default after it; get and setdefault on the environment
// (os.environ.get, Deno.env.get) or for a key that names a secret
// (settings.get("DB_PASSWORD", …); not configparser's config.get("db",
// "password"), whose first argument is a section).
func readerName(name, args string) bool {
	last := name[strings.LastIndexByte(name, '.')+1:]
	if strings.Contains(args[:min(len(args), 256)], "fallback=") {
		return true // configparser's get(section, option, fallback="x")
	}
	if last == "get" || last == "setdefault" {
		recv := strings.TrimSuffix(name, "."+last)
		recv = recv[strings.LastIndexByte(recv, '.')+1:]
		return recv == "environ" || recv == "env" || recv == "ENV" || secretKey(args)
	}
	if last == "getattr" {
		return secretKey(args) // getattr(settings, "DB_PASSWORD", "x")
	}
	return inList(settingReaders, last)
}

// exprEnd: where the expression that starts code ends: its first ";", a
// "," or a closer it did not open, a comment (" #", " //") or its end;
// quoted text is skipped.
func exprEnd(code string) int {
	depth := 0
	for i := 0; i < len(code); i++ {
		switch c := code[i]; c {
		case '"', '\'', '`':
			e := strings.IndexByte(code[i+1:], c)
			if e < 0 {
				return len(code)
			}
			i += e + 1
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			if depth--; depth < 0 {
				return i
			}
			if depth == 0 && i+1 < len(code) && code[0] == '{' {
				return i + 1
			}
		case ',':
			if depth == 0 {
				return i
			}
		case ';':
			return i
		case ' ':
			if hasAt(code, i, " #") || hasAt(code, i, " //") {
				return i
			}
		}
	}
	return len(code)
}

// closesLabel: the quote before the value at s[vs:] closes the string the
// label at s[ls:] is in: a prompt, not a value ("Password: " in `read -p
// "Password: " PW; echo "ok"`, 'Password:' in `console.log('Password:',
// x)`). A quoted label's own quote comes before its ':' ("password": "x").
//
// The label is inside a string when the line's strings before it, read
// from the line's start (within 4 KiB), leave one of its quote open, and
// that quote opens a string (opensString) close before the label, with no
// sentence's end between: a prompt is short. Each string closes only at its
// own quote (or its typographic close: "prod” ends "prod"), so a quote of
// the other kind inside one is text (`tr -d ' "' && PGPASSWORD="x"`,
// h-v96 b1). Reading from the line's start misreads a string opened on an
// earlier line (`git commit -m '…\n…' && PGPASSWORD='x'`, h-v94 c6): the
// quote it takes to open is one that closes, and opensString says so. An
// apostrophe in a word is no quote (Here's, the '90s, 'til).
func closesLabel(s string, ls, vs int, label string) bool {
	q := s[vs-1]
	if !isQuote(q) && q != '`' || strings.IndexByte(label, q) != len(label)-1 {
		return false
	}
	lo := max(0, ls-4096)
	if k := strings.LastIndexByte(s[lo:ls], '\n'); k >= 0 {
		lo += k + 1
	}
	var open byte
	at := -1
	for i := lo; i < ls; i++ {
		c := s[i]
		switch {
		case open != 0 && c == '\\':
			i++ // an escaped character
		case open != 0 && (c == open || open == '"' && hasAt(s, i, "\u201d") || open == '\'' && hasAt(s, i, "\u2019")):
			open = 0
		case open == 0 && (c == '"' || c == '`' || c == '\'' && !apostrophe(s[lo:ls], i-lo)):
			open, at = c, i
		}
	}
	return open == q && opensString(s, at) && ls-at <= 120 && !strings.Contains(s[at:ls], ". ")
}

// opensString: the quote at s[i] opens a string rather than closes one: it
// starts the text or follows a blank or what a string starts after in code
// and shells (( [ { = , + : $), and what follows it is no blank and nothing
// that ends a word in code or a shell ('hello ' X='…', 'a '; X='…': the
// second quote closes).
func opensString(s string, i int) bool {
	if i+1 < len(s) && (isBlank(s[i+1]) || strings.IndexByte(";,)]}&|", s[i+1]) >= 0) {
		return false
	}
	return i == 0 || isBlank(s[i-1]) || strings.IndexByte("([{=,+:$", s[i-1]) >= 0
}

// apostrophe: the ' at s[i] is one in a word, not a quote: after a letter, a
// digit, a letter of another script or a backtick and before a letter
// (S3's, José's, `psql`'s), after an s and before a blank or a stop (the
// users' db), or before a decade (the '90s).
func apostrophe(s string, i int) bool {
	var next byte
	if i+1 < len(s) {
		next = s[i+1]
	}
	if i == 0 || isBlank(s[i-1]) || s[i-1] == '(' {
		if len(s)-i >= 3 && next >= '0' && next <= '9' && s[i+2] >= '0' && s[i+2] <= '9' {
			return len(s)-i == 3 || s[i+3] == 's' || !isAlnum(s[i+3]) // the '90s, since '24
		}
		return elision(s[i+1:])
	}
	prev := s[i-1]
	if !isAlnum(prev) && prev < 0x80 && prev != '`' {
		return false
	}
	return isLetter(next) || next >= 0x80 || prev == 's' && (next == 0 || isBlank(next) || strings.IndexByte(",.;:)!?", next) >= 0)
}

// elision: s starts with a word whose first letters an apostrophe stands
// for ('em, 'til, 'cause, 'tis, 'twas, 'bout, 'round, 'n').
func elision(s string) bool {
	for _, w := range [...]string{"em", "til", "cause", "cos", "tis", "twas", "bout", "round", "n", "nuff", "kay", "cept", "nother", "gainst", "fore"} {
		if len(s) >= len(w) && strings.EqualFold(s[:len(w)], w) && (len(s) == len(w) || !isAlnum(s[len(w)])) {
			return true
		}
	}
	return false
}

// passValue: the value of a label whose last word is "pass" or "pw" (label[:n]),
// a word that in code and in a test's output names a compiler pass or a
// result as often as a password, or "creds", whose value is as often a
// list of what they are ("aws creds: access key AKIA…, secret …"; its
// secrets have their own patterns). A bare value is one word and never code
// ("pass := &analysis.Pass{", "pass := !isEmpty(x)"); after ":" (YAML, a
// struct literal, Go's :=) it must look like a password (see
// looksLikePassword), as it must after the word alone: "pass: hunter2",
// not "pass: 120/120" or "postPass: passDeadCode". "PASS:" (a test
// runner's line) and "pass:x" (a URL's user and password, which
// urlPassword finds) are not labels.
//
//	pass: hunter2              => hunter2
//	SMTP_PASS=mailpass         => mailpass
//	pass = "correct horse"     => correct horse
//	--- PASS: TestParse2       => (none)
func passValue(s string, m []int, label string, n, vs, ve int) (int, int, int, int, bool) {
	op := strings.IndexAny(label[n:], ":=")
	if op < 0 {
		return 0, 0, 0, 0, false
	}
	op += n
	pass := passLabel(label, 0, n)
	alone := pass && (n == 4 || n == 2) || !pass && n == 5 // pass, pw, creds
	colon := label[op] == ':'
	if pass && colon && alone && (strings.HasPrefix(label, "PASS") || op+1 == len(label)) {
		return 0, 0, 0, 0, false
	}
	if len(m) > 6 && m[6] >= 0 {
		w := trimClause(s[vs:ve])
		if k := strings.IndexByte(w, '='); k > 0 && isName(w[:k]) && (k+1 < len(w) && w[k+1] != '=' || k+1 == len(w) && secretLabel(w, 0, k)) {
			return 0, 0, 0, 0, false // labels of its own follow: creds: user=ada password=x
		}
		if w == "" || strings.ContainsAny(w, "([{") || strings.IndexByte("&!*", w[0]) >= 0 || isPath(w) ||
			(alone || colon) && !looksLikePassword(w) {
			return 0, 0, 0, 0, false
		}
		return vs, vs + len(w), m[0], m[1], true
	}
	return vs, ve, m[0], m[1], true
}

// subcommands are the verbs a tool names after "secret:", "token:" (eas
// secret:create, rails secret:generate, npm run token:refresh): glued to a
// label's colon, no value.
const subcommands = " create delete list get set put rotate generate refresh revoke show edit add remove rm update new clear reset sync pull push read write check verify encrypt decrypt status view export import init issue renew lookup login logout "

// conversions are the calls that make a string or bytes of the literal
// they are given, so that the literal is the value: Go's []byte("x"),
// Python's bytes("x", "utf-8"), Rust's String::from("x"), pydantic's
// SecretStr("x"), Node's Buffer.from("x").
const conversions = " []byte bytes bytearray string String String::from std::string str SecretStr SecretString SecretBytes Buffer.from fmt.Sprint "

// runEndBack is where the run of class bytes that ends at s[i] starts.
func runEndBack(s string, i int, class func(byte) bool) int {
	for i > 0 && class(s[i-1]) {
		i--
	}
	return i
}

// printrValue is where the value starts after a label that print_r shows
// with its object's visibility ([password:protected] => X,
// [password:App\Models\User:private] => X; vs is after its colon), else 0.
func printrValue(s string, at, vs int) int {
	if at == 0 || s[at-1] != '[' {
		return 0
	}
	w := s[vs:min(len(s), vs+128)] // "protected", a class's name before it
	if k := strings.IndexAny(w, "]\n"); k > 0 && hasAt(w, k, "] => ") && (strings.HasSuffix(w[:k], "protected") || strings.HasSuffix(w[:k], "private")) {
		return vs + k + len("] => ")
	}
	return 0
}

// lineMemo is the last line end lineEnd found: a line of many labels asks
// for it once (the search for the next label goes on after each label).
var lineMemo struct {
	data         *byte
	n, from, end int
}

// lineEnd is where the line of s[i] ends.
func lineEnd(s string, i int) int {
	m := &lineMemo
	if m.data != unsafe.StringData(s) || m.n != len(s) || i < m.from || i > m.end {
		m.data, m.n, m.from, m.end = unsafe.StringData(s), len(s), i, len(s)
		if k := strings.IndexByte(s[i:], '\n'); k >= 0 {
			m.end = i + k
		}
	}
	return m.end
}

// identEnd is the length of the identifier that starts label.
func identEnd(label string) int {
	i := 0
	for i < len(label) && isIdent(label[i]) {
		i++
	}
	return i
}

func isIdent(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '.' || c == '-'
}

func isName(s string) bool {
	if s == "" || s[0] >= '0' && s[0] <= '9' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

func isUpperName(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 'a' && c <= 'z' {
			return false
		}
	}
	return isName(s)
}

// envAccessors are the code forms that read a secret from the environment.
var envAccessors = []string{"process.env.", "process.env[", "import.meta.env.", "os.environ[", "os.environ.get(", "os.getenv(", "os.Getenv(", "System.getenv(", "System.getProperty(", "ENV[", "ENV.fetch(", "env(", "getenv(", "config(", "$_ENV[", "$_SERVER[", "Bun.env.", "Rails.application.credentials.", "env.str(", "ProcessInfo.processInfo.environment["}

func isReference(v string) bool {
	switch {
	case len(v) > 3 && v[0] == '\\' && v[1] == '(' && v[len(v)-1] == ')' && isName(strings.ReplaceAll(v[2:len(v)-1], ".", "_")):
		return true // Swift's interpolation: "\(password)"
	case interpolates(v):
		return true
	case len(v) > 2 && isQuote(v[0]) && v[len(v)-1] == v[0] && strings.IndexByte("+.", strings.TrimLeft(v[1:], " ")[0]) >= 0:
		// A string that ends, is joined to code and starts again:
		// '{"password":"' + pw + '"}' (the quoted value is ' + pw + ').
		return true
	case strings.HasPrefix(v, "${{") && strings.HasSuffix(v, "}}"),
		strings.HasPrefix(v, "@Microsoft.KeyVault("), strings.HasPrefix(v, "arn:aws:"), strings.HasPrefix(v, "vault:"):
		return true // ${{ secrets.PW }}, a key vault's, an ARN, a vault path
	case len(v) > 1 && v[0] == '!' && isLetters(strings.ReplaceAll(v[1:], "_", "")) && v != "!unsafe":
		// A YAML tag that names where the value is: !vault |, !GetAtt
		// Secret.Password; not one that types the literal after it (!!str
		// x, Ansible's !unsafe 'x').
		return true
	case strings.HasPrefix(v, "${") && strings.IndexByte(v, '?') > 2 && isName(strings.TrimSuffix(v[2:strings.IndexByte(v, '?')], ":")):
		return true // a required variable, no default: ${DB_PASSWORD:?missing}
	case strings.HasPrefix(v, "#{"), strings.HasPrefix(v, "<%") && strings.HasSuffix(v, "%>"):
		// Ruby's #{ENV['DB_PASSWORD']}, ERB's <%= ENV['DB_PASSWORD'] %>
		// (one with a default is codeDefault's).
		return true
	case len(v) > 3 && v[0] == '$' && v[1] == '{' && v[len(v)-1] == '}':
		// ${DB_PASSWORD}, and a property's dotted name (${db.password},
		// ${spring.datasource.password}, ${app.db-password}: Maven,
		// Spring); not a shell's default, ${DB_PASSWORD-hunter2x}.
		name := strings.TrimRight(v[2:len(v)-1], ":-") // an empty default: ${DB_PASSWORD:}, ${PW:-}
		if k := strings.IndexByte(name, '('); k > 0 && name[len(name)-1] == ')' {
			name = name[:k] // a template's call: ${maskPassword(pw)}
		}
		if strings.Contains(name, ".") {
			name = strings.ReplaceAll(strings.ReplaceAll(name, ".", "_"), "-", "_")
		}
		return isName(name)
	case len(v) > 2 && v[0] == '.' && v[1] >= 'A' && v[1] <= 'Z' && isName(strings.ReplaceAll(v[1:], ".", "_")):
		return true // a Go template's field: .Values.auth.password
	case len(v) > 7 && strings.HasPrefix(v, "%env(") && strings.HasSuffix(v, ")%"):
		name := v[5 : len(v)-2]
		return isUpperName(name[strings.LastIndexByte(name, ':')+1:]) // Symfony's %env(resolve:API_KEY)%
	case len(v) >= 3 && len(v) <= 40 && (strings.Trim(v, "*") == "" || strings.Trim(v, "x") == "" || strings.Trim(v, "X") == ""):
		return true // masked: ********, xxxxxxxx
	case text.HasFoldPrefix(v, "replace-with") || text.HasFoldPrefix(v, "replace_with"):
		return true // a placeholder: replace-with-a-long-random-string
	case placeOnly(v):
		return true // where it is kept: op://Private/db/password, ref+vault://…, file:///run/secrets/db
	case len(v) > 3 && (strings.HasPrefix(v, "$(") && v[len(v)-1] == ')' || v[0] == '`' && v[len(v)-1] == '`') && !strings.Contains(v, "echo ") && !strings.Contains(v, "printf "):
		return true // what a command prints: "$(openssl rand -base64 24)"; not $(echo x)
	case len(v) > 1 && v[0] == '$':
		return isUpperName(v[1:])
	case len(v) > 5 && text.HasFoldPrefix(v, "your") && (v[4] == '-' || v[4] == '_') && isName(strings.ReplaceAll(v, "-", "_")):
		return true // a placeholder: your-key-here, YOUR_API_KEY
	case len(v) <= 16 && strings.Trim(strings.TrimRight(v, ".…"), "abcdefghijklmnopqrstuvwxyz_-") == "" && (strings.HasSuffix(v, "_...") || strings.HasSuffix(v, "-...") || strings.HasSuffix(v, "_…") || strings.HasSuffix(v, "-…")):
		return true // a prefix and its rest elided: sk_test_..., xoxb-… (not Hunter2x_...)
	case len(v) > 2 && v[0] == '<' && v[len(v)-1] == '>':
		return isPlaceholder(v[1 : len(v)-1])
	case len(v) > 4 && strings.HasPrefix(v, "{{") && strings.HasSuffix(v, "}}"):
		return true // a template's {{ vault_token }}, {{ lookup('env', 'PW') }} (one with a default is codeDefault's)
	case len(v) > 2 && v[0] == '%' && v[len(v)-1] == '%' && isUpperName(v[1:len(v)-1]):
		return true // Windows: %DB_PASSWORD%
	case len(v) > 1 && v[0] == '{' && v[len(v)-1] == '}':
		// A format's field: {pw}, {}, {0}, {user.password!r}, {pw:>8},
		// {{{password}}}
		name, _, _ := strings.Cut(strings.ReplaceAll(strings.Trim(v, "{}"), ".", "_"), ":")
		if k := strings.IndexByte(name, '!'); k >= 0 && k == len(name)-2 {
			name = name[:k] // a conversion: !r, !s
		}
		return name == "" || isName(name) || strings.Trim(name, "0123456789") == ""
	case len(v) > 1 && v[0] == '%':
		// A format's verb: %s, %-12s, %(password)s, %s\n
		i := 1
		if k := strings.IndexByte(v, ')'); v[1] == '(' && k > 0 {
			i = k + 1
		}
		i = runEnd(v, i, func(c byte) bool { return c >= '0' && c <= '9' || strings.IndexByte("-+#. *$", c) >= 0 })
		return i < len(v) && isLetter(v[i]) && strings.Trim(v[i+1:], "\\nrt%") == ""
	}
	for _, a := range envAccessors {
		if strings.HasPrefix(v, a) && isAccessorArg(v[len(a):]) {
			return true
		}
	}
	return false
}

// nssSources are nsswitch.conf's sources, the value of its "passwd:" line.
const nssSources = " files compat systemd sss ldap nis db winbind "

// inARN: the word at s[i:] is a part of an Amazon resource name, which
// names a secret rather than holding it (arn:aws:secretsmanager:…:secret:prod/db).
func inARN(s string, i int) bool {
	if i == 0 || s[i-1] != ':' {
		return false
	}
	lo := max(0, i-256) // an ARN is at most a few hundred bytes: a long word is read once, not once per label
	return strings.HasPrefix(s[lo+runEndBack(s[lo:i], i-lo, func(c byte) bool { return !isSpace(c) && strings.IndexByte("\"'`=,{[(", c) < 0 }):i], "arn:")
}

// placeOnly: v is a URL that names a place and holds no credential: a
// scheme that is not the web's (a web address may be the secret, a
// webhook's) and a path, no user or password (@, :), no part that looks
// like a token (tgram://123:AAH…/…, discord://id/token).
func placeOnly(v string) bool {
	se := schemeEnd(v)
	if se == 0 || inList(" http https ftp ftps ws wss ", strings.ToLower(v[:se-3])) {
		return false
	}
	rest := v[se:]
	if strings.IndexByte(rest, '/') < 0 || strings.ContainsAny(rest, "@:") {
		return false
	}
	for _, part := range strings.FieldsFunc(rest, func(r rune) bool { return r == '/' || r == '#' || r == '.' || r == '?' || r == '=' || r == '&' }) {
		// A token: long, or of both cases and digits (an item's id,
		// 2ma4dkxd3xbyq2ponjtjcwwjxu, or billing-api-v2 is a name).
		upper, lower := strings.ContainsAny(part, "ABCDEFGHIJKLMNOPQRSTUVWXYZ"), strings.ContainsAny(part, "abcdefghijklmnopqrstuvwxyz")
		if looksLikeToken(part) && (len(part) >= 32 || upper && lower && len(part) >= 16) {
			return false
		}
	}
	return true
}

// schemeEnd: the end of "scheme://" that starts v, followed by more, or 0.
func schemeEnd(v string) int {
	i := runEnd(v, 0, isSchemeChar)
	if i == 0 || !isLetter(v[0]) || !hasAt(v, i, "://") || i+3 == len(v) {
		return 0
	}
	return i + 3
}

// fieldFromVariable: the label at s[i:] is an object's field and v, its
// value, a variable's name: lowercase first, no digit, a PHP variable's '$'
// before it (this.password = hashedPw;, self.password = user_password,
// $this->password = $hashed;; not cfg.password = Hunter2x9). A field is
// the label after "." or "->", one the label's receiver names (this.,
// self., $this->), or a dotted label set in a statement that ends with ';'
// (user.password = newPassword;): a properties file's dotted key sets no
// variable (spring.datasource.password = mysecretpw).
func fieldFromVariable(s string, i, vs, ve int) bool {
	v := s[vs:ve]
	w := strings.TrimPrefix(strings.TrimRight(v, ";"), "$")
	if w == "" || w[0] < 'a' || w[0] > 'z' || !isName(w) || strings.IndexAny(w, "0123456789") >= 0 {
		return false
	}
	if i > 0 && (s[i-1] == '.' || hasAt(s, i-min(i, 2), "->")) || hasAt(s, i, "this.") || hasAt(s, i, "self.") || hasAt(s, i, "$this->") {
		return true
	}
	k := runEnd(s, i, func(c byte) bool { return isIdent(c) || c == '.' })
	return (strings.HasSuffix(v, ";") || hasAt(s, ve, ";")) && strings.IndexByte(s[i:k], '.') > 0
}

// isCode: a bare value that is code handling a secret rather than the
// secret: a call (r.FormValue("password"), getpass()), a type
// (password: string, token: Optional[str]), the variable of the same name
// (password=password) or a field that names a secret (cfg.Password,
// self.api_key). A password that looks like a call ("abc(") is rare enough
// to pay for every form handler and interface that names a password.
func isCode(label, v string, typed bool) bool {
	// The run of an identifier path: a.b.c
	i := 0
	for i < len(v) && (isName(v[i:i+1]) || i > 0 && (v[i] >= '0' && v[i] <= '9' || v[i] == '.' || v[i] == ':' || v[i] == '?' && hasAt(v, i+1, ".")) || v[i] == '$') {
		i++ // a?.b: JavaScript's optional member
	}
	if i > 0 && i < len(v) && v[i] == '(' {
		return true
	}
	if i > 0 && i == len(v)-1 && v[i] == '[' {
		return true // an index whose quote ended the value: request.form["password"]
	}
	if j := strings.IndexByte(v[min(i, len(v)):], ']'); i > 0 && i < len(v) && v[i] == '[' && j > 0 && isName(strings.Trim(v[i+1:i+j], ":\"'")) && strings.Trim(v[i+j+1:], ")];,") == "" {
		return true // an index by a name: params[:password], row["password"]
	}
	t, bang := v, false
	for len(t) > 0 && strings.IndexByte(")]};:,?|!", t[len(t)-1]) >= 0 {
		if t[len(t)-1] == '!' {
			if !typed && !nonNull(label, t) {
				break // PASSWORD=Password!
			}
			bang = true // GraphQL's non-null: String!; TypeScript's: process.env.DB_PASSWORD!
		}
		t = t[:len(t)-1]
	}
	if typed && !strings.HasPrefix(t, "&'") {
		t = strings.TrimLeft(t, "?&") // PHP's ?string, Rust's &SecretString, &str
		if strings.HasPrefix(t, "*") && !strings.HasPrefix(t, "*const") && !strings.HasPrefix(t, "*mut") {
			t = t[1:] // Go's *string
		}
	}
	if k := strings.IndexByte(t, '<'); typed && k > 0 && genericType(t, k) {
		return true // a generic type: Secret<String>, Arc<Mutex<String>>, Result<String, (the value cut at a blank)
	}
	// A type's first word, the value cut at a blank (impl Into<String>, dyn
	// Fn, typeof TOKEN, readonly string[], &mut [u8], *const u8), or a
	// slice's type ([u8], [u8; 32]).
	if typed && (inList(" impl dyn typeof keyof readonly unique mut *const *mut ", t) ||
		strings.HasPrefix(t, "[") && inList(" u8 i8 u16 i16 u32 i32 u64 i64 f32 f64 usize isize byte char str String ", strings.Trim(strings.SplitN(t, ";", 2)[0], "[]"))) {
		return true
	}
	if tfReference(t) {
		return true
	}
	for i, p := range [...]string{"Optional[", "Final[", "Option<", "Promise<", "&'", "Annotated[", "Union[", "dict[", "list[", "tuple[", "Mapped["} {
		if strings.HasPrefix(t, p) && (typed || i < 5) {
			// Untyped, a generic needs a word of the language inside:
			// DB_PASSWORD=Option<Kitty> is a password's.
			if _, lang := typeNames(t, len(p)-1); typed || p[len(p)-1] != '<' || lang {
				return true
			}
		}
	}
	w := strings.TrimSuffix(t, "[") // string[] (its "]" went above)
	if j := strings.LastIndexAny(w, ":."); typed && j > 0 && isLetter(w[0]) && strings.Trim(w[:j], "abcdefghijklmnopqrstuvwxyz0123456789_:.") == "" {
		w = w[j+1:] // a type on a module's path: secrecy::SecretString, std::string, java.lang.String (Hunter::Two is none)
	}
	if w == "[]byte" || inList(typeWords, w) || typedArray(w) {
		return true
	}
	if i != len(t) || i == 0 {
		return false
	}
	if k := identEnd(label); k > 0 {
		// The variable of the same name, a field set from it (this.password
		// = password, $this->password = $password) or from one named for
		// it (self.password = user_password).
		field := label[strings.LastIndexByte(label[:k], '.')+1 : k]
		name := strings.TrimPrefix(t, "$")
		if bang && !nonNull(label, t) {
			return false // not one of the types above: password: Hunter2x!, password: Password!, Top.Secret!
		}
		if strings.EqualFold(name, label[:k]) || strings.EqualFold(name, field) ||
			field != label[:k] && isName(name) && len(name) > len(field) && strings.EqualFold(name[len(name)-len(field)-1:], "_"+field) {
			return true
		}
	}
	dot := strings.LastIndexByte(t, '.')
	if first := strings.IndexByte(t, '.'); typed && first > 0 && inList(" PropTypes t Schema S pydantic DataTypes Sequelize Type z Joi yup types fields sa ", t[:first]) {
		// A schema's or a validator's type: PropTypes.string.isRequired,
		// t.string, Schema.String, pydantic.SecretStr, DataTypes.STRING.
		for _, w := range strings.Split(t[first+1:], ".") {
			if inList(typeWords, w) {
				return true
			}
		}
	}
	if dot > 0 && codeRead(t) {
		// A field holding a secret's hash: user.passwordHash, dto.password_hash.
		last := strings.ToLower(t[dot+1:])
		stem := strings.TrimPrefix(strings.TrimPrefix(strings.TrimSuffix(strings.TrimSuffix(last, "hash"), "_"), "hashed"), "_")
		if stem != last && stem != "" && (passLabel(stem, 0, len(stem)) || secretKeyword(stem, 0, len(stem))) {
			return true
		}
	}
	return dot > 0 && dot < len(t)-1 && (secretKeyword(t, dot+1, len(t)) || passLabel(t, dot+1, len(t)) || strings.EqualFold(t[dot+1:], "authorization")) || namesSecret(t)
}

// namesSecret: t, a path of names, is code's name for a secret rather than
// one, in shapes a password does not take:
//   - a CI's or a vendor's variable: GITHUB_TOKEN, NPM_TOKEN, DB_PASSWORD
//     (capitals, a known first word, the last a secret's; two or three
//     words);
//   - a type whose first word is a secret's and whose next is code's:
//     PasswordHasher, TokenKind, KeyManager;
//   - on a path, a setting read from a module (settings.SECRET_KEY: a
//     lowercase module, the last name capitals ending with a secret's word),
//     a type's well-known member (CancellationToken.None) or an enum's
//     variant of such a type (TokenKind::Identifier).
//
// A capitalised passphrase (HORSE_BATTERY_STAPLE_KEY, MY_SECRET_PASSWORD),
// a name after one that merely ends like a secret's (BlueKey.Sunrise,
// FlamingoSecretManager), Secret_Sauce, SecretSauce, HUNTER_TWO, Password1
// stay secrets (h-v80 B13).
func namesSecret(t string) bool {
	if inList(" String.Empty string.Empty ", t) {
		return true // C#'s empty string (h-v82 B3)
	}
	parts := strings.Split(strings.ReplaceAll(t, "::", "."), ".")
	for _, p := range parts {
		if !isName(p) || strings.IndexAny(p, "0123456789") >= 0 {
			return false
		}
	}
	last := parts[len(parts)-1]
	if len(parts) == 1 {
		return vendorVariable(last) || secretType(last)
	}
	if first := parts[0]; first[0] >= 'a' && first[0] <= 'z' && isUpperName(last) && strings.IndexByte(last, '_') > 0 {
		words, _ := nameWords(last)
		if secretWord(words[len(words)-1]) {
			return true // settings.SECRET_KEY
		}
	}
	for i, p := range parts[:len(parts)-1] {
		words, _ := nameWords(p)
		if p[0] < 'A' || p[0] > 'Z' || len(words) < 2 {
			continue
		}
		next := parts[i+1]
		if secretWord(words[len(words)-1]) && inList(" None Empty Default Zero Null Nil Invalid Unknown Instance Type Class Builder Factory Parse Create New From ", next) ||
			secretType(p) && next[0] >= 'A' && next[0] <= 'Z' {
			return true
		}
	}
	return false
}

// vendorVariable: p is an environment variable a CI or a vendor names
// (GITHUB_TOKEN, NPM_TOKEN, AWS_SECRET_ACCESS_KEY, DB_PASSWORD): capitals
// in two to four words, the first a known one, the last a secret's word.
func vendorVariable(p string) bool {
	if !isUpperName(p) || strings.IndexByte(p, '_') <= 0 {
		return false
	}
	words, _ := nameWords(p)
	return len(words) >= 2 && len(words) <= 4 && secretWord(words[len(words)-1]) &&
		inList(" GITHUB GH GITLAB CI NPM NODE PYPI TWINE DOCKER DOCKERHUB AWS GCP GOOGLE AZURE SLACK DISCORD STRIPE OPENAI ANTHROPIC HEROKU VERCEL NETLIFY SENTRY CODECOV SONAR TWILIO SENDGRID CLOUDFLARE HF HUGGINGFACE DB DATABASE POSTGRES MYSQL REDIS API APP JWT SMTP ", words[0])
}

// secretType: p is a type's name whose first word is a secret's and whose
// next is code's (PasswordHasher, TokenKind, KeyManager, SecretField).
func secretType(p string) bool {
	words, at := nameWords(p)
	return len(words) >= 2 && strings.IndexByte(p, '_') < 0 && !isUpperName(p) && secretWord(words[0]) &&
		(wrapperName(p[at[1]:]) || inList(" Hasher Kind Manager Service Encoder Decoder Validator Helper Util Utils Id ", words[1]))
}

// secretWord: w is one of secretWords, "key" or "pass", in any case.
func secretWord(w string) bool {
	for _, s := range secretWords {
		if strings.EqualFold(w, s) {
			return true
		}
	}
	return strings.EqualFold(w, "key") || strings.EqualFold(w, "pass")
}

// nameWords splits a name at its underscores and where a capital starts a
// word (CancellationToken, JWTToken, SECRET_KEY): the words and where each
// starts.
func nameWords(p string) (words []string, at []int) {
	start := 0
	for i := 1; i <= len(p); i++ {
		up := func(j int) bool { return j < len(p) && p[j] >= 'A' && p[j] <= 'Z' }
		lo := func(j int) bool { return j < len(p) && p[j] >= 'a' && p[j] <= 'z' }
		if i == len(p) || p[i] == '_' || up(i) && (lo(i-1) || up(i-1) && lo(i+1)) {
			if i > start {
				words, at = append(words, p[start:i]), append(at, start)
			}
			start = i
			if i < len(p) && p[i] == '_' {
				start++
			}
		}
	}
	return words, at
}

// tfReference: v is a Terraform reference to another resource's attribute,
// a lowercase path of three names or more that starts with a data source or
// one of the resources that hold a secret and ends with the attribute a
// secret is read from (random_password.db.result, a secret version's
// secret_string, a data source's value: data.aws_ssm_parameter.db.value), what a
// configuration reads, not a secret; a passphrase with dots and an
// underscore (correct_horse.battery.staple, random_horse.battery.staple)
// has neither.
func tfReference(v string) bool {
	k := strings.IndexByte(v, '.')
	if k < 0 || !strings.HasPrefix(v, "data.") && !inList(" random_password random_string aws_secretsmanager_secret_version azurerm_key_vault_secret vault_generic_secret ", v[:k]) {
		return false
	}
	dots, under := 0, false
	for i := 0; i < len(v); i++ {
		switch c := v[i]; {
		case c == '.' && i > 0 && i+1 < len(v) && v[i+1] >= 'a' && v[i+1] <= 'z':
			dots++
		case c == '_':
			under = true
		case c == '[' || c == ']' || c >= '0' && c <= '9' && i > 0:
		case c < 'a' || c > 'z':
			return false
		}
	}
	last := v[strings.LastIndexByte(v, '.')+1:]
	return dots >= 2 && under && (last == "result" || last == "bcrypt_hash" || last == "secret_string" || last == "value" && strings.HasPrefix(v, "data."))
}

// nonNull: v, ended by TypeScript's non-null "!", reads the environment
// (process.env.DB_PASSWORD!, ctx.env.API_TOKEN!) or the field the label
// names, of small letters (props.password!, req.body.password!), where a
// password that looks like it has capitals or other words
// (this.is.my.Password!, this.isMyPassword!, this.is.Secret!).
func nonNull(label, v string) bool {
	v = strings.TrimRight(v, "!")
	if d := strings.LastIndexByte(v, '.'); d > 0 && isName(v[d+1:]) && inList(" process.env env import.meta.env Deno.env c.env ctx.env ", v[:d]) {
		return true
	}
	k := identEnd(label)
	field := label[strings.LastIndexByte(label[:k], '.')+1 : k]
	parts := strings.Split(v, ".")
	for _, p := range parts {
		if p == "" || p[0] < 'a' || p[0] > 'z' || !isName(p) {
			return false
		}
	}
	return len(parts) >= 2 && len(parts) <= 3 && field != "" && strings.EqualFold(parts[len(parts)-1], field) && codeRead(v)
}

// codeRead: v reads a field of an object code names so, the environment's
// or a request's (process.env.DB_PASSWORD, props.password, req.body.password,
// ctx.env.API_TOKEN), a path of names: what TypeScript's non-null "!" ends
// and a hash's field is read from; a password (my.secret!, Top.Secret!,
// Corned.Beef.Hash) starts with no such name.
func codeRead(v string) bool {
	k := strings.IndexByte(v, '.')
	return k > 0 && inList(" process import Deno env props this self cfg config conf options opts input req request res body ctx c session creds credentials settings args params user dto data form values model ", v[:k]) &&
		runEnd(v, 0, func(c byte) bool { return isIdent(c) || c == '.' }) == len(strings.TrimRight(v, "!"))
}

// codeAt is isCode for the value at s[vs:ve] of the label that starts at
// s[at] (word its identifier): a type when bare after a colon (password:
// String!), never quoted or assigned; a generic cut at a blank is read to
// its '>' on the line (Result<String, Error>), a '<' that none closes is a
// password's.
func codeAt(s, word string, at, vs, ve int) bool {
	if strings.Contains(s[vs:ve], "(") && !callText(s, vs, ve) {
		return false // a bracket inside a quoted literal: 'Ya1x(Kp6'
	}
	return isCode(word, generic(s, vs, ve), strings.HasSuffix(strings.TrimRight(s[at:vs], " \t"), ":"))
}

// generic is the value at s[vs:ve], to the '>' that closes its generic
// on the line within 128 bytes when a blank cut it (Result<String, Error>).
func generic(s string, vs, ve int) string {
	i := strings.IndexByte(s[vs:ve], '<')
	if i <= 0 || strings.IndexByte(s[vs:ve], '>') >= 0 {
		return s[vs:ve]
	}
	depth := 0
	for k := vs + i; k < len(s) && k < vs+i+128 && s[k] != '\n'; k++ {
		if s[k] == '<' {
			depth++
		} else if s[k] == '>' && s[k-1] != '-' && s[k-1] != '=' {
			if depth--; depth == 0 {
				return s[vs : k+1]
			}
		}
	}
	return s[vs:ve]
}

// genericType: t, bare after a colon, its first '<' at k, is a generic type:
// its names are a type's (typeNames), and the name before the '<' (the last
// of a path: secrecy::Secret) is one of the languages' containers and
// wrappers (wrapperName: Secret<Rainbow> is read as a type), or a word of the
// language is inside (Sensitive<String>, Readable<string | null>,
// PasswordHash<'static>, Protected<Vec<u8>>, Brand<string, "Password">). A
// password shaped like a generic has neither: Sunshine<Rainbow>, Abc<Def>,
// Md5<Hunter>, Word2024<Pass>, Horse<Battery?>.
func genericType(t string, k int) bool {
	outer := t[:k]
	if j := strings.LastIndexAny(outer, ".:"); j > 0 && runEnd(outer, 0, func(c byte) bool { return isIdent(c) || c == '.' || c == ':' }) == k {
		outer = outer[j+1:]
	}
	if outer == "" || outer[0] < 'A' || outer[0] > 'Z' || runEnd(outer, 0, isAlnum) < len(outer) {
		return false
	}
	names, lang := typeNames(t, k)
	return names && (lang || wrapperName(outer))
}

// typeNames: t is a generic's names, closed (Secret<String>,
// Arc<Mutex<String>>, Cow<'a, str>, Secret<[u8; 32]>, GenericArray<u8, U32>,
// Uint8Array<ArrayBuffer>, Observable<string | null>, Box<dyn Fn() -> String>),
// and lang, whether a word of the language is inside its first '<' at k
// (string, null, dyn, a lifetime or a string type: 'static, "password", a
// type parameter: T, a container, a width: Vec, Int32).
// Its words hold no digit but a number type's (u8, i32), a type parameter's
// (T1, U32), an array's size, a typed array's (Uint8Array) or a width's or
// an algorithm's (widthName: Int32, Sha256, Aes256Gcm); a qualified name's
// "." (Token.Id), a nullable's "?" (AuthToken?) and a string type's quotes
// are a type's; the punctuation of a union, an option or a closure ("|",
// "?", "->", "+", ".") only beside a word of the language's (string, null,
// dyn, fn, Any): as in a password, Sunshine<Rainbow1>, Summer<K2024>,
// Pa55<Word>, Ab<Cd|Ef>, Kitty<Cat->Dog> are none.
func typeNames(t string, k int) (names, lang bool) {
	words, odd, known := 0, false, false
	for i := 0; i < len(t); {
		e := runEnd(t, i, func(c byte) bool { return isLetter(c) || c >= '0' && c <= '9' || c == '_' })
		if e == i {
			// A qualified name's "." (Token.Id), a nullable's "?" (AuthToken?)
			// and a string type's quotes (Pick<Form, "password">) are a type's.
			qualified := t[i] == '.' && i > 0 && isLetter(t[i-1]) && i+1 < len(t) && isLetter(t[i+1])
			nullable := t[i] == '?' && i > 0 && isLetter(t[i-1]) && i+1 < len(t) && strings.IndexByte(">,", t[i+1]) >= 0
			if strings.IndexByte("<>[](){},:;=&'\" ", t[i]) < 0 && !qualified && !nullable {
				if strings.IndexByte("|?+-.", t[i]) < 0 {
					return false, false
				}
				odd = true
			}
			i++
			continue
		}
		w := t[i:e]
		word := inList(typeWords, w)
		known = known || word
		lang = lang || i > k && (word || t[i-1] == '\'' || t[i-1] == '"' || len(w) == 1 && w[0] >= 'A' && w[0] <= 'Z' && e < len(t) && (t[e] == '>' || t[e] == ',') || wrapperName(w) || widthName(w))
		if d := strings.IndexAny(w, "0123456789"); d >= 0 {
			digits := runEnd(w, d, func(c byte) bool { return c >= '0' && c <= '9' })
			switch {
			case d == 0:
				if before := strings.TrimRight(t[:i], " "); digits < len(w) || !strings.HasSuffix(before, ";") && !((strings.HasSuffix(before, "<") || strings.HasSuffix(before, ",")) && inList(widths, w)) {
					return false, false // but an array's size, a const generic's: [u8; 32], String<64>, ArrayVec<u8, 64>
				}
			case d == 1 && digits == len(w) && words > 0 && (strings.IndexByte("uif", w[0]) >= 0 || w[0] >= 'A' && w[0] <= 'Z' && len(w) <= 3):
			case typedArray(w):
			case widthName(w):
			default:
				return false, false
			}
		}
		i, words = e, words+1
	}
	return words > 1 && t[len(t)-1] == '>' && (known || !odd), lang
}

// wrapperName: w is one of the languages' containers and wrappers or ends as
// their names end (HashMap, StateFlow, LiveData, ValueTask, PhantomData).
func wrapperName(w string) bool {
	for i := len(w) - 1; i >= 0; i-- {
		if w[i] >= 'A' && w[i] <= 'Z' && inList(" List Set Map Array Vec Vector Option Optional Result Promise Future Task Flow Data Box Arc Rc Ref Cell Mutex Lock Pin Cow Record Pick Omit Partial Readonly Required Nullable Extract Exclude Awaited Observable Subject Signal Channel Stream Queue Deque Tuple Pair Key Secret Cipher Hmac Dict Dictionary Collection Iterable Iterator Enumerable Sequence Either Lazy Mono Flux Single Maybe Response Request Entity Type Value Provider Factory Store Cache State Sender Receiver Weak Atomic Deferred Callable Generator Handle Buffer Slice Span Holder Wrapper Field Property Event Handler Callback Func Action Supplier Consumer Reader Writer Client Context Config Options Params Props Input Output Guard Annotated Mapped Final Union Token Zeroizing Control Memory Claims Reference Nonce Binding Published Emitter Parameters Object String Bytes ", w[i:]) {
			return true
		}
	}
	return false
}

// typedArray: w is one of JavaScript's typed arrays (Uint8Array, Float32Array).
func typedArray(w string) bool {
	return strings.HasSuffix(w, "Array") && inList(" Int Uint Float BigInt BigUint Uint8Clamped ", strings.TrimRight(w[:len(w)-5], "0123456789"))
}

// typeWords are the languages' own type names: a value bare after a colon
// that is one is a type (password: string, token: SecretStr), and one inside
// a generic makes it a type's (Sensitive<String>, Readable<string | null>).
const typeWords = " string String STRING str number Number boolean Boolean bool byte bytes char int any Any void never unknown undefined null object dyn fn Fn FnMut FnOnce Send Sync Error Buffer ArrayBuffer Blob SecretStr SecretString SecretBytes ID string_view NullString SecureString ZodString "

// widths are the numbers in a width's or an algorithm's name (Int32,
// Ed25519) and a const generic's (String<64>): never a year.
const widths = " 1 2 3 4 5 8 16 32 58 64 85 128 160 224 256 384 448 512 1024 2048 4096 25519 "

// widthName: w is a width's or an algorithm's name, one of their widths
// after one of their stems, a few letters after it: Int32, Sha256, Base64,
// Utf8, Aes256Gcm, Ed25519, Argon2id. A password's digits follow a word of
// its own, or are a year: Banana99, Rainbow1, Asdf123, Ed1985, Word2024.
func widthName(w string) bool {
	d := strings.IndexAny(w, "0123456789")
	e := runEnd(w, max(d, 0), func(c byte) bool { return c >= '0' && c <= '9' })
	return d > 0 && strings.IndexAny(w[e:], "0123456789") < 0 &&
		inList(widths, w[d:e]) &&
		inList(" Int Uint UInt Float Double Sha Aes Base Utf Md Crc Blake Ed Curve Secp Argon Chacha ChaCha Poly Salsa Rsa Ecdsa Vec Mat Word Bits Complex Decimal Murmur Xxh Fnv Keccak Ripemd ", w[:d])
}

// interpolates: v starts with an interpolation that computes with a name
// (${token.slice(0, 4)}, ${TOKEN:0:4}, an f-string's {token[:4]}), what
// code prints of a secret, not the secret; a shell's default
// (${PW:-hunter2x}) is none.
func interpolates(v string) bool {
	i := 1
	if strings.HasPrefix(v, "${") {
		i = 2
	} else if v == "" || v[0] != '{' || strings.IndexByte(v, '}') < 0 {
		return false // an f-string's field is whole: {token[:4]}
	}
	k := runEnd(v, i, isIdent)
	return k > i && k+1 < len(v) && (strings.IndexByte(".([", v[k]) >= 0 || v[k] == ':' && v[k+1] >= '0' && v[k+1] <= '9')
}

// isPlaceholder: words a person writes where a secret will go ("your-token",
// "vault_password"), nothing that could hold "=" or ":".
func isPlaceholder(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !isIdent(c) && c != ' ' {
			return false
		}
	}
	return true
}

// isAccessorArg: what follows an accessor, a name with optional quotes and
// closing brackets ("API_KEY", "'TOKEN']"), or nothing when a bare value
// stopped at the quote of os.environ["TOKEN"].
func isAccessorArg(s string) bool {
	s = strings.TrimRight(s, ")]")
	s = strings.Trim(s, `"'`)
	return s == "" || isName(s)
}

// inPath: the word at s[i:] is a name in a path, after a "/" that follows
// a path's start ("/etc/passwd", "../passwd", "~/.pw") or another name and
// "/" ("config/secrets/token"): "../etc/passwd": is a file, not a label.
// One name and "/" before it are a pair: "user/password: ada/hunter2"; a
// name given a value ("/w/password=hunter2") is a label wherever it is.
func inPath(s string, i int) bool {
	if i == 0 || s[i-1] != '/' {
		return false
	}
	// A name given a value in the path ("/w/password=hunter2") is a label.
	if j := runEnd(s, i, isToken); j < len(s) && s[j] == '=' {
		return false
	}
	// Back to the start of the word the path is, or to a "/" before: one
	// is enough, and a line of no blank and many "/password" ("…</password>
	// <password>…") walked back to its start from each.
	b := i - 1
	for ; b > 0; b-- {
		switch c := s[b-1]; {
		case c == '/':
			return true
		case isSpace(c) || isQuote(c) || c == '(' || c == '`':
			return b == i-1 || s[b] == '.' || s[b] == '~'
		}
	}
	return b == i-1 || s[0] == '.' || s[0] == '~'
}

func isPath(v string) bool {
	if v[0] != '/' && v[0] != '~' && v[0] != '.' {
		return false
	}
	for i := 0; i < len(v); i++ {
		if c := v[i]; !isIdent(c) && c != '/' && c != '~' {
			return false
		}
	}
	return true
}
