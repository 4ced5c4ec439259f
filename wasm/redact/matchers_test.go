package redact

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/pi-memory/pi-memory/wasm/internal/text"
)

// findAll is regexp's FindAllStringSubmatchIndex for a pattern's matcher,
// as scan runs it.
func findAll(p *pattern, s string) [][]int {
	var out [][]int
	for pos := 0; pos < len(s); {
		m := p.find(s, pos)
		if m == nil {
			break
		}
		out = append(out, m)
		pos = m[1]
	}
	return out
}

// checkMatchers: on s, every pattern's matcher finds what its regular
// expression finds, groups included, and Find what the scan over the
// expressions found.
func checkMatchers(t *testing.T, s string) {
	t.Helper()
	table := references(t)
	for i, p := range patterns {
		got, want := findAll(p, s), table[i].re.FindAllStringSubmatchIndex(s, -1)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("pattern %d (%s) on %q:\n got %v\nwant %v (%s)", i, p.kind, s, got, want, table[i].re)
		}
	}
	if got, want := Find(s), oldFind(t, s); !reflect.DeepEqual(got, want) {
		t.Fatalf("Find(%q) = %v, the scan over the expressions found %v", s, got, want)
	}
}

func TestMatchersAgreeWithTheirExpressionsOnTheCorpus(t *testing.T) {
	for _, s := range corpusTexts(t) {
		for k := 0; k <= len(s); k++ {
			checkMatchers(t, s[k:])
		}
		for _, line := range strings.Split(s, "\n") {
			checkMatchers(t, line)
		}
	}
}

// Where a matcher's order of tries is the expression's, pinned one by one.
func TestMatchersAgreeWithTheirExpressionsOnTheEdges(t *testing.T) {
	for _, s := range matcherEdges {
		checkMatchers(t, s)
	}
}

var matcherEdges = []string{
	"",
	// A bare value ends at an escaped line break after six characters (bareEnd).
	`password: hunter2x\npassword: hunter3x\n`, `token=abcdef\\\nx`, `secret=abcdefg\ x`, `api_key=abcdef\`, `token=abcdé\é\nq`, `password=ab\ncd1234\r`,
	// auth and access-token labels: a word before the separator, _auth at a
	// word's start, an option's --auth, an uppercase _PAT only.
	"REDIS_AUTH=Xq9vLm2pRt", "x-_auth=Xq9vLm2pRt", "__auth=Xq9vLm2pRt", "--auth=Xq9vLm2pRt", "-auth=Xq9vLm2pRt", " _auth=Xq9vLm2pRt",
	"DB_PASSWORD_PROD=hunter2x9", "API_KEY_2=Xq9vLm2pRtQ", "API_KEY_123=Xq9vLm2pRtQ", "API_KEY2=Xq9vLm2pRtQ", "TOKEN_B64_2=Xq9vLm2pRtQ",
	"TOKEN_B642=Xq9vLm2pRtQ", "STRIPE_LIVE_KEY=Xq9vLm2pRtQ", "STRIPE_LIVEKEY=Xq9vLm2pRtQ", "STRIPELIVE_KEY=Xq9vLm2pRtQ", "_prod=Xq9vLm2pRtQ",
	"token.new: Xq9vLm2pRtQ", "token_1_2=Xq9vLm2pRtQ", "token_-1=Xq9vLm2pRtQ", "SMTP_AUTH_2=starttls", "x_pass_qa=Xq9vLm2pRtQ",
	"_auth=Xq9vLm2pRt", "a._AUTH: 'Xq9vLm2pRt'", "a.auth=Xq9vLm2pRt", "GITHUB_PAT=abc123def456", "url_pat=abc123def456", "_PAT=abc123def456",
	// command lines: curl's -U, --user=, --proxy-user; ldap -w; ssh-keygen
	// -N/-P; sudo -S after a pipe or before a here-string, a first -S that
	// is no word; --with-token; a here-string with no flag, or a '<' first.
	"curl --user=a:b x", "curl --proxy-user=a:b", "curl --proxy-user  a:'b c'", "curl -Ua:b", "curl -U a",
	"ldapwhoami -wpw", "ldapsearch -W -w 'p w'", "ssh-keygen -N '' -P x", "ssh-keygenx -N x",
	"echo p | sudo -Sx -S y", "echo p |sudo -S", "echo p | sudo  -S", "echo p | sudo x -S; y -S",
	"echo p | gh --with-tokens", "echo p | gh --with-token",
	"printf '%s\\n' p | sudo -S", "printf \"%s\" p | sudo -S", "printf %s\\n p | sudo -S", "printf '%s' | sudo -S", "printf %s | sudo -S",
	"echo '%s' p | sudo -S", "printf -n '%s\\n' 'p w' | gh --with-token", "printf '%d' p | sudo -S", "printf '%s\n' p | sudo -S", "printf '%s p | sudo -S",
	"sudo -Sx -S <<< pw", "sudo -S < f <<< pw", "sudo -S x <<<pw", "sudo -S <<< 'p w'", "sudo -S <<<", "--with-token <<< \"a\"", "x--password-stdin<<<y",
	"sudo -S; <<< pw", "sudo\t-S <<< pw", "pseudo -S <<< pw",
	// redis-cli --pass, openssl -k (and -kfile, -keyform, -pass before or
	// after it), keytool's flags; Redis's directives at a line's start or
	// after CONFIG SET, in any case.
	// a command with no flag before each match on one line: the FindAll
	// loop's calls carry where each found none (cmdMemo).
	"curl x mysql -pA curl y mysql -pB; curl -u a:b", "keytool x sshpass -p A keytool y sshpass -p B keytool -storepass C",
	"mysql -pA mysql -pB\nmysql -pC curl -u a:b mysql", "curl a curl b curl -u u:p curl c -u v:q",
	// file formats: XML elements and attribute pairs, Kubernetes env
	// entries, ENV/setx/set -x, typed declarations; names that are no
	// label, values too short, quotes not closed, lines not joined.
	"<password>abcd</password>", "<db.password>abc</db.password>", "<passwordPolicy>abcd</passwordPolicy>", "<password>ab<c</password>", "<password>abcd</pass",
	"<password>ab\ncd</password>", "<<password>abcd</password>", "<Password>éééé</Password>", "<apiKey>abcd</x>",
	`<add key="DbPassword" value="abcd"/>`, `<add key='token' value='ab'/>`, `name="password" value="abcd"`, `key="password">abcd</entry>`, `key="password' value="abcd"`,
	`xkey="password" value="abcd"`, `key="password"  value='abcd' key="token" value="efgh"`, `key="pass"value="abcd"`,
	"printf -- '%s\n' abcd | sudo -S ls", "printf -- abcd | sudo -S ls", "printf --x abcd | sudo -S x", "echo -- abcd | sudo -S x", "printf -- -- abcd | sudo -S x", "printf -n -- abcd | sudo -S x",
	"<password><![CDATA[p]ss]word!]]></password>", "<password><![CDATA[ab]]>]]></password>", "<password><![CDATA[a\nb]]></password>", "<password><![CDATA[a<b>cd]]></password>",
	`<password xmlns="http://x.example/ns">abcd</password>`, `<wsse:Password Type="http://d#PasswordText">abcd</wsse:Password>`, "<wsse:Password>abcd</wsse:Password>",
	`<ns:password xmlns:ns="urn:x">abcd</ns:password>`, `<password type='a>b'>abcd</password>`, `<password type="a'>abcd</password>`, `<password a="x" b='y>'>abcd</`,
	"<1x:password>abcd</", "<:password>abcd</", "<a:b:password>abcd</", "<x-y.z:token>abcd</", `<password a="b`, `<password a="b"/>abcd</`,
	"<password><![CDATA[abcd]]></password>", "<password><![CDATA[ab]]></password>", "<password><![CDATA[ab]c]]></password>", "<password><![CDATA[abcd]]>x</password>",
	"<password><![CDATA[abcd", "<password><![CDATA[a <password><![CDATA[abcd]]></password>", `<password type="text">abcd</password>`, "<password >abcd</password>",
	"<password/>abcd</b>", "<password a/b>abcd</password>", "<password	a>abcd</", "<password a<password>abcd</password>", "<password a>b>abcd</password>",
	`<add value="abcd" key="DbPassword"/>`, `<add value='abcd'  name='token'/>`, `<add value="abcd" key="x"/>`, `<add value="ab" key="token"/>`, `value="abcd"key="token"`,
	`value="abcd" type="password"`, `content='abcd' name="token"`, `contentx="abcd" name="token"`, `content="abcd"  key = 'token'`, `content="abc" name="token"`,
	`type="password" value="abcd"`, `type="password" a="b" value="abcd"`, `type="password" a='b' c-d:e="" content="abcd"`, `name="token" value="" value="abcd"`,
	`name="token" a="b"value="abcd"`, `name="token" 1a="b" value="abcd"`, `name="token" a=b value="abcd"`, `name="token" a="b\n" value="abcd"`, `typex="password" value="abcd"`,
	`name="token"` + strings.Repeat(` a="b"`, 16) + ` value="abcd"`, `name="token"` + strings.Repeat(` a="b"`, 17) + ` value="abcd"`, `name="token" contents="abcd"`,
	strings.Repeat(`name="token" `, 40) + `value="abcd"`, `key="password" a="b">abcd</x>`,
	`<add key = "DbPassword" value = "abcd"/>`, `<add key="DbPassword"  value= 'abcd'/>`, `key ="password">abcd</entry>`, `key="password"><![CDATA[abcd]]></entry>`,
	`value = "abcd" name = "password"`, `value="value="abcd" key="token"`, `keyvalue="abcd" key="token"`, `key=  value="abcd" key="token"`,
	"- name: DB_PASSWORD\n  value: abcd", "name: \"API_TOKEN\"\r\nvalue: 'a b'", "name: 'token' \n value:x", "name: PASSWORD_FILE\n  value: /run/x", "name: token\n\n value: x", `"name" : "PW" ,"value" :x`, `name": 'PW'` + "\n" + `"value:x`, `"name":"PW",,"value":"x"`, `name"PW" value: x`, `"name":"PW","value":"a\"b\\"`, `"name":"PW","value":"\"`, `"name":"PW","value":"a\` + "\n\"", `Name:PW,Value:x,}`, `name: PW` + "\n" + ` value: "a\"b"`, `name: PW value: "\"`, `name: PW value: "a\\" x"`,
	"rename: token\nvalue: x", "name: token\nvalue:", "name: \"token\nvalue: x",
	"ENV DB_PASSWORD abcd", "\n  ENV API_TOKEN 'a b'", "xENV TOKEN abc", "ENV DB_PASSWORD=abcd", "setx API_TOKEN abc", "set -gx DB_PASSWORD abc", "set -g DB_PASSWORD abc",
	"setx  token\tabc", "reset -x token abc", "set -x token", "\nENV\ttoken x\nENV pwd y",
	"Header set token abc", "Header always set token abc", "Header alwaysx set token abc", "RequestHeader append token 'a'", "Header onsuccess add token abc",
	"Header setx token abc", "xHeader set token abc", "Header  always\tset  token abc", "Header always token abc", "php_value token abc", "php_admin_value a.token abc",
	"token:\\n```\\nv\\n```", "token:\\r\\n```\\r\\nv w\\r\\n```", "token:\\n```\\nv\\x```", "token:\\r```\\nv\\n```", "token:\n```\\nv\r\n```", "token: ```a\\b```",
	"token: ```v```", "token:** ``` v w ```", "token:```v``", "token: ``` ```", "token: ```v\n```", "token: ```v`w```", "token: ``` v\t```x",
	"token:\n```\nv\n```", "token:**\n```sh\nv w\n```", "token:\r\n ```\r\n v \r\n ``` x", "token:\n```\nv`w\n```", "token:\n```\n\n```", "token: x\n```\nv\n```",
	"token:\n``\nv\n```", "token:\n```\nv\n``", "token:\n```\nv\nw\n```", "token:\n```a b\nv\n```", "token:\n```\nv\f\n```", "token:\n```\na\rb\n```", "token:*\n```\nv\n```",
	"PIN is 1234", "PIN: 123", "PIN=123456789", "PIN code is 12345", "Pin code: 1234", "pin code = 1234x", "PINcode: 1234", "PIN codex: 1234", "xPIN is 1234", "PIN\tis\t1234 ",
	"PUK: 12345678", "PUK 1234", "PUKE is 1234", "recovery key: ABCD-EFGH", "backup keys = a1b2", "recovery keyx: abcd", "recovery  keys are ABCD-1234",
	"pin: 1234", "PIN was 12345678", "recovery codes: abcd-ef12 ab12, cd34-", "Backup code = a1b2", "backup codes are abcd", "recovery codes: abc", "Recovery  codes:ab12-ab-cd34",
	"recovery code is x", "recoverycodes: abcd", "backup codes were ab1c,,ab2c ,", "recovery codesx: abcd",
	"login: a, bbbb", "login: a|bbbb", "login is a / bbbb", "login are a,bbbb", "login isa / bbbb", "login is  a / bbbb", "user/pass: a / bbbb", "Username/Password = a|bbbb",
	"user/passwordx: a/bbbb", "user/passx: a/bbbb", "users/pass: a/bbbb", "login: a,b/cccc",
	"login: a/bbbb", "Login = a / bbbb", "credentials:a/bbb", "credential: a/bbbb", "creds: 'a'/bbbb", "creds: a//bbbb", "loginx: a/bbbb", "relogin: a/bbbb", "login: /bbbb",
	"CREDENTIALS :\ta\t/\tbbbb", "login**: a / bbbb", "login:** a / bbbb", "login: \"a b\" / \"c d\"", "login: 'a' / 'c'", "login: \"a / bbbb", "login: a / \"bb", "login: \"\" / bbbb", "login: a / bbb", "login: a\n/bbbb", "login: a b/cccc",
	"; sid=abcdefgh", "a;sid=abcdefgh", ";a=b;sid=abcdefgh", "; a=b; c=d", strings.Repeat("a=b; ", 30) + "sid=abcdefgh", "Cookie: a=b; sid=abcdefgh; token=12345678",
	"x; a b; sid=abcdefgh", ";;sid=abcdefgh", "; =; sid=abcdefgh",
	"Cookie: session=abcdefgh", "cookie:a=b; sid=abcdefgh", "Set-Cookie: x=y;z=w; JSESSIONID=12345678;", "set-cookie : a=b c=d; token=abcdefgh", "xcookie: sid=abcdefgh",
	"Cookie: a=b\nsid=abcdefgh", "Cookie: sid=abcdefg", "Cookie: sid=abcdefg; sid=abcdefgh", "Cookie: =b; sid=abcdefgh", "Cookie: a b=c; sid=abcdefgh", "Cookie: sid='abcdefgh'",
	"cookies: sid=abcdefgh", "Cookie:\tmy.auth=abcdefgh,x", "set-set-cookie: sid=abcdefgh", "Cookie: a=b;", "Cookie: a=b; ",
	"SetEnv TOKEN abc", "SetEnvIf TOKEN abc", "xSetEnv TOKEN abc", "proxy_set_header X-Api-Key a;", "add_header token 'a b';", "fastcgi_param PASSWORD a",
	"uwsgi_param PASSWORD a", "scgi_param PASSWORD a;b", "grpc_set_header token a", "proxy_set_header  token", "add_headers token a", "add_header\ttoken\ta",
	`var dbPassword string = "abcd"`, `password: string = 'abcd'`, `password : str = "abcd"`, `let token: &str = "abcd"`, `passwordstring = "abcd"`, `password strings = "abcd"`,
	`val apiKey: String = "abc"`, `password:string="abcd"`, `x.password str ="abcd"`,
	// YAML values on the line below: plain, quoted, block scalars; a key,
	// a list or a comment there; colons at the end; CRLF; the text's end.
	"password:\n  abcd", "password: >-\n  abcd\n", "password: |+ \r\n  'a b'\r\nx", "password:\n  type: string", "password:\n  - a", "password:\n  # c",
	"password:\n  abc:", "password:\n  :", "password:\n  ::", "password:\n  a:b", "password:\nabcd", "password:\n  abcd efgh", "password:\n  abcd\r", "token:\n\t\"x\n\"",
	"x.token:  \n   abcd  \n", "password:\n  abcd\npassword:\n  efgh",
	// --requirepass; an env entry joined on one line; element text after
	// name= (not read) and key=; a tab before a YAML value.
	"--requirepass x", "x--requirepass y", "- name: token value: x", "name: token\r value: x", `key="password">x key="password">y`, `name="password">abcd</x>`,
	`key="password">x <b>`, "password:\n\tabcd", "password:\n \tabcd",
	// the rest of a YAML value's line; more string types.
	"password:\n  abcd  # c\nx", "password:\n  abcd efgh\r\n", "password:\n  abcd\r", "password:\n  ab:: c", "password: Final[str] = 'abcd'", "let t: &'static str = \"abcd\"",
	"password: Optional[str]= 'abcd'", "password: Optional[int] = 'abcd'",
	// Makefile operators, a plural label.
	"masterauth: abcdefg", "olcRootPW: abcdefg", "ldap_default_authtok = abcdefg", "MASTERAUTH_KEY=abcdefg", "rootpwx: abcdefg", "xmasterauth = abcdefg", "authtok_prod: abcdefg", "pw: abcdefg",
	"PASSWORD ?= abcdefg", "PASSWORD += abcdefg", "PASSWORD ?=", "PASSWORD ?:= abcdefg", "token?=abcdefgh", "passwords: abcdefg", "db_passwords = 'abcd'", "passwordsx: abcdefg",
	"redis-cli --pass x", "redis-cli --pass=x", "redis-cli --password x", "redis-cli -a x --pass y", "redis-cli --pass \"a b\"",
	"openssl enc -k x", "openssl enc -kfile f", "openssl enc -keyform x -k y", "openssl -k a -pass pass:b", "openssl -pass pass:b -k a", "openssl -k",
	"keytool -storepass x", "keytool -keypass 'a b' -storepass c", "keytool -srcstorepass x", "keytool -deststorepass x", "keytool -new x",
	`get("DB_PASSWORD", "x")`, `('token','a b')`, `"api_key" ,  'x' )`, `x"password","y")`, `'password", "y"`, `"password", "y" ,)`, `"pass", ""`, `"token",'x'` + "\n)", `"DB_PASSWORD"` + "\t,\t" + `"x"` + "\t)",
	`process.env.DB_PASSWORD || "x"`, `token')] ?? 'y'`, `password  or  'x'`, `passwordor 'x'`, `password ?:"x"`, `token.unwrap_or("x")`, `token .unwrap_or("x")`, `token"))|| "x"`, `token || "a b"`, `token ||` + "\n" + `"x"`,
	`'password' => env('PW', 'x')`, "password:=env(", "password: $f(", "token=9x(", "token = a-b(", "token=a::b.c$d(", "token %3D x(", "token=" + strings.Repeat("a", 127) + "(", "token=" + strings.Repeat("a", 128) + "(", "token%3D abcdefgh", "token\\u003d 'abcd'", "`token`: _(",
	"Private-Lines: 1\nAAAA\nPrivate-MAC: x", "Private-Lines:2\r\nAA==\r\nBB\r\n", "Private-Lines: \nAAAA", "Private-Lines: 1\nAA\r", "Private-Lines: 1\n\nAA", "Private-Lines: 3\nA+/\nB", "Private-Lines: 1 Private-Lines: 2\nAB", "> Private-Lines: 2\n> AAAA\n>  BB\n> Private-MAC: x", "  Private-Lines: 1\n  \n  AA", "Private-Lines: 1\n\t>AA\r\n", "Private-Lines: 2 AAAA BBBB Private-MAC: x", "Private-Lines: 2  AA  ", "Private-Lines: 2 \n AA", "Private-Lines: 2", "Private-Lines: 2 ",
	"token: `abcd`", "token: `abc`", "token:`ab\ncd`", "token= `a b c d`", "token: `abcdefg", "token: ``abcd``",
	"keytool -storepass A -keypass B", "x -srckeypass 'a b'", "-deststorepass c", "storepass x", "-Storepass x", "-storepasswd x", "CREATE USER a IDENTIFIED BY 'x'", "identifiedby x", "IDENTIFIED  BY\tx", "identified with p by 'x'", "identified with by by x", "identified with by x", "identified withx by y", "setenv A_TOKEN x", "setenvx A_TOKEN x",
	"keytool -storepass:env V", "keytool -storepasswd -new x", "keytool -srckeypass x", "keytoolx -storepass x", "keytool -store pass",
	"requirepass x", "  requirepass x\nmasterauth 'y z'", "\trequirepass\t\"q\"", "x requirepass y", "# requirepass y", "requirepassword y",
	"CONFIG SET requirepass x", "config  set\tmasterauth x", "reconfig set requirepass x", "config setrequirepass x", "CONFIG SET  REQUIREPASS x",
	"enable secret 0 x", "a: enable secret 0 x", "`enable secret x`", ":enable secret x", "\n: - enable secret x", "- : enable secret x", "enable secret 5 $1$a$b", "enable secret 0", "enable  secret\t7 x", "x enable secret 0 y", "\n - enable secret 0 y", "> snmp-server community c RO",
	"enable secretx y", "enable secret 0x y", "enable secret 12 y", "username u privilege 15 secret 0 x", "username u privilege 15x secret x", "username u password 7 x",
	"username u privilege secret x", "username  secret x", "username u secret", "  auth_pass x\nkey-string 7 y", "-pre-shared-key x", "-  auth_pass x", "radius-server key 7 x\ntacacs-server  key x",
	"requirepass x\n auth_pass y", "x requirepass\n  auth_pass y", "enable secret 0 'a b'", "enable secret 0 \"a", "username u privilege 15\nsecret x",
	"requirepass\nrequirepass x", "requirepass x requirepass y", "config set config set requirepass x", "set requirepass x", "configset requirepass x",
	"sudo x --with-token <<< v", "sudo x --with-token -S <<< v", "--with-token sudo -S <<< v", "sudo -S<<< v", "a <<< b; sudo -S <<< c",
	"sudo sudo -S <<< v", "sudo --password-stdinx <<< v --with-token <<< w",
	"echo p | sudo -kS x", "echo p | sudo -S -Sk", "echo p | sudo --stdin", "echo p | sudo -S1 -kS", "printf 'p\\n' | sudo -S", "echo -ne p | sudo -S", "echo -x p | sudo -S",
	"sudo --stdin <<< v", "sudo -k -Sv <<< v", "npm config set -- //r/:_authToken t", "git config --global --add github.token t", "npm config set '//r/:_authToken' t",
	"kubectl config set-credentials ada --token=x", "npm  config --token a_token x", "gitconfig x_token y", "git config set x_token",
	"git config --get github.token | cat", "git config --unset a.password && x", "git config a_token >x", "echo y | sudo pacman -Syu", "sudo ls -lS <<< x",
	"echo p | sudo -Sk x -S", "echo p | sudo  -kS", "sudo --stdin x <<< y", "echo p | sudo x --stdin",
	"sudo -u ada sudo -HS true <<< pw", "sudo x sudo -kS <<< pw", "sudo sudo -Sx<<< >x", "sudo a -S sudo -kS <<< p", "--with-token sudo -kS <<< p", "sudo -kS --with-token <<< p",
	"--with-token<<<--with-token<<<x", "sudo -S<<<\"a\"<<<\"b", "--with-token<<<'x", "--with-token <<< \"\"",
	"https://discord.com/api/v10/webhooks/123/abcdefghijklmnopqrstuvwxyz", "discordapp.com/api/v/webhooks/1234567890123456789012", "discord.com/api/v9/webhook/x",
	// config set: with and without set, configure, a key that is no label,
	// "set" as the key, a label inside a longer word, quoted and empty values.
	"npm config set //r/:_authToken t0k3n", "git config github.token x", "aws configure set aws_secret_access_key 'a b'",
	"config set set x", "config  set\tdb_pass \"\"", "config tokens x", "config set x_token", "reconfig set a_token x",
	"config set mytoken\nx", "config setx a_token y", "config set user.Pass $PW",
	// private-key: dash counts, the optional space, digits after PRIVATE KEY,
	// several END lines, none, a second key, \r\n and literal \n.
	"------BEGIN RSA PRIVATE KEY------\nabc\n------END RSA PRIVATE KEY------x",
	"---BEGIN PRIVATE KEY-----", "----BEGIN PRIVATE KEY----x", "-----BEGINPRIVATE KEY-----",
	"----- BEGIN PRIVATE KEY -----\nx\n----- END PRIVATE KEY -----",
	"-----BEGIN PRIVATE KEY 2-----x", "-----BEGIN 2 PRIVATE KEY X-----x", "-----BEGIN PRIVATE KEY PRIVATE KEY 9 PRIVATE KEY-----",
	"-----BEGIN PRIVATE KEY-----a-----END PRIVATE KEY---b-----END PRIVATE KEY-------c-----END PRIVATE KEY-----",
	"-----BEGIN PRIVATE KEY-----\r\nx\r\n-----END PRIVATE KEY-----\r\n-----BEGIN PRIVATE KEY-----y",
	`"-----BEGIN OPENSSH PRIVATE KEY-----\nb3Bl\n-----END OPENSSH PRIVATE KEY-----\n"`,
	"-----BEGIN PRIVATE KEY-----é\xff-----END PRIVATE KEY-----",
	// aws-key and the \b on either side.
	"AKIAABCDEFGHIJKLMNOP", "xAKIAABCDEFGHIJKLMNOP", "AKIAABCDEFGHIJKLMNOPQ", "-ASIAABCDEFGHIJKLMNOP-", "éAKIAABCDEFGHIJKLMNOPé",
	// and a GitHub token glued on after it, or a word that only starts like one.
	"AKIAABCDEFGHIJKLMNOPghp_abcdefghijklmnopqrstuvwxyz0123", "AKIAABCDEFGHIJKLMNOPghp_short", "AKIAABCDEFGHIJKLMNOPgithub_pat_abcdefghijklmnopqrstuvwx",
	"SK0123456789abcdef0123456789abcdefgho_abcdefghijklmnopqrstuvwxyz0123", "SK0123456789abcdef0123456789abcdefghost",
	// labels: the greedy identifier run, separators, suffixes, operators.
	"aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
	"AWS.SECRET-KEY:=\"wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\"", "secretAccessKey'] => 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
	"password:=abcde", "password=>abcde", "password:=abcdef", "password:abc", "token=\"ab\\\"cd\"", `token="ab\`,
	"token=\"abc\\\ndef\"", "token='é€𝄞x'", "token=\"é€𝄞x\"", "token=é€𝄞xyz", "token=\xff\xfe\xfd\xfc\xfb\xfa", "token=\xe2\x82\xe2\x82\xe2\x82",
	"api_key_base = abcdef", "api-keybase: abcdef", "api_key_value=abcdef", "my_token_key_value=abcdef", "TOKENVALUE=abcdef",
	"x.pwd = /home/u", "https://x-access-token:abcdef@host", "token\"\"\" = abcdef", "token ]] : abcdef",
	"token=abc token=abcdef", "tokentoken=abcdef", "a-b.c_password\t=\t'abcd'", "token=\v\vabcdef",
	// URLs.
	"https://u:p@h", "1https://u:p@h", "+.-://u:p", "a://b:c://d:e", "x=ssh+git://git@host:22", "http://a b:c", "ftp://u\v:p@h",
	// user:password@host and the byte before it.
	"a:b@c", ":b@c", "a:@c", "a:b@", "/a:b@c", "é:b@c", "\xffa:b@c", "\xe2\x82a:b@c", "a:b@c@d", "a:b:c@d", "x a:b@c.d,e:f@g.h", "a:b@c a:b@c",
	"thin:a/b@//c", "jdbc:oracle:THIN:a/b@c", "xthin:a/b@c", "thin:thin:a/b@c", "thin::a/b@c", "hin:a/b@c", " thin:a:b@c", "thin:a/b@", "thin:/b@c",
	"security import c.p12 -k k -P x", "security importx -P x", "security  import -P 'a b'", "xsecurity import -P x",
	"[REDACTED:url-password]@h", "a:b@-", "@a:b@c", "a:b c@d", "a:b@@c", "\na:b@c", "a\n:b@c", "ä:b@c", "a:b@c:1", "a:b@1.2.3.4.",
	// _auth and its start.
	"_auth=abcd", "x_auth=abcd", "é_auth=abcd", "\xff_auth = abcd", "\xe2\x82_auth=abcd", "[REDACTED:secret]_auth=abcd",
	// netrc, bearer, auth headers.
	"machine api.example.com login ada password hunter2",
	"default login ada password hunter2", "xmachine a login b password c", "machine  a\tlogin b password\fc",
	"Bearer abcdefghijklmnop", "bearer\t\tabcdefghijklmno", "Proxy-Authorization: Basic YWxhZGRpbjpvcGVu",
	"xproxy-authorization='token abcdefgh", "Authorization\"=\"Bot abcdefgh", "authorization: bearer abcdefghijklmnopqr",
	// vendor tokens around their lengths.
	"ghp_" + strings.Repeat("a", 30), "ghp_" + strings.Repeat("a", 29), "github_pat_" + strings.Repeat("_", 22),
	"glpat-" + strings.Repeat("-", 20), "GR1348941" + strings.Repeat("x", 20), "glagent-" + strings.Repeat("a", 19),
	"sk-" + strings.Repeat("sk-", 10), "xoxb-" + strings.Repeat("1", 10), "xapp-1-" + strings.Repeat("A", 10),
	"hooks.slack.com/services/" + strings.Repeat("T/", 10), "hooks.slack.com/triggers/x",
	"hooks.slack.com/workflows/" + strings.Repeat("a", 20), "hooks.slack.com/hooks.slack.com/services/" + strings.Repeat("a", 20),
	"AIza" + strings.Repeat("-", 35), "AIza" + strings.Repeat("-", 34), "GOCSPX-" + strings.Repeat("a", 20), "ya29." + strings.Repeat("a", 20),
	"echo pw | docker login --password-stdin", "echo -n pw|x --password-stdin", "echo -n | a --password-stdinx --password-stdin", "echo 'a b' |; --password-stdin",
	"xecho pw | a --password-stdin", "echo \"p\" | a\t--password-stdin_", "echo  -n  \"\" | --password-stdin", "echo a|b | c --password-stdin",
	"HRKU-" + strings.Repeat("a", 30), "HRKU-" + strings.Repeat("-", 29), "xHRKU-" + strings.Repeat("0", 40), "HRKU-650c1dee-447c-40c5-a42b-9844daa53e21",
	"sk_live_" + strings.Repeat("a", 16), "pk_test_" + strings.Repeat("a", 15), "whsec_" + strings.Repeat("a", 24),
	"dckr_pat_" + strings.Repeat("a", 27), "dckr_pat_" + strings.Repeat("a", 26), "xdckr_pat_" + strings.Repeat("a", 27), "lin_api_" + strings.Repeat("a", 40), "lin_api_" + strings.Repeat("a", 39) + "-", "sk-" + strings.Repeat("a", 10) + " dckr_pat_" + strings.Repeat("b", 30),
	"gsk_" + strings.Repeat("a", 40), "xai-" + strings.Repeat("b", 39), "ATATT" + strings.Repeat("c=", 30), "tskey-auth-" + strings.Repeat("d", 20), "dp.st.prd." + strings.Repeat("e", 40), "ops_" + strings.Repeat("f", 100), "sntrys_" + strings.Repeat("g", 40), "r8_" + strings.Repeat("h", 30), "xr8_" + strings.Repeat("h", 30),
	"npm_" + strings.Repeat("a", 36), "npm_" + strings.Repeat("a", 35), "hf_" + strings.Repeat("a", 30), "pypi-AgE" + strings.Repeat("a", 50),
	"eyJ" + strings.Repeat("a", 8) + "." + strings.Repeat("b", 8) + "." + strings.Repeat("c", 8),
	"-eyJ-eyJaaaaaaaa.bbbbbbbb.ccccccc -eyJaaaaaaaa.bbbbbbbb.cccccccc",
	// vendor tokens around their lengths and boundaries.
	"SG." + strings.Repeat("a", 22) + "." + strings.Repeat("b", 43), "SG." + strings.Repeat("a", 21) + "." + strings.Repeat("b", 43),
	"SK" + strings.Repeat("0", 32), "SK" + strings.Repeat("0", 33), "xSK" + strings.Repeat("f", 32), "SK" + strings.Repeat("F", 32) + "_",
	"shpat_" + strings.Repeat("a", 32), "shpxx_" + strings.Repeat("a", 32), "shp", "dop_v1_" + strings.Repeat("a", 64), "_v1_", "d_v1_",
	"xdoo_v1_" + strings.Repeat("0", 64), "hvs." + strings.Repeat("a", 24), "hvb." + strings.Repeat("a", 23), "hv",
	"AGE-SECRET-KEY-1" + strings.Repeat("A", 58), "?sig=" + strings.Repeat("%", 20), "sig=" + strings.Repeat("a", 20), "&sig=&sig=" + strings.Repeat("a", 20),
	"xoxe-" + strings.Repeat("1", 10),
	// password words and "secret" in prose, at their word boundaries.
	"my password is hunter2", "pass phrase", "pass\tphrase", "pass  phrase", "pass phrases", "passphrases",
	"PW: x", "pwd_x", "xpw", "Passcode", "_pw", "pw\xff", "épw", "secret key is x", "secrets", "Secret_", "xsecret",
	// "secret" as an identifier of AWS's key, the optional parts and \b.
	"aws_secret_access_keys", "secret-access_keys", "aws.secretkey", "xaws_secret", "AWSSECRETACCESSKEY", "aws_secrets", "aws-secret-",
	"secret_access", "secret_access_", "aws__secret", "aws secret", "secret.key.",
	// token and api key in prose.
	"api key", "api  key", "apikey", "api_keys", "API-KEY", "api\tkey", "tokens", "Token", "_token", "token_", "apix key",
	"key", "KEY is", "keys", "xkey", "key_", "api key key", "apikeykey", "monkey key", "pass", "PASS is", "passé", "pass  phrase", "pass phrase2",
	// pass as a label's last word.
	"pass=abcdefg", "DB_PASS=abcdefg", "dbPass=abcdefg", "bypass=abcdefg", "_pass=abcdefg", "x.pass=abcdefg", "9Pass=abcdefg",
	"aPASS=abcdefg", "PASS: abcdefg", "xpass=abcdefg", "a_Pass=abcdefg", "PassPass=abcdefg", "passkey=abcdefg",
	// an identifier that ends in a password word (prose).
	"DB_PASSWORD is x", "_password", "a__pw", "db_pass phrase", "dbPassword", "dbPASSWORD", "DbPwd", "x9Passwd", "_Password", "a_Passwords",
	"password_", "db_password_x", "dbPasswordX", "Password", "aPass is", "db-password", "db_pass\tphrase",
	// a secret store's command, its flags and its words.
	"gh secret set X --body v", "gh secret set X -bv", "gh secret set X -b \"v\"", "gh secret set X --body=v", "gh secret set X --bodyx v",
	"gh secret set-x --body v", "gh secrets set X --body v", "gh  secret\tset X  --body  v", "xgh secret set X --body v", "gh secret set X -b",
	"gh secret set X --body \"\" --value v", "gh secret set X; --body v", "gh secret set gh secret set X --body v",
	"az keyvault secret set --value v", "aws secretsmanager create-secret --secret-string v", "aws secretsmanager create-secretx --secret-string v",
	"aws secretsmanager put-secret-value --secret-string=v", "aws secretsmanager update-secret-x --secret-string v", "aws  secretsmanager",
	"doppler secrets set NAME v", "doppler secrets set 9N v", "doppler secrets set _N \"v\"", "doppler secrets set N=v w", "doppler secrets setx N v",
	"dotnet user-secrets set \"K:P\" \"v\"", "dotnet user-secrets set \"\" v", "dotnet user-secrets set 'k' v", "dotnet user-secrets set k\"v\"",
	"dotnet user-secrets set \"k", "rabbitmqctl add_user u v", "rabbitmqctl change_password u 'v'", "rabbitmqctl add_userx u v", "rabbitmqctl add_user  ",
	"ConvertTo-SecureString \"v\" -AsPlainText", "convertto-securestring -String 'v'", "CONVERTTO-SECURESTRING -String", "ConvertTo-SecureString -Stringy",
	"ConvertTo-SecureString -String  -AsPlainText", "ConvertTo-SecureStringx v",
	"mc alias set a b c d", "mc alias set a b c", "mc config host add a b c 'd'", "mc aliasx set a b c d", "mcx alias set a b c d", "mc alias set a\nb c d",
	"poetry config http-basic.r u p", "poetry config http-basic. u p", "poetry config http-basic.r u", "poetry config pypi-token.r t", "poetry config pypi-token. t",
	"poetry  config\tpypi-token.r \"t\"", "net user \"a b\" c", "net user 'a' \"c d\"", "net user \"a c", "mcli alias set a b c d", "mc admin user add a b c", "mc admin user add a b", "mclix admin user add a b c",
	"poetry config --local http-basic.r u p", "poetry config -x -y pypi-token.r t", "poetry config --local", "poetry config --local ", "nuget setapikey k", "NuGet.exe  SetApiKey 'k'", "nuget setapikeyx k",
	"vsce publish --pat k", "vsce --pat=k", "vsce --path k", "ovsx -p k", "poetry publish -p k", "nuget -ApiKey k", "nuget -apikeyx k", "xh -a a:b", "xhs --auth=a:b", "xhx -a a:b", "net user /add a b", "net user /a /b a b", "net user /add /x b", "net user /add", "net user /c:\"x y\" a b", "net user // a b", "NET USER a b", "Net.Exe user a b", "net.exe  user a b", "net.ex user a b", "netx.exe user a b", "PSEXEC -p a", "NuGet -k a", "IpmiTool -P a", "net user a b", "net user a", "net user  a\tb", "net users a b", "network user a b", "net user a \"b c\"",
	// string prefixes before a label's quoted value.
	"password = @\"abcd\"", "password = @'abcd'", "password = u8\"abcd\"", "password = u8'ab'", "password = L\"abcd\"", "password = r#\"abcd\"#",
	"password = r##'abcd'", "password = r#abcdefgh", "password = @$'abcd'", "password = L$'abcd'", "password = u8\"\"\"abcd\"\"\"", "password = r#",
	// Terraform's variables, readers' defaults, conditional assignment.
	"variable \"db_password\" { default = \"x\" }", "variable \"a\"{default=\"x\"}", "variable \"a\" { b { default = \"x\" } }",
	"variable \"a\" {\n default = \"x}\"", "variable \"a\" { defaults = \"x\" default = \"y\" }", "xvariable \"a\" { default = \"x\" }",
	"variable \"a\" { variable \"b\" { default = \"x\" }", "variable \"\" { default = \"x\" }", "variable \"a\" { default = \"\" }", "variable\"a\"{default=\"x\"}",
	"pw | default \"x\"", "pw |default\t'x'", "pw | defaultx \"x\"", "pw || default \"x\"", "fetch(\"pw\") { \"x\" }", "fetch(\"pw\"){'x'}", "pw { \"x\" }",
	"pw ||= \"abcd\"", "pw ??= 'abcd'", "pw |= \"abcd\"", "pw ?? = \"abcd\"",
	// SQL's IDENTIFIED BY PASSWORD and its hash.
	"IDENTIFIED BY PASSWORD '*6C89'", "identified by password x", "IDENTIFIED BY PASSWORD", "IDENTIFIED BY PASSWORDx 'y'", "IDENTIFIED BY  password\t\"h\"",
	"IDENTIFIED BY PASSWORD ''", "IDENTIFIED WITH x BY PASSWORD 'h'",
	// basic auth.
	"auth=(\"u\", \"x\")", "auth = ['u','x']", "oauth=(\"u\",\"x\")", "auth==(\"u\",\"x\")", "HTTPBasicAuth(\"u\", \"x\")", "set_basic_auth('u','x')",
	"SetBasicAuth(\"\", \"x\")", "BasicAuth(\"u\", \"\")", "basicAuth(\"u\"\n, \"x\")", "BasicAuth(u, \"x\")", "Basic_Auth(\"u\", 'x')", "BasicAuth('u\", 'x')",
	"auth=(\"u\", \"x", "auth\t=\t(\t'u'\t,\t'x'",
	// a literal given to a call named for a secret.
	"set_password(\"abcd\")", "password( 'abcd' ,x)", "password(`abcd`)", "password(\"abc\")", "password(\"abcd\" x)", "password(\"ab\ncd\")",
	"password (\"abcd\")", "password(\"\xff\xff\xff\xff\")", "password(\"abcd", "apiKey('abcd')", "x.token(\"abcd\")",
	// a Telegram token alone and in the Bot API's path.
	"/bot1234567890:AA" + strings.Repeat("x", 33) + "/send", "xbot1234567890:AA" + strings.Repeat("x", 33), "bot123:AA" + strings.Repeat("x", 33),
	"botbot1234567890:AA" + strings.Repeat("x", 33), "1234567890:AA" + strings.Repeat("x", 33) + "x",
	// an Authorization header's schemes and separators.
	"Authorization: SSWS 12345678", "authorization 'Basic 12345678'", "Authorization  \"x 12345678", "Authorization \t'9x 12345678", "Authorization:'Basic' 12345678",
	"Authorization: _x 12345678", "Authorization: x-y_z 12345678", "Authorization\"= \"a 12345678", "Authorization x 12345678", "proxy-authorization: a 12345678",
	// a password given by its place.
	"getConnection(u, \"a\", \"p\")", "getConnection( \"u\" , 'a' , 'p' )", "getConnection(\"u\"x, \"a\", \"p\")", "xPDO(a, b, 'p')", "PDO (a, b, 'p')",
	"FTP_TLS(a,b,'p')", "x.login(a,'p',)", ".login('',\"p\")", "bind_s(a, \"\")", "NetworkCredential(\"a\"\n, \"p\")", "mysqli(a, b, 'p' x)",
	"getConnection(a, 'b, c', 'p')", "getConnection(a, b\"c\", 'p')",
	"hmac.new(key=b'k')", "hmac.new(key = 'k', m)", "hmac.new(keyx='k')", "hmac.new(key, 'k')", "x(a, Buffer.from('k'))", "createHmac(a, Buffer.from('k'), x)", "from_secret('k'.as_ref())",
	"from_secret('k'.as_bytes())", "from_secret('k'.as_ref(x))", "CryptoJS.HmacSHA1(m, 'k')", "CryptoJS.AES.encrypt(m, 'k')", "AES.decrypt(m,\"k\")", "JWS.sign(p, 'k', a)", "SymmetricSecurityKey('k')",
	"u/p: a/bbbb", "U/P = a | bbbb", "account: a, bbbb", "auth: a/bbbb", "author: a/bbbb", "accounts: a/bbbb", `property="token" content="abcd"`, `content="abcd" property='token'`,
	"jwt.sign({a: 'b'}, 'k')", "jwt.sign({a, b}, 'k')", "jwt.sign({a{b}}, 'k')", "jwt.sign({a}x, 'k')", "hmac.New(f, []byte(\"k\"))", "hmac.New(f, []byte(\"k\")",
	"hmac.New(f, []byte(k))", "SignedString([]byte('k')) x", "HMACSHA256(Encoding.UTF8.GetBytes(\"k\"))", "HMACSHA256(Encoding.ASCII.GetBytes('k'), x)", "from_secret(B'k')",
	"hmac.new('k'.encode(), m)", "hmac.new('k'.encode('utf-8'))", "hmac.new('k'.encode(\"utf 8\"))", "hmac.new('k'.encode('x)", "hash_hmac('a', $d, 'k')", "openssl_encrypt(d, 'a', \"k\", 0)",
	"OpenSSL::HMAC.hexdigest('a', 'k', d)", "HMAC.digest(a, 'k')", "Algorithm.HMAC512('k')", "algorithms.AES(b'k')", "AESGCM(b'k')", "hmac.digest(b'k', m)", "x.SignedString(\"k\") + 1",
	"jwt.sign(a, 'k')", "jwt.encode(a,\"k\")", "xjwt.sign(a, 'k')", "jwt.signx(a, 'k')", "jwt.sign('k')", "jwt. sign(a, 'k')", "hmac.new(b'k', m)", "hmac.new(B\"k\")",
	"hmac.new(bk')", "hmac.new(b 'k')", "AES.new('k')", "aes.new('k')", "x.new('k')", "Fernet(b'k')", "Fernet ('k')", "Fernetx('k')", "createHmac('a', 'k')",
	"createCipheriv(a, \"k\", iv)", "createDecipheriv('a','k')", "SecretKeySpec(\"k\".getBytes(), a)", "SecretKeySpec(\"k\".getBytes(UTF_8.x))", "SecretKeySpec('k'.getBytes(a b))",
	"SecretKeySpec(\"k\".getBytes()x)", "SecretKeySpec(\"k\".getBytes( ), a)", "ChaCha20_Poly1305.new(b'k')", "jwt.verify(t, b'k')",
	// a key's DER in base64.
	"MIIEvQIBADANBgkqhkiG9w0BAQEFAASC" + strings.Repeat("A", 20), "MIIEvQIBADANBgkqhkiG9w0BAQEFAASC" + strings.Repeat("A", 19), "xMIIEowIBAAKC" + strings.Repeat("A", 20),
	"MII+/=IBAAKC" + strings.Repeat("A", 20), "MII+/+IBAAKC" + strings.Repeat("=", 20), "MHcCAQEEI" + strings.Repeat("b", 20), "/MC4CAQAwBQYDK2VwBCIEI" + strings.Repeat("c", 25),
	// a long flag that names a secret.
	"--token x", " --token x", "\n--db-password 'x'", "a--token x", "---token x", "--a--token x", "--x-api-key x", "--apikey\tx", "--token-x y", "--token",
	"--token  ", "--tokenx y", "--9-token x", "--A-token x", " --token --token x", "--secret-key=x",
	// a key's name in prose.
	"Private Key", "private_key", "secret key", "secretkey", "secret  key", "secret-keys", "xprivate key", "deploy\tkey", "license.key", "master_keyx",
	// Docker's "auth" and PEM keys in base64.
	"\"auth\":\"YWRhOlhrMjlkbXcw\"", "\"auth\" : \"YWRhOlhrMjlkbXcw==\"", "\"auth\":\"YWRhOlhrMjlk\"", "\"auth\":\"YWRhOlhrMjl\"", "\"auth\":\"YWRhOlhrMjlkbXcw===\"",
	"\"auth\":'YWRhOlhrMjlkbXcw'", "LS0tLS1CRUdJTiBQUklWQVRF" + strings.Repeat("A", 20), "LS0tLS1CRUdJTiBQR1AgUFJJVkFURS" + strings.Repeat("A", 19),
	// vendors' keys at their prefixes.
	"glc_" + strings.Repeat("a", 32), "glc_" + strings.Repeat("a", 31), "dp.pt." + strings.Repeat("a", 40), "dp.audit." + strings.Repeat("a", 39),
	"PMAK-" + strings.Repeat("a", 50), "key-" + strings.Repeat("f", 32), "key-" + strings.Repeat("F", 32), "dapi" + strings.Repeat("0", 32),
	"sl." + strings.Repeat("a", 100), "xkey-" + strings.Repeat("f", 32),
	// password words of other languages, at their edges.
	"passwort", "Passwörter", "kennwort1", "mot de passe", "mot  de passe", "motde passe", "contraseña", "contrasena", "contraseñas",
	"CONTRASEÑA", "ContraseÑa", "contraseNA", "contraseã", "пароль", "Пароли", "ПАРОЛЬ", "xпароль", "senha", "senhas", "\xd0\xbf",
	"wachtwoord", "wachtwoorden", "contrasenya", "contrasenyes", "contraseny", "CONTRASENYA", "passord", "passordet", "passorde", "passordetx",
	"lösenord", "LÖSENORDET", "lÖsenord", "losenord", "lösenorden", "hasło", "HASŁO", "hasŁo", "hasła", "haslo", "xhasło", "hasłox",
	"şifre", "Şifre", "ŞİFRE", "ŞIFRE", "şİfre", "şifrem", "şifresi", "şifreniz", "şifremx", "şifresİ", "xşifre", "şifr", "\xc5", "\xc5\x9f",
	"şifrenizm", "şifre_", "ł", "Ło",
	// a password on a command line: the command, the rest of its line, the
	// flag and its value's forms.
	"mysql -pabc", "mysql -p abc", "mysql -p", "xmysql -pabc", "mysqlx -pabc", "mysqldump -pabc", "mysqlsh\t-p\"a b\"", "mysql-workbench -pabc",
	"mariadb-dump -u r -p'x y'", "mysql; -pabc", "mysql | -pabc", "mysql && x -pabc", "mysql\n-pabc", "mysql -p\"\" -pabc", "mysql -p\"ab", "mysql -p'a\nb' -pc",
	"mysql mysql -p mysql -pok", "echo mysql ; mysql -p -pOK", "mysql -P3306 -pabc;def", "mysql -p$PW -pabc",
	" h:1:d:u:pppp", "\nh:1:d:u:pppp", "x\th:1:d:u:pppp", "h:1:d:u:pppp h:2:d:u:qqqq", "h:1:d:u:pppp", "h:1:d:u:ppp", "h:*:d:u:pppp \r", "h:123456:d:u:pppp", "h::d:u:pppp", " \th:1:d:u:p:pp\nh:2:d:u:qqqq", "x h:1:d:u:pppp", "h:1:d:u:pppp x",
	"h:1:d:u:pppp\rx", "h:1:d:u: pppp", "*:*:*:*:pppp\n*:*:*:*:qqqq\n", "h_1:1:d:u:pppp", "h:1:d:u:pp\\:pp",
	"echo a | passwd --stdin u", "echo a |passwd  --stdin", "echo a | passwd --stdinx", "echo a | sudo passwd --stdin", "echo a | xpasswd --stdin", "chpasswd <<< a:b", "chpasswdx <<< a:b",
	"x chpasswd y <<< 'a:b'", "chpasswd; <<< a:b", "sudo chpasswd <<<a", "passwd --stdin <<< a",
	"echo a:b | chpasswd", "echo 'a:b'|chpasswd", "echo a:b | sudo chpasswd", "echo a:b | sudo  chpasswd -e", "echo a:b | sudo -S chpasswd", "echo a | chpasswdx",
	"echo a:b | sudox chpasswd", "echo a:b | x chpasswd", "printf '%s\n' a:b | chpasswd", "echo a:b |\tchpasswd",
	"ipmitool -P abc", "ipmitool -Pabc", "xipmitool -P abc", "psexec -p abc", "PsExec64 -p abc", "psexec32 -p abc", "vsce publish -p abc", "nuget push -k abc", "nuget -pass pass:x",
	"lftp -u a,b", "lftp -ua,b", "lftp -u a", "lftp -u 'a,b c'", "lftp -u \"a,\"", "lftp -u a:b", "xlftp -u a,b", "lftp; -u a,b",
	"http -a a:b", "https -a a:b", "http  x -a a:b", "http://x -a a:b", "http\t--auth a:b", "http --auth=a:b", "http --auth-type a:b", "http -a a", "https\n-a a:b", "xhttp -a a:b", "httpx -a a:b", "http", "http ",
	"sshpass -p abc", "sshpass -pabc", "sshpass -p", "sshpass -p \t 'a b'", "sshpass -P x -p y", "xsshpass -p abc", "sshpass -e ssh -p 22",
	"curl -u a:b", "curl -ua:b", "curl -u a", "curl -u a: x", "curl -u :b", "curl --user a:b", "curl --user=a:b", "curl --usera:b", "curl --user-agent x -u y:z",
	"curl -u \"a:b c\"", "curl -u 'a:b'", "curl -u \"a b:c\"", "curl -u \"ab\" -u c:d", "curl -u 'a:\nb'", "curl -u a:b:c", "curl -u \"a:b", "curl -u ''a:b",
	"docker login -p abc", "docker login -pabc", "docker  login --password abc", "docker login --password=abc", "docker login --password-stdin x -p y",
	"podman login\t-u a -p 'b c'", "docker-compose login -p x", "xdocker login -p x", "docker loginx -p x", "docker login; -p x", "oras login -p",
	"az login -u a -p b", "helm registry login -p b r", "helm registry  login --password=b", "helm registryx login -p b", "helm login -p b", "docker registry -p b",
	"7z a -pabc x", "7za x -p x", "7zr -p'a b'", "x7z -pabc", "7zip -pabc",
	"mongo -u a -p b", "mongosh -p --quiet", "mongodump -p'a b'", "mongox -p b", "mongo -pb",
	"zip -P abc x.zip", "unzip -P'a b' x", "zip -p abc", "sqlcmd -S h -U sa -P abc", "bcp t out f -P x", "gzip -P x",
	"smbclient -U a%b", "smbclient -Ua%b", "smbclient --user=a%b", "smbclient --user a%b", "smbclient --username=a%b", "smbclient -U a",
	"smbclient -U 'a%b c'", "smbclient -U \"a%\"", "rpcclient -U a%b%c h", "xsmbclient -U a%b", "smbclient; -U a%b", "smbclient -U '%b'",
	"openssl enc -pass pass:x", "openssl -passin pass:x", "openssl -passout 'pass:a b'", "openssl -passinx pass:x", "openssl -pass env:X",
	"openssl -pass \"pass:", "openssl -pass 'pass:x' -pass pass:y", "openssl -pass \"'pass:x\"", "openssl -pass pass:", "openssl -pass\tpass:x:y",
	"htpasswd -b f u p", "htpasswd -nb u p;ls", "htpasswd -b f u p > x", "htpasswd -b", "htpasswd -b p", "htpasswd -cb f u \"a b\"",
	"htpasswd -b f u 'a\nb'", "htpasswd f u -b p | x", "htpasswd -bx9 u p", "htpasswd -b f u p 2>&1", "htpasswd -b -b -b x &", "htpasswd -b f u \"p",
	"htpasswd -b f u p\t", "htpasswd -b f u p;", "htpasswd -b f u p\"q", "htpasswd -b f u \"a;b\" ; c", "htpasswd -b\nf u p", "htpasswd > -b u p",
	"htpasswd -b u 'p' x", "htpasswd -B f u p", "htpasswd -b f u p\r\nx",
	"redis-cli -a abc ping", "redis-cli -aabc", "redis-cli -a", "redis -a abc", "redis-clix -a abc", "xredis-cli -a b", "redis-cli -h h -a \"a b\"", "redis-cli; -a b",
	// telegram: the id's digits, the AA, the 33 characters and \b.
	"123456789:AA" + strings.Repeat("a", 33), "1234567:AA" + strings.Repeat("a", 33), "12345678901:AA" + strings.Repeat("a", 33),
	"x12345678:AA" + strings.Repeat("a", 33), "12345678:AA" + strings.Repeat("a", 34), "12345678:AA" + strings.Repeat("-", 33) + "a",
	"12345678:Aa" + strings.Repeat("a", 33), "1234567890:AA" + strings.Repeat("_", 33) + "-", "-12345678:AA" + strings.Repeat("a", 32),
	// format characters inside a token, a label and a trigger.
	"ghp_abc\u200b" + strings.Repeat("a", 30), "pass\u200dword=hunter22x", "\ufeffpassword=hunter22x", "mysql -p\u00adabc", "ghp_\U000e0041" + strings.Repeat("a", 30),
	// Kelvin sign and long s: never ASCII letters.
	"api_\u212aey = hunter22x", "\u017fecret: hunter22x", "machine a login b pa\u017f\u017fword c",
}

// Single-byte and small edits around every trigger of the corpus: the
// places where a matcher's hand-written steps could part from the
// expression.
func TestMatchersAgreeOnEditsAroundTriggers(t *testing.T) {
	n := 10000
	if testing.Short() {
		n = 2000
	}
	rng := rand.New(rand.NewPCG(1, 2))
	texts := corpusTexts(t)
	for range n {
		checkMatchers(t, editNearTrigger(rng, texts[rng.IntN(len(texts))]))
	}
}

// edits are what editNearTrigger puts in: the bytes the patterns stop on,
// letters that fold, runes that look like ASCII letters, broken UTF-8.
var edits = []string{
	"\r", "\n", "\"", "'", "@", ":", "=", " ", "\t", "\\", "/", "-", "_", ".", "]", "`", ",", ";",
	"\v", "\f", "$", "{", "}", "<", ">", "#", "?", "+", "~", "A", "k", "K", "S", "0", "9", "é", "€",
	"\u212a", "\u017f", "\xff", "\x80", "\xe2\x82", "://", "=>", ":=", "KEY", "key", "_key", "password",
	"-----", "BEGIN", "END", "PRIVATE KEY", "[REDACTED:secret]", "machine", "login", "_auth",
	"pass", "Pass", "api", "token", "ñ", "пароль", "—", "(", ")", "%", "pass:", " -b ", "|", "&",
	"ł", "Ł", "ş", "İ", "ö", "et", "si", "è", "é",
}

func editNearTrigger(rng *rand.Rand, s string) string {
	setupOnce.Do(setup)
	var at []int
	for i := 0; i < len(s); i++ {
		for _, tr := range byFirst[s[i]] {
			if text.HasFoldPrefix(s[i:], tr.lit) {
				at = append(at, i)
				break
			}
		}
	}
	for range 1 + rng.IntN(3) {
		i := rng.IntN(len(s) + 1)
		if len(at) > 0 && rng.IntN(4) > 0 {
			i = min(len(s), max(0, at[rng.IntN(len(at))]+rng.IntN(48)-8))
		}
		e := edits[rng.IntN(len(edits))]
		switch rng.IntN(3) {
		case 0: // insert
			s = s[:i] + e + s[i:]
		case 1: // replace
			s = s[:i] + e + s[min(len(s), i+len(e)):]
		default: // delete
			s = s[:i] + s[min(len(s), i+1+rng.IntN(3)):]
		}
	}
	return s
}

// Texts made of the patterns' parts in random order: labels, operators,
// quotes, values around every length threshold, key lines, URLs.
func TestMatchersAgreeOnRandomTexts(t *testing.T) {
	n := 5000
	if testing.Short() {
		n = 500
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for i := range n {
		s := randomText(rng)
		if i%100 == 0 {
			// Lines past 2 KiB, where the old scan searched the whole line
			// instead of trying each trigger.
			for len(s) < 3000 {
				s += " " + strings.ReplaceAll(randomText(rng), "\n", " ")
			}
		}
		checkMatchers(t, s)
	}
}

var parts = []string{
	"password", "PASSWD", "passphrase", "Pwd", "secret", "token", "credentials", "credential", "creds", "api", "Access",
	"private", "signing", "encryption", "master", "auth", "license", "key", "KEY", "base", "value", "aws", "AWS",
	"_", ".", "-", " ", "\t", "=", ":", "=>", ":=", "\"", "'", "]", "\\", "\n", "\r\n", ",", ";", "`", "/", "@",
	"://", "https", "u", "ssh+git", "$", "${X}", "<x>", "{{ y }}", "process.env.", "é", "\u212a", "\u017f", "\xff", "\v",
	"-----", "------", " BEGIN", "BEGIN", "END", " RSA ", "PRIVATE KEY", "2", "OPENSSH ",
	"AKIA", "ASIA", "ghp_", "github_pat_", "glpat-", "GR1348941", "sk-", "xoxb-", "xapp-1-", "hooks.slack.com/services/",
	"AIza", "GOCSPX-", "ya29.", "sk_live_", "whsec_", "npm_", "hf_", "pypi-AgE", "eyJ", "Bearer", "Proxy-",
	"Authorization", "Basic", "Bot", "_auth", "machine", "default", "login", "[REDACTED:secret]",
	"pass", "phrase", "pw", " is ", " was ", " for the ", "passcode", "secret access key ", "“", "”",
	"SG.", "SK", "HRKU-", "shpat_", "dop_v1_", "hvs.", "AGE-SECRET-KEY-1", "?sig=", "&sig=", "xoxe-", "AccountKey=",
	"htpasswd", " -b ", " -nb ", "echo ", " -n ", "|", " --password-stdin", "smbclient", " -U ", "%", "openssl", " -pass ", " -passin ", "pass:", ">", ";",
	"_PASS", "Pass", "api key", "aws_secret", "passwort", "contraseña", "contrasena", "пароль", "Пароль", "mot de passe", "senha", " ist ", " é ", "—",
	"wachtwoord", "contrasenya", "passord", "passordet", "lösenord", "hasło", "HASŁO", "şifre", "ŞİFRE", "şifresi", " è ", " is ", " to ", "mela", "geheim",
}

func randomText(rng *rand.Rand) string {
	var b strings.Builder
	for range 1 + rng.IntN(12) {
		if rng.IntN(3) == 0 {
			// A value: a run of one alphabet, its length near a threshold.
			alpha := []string{"aZ09", "A9", "a-_", "a/+=", "x.~"}[rng.IntN(5)]
			for range rng.IntN(56) {
				b.WriteByte(alpha[rng.IntN(len(alpha))])
			}
			continue
		}
		b.WriteString(parts[rng.IntN(len(parts))])
	}
	return b.String()
}

// FuzzMatchers: on any text each matcher finds what its expression finds and
// Find what the scan over the expressions found.
func FuzzMatchers(f *testing.F) {
	for _, s := range corpusTexts(f) {
		f.Add(s)
	}
	for _, s := range matcherEdges {
		f.Add(s)
	}
	for _, o := range loadOrdinary(f) {
		f.Add(o.text)
	}
	f.Fuzz(checkMatchers)
}

// A text may end anywhere in what a matcher reads: after each trigger and
// each of the bytes that commonly follow one, cut at every byte, no
// matcher reads past the end ("…the terraform variable " ended a text and
// findTFVariable indexed the byte after its blank).
func TestATextEndingAnywhereAfterATrigger(t *testing.T) {
	setup()
	tails := []string{" ", "\t", ":", "=", " = ", `"`, "'", "(", "{", "[", "/", ",", "|", "@", "-", "*", "**", "<", ">", "\\", ";", " -p ", " /", ": \"a\", ", " user ", " secrets set ", "(\"a\", \"", "=\"a"}
	for _, p := range patterns {
		for _, tr := range p.triggers {
			for _, tail := range tails {
				for _, form := range []string{tr + tail + tail, tail + tr + tail, "x " + tr + tail + "a" + tail} {
					for n := 1; n <= len(form); n++ {
						stringsDoNotPanic(t, form[:n], strings.ToUpper(form[:n]))
					}
				}
			}
		}
	}
}

// Each line of the secrets corpus, cut at every byte, and the text it ends
// repeated: no matcher reads past the end (mc alias set's bareWords read
// the byte after its blanks).
func TestACorpusLineEndingAnywhere(t *testing.T) {
	var texts []string
	for _, l := range loadSecrets(t) {
		texts = append(texts, l.Text)
	}
	for _, l := range loadBenign(t) {
		texts = append(texts, l.Text)
	}
	for _, l := range texts {
		for n := 1; n <= len(l); n++ {
			stringsDoNotPanic(t, l[:n], l[:n]+" "+l[:n])
		}
	}
}

// stringsDoNotPanic runs String on each of ins, naming one that panics.
func stringsDoNotPanic(t *testing.T, ins ...string) {
	t.Helper()
	for _, in := range ins {
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("String(%q) panicked: %v", in, r)
				}
			}()
			String(in)
		}()
	}
}

// secretLabel asks labelEnd first: every word that ends a label ends in one
// of its letters.
func TestEveryLabelEndsInALetterLabelEndKnows(t *testing.T) {
	for _, w := range append(append(secretWords[:], keyWords[:]...), "key", "value", "base", "b64", "base64", "pass", "auth", "PAT") {
		if w != "" && !labelEnd(w[len(w)-1]) && !slices.Contains(keyWords[:], w) {
			t.Errorf("%q ends in %q, which labelEnd refuses", w, w[len(w)-1])
		}
	}
}

// secretKeyword's filter by last letter holds only for words that end in
// a lower-case letter, and its length bounds only for words of 3 or more.
func TestSecretWordsEndInALetter(t *testing.T) {
	for _, w := range append(secretWords[:], keyWords[:]...) {
		if c := w[len(w)-1]; c < 'a' || c > 'z' || len(w) < 3 {
			t.Fatalf("%q: secretKeyword's filters would miss it", w)
		}
	}
}
