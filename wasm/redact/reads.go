package redact

import "strings"

// Withheld stands for the output of a command that ReadsSecret: what the
// exits that send a tool's output on send in its place.
const Withheld = "[REDACTED: the output of a command that reads a secret]"

// ReadsSecret reports whether a shell command prints a secret by itself,
// bare, where no label or pattern can name it in its output: a secret
// manager's read (op read, pass show, vault kv get, aws secretsmanager
// get-secret-value, gcloud secrets versions access), a Kubernetes secret,
// a keychain's password, a decryption (sops -d), or an echo of a variable a
// secret's label names ($DB_PASSWORD). Its output is withheld whole by
// the exits that send a tool's output on (the observer, Hindsight).
//
//	ReadsSecret("op read op://vault/db/password") => true
//	ReadsSecret("kubectl get secret db -o jsonpath='{.data.pw}' | base64 -d") => true
//	ReadsSecret("echo $OPENAI_API_KEY") => true
//	ReadsSecret("kubectl get pods") => false
func ReadsSecret(command string) bool {
	return readsSecretIn(command, 0)
}

func readsSecretIn(command string, depth int) bool {
	if readsEnvSecret(command) || jqFilterSecret(command) || envFileValues(command) {
		return true
	}
	for _, part := range strings.FieldsFunc(command, func(r rune) bool {
		return r == '|' || r == ';' || r == '&' || r == '\n' || r == '(' || r == ')' || r == '`'
	}) {
		if w := commandWords(strings.Fields(part)); len(w) > 0 && readsSecret(w) {
			return true
		}
	}
	// A command another runs from a string: sh -c '…', ssh host "…",
	// bash -c "op read …" (h-v95 b4).
	if depth < 2 {
		for _, q := range [...]byte{'\'', '"'} {
			for rest := command; ; {
				i := strings.IndexByte(rest, q)
				if i < 0 {
					break
				}
				// To the quote that closes it: one a backslash escapes does not
				// (bash -c "ssh db \"op read …\"").
				j := i + 1
				for j < len(rest) && rest[j] != q {
					if rest[j] == '\\' && q == '"' {
						j++
					}
					j++
				}
				if j >= len(rest) {
					break
				}
				if inner := strings.TrimSpace(strings.ReplaceAll(rest[i+1:j], `\"`, `"`)); len(strings.Fields(inner)) > 1 && readsSecretIn(inner, depth+1) {
					return true
				}
				rest = rest[j+1:]
			}
		}
	}
	return false
}

// commandWords is the command a simple command's words w run: past what
// runs it (sudo, env, time, nice, nohup, FOO=1), the command after a "--"
// (kubectl exec pod -- printenv X), or after docker exec's container.
func commandWords(w []string) []string {
	// A loop, not a call per wrapper, and a bounded one: 300 "--" words
	// overflowed the core's stack (h-v98 a2); no real command wraps 16 deep.
	for depth := 0; depth < maxWraps; depth++ {
		w = unprefixed(w)
		next := -1
		for i, x := range w {
			if x == "--" && i+1 < len(w) {
				next = i + 1
				break
			}
		}
		// docker exec [flags] CONTAINER cmd…, docker compose exec SERVICE
		// cmd…, ssh [flags] HOST cmd… (h-v96 b4).
		k := 0
		switch {
		case next >= 0:
		case len(w) > 2 && (w[0] == "docker" || w[0] == "podman") && w[1] == "exec":
			k = 2
		case len(w) > 3 && (w[0] == "docker" || w[0] == "podman") && w[1] == "compose" && w[2] == "exec", len(w) > 2 && w[0] == "docker-compose" && w[1] == "exec":
			k = 3
			if w[0] == "docker-compose" {
				k = 2
			}
		case len(w) > 2 && w[0] == "ssh":
			k = 1
		}
		if k > 0 {
			for k < len(w) && strings.HasPrefix(w[k], "-") {
				if takesValue(w[0], w[k]) {
					k++
				}
				k++
			}
			if k+1 < len(w) {
				next = k + 1
			}
		}
		if next < 0 {
			break
		}
		w = w[next:]
	}
	if len(w) > 0 && w[0] == "k" {
		w = append([]string{"kubectl"}, w[1:]...) // the usual alias
	}
	return w
}

// maxWraps bounds how many commands that run another commandWords reads
// through.
const maxWraps = 16

// unprefixed is w past the prefixes that run the command after them (sudo,
// env, timeout 5, FOO=1), with their flags and values.
func unprefixed(w []string) []string {
	for len(w) > 0 {
		switch name := w[0]; {
		case name == "sudo" || name == "env" || name == "command" || name == "exec" || name == "time" || name == "nice" || name == "nohup" || name == "watch" || name == "timeout" || name == "doas":
			// A prefix that runs the command, with its flags and their
			// values: sudo -u vault vault read …, timeout 5 op read …,
			// nice -n 10 …
			w = w[1:]
			for len(w) > 1 && (strings.HasPrefix(w[0], "-") || name == "timeout" && isDuration(w[0])) {
				if takesValue(name, w[0]) {
					w = w[1:]
				}
				w = w[1:]
			}
		case strings.Contains(name, "=") && !strings.HasPrefix(name, "-"):
			w = w[1:] // FOO=1 vault read …
		default:
			return w
		}
	}
	return w
}

// takesValue: the flag f of command name is followed by its value
// (sudo -u USER, docker exec -u root, ssh -i KEY, nice -n 10).
func takesValue(name, f string) bool {
	if strings.Contains(f, "=") || len(f) != 2 {
		return false
	}
	switch name {
	case "sudo", "doas":
		return strings.ContainsRune("ugChDpRrTt", rune(f[1]))
	case "docker", "podman", "docker-compose":
		return strings.ContainsRune("uwe", rune(f[1]))
	case "ssh":
		return strings.ContainsRune("ilpoFJLRDWbcEeIOQSm", rune(f[1]))
	case "nice":
		return f[1] == 'n'
	case "timeout":
		return f[1] == 's' || f[1] == 'k'
	case "watch":
		return f[1] == 'n' || f[1] == 'd'
	}
	return false
}

// isDuration: w is timeout's duration ("5", "2.5s", "1m").
func isDuration(w string) bool {
	w = strings.TrimRight(w, "smhd")
	return w != "" && strings.Trim(w, "0123456789.") == ""
}

// secretReads are the commands, by their first words, that print a secret
// bare; a word "-" starts with is a flag the command must also be given.
var secretReads = [][]string{
	{"op", "read"}, {"op", "item", "get", "--reveal"}, {"pass", "show"}, {"gopass", "show"}, {"lpass", "show"}, {"bw", "get"},
	{"vault", "kv", "get"}, {"vault", "read"}, {"aws", "secretsmanager", "get-secret-value"}, {"aws", "ssm", "get-parameter", "--with-decryption"},
	{"aws", "ssm", "get-parameters", "--with-decryption"}, {"gcloud", "secrets", "versions", "access"}, {"az", "keyvault", "secret", "show"},
	{"kubectl", "get", "secret"}, {"kubectl", "get", "secrets"}, {"oc", "get", "secret"}, {"oc", "extract", "secret"}, {"doppler", "secrets", "get"},
	{"doppler", "secrets", "download"}, {"security", "find-generic-password", "-w"}, {"security", "find-internet-password", "-w"},
	{"sops", "-d"}, {"sops", "--decrypt"}, {"ansible-vault", "view"}, {"ansible-vault", "decrypt"}, {"gh", "auth", "token"},
	{"heroku", "config:get"}, {"infisical", "secrets", "get"}, {"akeyless", "get-secret-value"},
	{"pulumi", "config", "get"}, {"aws", "ecr", "get-login-password"}, {"secret-tool", "lookup"}, {"gpg", "-d"}, {"gpg", "--decrypt"},
	{"terraform", "output", "-raw"}, {"terraform", "output", "-json"}, {"aws", "configure", "get"}, {"kubectl", "view-secret"},
	{"chamber", "read"}, {"age", "-d"}, {"age", "--decrypt"}, {"rage", "-d"}, {"rage", "--decrypt"}, {"pwgen"},
	{"tofu", "output", "-raw"}, {"tofu", "output", "-json"}, {"terragrunt", "output", "-raw"}, {"pulumi", "stack", "output", "--show-secrets"},
	{"openssl", "rand"}, {"aws", "sts", "assume-role"}, {"aws", "sts", "get-session-token"}, {"aws", "sts", "get-federation-token"},
	{"xclip", "-o"}, {"pbpaste"}, {"wl-paste"}, {"passage", "show"}, {"gopass", "show"},
	{"rails", "secret"}, {"wg", "genkey"}, {"pulumi", "config", "--show-secrets"}, {"php", "artisan", "key:generate", "--show"},
	{"dotenvx", "get"}, {"xsel", "-b"}, {"xsel", "-o"},
}

// outputNamed: the words after terraform (its flags first: -chdir=…) are
// its output subcommand and a name: terraform -chdir=infra output db_pw.
func outputNamed(w []string) bool {
	for len(w) > 0 && strings.HasPrefix(w[0], "-") {
		w = w[1:]
	}
	return len(w) > 1 && w[0] == "output" && !strings.HasPrefix(w[len(w)-1], "-")
}

// secretFile: path names a file that holds a secret bare: Rails'
// master.key, a secrets/ folder's file, one named for a password, a token
// or a key (db_password.txt, api.token), not source (secrets.go).
func secretFile(path string) bool {
	p := strings.ToLower(path)
	base := p[strings.LastIndexByte(p, '/')+1:]
	if strings.HasSuffix(base, ".go") || strings.HasSuffix(base, ".ts") || strings.HasSuffix(base, ".js") || strings.HasSuffix(base, ".py") || strings.HasSuffix(base, ".md") || strings.HasSuffix(base, ".rb") {
		return false
	}
	if base == "master.key" || strings.Contains(p, "secrets/") && !strings.HasSuffix(base, ".yml") && !strings.HasSuffix(base, ".yaml") && !strings.HasSuffix(base, ".json") {
		return true
	}
	stem := strings.TrimSuffix(base, ".txt")
	return stem != base && secretLabel(stem, 0, len(stem)) || strings.HasSuffix(base, ".token")
}

// passCommands are pass's subcommands that print no password; any other
// first word is a name it shows (pass prod/db) or one it prints a new or a
// one-time password of (generate, otp).
var passCommands = " ls list init insert add edit rm remove delete mv rename cp copy git grep find search help version --help --version "

// interpreters run code given on their command line (python -c, node -e).
var interpreters = " python python2 python3 node nodejs deno bun ruby perl php "

// envReads are how code reads a variable of its environment; the name
// after one, when a secret's label, is read to be printed or used.
var envReads = [...]string{"environ", "getenv", "process.env", "ENV[", "ENV.fetch", "$ENV{", "Deno.env.get", "Bun.env"}

// readsEnvSecret: command runs an interpreter whose code reads a variable a
// secret's label names: python3 -c "print(os.environ['DB_PASSWORD'])",
// node -e 'console.log(process.env.API_TOKEN)'.
func readsEnvSecret(command string) bool {
	run := false
	for _, f := range strings.Fields(command) {
		name := f[strings.LastIndexByte(f, '/')+1:]
		name = strings.TrimRight(name, "0123456789.")
		if name != "" && inList(interpreters, name) {
			run = true
			break
		}
	}
	if !run {
		return false
	}
	for _, g := range [...]string{"secrets.token_", "crypto.randomBytes(", "SecureRandom", "randomUUID"} {
		if strings.Contains(command, g) {
			return true // a secret made and printed: python3 -c "import secrets; print(secrets.token_hex())"
		}
	}
	for _, e := range envReads {
		for rest := command; ; {
			i := strings.Index(rest, e)
			if i < 0 {
				break
			}
			rest = rest[i+len(e):]
			// To the name: .get( [ ( ' " and blanks.
			j := 0
			for j < len(rest) && strings.IndexByte(" \t.[('\"", rest[j]) >= 0 || hasAt(rest, j, "get(") {
				if hasAt(rest, j, "get(") {
					j += 4
				} else {
					j++
				}
			}
			if k := runEnd(rest, j, isWord); k > j && secretLabel(rest[j:k], 0, k-j) {
				return true
			}
		}
	}
	return false
}

// envFileValues: command reads a .env file and cuts its values from their
// names (grep KEY .env | cut -d= -f2, awk -F= on it, sed 's/.*=//'): the
// value goes out without the label redaction reads it by (h-v99 b5).
func envFileValues(command string) bool {
	env, cut := false, false
	for _, f := range strings.Fields(command) {
		f = strings.Trim(f, `"'`)
		base := f[strings.LastIndexByte(f, '/')+1:]
		env = env || base == ".env" || strings.HasPrefix(base, ".env.") || strings.HasSuffix(base, ".env")
		cut = cut || f == "cut" || f == "awk" || f == "sed" || f == "-F=" || strings.HasPrefix(f, "-d=")
	}
	return env && cut
}

// jqFilterSecret: command runs jq (or yq) with a filter that names a
// secret, its pipes inside the filter too (jq -r '.data | .password'),
// which splitting the command at its pipes cut from jq.
func jqFilterSecret(command string) bool {
	f := strings.Fields(command)
	for i, w := range f {
		if name := w[strings.LastIndexByte(w, '/')+1:]; (name == "jq" || name == "yq" || name == "gojq" || name == "jaq") && jqPathSecret(f[i+1:]) {
			return true
		}
	}
	return false
}

// jqPathSecret: a word of a jq (or yq) filter names a secret: .password,
// .data.api_key, '.db["token"]'.
func jqPathSecret(args []string) bool {
	for _, a := range args {
		if strings.HasPrefix(a, "-") || !strings.ContainsAny(a, ".[") {
			continue
		}
		for _, w := range strings.FieldsFunc(a, func(r rune) bool { return r > 0x7f || !isWord(byte(r)) }) {
			if secretLabel(w, 0, len(w)) {
				return true
			}
		}
	}
	return false
}

// readsSecret: the words w of one simple command print a secret.
func readsSecret(w []string) bool {
	name := w[0][strings.LastIndexByte(w[0], '/')+1:]
	for _, r := range secretReads {
		if name != r[0] {
			continue
		}
		k, ok := 1, true
		for _, want := range r[1:] {
			if strings.HasPrefix(want, "-") {
				ok = ok && hasWord(w[1:], want)
				continue
			}
			// Flags, with their values, before the subcommand: aws --region
			// x secretsmanager …, kubectl -n prod get secret.
			at := k
			for at < len(w) && w[at] != want && strings.HasPrefix(w[k], "-") && at-k < 3 {
				at++
			}
			if at < len(w) && (want == "secret" || want == "secrets") && strings.HasPrefix(w[at], want+"/") {
				w[at] = want // kubectl get secret/db (h-v95 b4)
			}
			if at >= len(w) || w[at] != want {
				ok = false
				break
			}
			k = at + 1
		}
		if ok {
			return true
		}
	}
	switch {
	case (name == "pass" || name == "gopass" || name == "passage") && len(w) > 1 && !inList(passCommands, w[1]):
		return true // pass prod/db: pass show's default
	case (name == "terraform" || name == "tofu" || name == "terragrunt") && outputNamed(w[1:]):
		return true // terraform output db_password: one output, sensitive or not
	case (name == "jq" || name == "yq" || name == "gojq" || name == "jaq") && jqPathSecret(w[1:]):
		return true
	}
	if (name == "cat" || name == "head" || name == "tail" || name == "less" || name == "more" || name == "bat") && len(w) > 1 {
		for _, a := range w[1:] {
			if strings.Contains(a, "/run/secrets/") || secretFile(a) { // /var/run/secrets/ too
				return true // a container's secret files hold the value bare
			}
		}
	}
	if name == "echo" || name == "printf" || name == "printenv" {
		for _, a := range w[1:] {
			if v := strings.Trim(a, `"'{}$`); v != "" && (strings.HasPrefix(strings.Trim(a, `"'`), "$") || name == "printenv") && secretLabel(v, 0, len(v)) {
				return true
			}
		}
	}
	return false
}

// hasWord: w holds word, or word=….
func hasWord(w []string, word string) bool {
	for _, x := range w {
		if x == word || strings.HasPrefix(x, word+"=") {
			return true
		}
	}
	return false
}
