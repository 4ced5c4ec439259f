package redact

import "testing"

// h-v93 c5: the output of a command that prints a secret bare is named by
// the command, not by the output.
func TestReadsSecretKnowsTheCommandsThatPrintOne(t *testing.T) {
	for _, c := range []string{
		"op read op://vault/db/password", "pass show db/prod", "gopass show -o db", "vault kv get -field=password secret/db",
		"aws secretsmanager get-secret-value --secret-id db --query SecretString --output text",
		"aws --region eu-west-1 secretsmanager get-secret-value --secret-id db",
		"aws ssm get-parameter --name /db/pw --with-decryption", "gcloud secrets versions access latest --secret=db",
		"az keyvault secret show --vault-name kv --name db", "kubectl get secret db -o jsonpath='{.data.pw}' | base64 -d",
		"kubectl -n prod get secret db -o yaml", "security find-generic-password -s db -w", "sops -d secrets.enc.yaml",
		"ansible-vault view vars/vault.yml", "sudo vault read secret/db", "cd app && op item get db --reveal --fields password",
		"echo $OPENAI_API_KEY", `echo "${DB_PASSWORD}"`, "printenv GITHUB_TOKEN", "gh auth token", "/usr/local/bin/op read op://x/y/z",
		"heroku config:get DATABASE_URL", "bw get password github",
		// h-v95 b4, h-v94 c9: wrapped, slashed, and more readers.
		"kubectl get secret/db -o jsonpath='{.data.pw}' | base64 -d", "kubectl exec db-0 -- printenv DB_PASSWORD",
		"docker exec -it db printenv POSTGRES_PASSWORD", "sh -c 'op read op://x/y/z'", `ssh prod "vault kv get -field=pw secret/db"`,
		`bash -c "op read op://x/y/z"`, "time op read op://x/y/z", "cat /run/secrets/db_password", "pulumi config get dbPassword",
		"aws ecr get-login-password --region eu-west-1", "secret-tool lookup service db", "gpg -d secrets.gpg",
		"terraform output -raw db_password", "aws configure get aws_secret_access_key",
		// h-v96 b4.
		"docker exec -u root db printenv POSTGRES_PASSWORD", "docker compose exec db printenv POSTGRES_PASSWORD", "ssh db1 op read op://x/y/z",
		"sudo -u vault vault read secret/db", "timeout 5 op read op://x/y/z", "nice -n 10 op read op://x/y/z", "k get secret db -o yaml",
		"kubectl view-secret db password", `bash -c "ssh db \"op read op://x/y/z\""`,
		// h-v97 b6.
		"jq -r .password secrets/prod.json", `jq '.db["api_key"]' config.json`, "yq .data.token values.yaml",
		`python3 -c "import os; print(os.environ['DB_PASSWORD'])"`, `node -e 'console.log(process.env.API_TOKEN)'`,
		`python -c "import os; print(os.getenv('GITHUB_TOKEN'))"`, `ruby -e 'puts ENV["DB_PASSWORD"]'`,
		"terraform output db_password", "terraform output -json", "pass prod/db", "pass otp totp/github", "pass generate web/site 24",
		"chamber read prod db_password", "age -d -i key.txt secrets.age", "pwgen -s 24 1",
		// h-v98 b6.
		"tofu output -raw db_password", "pulumi stack output --show-secrets", "terraform -chdir=infra output db_password",
		"openssl rand -base64 32", `jq -r '.data | .password' secrets.json`,
		// h-v99 b5.
		"rails secret", "wg genkey", "cat config/master.key", "cat secrets/db_password.txt", "cat db_password.txt", "pulumi config --show-secrets",
		"grep DB_PASSWORD .env | cut -d= -f2", "awk -F= '/API_KEY/ {print $2}' .env.production", "sed -n 's/^TOKEN=//p' config/app.env",
		"php artisan key:generate --show", "dotenvx get DB_PASSWORD", `python3 -c "import secrets; print(secrets.token_hex(32))"`, "aws sts assume-role --role-arn x --role-session-name y", "xclip -o", "gopass prod/db", "passage show db",
	} {
		if !ReadsSecret(c) {
			t.Errorf("ReadsSecret(%q) = false", c)
		}
	}
	for _, c := range []string{
		"kubectl get pods", "kubectl get secrets-manager-config", "echo hello", "echo $HOME", "printenv PATH", "vault status",
		"aws s3 ls", "aws ssm get-parameter --name /app/region", "op signin", "pass", "security find-generic-password -s db",
		"grep password config.yml", "op item get db", "git log --grep secret", "echo $PASSWORD_MIN_LENGTH", "",
		"kubectl exec db-0 -- ls /", "docker exec db ls", "sh -c 'make test'", "cat README.md", `git commit -m "rotate the op read docs"`,
		"ssh db1 uptime", "sudo -u www-data ls", "timeout 5 make test", "docker compose exec db psql -c 'select 1'",
		"jq -r .name package.json", "jq '.token_count' stats.json", `python3 -c "import os; print(os.environ['HOME'])"`,
		"terraform output", "pass ls", "pass insert web/site", `node -e 'console.log(1)'`, "echo process.env.API_TOKEN",
		"cat secrets.go", "cat docs/secrets/README.md", "cat notes.txt", "cat k8s/secrets/db.yaml",
		"cat .env.example | wc -l", "grep -c = .env",
	} {
		if ReadsSecret(c) {
			t.Errorf("ReadsSecret(%q) = true", c)
		}
	}
}
