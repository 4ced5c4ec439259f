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
				j := strings.IndexByte(rest[i+1:], q)
				if j < 0 {
					break
				}
				if inner := rest[i+1 : i+1+j]; strings.IndexByte(inner, ' ') > 0 && readsSecretIn(inner, depth+1) {
					return true
				}
				rest = rest[i+1+j+1:]
			}
		}
	}
	return false
}

// commandWords is the command a simple command's words w run: past what
// runs it (sudo, env, time, nice, nohup, FOO=1), the command after a "--"
// (kubectl exec pod -- printenv X), or after docker exec's container.
func commandWords(w []string) []string {
	for len(w) > 0 && (w[0] == "sudo" || w[0] == "env" || w[0] == "command" || w[0] == "exec" || w[0] == "time" || w[0] == "nice" || w[0] == "nohup" || strings.Contains(w[0], "=") && !strings.HasPrefix(w[0], "-")) {
		w = w[1:] // a prefix that runs the command: sudo op read …, FOO=1 vault read …
	}
	for i, x := range w {
		if x == "--" && i+1 < len(w) {
			return commandWords(w[i+1:])
		}
	}
	if len(w) > 2 && (w[0] == "docker" || w[0] == "podman") && w[1] == "exec" {
		k := 2
		for k < len(w) && strings.HasPrefix(w[k], "-") {
			k++
		}
		if k+1 < len(w) {
			return commandWords(w[k+1:])
		}
	}
	return w
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
	{"terraform", "output", "-raw"}, {"aws", "configure", "get"},
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
	if (name == "cat" || name == "head" || name == "tail" || name == "less") && len(w) > 1 {
		for _, a := range w[1:] {
			if strings.Contains(a, "/run/secrets/") || strings.HasPrefix(a, "/var/run/secrets/") {
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
