package redact

import (
	"strings"
	"testing"
)

func TestSecretsAreRedacted(t *testing.T) {
	tests := []struct {
		name, in, kind, keep string
	}{
		{"aws key", "use AKIAABCDEFGHIJKLMNOP for s3", "aws-key", "for s3"},
		{"github token", "token ghp_abcdefghijklmnopqrstuvwxyz0123456789AB here", "github-token", "here"},
		{"openai key", "key sk-proj-abcdefghijklmnopqrstuvwx", "api-key", "key"},
		{"anthropic key", "sk-ant-api03-abcdefghijklmnopqrstuvwxyz", "api-key", ""},
		{"slack", "xoxb-123456789012-abcdefghij", "slack-token", ""},
		{"jwt", "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U", "jwt", ""},
		{"bearer", "Authorization: Bearer abcdefghijklmnop1234", "bearer", "Authorization: Bearer "},
		{"password label kept", "db password = hunter22x", "secret", "db password = "},
		{"url password", "postgres://app:s3cretpw@db:5432/app", "url-password", "postgres://app:"},
		{"private key", "-----BEGIN RSA PRIVATE KEY-----\nMIIE\n-----END RSA PRIVATE KEY-----", "private-key", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, kinds := String(tt.in)
			if !strings.Contains(out, "[REDACTED:"+tt.kind+"]") {
				t.Fatalf("String(%q) = %q, want a %s redaction", tt.in, out, tt.kind)
			}
			if !strings.Contains(out, tt.keep) {
				t.Errorf("String(%q) = %q lost %q", tt.in, out, tt.keep)
			}
			found := false
			for _, k := range kinds {
				found = found || k == tt.kind
			}
			if !found {
				t.Errorf("kinds = %v, want %s", kinds, tt.kind)
			}
		})
	}
}

func TestOrdinaryTextIsUnchanged(t *testing.T) {
	for _, in := range []string{
		"Use PostgreSQL 16 for the primary database",
		"Tokens are refreshed every 15 minutes",
		"The password policy requires 12 characters",
		"See https://example.com/docs for details",
	} {
		if out, kinds := String(in); out != in || kinds != nil {
			t.Errorf("String(%q) = %q %v, want unchanged", in, out, kinds)
		}
	}
}

func TestRedactionIsIdempotent(t *testing.T) {
	in := "token=abcdef123456 and password: hunter22x"
	once, _ := String(in)
	twice, _ := String(once)
	if once != twice {
		t.Errorf("second pass changed %q to %q", once, twice)
	}
}

func FuzzString(f *testing.F) {
	f.Add("password=hunter22x")
	f.Add("AKIAABCDEFGHIJKLMNOP")
	f.Add("")
	f.Fuzz(func(t *testing.T, s string) {
		once, _ := String(s)
		twice, _ := String(once)
		if once != twice {
			t.Fatalf("not idempotent: %q -> %q -> %q", s, once, twice)
		}
	})
}
