package redact

import (
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/pi-memory/pi-memory/wasm/internal/text"
)

// The reference the matchers are proven against: each pattern's regular
// expression (until main 10169c8 the module compiled them) and the scan that
// ran them, kept in test code so that the module does not link regexp. Each
// matcher must return what its expression's FindAllStringSubmatchIndex
// returns, groups included, and Find what oldFind returns, for every input
// (matchers_test.go). A new pattern adds its expression here and its matcher
// in match.go.

// An expression is a pattern's regular expression and, for the three
// patterns the old scan tried anchored at each trigger, where such a try
// began.
type expression struct {
	re    string
	start func(text string, lo, at int) int
}

// cookieNames is a session cookie's name (cookieName).
func cookieNames() string {
	return `[A-Za-z0-9_.\-]*` + foldAny("sess", "session", "sessid", "sessionid", "session_id", "session-id", "sid", "token", "auth", "jwt")
}

// gitHub is a GitHub token, which needs no \b before it (findGitHubToken).
const gitHub = `(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{22,})`

// expressions are the patterns' expressions, in the table's order.
func expressions() []expression {
	return []expression{
		// private-key
		{re: `-{4,5} ?BEGIN[ A-Z0-9]*PRIVATE KEY[ A-Z]*-{4,5}(?:[\s\S]*?-{4,5} ?END[ A-Z0-9]*PRIVATE KEY[ A-Z]*-{4,5}|(?:\\[nr][^\n]*)?)`},
		// private-key: PuTTY's
		{re: `Private-Lines:[ \t]*[0-9]+(?:\r?\n|[ \t]+)((?:[ \t>]*[A-Za-z0-9+/=]+(?:\r?\n|[ \t]+|$))+)`},
		// private-key: a key's DER in base64
		{re: `\b(?:MII[A-Za-z0-9+/]{3}(?:IBADANBgkqhkiG9w0BAQEFAASC|IBAAKC)|MHcCAQEEI|MIGkAgEBBD|MIGHAgEAMBMGByqGSM49AgEG|MC4CAQAwBQYDK2VwBCIEI` +
			`|LS0tLS1CRUdJTiBQUklWQVRF|LS0tLS1CRUdJTiBSU0EgUFJJVkFURS|LS0tLS1CRUdJTiBPUEVOU1NIIFBSSVZBVEU|LS0tLS1CRUdJTiBFQyBQUklWQVRF` +
			`|LS0tLS1CRUdJTiBFTkNSWVBURUQgUFJJVkFURS|LS0tLS1CRUdJTiBEU0EgUFJJVkFURS|LS0tLS1CRUdJTiBQR1AgUFJJVkFURS)[A-Za-z0-9+/=]{20,}`},
		// aws-key
		{re: `\b((?:AKIA|ASIA)[0-9A-Z]{16})(?:\b|` + gitHub + `)`},
		// aws-secret-key
		{re: `[A-Za-z0-9_.\-]*(?:` + fold("aws") + `[_.\-]?` + fold("secret") + `[_.\-]?(?:` + fold("access") + `[_.\-]?)?|` +
			fold("secret") + `[_.\-]?` + fold("access") + `[_.\-]?)` + fold("key") +
			`["'\]` + "`" + `*]{0,2}[ \t]*(?::=|=>|[?+]=|\|\|=|\?\?=|[:=]|%3[dD]|\\[uU]003[dD])[ \t]*["']?([A-Za-z0-9/+]{40})`, start: identStart},
		// aws-secret-key in prose
		{re: `\b(?:` + fold("aws") + `[_.\-]?)?` + fold("secret") + `(?:[_.\-]?` + fold("access") + `)?(?:[_.\-]?` + fold("key") + `)?\b`},
		// github-token
		{re: gitHub},
		// gitlab-token
		{re: `\b(?:gl(?:pat|dt|rt|ptt|cbt|soat|ffct|imt|agent|oas)-|GR1348941)[0-9A-Za-z_\-]{20,}`},
		// api-key
		{re: `\b(?:sk-[A-Za-z0-9_\-]{20,}|dckr_pat_[A-Za-z0-9_\-]{27,}|dckr_oat_[A-Za-z0-9_\-]{27,}|lin_api_[A-Za-z0-9]{40,}|lin_oauth_[A-Za-z0-9]{40,}` +
			`|gsk_[A-Za-z0-9]{40,}|xai-[A-Za-z0-9]{40,}|pplx-[A-Za-z0-9]{40,}|r8_[A-Za-z0-9]{30,}|glsa_[A-Za-z0-9_\-]{30,}` +
			`|sntrys_[A-Za-z0-9._~+/=\-]{40,}|ATATT[A-Za-z0-9._~+/=\-]{60,}|tskey-[A-Za-z0-9_\-]{20,}|dp\.st\.[A-Za-z0-9._~+/=\-]{40,}|ops_[A-Za-z0-9._~+/=\-]{100,}` +
			`|glc_[A-Za-z0-9._~+/=\-]{32,}|dp\.(?:pt|ct|sa|scim|audit)\.[A-Za-z0-9._~+/=\-]{40,}|figd_[A-Za-z0-9_\-]{40,}|PMAK-[A-Za-z0-9_\-]{50,}|key-[0-9a-f]{32,}` +
			`|NRAK-[A-Za-z0-9]{27,}|pul-[0-9a-f]{40,}|dapi[0-9a-f]{32,}|sbp_[0-9a-f]{40,}|pscale_(?:tkn|pw)_[A-Za-z0-9_\-]{32,}|nfp_[A-Za-z0-9]{36,}|ntn_[A-Za-z0-9]{40,}` +
			`|fo1_[A-Za-z0-9_\-]{40,}|rnd_[A-Za-z0-9]{30,}|sq0atp-[A-Za-z0-9_\-]{22,}|sq0csp-[A-Za-z0-9_\-]{40,}|CFPAT-[A-Za-z0-9_\-]{40,}|sl\.[A-Za-z0-9._~+/=\-]{100,}` +
			`|sntryu_[0-9a-f]{64,}|glft-[A-Za-z0-9_\-]{20,}|rubygems_[0-9a-f]{48,}|phx_[A-Za-z0-9]{40,}|bkua_[A-Za-z0-9]{40,}|CCIPAT_[A-Za-z0-9_\-]{40,}` +
			`|sk\.eyJ[A-Za-z0-9._~+/=\-]{60,}|1//0[A-Za-z0-9_\-]{40,}|eyJrIjoi[A-Za-z0-9._~+/=\-]{40,}|EAACEdEose0cBA[A-Za-z0-9]{20,}` +
			`|nsec1[A-Za-z0-9]{58,}|xprv[A-Za-z0-9]{100,}|tprv[A-Za-z0-9]{100,}|eyJhdXRocyI6[A-Za-z0-9._~+/=\-]{20,}` +
			`|AKCp[A-Za-z0-9]{60,}|pat-(?:na|eu)1-[A-Za-z0-9_\-]{36,}|dt0c01\.[A-Za-z0-9._~+/=\-]{80,}|sgp_[A-Za-z0-9_\-]{40,}|fm2_[A-Za-z0-9._~+/=\-]{60,}` +
			`|EAA[GB][A-Za-z0-9]{100,}|LTAI[A-Za-z0-9]{12,}|AKID[A-Za-z0-9]{32,}|sq[upa]_[0-9a-f]{40,}|oauth:[A-Za-z0-9]{30,}` +
			`|syt_[A-Za-z0-9_\-]{30,}|xkeysib-[A-Za-z0-9_\-]{64,}|oy2[A-Za-z0-9]{43,}|lsv2_[A-Za-z0-9_\-]{40,}|pcsk_[A-Za-z0-9_\-]{40,}` +
			`|tvly-[A-Za-z0-9_\-]{30,}|nvapi-[A-Za-z0-9_\-]{40,}|pnu_[A-Za-z0-9]{36,}|SWMTKN-1-[A-Za-z0-9_\-]{50,}` +
			`|ATBB[A-Za-z0-9]{28,}|aio_[A-Za-z0-9]{28,}|FLWSECK(?:_TEST)?-[A-Za-z0-9_\-]{32,}|tfp_[A-Za-z0-9_\-]{40,}|shippo_(?:live|test)_[0-9a-f]{40,}` +
			`|CLOJARS_[0-9a-f]{60,}|fio-u-[A-Za-z0-9_\-]{64,}|EAAA[A-Za-z0-9_\-]{60,}|secret_[A-Za-z0-9]{43,}|live_[0-9a-f]{30,}` +
			`|access_token\$(?:production|sandbox)\$[A-Za-z0-9$]{40,})`},
		// slack-token
		{re: `\b(?:xox[abposre]-|xapp-[0-9]-)[A-Za-z0-9\-]{10,}`},
		// slack-webhook
		{re: `hooks\.slack\.com/(?:services|workflows|triggers)/([A-Za-z0-9_/\-]{20,})`},
		// discord-webhook
		{re: `discord(?:app)?\.com/api/(?:v[0-9]+/)?webhooks/([A-Za-z0-9_/\-]{20,})`},
		// google-key
		{re: `\b(?:AIza[0-9A-Za-z_\-]{35}|GOCSPX-[0-9A-Za-z_\-]{20,}|ya29\.[0-9A-Za-z_\-]{20,})`},
		// stripe-key
		{re: `\b(?:(?:sk|rk|pk)_(?:live|test)_[0-9a-zA-Z]{16,}|whsec_[0-9a-zA-Z]{24,})`},
		// npm-token
		{re: `\bnpm_[A-Za-z0-9]{36}`},
		// huggingface-token
		{re: `\bhf_[A-Za-z0-9]{30,}`},
		// pypi-token
		{re: `\bpypi-AgE[A-Za-z0-9_\-]{50,}`},
		// heroku-key
		{re: `\bHRKU-[A-Za-z0-9_\-]{30,}`},
		// sendgrid-key
		{re: `\bSG\.[A-Za-z0-9_\-]{22}\.[A-Za-z0-9_\-]{43}`},
		// twilio-key
		{re: `\b(SK[0-9a-fA-F]{32})(?:\b|` + gitHub + `)`},
		// shopify-token
		{re: `\bshp(?:at|ss|ca|pa)_[a-fA-F0-9]{32}`},
		// digitalocean-token
		{re: `\bdo[opr]_v1_[a-f0-9]{64}`},
		// vault-token
		{re: `\bhv[sb]\.[A-Za-z0-9_\-]{24,}`},
		// age-key
		{re: `\bAGE-SECRET-KEY-1[0-9A-Z]{58}`},
		// azure-sas
		{re: `[?&;\s]sig=([A-Za-z0-9%+/=]{20,})`},
		// jwt
		{re: `\beyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}`},
		// telegram-token
		{re: `(?:\b|\bbot)([0-9]{8,10}:AA[A-Za-z0-9_\-]{33})\b`},
		// bearer
		{re: `\b` + fold("bearer") + `[ \t]+([A-Za-z0-9._~+/=\-]{16,})`},
		// auth-header
		{re: `\b(?:` + fold("proxy-") + `)?` + fold("authorization") + `["']?(?:[ \t]*[:=][ \t]*["']?|[ \t]+["'])` +
			`[A-Za-z][A-Za-z0-9_\-]*[ \t]+([A-Za-z0-9._~+/=\-]{8,})`},
		// url-password
		{re: "[A-Za-z][A-Za-z0-9+.\\-]*://[^\\s/:\"'<>`]*:", start: schemeStart},
		// url-password: user:password@host without a scheme
		{re: "(?:^|[^A-Za-z0-9_.\\-/:@]|" + fold("thin") + ":)([A-Za-z0-9_.\\-]+)[:/]([^\\s/:@\"'<>`]+)@((?://)?[A-Za-z0-9.\\-]+)"},
		// secret: label = value
		{re: `[A-Za-z0-9_.\-]*(?:(?:` +
			`(?:` + foldAny("password", "passwords", "passwd", "passphrase", "pass_phrase", "pwd", "secret", "token", "credentials", "credential", "creds", "sessionid", "sessid", "salt", "pepper", "psk", "requirepass", "masterauth", "authtok", "rootpw") +
			`|` + foldAny("api", "access", "private", "signing", "encryption", "master", "auth", "license", "account", "session", "app", "application", "hmac", "admin", "client", "server", "webhook", "jwt", "shared", "preshared", "root", "subscription", "functions", "stripe", "openai", "anthropic", "gemini", "mistral", "cohere", "groq", "openrouter", "replicate", "perplexity", "deepseek", "huggingface", "mailgun", "sendgrid", "postmark", "resend", "brevo", "mailchimp", "mandrill", "sparkpost", "pusher", "algolia", "datadog", "twilio", "google", "maps", "mapbox", "firebase", "supabase", "pinecone", "elevenlabs", "deepgram", "assemblyai", "youtube", "openweather", "aws") + `(?:[_.\-]` + foldAny("production", "prod", "development", "dev", "staging", "stage", "test", "live", "sandbox", "local", "qa", "uat", "old", "new", "backup", "primary", "secondary") + `)?[_.\-]?` + fold("key") + `)` +
			`(?:[_.\-]?(?:` + fold("key") + `(?:[_.\-]?` + fold("base") + `)?|` + fold("value") + `|` + fold("base64") + `|` + fold("b64") + `))?` +
			`|(?:\b|_)` + fold("pass") + `|[a-z0-9]P` + fold("ass") + `|(?:\b|_)` + fold("pw") + `|[a-z0-9]P[wW]|[A-Za-z0-9][_.\-]` + fold("auth") + `|\b_` + fold("auth") + `|_PAT)(?:[_.\-]` + foldAny("production", "prod", "development", "dev", "staging", "stage", "test", "live", "sandbox", "local", "qa", "uat", "old", "new", "backup", "primary", "secondary") + `|[_.\-][0-9]{1,2}|[_.\-][vV][0-9]{1,2}|[0-9]{1,2})?|[A-Z0-9]_KEY)` +
			`["'\]` + "`" + `*]{0,2}[ \t]*(?::=|=>|[?+]=|\|\|=|\?\?=|[:=]|%3[dD]|\\[uU]003[dD])[ \t]*` +
			"(?:(?:[bBrRuU]{1,2}|@|u8|L|r#+)?(?:(?:\"\")?\"((?:[^\"\\\\\\r\\n]|\\\\.){4,})\"(?:\"\")?|\\$?'((?:[^'\\r\\n]|''|'\\\\''|'\"'\"'){4,})')|([^\\s\"'`,;]{6}(?:[^\\s\"'`,;\\\\]|\\\\[^\\s\"'`,;nrt]|\\\\$)*)|`([^`\\r\\n]{4,})`)", start: identStart},
		// secret: in prose
		{re: `\b` + fold("pass") + `[ \t]` + fold("phrase") + `\b|\b(?:[A-Za-z0-9_]*_)?(?:` + foldAny("passwords", "password", "passwd", "passphrase", "passcode", "pwd", "pw") + `|` + fold("pass") + `)\b` +
			`|\b[A-Za-z0-9_]*[a-z0-9]P(?:asswords|assword|asswd|assphrase|asscode|wd)\b|\b` + fold("wi") + `-?` + fold("fi") + `[ \t]+` + fold("key") + `\b`},
		// secret: a token or an API key in prose
		{re: `\b(?:` + fold("token") + `|` + foldAny("api", "private", "access", "secret", "master", "encryption", "signing", "deploy", "hmac", "license") + `[ \t_.\-]?` + fold("key") + `|` + fold("secret") + `|` + fold("key") + `|` + foldAny("clave", "chiave", "chave", "sleutel", "nyckeln", "nyckel", "klucz", "schlüssel", "schluessel", "secreto", "segreto", "geheimnis") + `)\b`},
		// secret: a password word in another language
		{re: `\b(?:` + foldAny(plainPasswordWords[:]...) + `)\b|\b` + fold("jelsz") + `(?:ó|Ó)|\b` + fold("jelsz") + `[oO]\b|\b` + fold("contrase") + `(?:ñ|Ñ|n|N)` + fold("a") + `\b|` +
			`\b` + fold("contrasenya") + `\b|\b` + fold("passord") + `(?:` + fold("et") + `)?\b|\b` + fold("l") + `(?:ö|Ö)` + fold("senord") + `(?:` + fold("et") + `)?\b|` +
			`\b` + fold("has") + `(?:ł|Ł)` + fold("o") + `\b|(?:ş|Ş)(?:[Ii]|İ)` + fold("fre") + `(?:` + foldAny("m", "si", "niz") + `)?\b|[Пп]ароль|ПАРОЛЬ`},
		// secret: .npmrc _auth
		{re: `(?:^|[^A-Za-z0-9_])_auth[ \t]*=[ \t]*([^\s"']{4,})`},
		// secret: .netrc
		{re: `\b(?:` + fold("machine") + `[ \t]+[^\s]+|` + fold("default") + `)[ \t]+` + fold("login") + `[ \t]+[^\s]+[ \t]+` +
			fold("password") + `[ \t]+([^\s]+)`},
		// secret: a .pgpass line
		{re: "(?:^|[\\s\"'`])[A-Za-z0-9.*\\-]+:(?:[0-9]{1,5}|\\*):[^\\s:\"']+:[^\\s:\"']+:([^\\s\"']{4,})"},
		// secret: Redis's password directives
		{re: `(?:(?:(?:^|\n)[ \t]*|\b` + fold("config") + `[ \t]+` + fold("set") + `[ \t]+|--|\b)(?:` + fold("requirepass") + `|` + fold("masterauth") + `|` + fold("auth_pass") + `)|\b` + fold("identified") + `[ \t]+(?:` + fold("with") + `[ \t]+\w+[ \t]+)?` + fold("by") + `(?:[ \t]+` + fold("password") + `)?|-(?:src|dest)?(?:store|key)pass` +
			`|(?:(?:^|\n)[ \t]*(?:[-*+>][ \t]+)?|[:` + "`" + `][ \t]*)(?:` + fold("enable") + `[ \t]+` + fold("secret") + `|` + fold("snmp-server") + `[ \t]+` + fold("community") +
			`|` + fold("tacacs-server") + `[ \t]+` + fold("key") + `|` + fold("radius-server") + `[ \t]+` + fold("key") + `|` + fold("key-string") + `|` + fold("pre-shared-key") +
			`|` + fold("username") + `[ \t]+[^\s]+(?:[ \t]+` + fold("privilege") + `[ \t]+[0-9]+)?[ \t]+(?:` + fold("secret") + `|` + fold("password") + `))(?:[ \t]+[0-9])?)[ \t]+` + shellWordRE},
		// secret: a password on a command line (mysql, 7z, sshpass, mongo, curl, docker login, zip, sqlcmd, redis-cli, smbclient, openssl, htpasswd, ldap*, ssh-keygen, keytool, jarsigner, twine, vsce, psexec, ipmitool, nuget, lftp, HTTPie)
		{re: `(?:\b(?:mysql(?:dump|admin|import|show|check|sh)?|mariadb|7z[ar]?)\b[^\n;|&]*?[ \t]-p` + shellWordRE +
			`|\b(?:sshpass|twine|vsce|ovsx|poetry|rdesktop|ncftp(?:put|get)?|cqlsh|altool|rabbitmqadmin|security[ \t]+(?:unlock|create)-keychain|cypher-shell|` + fold("psexec") + `(?:64)?|mongo(?:sh|dump|restore|export|import|files|stat|top)?)\b[^\n;|&]*?[ \t](?:-p[ \t]*|--pat(?:[ \t]+|=))` + shellWordRE +
			`|\b(?:curl|jenkins-cli)\b[^\n;|&]*?[ \t](?:-[uU][ \t]*|--(?:proxy-)?user(?:[ \t]+|=)|-auth[ \t]+)(?:(?:"[^"\n:]*:|[^\s:"']*:"|"[^"\n:]*":"|'[^'\n:]*':")([^"\n]+)"|(?:'[^'\n:]*:|[^\s:"']*:'|"[^"\n:]*":'|'[^'\n:]*':')([^'\n]+)'|(?:[^\s:"']*|"[^"\n:]*"|'[^'\n:]*'):([^\s"']+))` +
			`|\b(?:docker|podman|nerdctl|buildah|skopeo|oras|az|helm|cf|oc|expo)[ \t]+(?:registry[ \t]+)?login\b[^\n;|&]*?[ \t](?:-p[ \t]*|--password(?:[ \t]+|=))` + shellWordRE +
			`|\b(?:zip|unzip|zipcloak|sqlcmd|bcp|osql|isql|p4|mosquitto_pub|mosquitto_sub|security[ \t]+import|` + fold("ipmitool") + `)\b[^\n;|&]*?[ \t]-P[ \t]*` + shellWordRE +
			`|\bredis-cli\b[^\n;|&]*?[ \t](?:-a[ \t]*|--pass[ \t]+)` + shellWordRE +
			`|\b(?:smbclient|smbcacls|smbget|rpcclient)\b[^\n;|&]*?[ \t](?:-U[ \t]*|--user(?:[ \t]+|=))(?:(?:"[^"\n%]*%|[^\s%"']*%"|"[^"\n%]*"%"|'[^'\n%]*'%")([^"\n]+)"|(?:'[^'\n%]*%|[^\s%"']*%'|"[^"\n%]*"%'|'[^'\n%]*'%')([^'\n]+)'|(?:[^\s%"']*|"[^"\n%]*"|'[^'\n%]*')%([^\s"']+))` +
			`|\b(?:openssl|ibmcloud|codecov|` + fold("nuget") + `)\b[^\n;|&]*?[ \t](?:-pass(?:in|out)?[ \t]+(?:(?:"pass:|pass:")([^"\n]+)"|(?:'pass:|pass:')([^'\n]+)'|pass:([^\s"']+))|(?:-[kt]|-` + fold("apikey") + `)[ \t]+` + shellWordRE + `)` +
			`|\bhtpasswd\b[^\n;|&<>]*?[ \t]-[A-Za-z]*b[A-Za-z]*[^\n;|&<>]*?[ \t](?:"([^"\n]+)"|'([^'\n]+)'|([^\s"';|&<>]+))[ \t]*(?:[\n;|&<>]|$)` +
			`|\bldap(?:search|modify|add|delete|whoami|passwd|compare|modrdn|exop)\b[^\n;|&]*?[ \t]-w[ \t]*` + shellWordRE +
			`|\bssh-keygen\b[^\n;|&]*?[ \t]-[NP][ \t]*` + shellWordRE +
			`|\b(?:keytool|jarsigner)\b[^\n;|&]*?[ \t]-(?:(?:src|dest)?(?:store|key)pass|new)[ \t]+` + shellWordRE +
			`|\blftp\b[^\n;|&]*?[ \t]-u[ \t]*(?:(?:"[^"\n,]*,|[^\s,"']*,"|"[^"\n,]*","|'[^'\n,]*',")([^"\n]+)"|(?:'[^'\n,]*,|[^\s,"']*,'|"[^"\n,]*",'|'[^'\n,]*',')([^'\n]+)'|(?:[^\s,"']*|"[^"\n,]*"|'[^'\n,]*'),([^\s"']+))` +
			`|\b(?:https?|xhs?)[ \t](?:[^\n;|&]*?[ \t])?(?:-a[ \t]*|--auth(?:[ \t]+|=))(?:(?:"[^"\n:]*:|[^\s:"']*:"|"[^"\n:]*":"|'[^'\n:]*':")([^"\n]+)"|(?:'[^'\n:]*:|[^\s:"']*:'|"[^"\n:]*":'|'[^'\n:]*':')([^'\n]+)'|(?:[^\s:"']*|"[^"\n:]*"|'[^'\n:]*'):([^\s"']+)))`},
		// secret: a secret given to a secret store's command
		{re: `(?:\b(?:gh[ \t]+secret[ \t]+set|az[ \t]+keyvault[ \t]+secret[ \t]+set|aws[ \t]+secretsmanager[ \t]+(?:create-secret|put-secret-value|update-secret)|aws[ \t]+ssm[ \t]+put-parameter)\b[^\n;|&]*?[ \t](?:-b[ \t]*|(?:--body|--value|--secret-string)(?:[ \t]+|=))` +
			`|\bdoppler[ \t]+secrets[ \t]+set[ \t]+[A-Za-z_][A-Za-z0-9_]*[ \t]+|\bnetlify[ \t]+env:set[ \t]+[A-Za-z_][A-Za-z0-9_]*[ \t]+|\bpulumi[ \t]+config[ \t]+set(?:[ \t]+--path)?[ \t]+--secret(?:[ \t]+--path)?[ \t]+(?:"[^"\n]*"|'[^'\n]*'|[^\s"'-][^\s"']*)[ \t]+|\bdotnet[ \t]+user-secrets[ \t]+set[ \t]+(?:"[^"\n]*"|[^\s"']+)[ \t]+` +
			`|\brabbitmqctl[ \t]+(?:add_user|change_password)[ \t]+[^\s"']+[ \t]+|\b` + fold("convertto-securestring") + `[ \t]+(?:` + fold("-string") + `[ \t]+)?` +
			`|\bmc(?:li)?[ \t]+(?:(?:alias[ \t]+set|config[ \t]+host[ \t]+add)(?:[ \t]+` + shellArgRE + `){3}|admin[ \t]+user[ \t]+add(?:[ \t]+` + shellArgRE + `){2})[ \t]+` +
			`|\b(?:poetry|composer(?:\.phar)?(?:[ \t]+global)?)[ \t]+config(?:[ \t]+-[^\s"']*)*[ \t]+(?:http-basic\.[^\s"']+[ \t]+` + shellArgRE + `|(?:pypi-token|github-oauth|gitlab-token|gitlab-oauth|bearer)\.[^\s"']+)[ \t]+` +
			`|\b` + fold("net") + `(?:\.` + fold("exe") + `)?[ \t]+` + fold("user") + `(?:[ \t]+/[^\s"']*)*[ \t]+(?:"[^"\n]*"|'[^'\n]*'|[^\s"'/][^\s"']*)[ \t]+` +
			`|\b` + fold("net") + `(?:\.` + fold("exe") + `)?[ \t]+` + fold("use") + `(?:[ \t]+[A-Za-z]:)?[ \t]+\\\\[^\s"']*(?:[ \t]+/[^\s"']*)*[ \t]+|\b` + fold("nuget") + `(?:\.` + fold("exe") + `)?[ \t]+` + fold("setapikey") + `[ \t]+)` + shellWordRE},
		// secret: a long flag that names a secret, its value after a blank
		{re: `(?:^|\s)--(?:(?:[a-z0-9]+[-_])*(?:password|passwd|passphrase|pass|token|api-key|api_key|apikey|secret|secret-key|private-key|private_key|key)|[a-z][a-z0-9]*(?:Token|Password|Secret|ApiKey))[ \t]+` + shellWordRE},
		// secret: a password echoed into a command's --password-stdin (--with-token, sudo -S)
		{re: `\b(?:echo[ \t]+(?:-[ne]+[ \t]+)?|yes[ \t]+(?:-[ne]+[ \t]+)?|printf[ \t]+(?:-[ne]+[ \t]+|--[ \t]+)?(?:(?:"%s[^"\n]*"|'%s[^'\n]*'|%s[^\s"'|]*)[ \t]+)?)(?:"([^"\n]+)"|'([^'\n]+)'|([^\s"'|]+))[ \t]*\|(?:[^\n;|&]*?[ \t]--(?:password-stdin|with-token)\b|[ \t]*sudo[ \t]` + sudoStdinRE(`\n;|&`) + `|[ \t]*(?:sudo[ \t]+)?(?:chpasswd\b|passwd\b(?:[ \t]+--stdin\b)?|gh[ \t]+secret[ \t]+set\b|wrangler[ \t]+secret[ \t]+put\b|vercel[ \t]+env[ \t]+add\b|gcloud[ \t]+secrets[ \t]+(?:versions[ \t]+add|create)\b))`},
		// secret: set by a tool's config command
		{re: `\b(?:npm|yarn|pnpm|git|aws|gh|pip|poetry|composer|bundle|conda)[ \t]+config(?:ure)?(?:[ \t]+(?:set|-\S*))*[ \t]+\S*?` + labelTailRE + `["']?[ \t]+(?:"([^"\n]+)"|'([^'\n]+)'|([^\s"'|&<>;][^\s"']*))`},
		// secret: the same as a here-string
		{re: `(?:--(?:password-stdin|with-token)\b|\bsudo[ \t]` + sudoStdinRE(`\n;|&<`) + `|\bchpasswd\b|\b(?:gh[ \t]+secret[ \t]+set|wrangler[ \t]+secret[ \t]+put|vercel[ \t]+env[ \t]+add|gcloud[ \t]+secrets[ \t]+(?:versions[ \t]+add|create))\b)[^\n;|&<]*?<<<[ \t]*(?:"([^"\n]+)"|'([^'\n]+)'|([^\s"']+))`},
		// secret: an XML element
		{re: `<(?:key>` + nameRE + `</key>\s*<string|(?:[A-Za-z_][A-Za-z0-9_.\-]*:)?` + nameRE + `(?:[ \t](?:[^<>"'/\n]|"[^"\n]*"|'[^'\n]*')*)?)>` + elementRE},
		// secret: a key/value attribute pair
		{re: `\b(?:key|name|type|property)[ \t]*=[ \t]*(?:"` + nameRE + `"|'` + nameRE + `')(?:[ \t]+[A-Za-z_:][A-Za-z0-9_:.\-]*[ \t]*=[ \t]*(?:"[^"\n]*"|'[^'\n]*')){0,16}?[ \t]+(?:value|content)[ \t]*=[ \t]*` + attrValueRE +
			`|\b(?:value|content)[ \t]*=[ \t]*` + attrValueRE + `[ \t]+(?:key|name|type|property)[ \t]*=[ \t]*(?:"` + nameRE + `"|'` + nameRE + `')` +
			`|\bkey[ \t]*=[ \t]*(?:"` + nameRE + `"|'` + nameRE + `')>` + elementRE},
		// secret: a Kubernetes env entry
		{re: `\b(?:[nN]ame|[kK]ey|ParameterKey)"?[ \t]*[:=][ \t]*(?:"` + nameRE + `"|'` + nameRE + `'|` + nameRE + `)[ \t]*,?[ \t]*(?:\r?\n)?[ \t]*(?:(?:[vV]alue|ParameterValue)"?[ \t]*[:=][ \t]*(?:"((?:[^"\\\n]|\\[^\n])+)"|'((?:[^'\n]|'')+)'|(?:[>|][-+]?[ \t]*\r?\n +)?([^\s"']+))|"(?:[vV]alue|ParameterValue)"[ \t]*[:=][ \t]*"((?:[^"\\\n]|\\[^\n])+)")`},
		// secret: ENV, setx, set -x, SetEnv, nginx's directives, a label and a quoted value
		{re: `(?:(?:^|\n)[ \t]*ENV|\bsetx|\bsetenv|\bset[ \t]+-[A-Za-z]*x[A-Za-z]*|\b(?:proxy_set_header|grpc_set_header|add_header|fastcgi_param|uwsgi_param|SetEnv|php_value|php_admin_value|(?:Request)?Header(?:[ \t]+(?:always|onsuccess))?[ \t]+(?:set|add|append)|scgi_param))[ \t]+` + nameRE + `[ \t]+(?:"([^"\n]+)"|'([^'\n]+)'|([^\s"']+))|(?:^|[ \t\n{;])[A-Za-z0-9_.\-]+` + labelTailRE + `[ \t]+(?:"([^"\n]+)"|'([^'\n]+)')`},
		// secret: a typed declaration
		{re: nameRE + `(?:[ \t]*:[ \t]*|[ \t]+)(?:string|String|str|&str|&'static str|Final\[str\]|Optional\[str\]|\[\]byte|bytes|SecretStr|SecretString|Final|ClassVar\[str\])[ \t]*=[ \t]*(?:(?:\[\]byte|bytes|String::from|String|string|SecretStr|SecretString::new|SecretString|str)\()?(?:"([^"\n]{4,})"|'([^'\n]{4,})')`},
		// secret: a quoted name and a literal in an argument list
		{re: `['"]` + nameRE + `['"][ \t]*,[ \t]*(?:default[ \t]*=[ \t]*)?(?:"([^"\s]+)"|'([^'\s]+)')[ \t]*[),]`},
		// secret: a literal default of a read of a secret's name
		{re: nameRE + `(?:['"]?[)\]]*[ \t]*(?:\|\||\?\?|\?:|[ \t]or[ \t]|\|[ \t]*default[ \t])|['"]?[)\]]+\.unwrap_or\(|['"]?[)\]]+[ \t]*\{)[ \t]*(?:"([^"\s]+)"|'([^'\s]+)')`},
		// secret: a label given a call's result
		{re: nameRE + `["'\]` + "`" + `*]{0,2}[ \t]*(?::=|=>|[?+]=|\|\|=|\?\?=|[:=]|%3[dD]|\\[uU]003[dD])[ \t]*([A-Za-z_$][A-Za-z0-9_.:$]{0,127}\()`},
		// secret: a YAML value on the line below its key
		{re: nameRE + `["'\]` + "`" + `*]{0,2}(?::(?:\*\*|__)?|[ \t]+(?:is|was):?)[ \t]*(?:[>|][-+]?[ \t]*)?\r?\n(?:[ \t]*\r?\n)? *(?:"([^"\n]+)"|'([^'\n]+)'|([^\s"'#\-](?:\S*[^\s:])?))(?:[ \t][^\n]*)?(?:\r?\n|$)`},
		// secret: a value in a code block below its label
		{re: nameRE + ":(?:\\*\\*)?[ \\t]*(?:" + brRE + "(?:[ \\t]*" + brRE + ")?[ \\t]*(?:```|~~~)[A-Za-z0-9_+\\-]*[ \\t]*" + brRE + "[ \\t]*(" + fenceLineRE + ")[ \\t]*" + brRE + "[ \\t]*(?:```|~~~)" +
			"|```[ \\t]*(" + fenceLineRE + ")[ \\t]*```)"},
		// secret: a Terraform variable's default
		{re: `\bvariable[ \t]+"([A-Za-z0-9_\-]+)"[ \t]*\{[^}]*?\bdefault[ \t]*=[ \t]*"([^"\n]+)"`},
		// secret: a session's cookie
		{re: `(?:\b(?:` + fold("set-") + `)?` + fold("cookie") + `(?:s|S)?(?:[ \t]*[:=]|[ \t])[ \t]*["']?|[ \t]-b[ \t]+["']?|;)[ \t]*(?:[^\s;=]+=[^\n;]*;[ \t]*)*?` + cookieNames() + `=([^\s;"',]{8,})` +
			`|` + fold("cookie") + `(?:s|S)?[A-Za-z0-9_.]*[ \t]*(?:[({\[]\s*){1,3}(?:["']?(?:` + fold("name") + `|` + fold("key") + `)["']?[ \t]*[:=][ \t]*)?(?:"` + cookieNames() + `"|'` + cookieNames() + `'|:` + cookieNames() + `)\s*(?:,|\]\s*=)\s*` +
			`(?:["']?` + fold("value") + `["']?[ \t]*[:=][ \t]*)?(?:"([^"\n]{8,})"|'([^'\n]{8,})')`},
		// secret: a PIN, recovery codes
		{re: `\b(?:PIN(?:[ \t]+[Cc]ode)?|PUK|[Pp]in[ \t]+[Cc]ode)(?:[ \t]+(?:is|was)[ \t]+|[ \t]*[:=][ \t]*|[ \t]+)([0-9]{4,8})\b` +
			`|\b(?:[Rr]ecovery|[Bb]ackup)[ \t]+(?:codes?|keys?)(?:[ \t]+(?:are|were)[ \t]+|[ \t]*[:=][ \t]*)([A-Za-z0-9]{4,}(?:-[A-Za-z0-9]{4,})*(?:[ \t,]+[A-Za-z0-9]{4,}(?:-[A-Za-z0-9]{4,})*)*)`},
		// secret: a user and a password after a label
		{re: `\b(?:` + foldAny("credentials", "credential", "creds", "login") + `|` + fold("user") + `(?:` + fold("name") + `)?/` + fold("pass") + `(?:` + fold("word") + `)?|` + foldAny("u/p", "account", "auth") + `)(?:\*\*)?(?:[ \t]*[:=]|[ \t]+(?:` + foldAny("are", "is") + `)[ \t])(?:\*\*)?[ \t]*(?:"[^"\n]*"|'[^'\n]*'|[^\s/,|"']+)[ \t]*[/,|][ \t]*(?:"([^"\n]+)"|'([^'\n]+)'|([^\s"']{4,}))`},
		// secret: basic auth's password after its user
		{re: `(?:\bauth[ \t]*=[ \t]*[(\[]|[Bb]asic_?[Aa]uth\()[ \t]*(?:"[^"\n]*"|'[^'\n]*')[ \t]*,[ \t]*(?:"([^"\n]+)"|'([^'\n]+)')`},
		// secret: Docker's config.json "auth"
		{re: `"auth"[ \t]*:[ \t]*"([A-Za-z0-9+/]{12,}={0,2})"|"(?:d|k|p|q|dp|dq|qi)"[ \t]*:[ \t]*"([A-Za-z0-9_\-]{32,})"`},
		// secret: a password given by its place in a call
		{re: `(?:\b(?:getConnection|PDO|mysqli_connect|mysql_connect|mysqli|FTP|FTP_TLS|hash_hmac|openssl_encrypt|openssl_decrypt|pymysql\.connect|MySQLdb\.connect|smtp\.PlainAuth|ftp_login|ldap_bind|ClientSecretCredential|create_superuser|ldap3\.Connection)\(` + argRE + `,` + argRE + `,` +
			`|\b(?:NetworkCredential|AuthenticationHeaderValue|BasicAWSCredentials|PlainCredentials|WiFi\.begin|pika\.PlainCredentials|Credentials\.basic|simple_bind_s|bind_s|UsernamePasswordCredentials|PasswordAuthentication|UsernamePasswordAuthenticationToken|createHmac|createCipheriv|createDecipheriv|jwt\.(?:sign|encode|decode|verify)|JWT\.(?:encode|decode)|hmac\.New|HMAC\.(?:hexdigest|digest)|CryptoJS\.HmacSHA(?:256|512|1)|AES\.(?:encrypt|decrypt)|JWS\.sign)\(` + argRE + `,|\.(?:login|basic_auth)\(` + argRE + `,|\.bearer_auth\(` +
			`|\b(?:Fernet|SecretKeySpec|SignedString|from_secret|hmacShaKeyFor|AESGCM|AESCCM|AESSIV|ChaCha20Poly1305|SymmetricSecurityKey|HMACSHA(?:1|256|384|512)|(?:hmac|HMAC|AES|DES3|Blowfish|ChaCha20|ChaCha20_Poly1305)\.new|hmac\.digest|Algorithm\.HMAC(?:256|384|512)|algorithms\.AES)\()` +
			`[ \t]*(?:key[ \t]*=[ \t]*)?(?:[bB]|\[\]byte\(|Encoding\.UTF8\.GetBytes\(|Encoding\.ASCII\.GetBytes\(|Buffer\.from\(|Some\()?(?:"([^"\n]+)"|'([^'\n]+)')(?:\.getBytes\([A-Za-z0-9_.]*\)|\.as_(?:ref|bytes)\(\)|\.encode\((?:"[A-Za-z0-9_-]*"|'[A-Za-z0-9_-]*')?\)|\))?[ \t]*(?:[,)\n]|\r\n|$)`},
		// secret: a literal given to a call named for a secret
		{re: nameRE + "\\([ \\t]*(?:\"([^\"\\n]{4,})\"|'([^'\\n]{4,})'|`([^`\\n]{4,})`)[ \\t]*[),]"},
		// secret: a cell of a Markdown table
		{re: `\|((?:[^|\n\\]|\\.)+)`},
	}
}

// sudoStdinRE is sudo's flag that reads the password from its input,
// after "sudo[ \t]": clustered right after it, or -S or --stdin anywhere.
func sudoStdinRE(not string) string {
	return `(?:-[A-Za-z]*S[A-Za-z]*\b|(?:[^` + not + `]*?[ \t])?(?:-S|--stdin)\b)`
}

// nameRE is an identifier that ends like a label (secretLabel).
var nameRE = `[A-Za-z0-9_.\-]*` + labelTailRE

// elementRE is an element's value after its '>' (elementValue), attrValueRE
// an attribute's quoted value.
const (
	elementRE   = `(?:<!\[CDATA\[([^\n]{4,1000}?)\]\]>|([^<\n]{4,}))</`
	attrValueRE = `(?:"([^"\n]{4,})"|'([^'\n]{4,})')`
)

// labelTailRE is how a label ends (secretLabel): a keyword and its suffix,
// or PASS as its last word.
var labelTailRE = `(?:` +
	`(?:` + foldAny("password", "passwords", "passwd", "passphrase", "pass_phrase", "pwd", "secret", "token", "credentials", "credential", "creds", "sessionid", "sessid", "salt", "pepper", "psk", "requirepass", "masterauth", "authtok", "rootpw") +
	`|` + foldAny("api", "access", "private", "signing", "encryption", "master", "auth", "license", "account", "session", "app", "application", "hmac", "admin", "client", "server", "webhook", "jwt", "shared", "preshared", "root", "subscription", "functions", "stripe", "openai", "anthropic", "gemini", "mistral", "cohere", "groq", "openrouter", "replicate", "perplexity", "deepseek", "huggingface", "mailgun", "sendgrid", "postmark", "resend", "brevo", "mailchimp", "mandrill", "sparkpost", "pusher", "algolia", "datadog", "twilio", "google", "maps", "mapbox", "firebase", "supabase", "pinecone", "elevenlabs", "deepgram", "assemblyai", "youtube", "openweather", "aws") + `(?:[_.\-]` + foldAny("production", "prod", "development", "dev", "staging", "stage", "test", "live", "sandbox", "local", "qa", "uat", "old", "new", "backup", "primary", "secondary") + `)?[_.\-]?` + fold("key") + `)` +
	`(?:[_.\-]?(?:` + fold("key") + `(?:[_.\-]?` + fold("base") + `)?|` + fold("value") + `|` + fold("base64") + `|` + fold("b64") + `))?` +
	`|(?:\b|_)` + fold("pass") + `|[a-z0-9]P` + fold("ass") + `|(?:\b|_)` + fold("pw") + `|[a-z0-9]P[wW]|[A-Za-z0-9][_.\-]` + fold("auth") + `|\b_` + fold("auth") + `|_PAT)(?:[_.\-]` + foldAny("production", "prod", "development", "dev", "staging", "stage", "test", "live", "sandbox", "local", "qa", "uat", "old", "new", "backup", "primary", "secondary") + `|[_.\-][0-9]{1,2}|[_.\-][vV][0-9]{1,2}|[0-9]{1,2})?`

// brRE is a line break, or one a quoted string spells; fenceLineRE a
// code block's line.
const (
	brRE        = `(?:\r?\n|(?:\\r)?\\n)`
	fenceLineRE = "[^\\s`\\\\](?:[^\\n`\\\\]*[^\\s`\\\\])?"
)

// argRE is an argument of a call before the one findPositional reads.
const argRE = `(?:[ \t]*(?:"[^"\n]*"|'[^'\n]*'|\{[^{}\n]*\})[ \t]*|[^,()"'\n]*)`

// shellWordRE is a command line's value: quoted, or a bare word;
// shellArgRE an argument before it.
const (
	shellWordRE = `(?:"([^"\n]+)"|'([^'\n]+)'|([^\s"']+))`
	shellArgRE  = `(?:"[^"\n]*"|'[^'\n]*'|[^\s"']+)`
)

// fold writes an ASCII word so that it matches in any letter case: "key" =>
// "[Kk][Ee][Yy]". The expressions were written without (?i), which would
// also fold K with the Kelvin sign and s with the long s.
func fold(word string) string {
	var b strings.Builder
	for i := 0; i < len(word); i++ {
		c := word[i]
		switch {
		case c >= 'a' && c <= 'z':
			b.WriteByte('[')
			b.WriteByte(c - 'a' + 'A')
			b.WriteByte(c)
			b.WriteByte(']')
		case c >= 'A' && c <= 'Z':
			b.WriteByte('[')
			b.WriteByte(c)
			b.WriteByte(c - 'A' + 'a')
			b.WriteByte(']')
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// foldAny is fold over alternatives: "(?:[Aa][Pp][Ii]|…)".
func foldAny(words ...string) string {
	folded := make([]string, len(words)) // words may be a table of the matchers' own
	for i, w := range words {
		folded[i] = fold(w)
	}
	return "(?:" + strings.Join(folded, "|") + ")"
}

type reference struct {
	re       *regexp.Regexp
	anchored *regexp.Regexp // ^(?:expr), for start
	// start: where the leftmost match at or after text[lo] that holds the
	// trigger at text[at:] must begin (-1: nowhere).
	start func(text string, lo, at int) int
}

var (
	referenceOnce  sync.Once
	referenceTable []reference
)

func references(t testing.TB) []reference {
	t.Helper()
	referenceOnce.Do(func() {
		for _, e := range expressions() {
			referenceTable = append(referenceTable, reference{
				re:       regexp.MustCompile(e.re),
				anchored: regexp.MustCompile(`^(?:` + e.re + `)`),
				start:    e.start,
			})
		}
	})
	setupOnce.Do(setup)
	if len(referenceTable) != len(patterns) {
		t.Fatalf("%d expressions for %d patterns", len(referenceTable), len(patterns))
	}
	return referenceTable
}

// identStart: a match that begins with [A-Za-z0-9_.-]* begins where the run
// of those characters holding text[at] begins.
func identStart(text string, lo, at int) int {
	for at > lo && isIdent(text[at-1]) {
		at--
	}
	return at
}

// schemeStart: "://" at text[at:] follows a scheme, [A-Za-z][A-Za-z0-9+.-]*;
// the leftmost match begins at the first letter of the run before it.
func schemeStart(text string, lo, at int) int {
	end := at
	for at > lo && isSchemeChar(text[at-1]) {
		at--
	}
	for at < end && !isLetter(text[at]) {
		at++
	}
	if at == end {
		return -1
	}
	return at
}

// oldFind is Find as it was: the same prefilter, each triggered pattern's
// regular expression over the lines that hold a trigger, and anchored tries
// at each trigger for the patterns with a start hook on lines up to 2 KiB.
// Like scan, it reads the text in its plain form.
func oldFind(t testing.TB, s string) []Finding {
	return views(s, false, func(p string) []Finding { return oldFindPlain(t, p) })
}

func oldFindPlain(t testing.TB, s string) []Finding {
	table := references(t)
	var r run
	var textMask, lineMask uint64
	lineStart := 0
	for i := 0; i <= len(s); i++ {
		if i == len(s) || s[i] == '\n' {
			if lineMask&multiline != lineMask {
				oldPatterns(&r, table, s, lineStart, i, lineMask&^multiline)
			}
			textMask |= lineMask
			lineMask, lineStart = 0, i+1
			continue
		}
		for k := range byFirst[s[i]] {
			if t := &byFirst[s[i]][k]; t.mask&^lineMask != 0 && t.startsWith(s, i) {
				lineMask |= t.mask
			}
		}
	}
	oldPatterns(&r, table, s, 0, len(s), textMask&multiline)
	r.listed(s) // no pattern's: a line is read with what heads it (listed.go)
	return r.result()
}

func oldPatterns(r *run, table []reference, s string, from, to int, mask uint64) {
	if mask == 0 {
		return
	}
	if !r.marked {
		r.marks, r.marked = findMarks(s), true
	}
	text := s[from:to]
	for i, p := range patterns {
		if mask&(1<<uint(i)) == 0 {
			continue
		}
		if table[i].start != nil && len(text) <= 2048 {
			oldAnchored(r, table[i], i, p, text, from)
		} else {
			for _, m := range table[i].re.FindAllStringSubmatchIndex(text, -1) {
				r.add(i, p, text, from, m)
			}
		}
	}
}

func oldAnchored(r *run, l reference, i int, p *pattern, text string, from int) {
	resume, tried := 0, -1
	for at := 0; at < len(text); at++ {
		if !startsTrigger(text[at:], p.triggers) || at < resume {
			continue
		}
		c := l.start(text, resume, at)
		if c < 0 || c == tried {
			continue
		}
		tried = c
		m := l.anchored.FindStringSubmatchIndex(text[c:])
		if m == nil {
			continue
		}
		for k := range m {
			if m[k] >= 0 {
				m[k] += c
			}
		}
		r.add(i, p, text, from, m)
		resume = m[1]
	}
}

func startsTrigger(s string, triggers []string) bool {
	for _, t := range triggers {
		if text.HasFoldPrefix(s, t) {
			return true
		}
	}
	return false
}
