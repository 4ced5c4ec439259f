package redact

import "testing"

func TestDbg2(t *testing.T) {
	setup()
	for _, s := range []string{"In the seed: admin.setPassword('Sx5(aB)9kLm')", "In the seed: admin.set_password('Sx4(aB9kLm')", "mytool --app-secret Ap9sE4cR6tQw", "aliyun configure set --access-key-id LTAI5tR9xQ6nOwS8uZ0yC --access-key-secret As8cC3eS5sK7yQ9wE1rT3yU5iO7pL9", "mytool --secret Sc9rE2tK4yQw", "mytool --pass Ps9aS9sW2dQz"} {
		out, _ := String(s)
		t.Logf("%s -> %s", s, out)
		for i, p := range patterns {
			for pos := 0; pos < len(s); {
				m := p.find(s, pos)
				if m == nil {
					break
				}
				ok, a, b := true, 0, 0
				if p.span != nil {
					a, b, _, _, ok = p.span(s, m)
				}
				t.Logf("   pattern %d %s m=%v ok=%v %d:%d", i, p.kind, m, ok, a, b)
				pos = m[1]
				if m[1] == m[0] {
					pos++
				}
			}
		}
	}
}
