package host

import (
	"testing"

	"github.com/pi-memory/pi-memory/internal/require"
)

func TestParseEnvelopeReadsEveryEffectOfTheContract(t *testing.T) {
	env, err := ParseEnvelope([]byte(`{"v":1,"effects":[
		{"t":"output","text":"listed"},
		{"t":"notify","level":"warning","text":"careful"},
		{"t":"status","key":"memory","text":"3 decisions"},
		{"t":"status","key":"memory","text":null},
		{"t":"system_prompt_append","text":"\n\n## Decisions\n"},
		{"t":"message","customType":"recall","content":"x","display":true},
		{"t":"dialog","id":"k1","kind":"select","title":"Keep?","options":["yes","no"]}
	],"exit":1}`))
	require.NoError(t, err)
	require.Equal(t, 1, env.Exit)
	want := []Effect{
		{T: "output", Text: "listed"},
		{T: "notify", Level: "warning", Text: "careful"},
		{T: "status", Key: "memory", Text: "3 decisions"},
		{T: "status", Key: "memory", Clear: true},
		{T: "system_prompt_append", Text: "\n\n## Decisions\n"},
		{T: "message", CustomType: "recall", Content: "x", Display: true},
		{T: "dialog", ID: "k1", Kind: "select", Title: "Keep?", Options: []string{"yes", "no"}},
	}
	require.Equal(t, len(want), len(env.Effects))
	for n := range want {
		got := env.Effects[n]
		got.Raw = nil
		require.Equal(t, want[n], got, "effect %d", n)
	}
	require.Equal(t, `{"t":"output","text":"listed"}`, string(env.Effects[0].Raw))

	c, err := ParseEnvelope([]byte(`{"v":1,"effects":[{"t":"complete","id":"k2","system":"s","prompt":"p","maxTokens":256}],"exit":0}`))
	require.NoError(t, err)
	got := c.Effects[0]
	got.Raw = nil
	require.Equal(t, Effect{T: "complete", ID: "k2", System: "s", Prompt: "p", MaxTokens: 256}, got)
}

func TestParseEnvelopeRejectsWhatBreaksTheContract(t *testing.T) {
	cases := []struct{ name, in string }{
		{"not JSON", `{"v":1,`},
		{"not an object", `[1]`},
		{"no version", `{"effects":[],"exit":0}`},
		{"another version", `{"v":2,"effects":[],"exit":0}`},
		{"effects not a list", `{"v":1,"effects":{},"exit":0}`},
		{"effect without type", `{"v":1,"effects":[{"text":"x"}],"exit":0}`},
		{"effect not an object", `{"v":1,"effects":["output"],"exit":0}`},
		{"effect after a dialog", `{"v":1,"effects":[{"t":"dialog","id":"a"},{"t":"output","text":"x"}],"exit":0}`},
		{"two completions", `{"v":1,"effects":[{"t":"complete","id":"a"},{"t":"complete","id":"b"}],"exit":0}`},
		{"fractional exit", `{"v":1,"effects":[],"exit":1.5}`},
		{"negative exit", `{"v":1,"effects":[],"exit":-1}`},
		{"exit as text", `{"v":1,"effects":[],"exit":"1"}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ParseEnvelope([]byte(c.in))
			require.ErrorIs(t, err, ErrEnvelope)
		})
	}
}

func FuzzParseEnvelope(f *testing.F) {
	f.Add([]byte(`{"v":1,"effects":[{"t":"output","text":"pong"}],"exit":0}`))
	f.Add([]byte(`{"v":1,"effects":[{"t":"dialog","id":"k1","options":["a"]}],"exit":2}`))
	f.Add([]byte(`{"v":1}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		env, err := ParseEnvelope(b)
		if err != nil {
			return
		}
		for n, e := range env.Effects {
			require.True(t, !e.Holds() || n == len(env.Effects)-1, "accepted a foreground %s that is not the last effect: %s", e.T, b)
		}
		require.True(t, env.Exit >= 0 && env.Exit <= 255, "accepted exit %d", env.Exit)
	})
}

func TestParseEnvelopeReadsHindsightEffectsAndBackgroundAsksAnywhere(t *testing.T) {
	env, err := ParseEnvelope([]byte(`{"v":1,"effects":[
		{"t":"http","id":"k1","background":true,"requests":[{"method":"POST","url":"http://h/x","headers":{"Authorization":"Bearer k"},"body":"{}","timeoutMs":1500,"maxBytes":4096,"bearerEnv":"OPENAI_API_KEY"}]},
		{"t":"context_append","index":2,"text":"\n\nrecalled"},
		{"t":"tools","active":["hindsight_recall"]},
		{"t":"tool_result","text":"no","isError":true},
		{"t":"http","id":"k2","requests":[]}
	],"exit":0}`))
	require.NoError(t, err)
	require.Equal(t, 5, len(env.Effects))
	require.Equal(t, []Request{{Method: "POST", URL: "http://h/x", Headers: map[string]string{"Authorization": "Bearer k"}, Body: "{}", TimeoutMs: 1500, MaxBytes: 4096, BearerEnv: "OPENAI_API_KEY"}}, env.Effects[0].Requests)
	require.True(t, env.Effects[0].Background && !env.Effects[0].Holds())
	require.Equal(t, 2, env.Effects[1].Index)
	require.Equal(t, []string{"hindsight_recall"}, env.Effects[2].Active)
	require.True(t, env.Effects[3].IsError)
	require.True(t, env.Effects[4].Holds())
	_, err = ParseEnvelope([]byte(`{"v":1,"effects":[{"t":"http","id":"a","requests":[]},{"t":"output","text":"x"}],"exit":0}`))
	require.ErrorIs(t, err, ErrEnvelope)
}

func TestAnInstanceGivesANamedBlockTheMessagesItWasSentAndRefusesAnUnknownName(t *testing.T) {
	parse := func(effects string) Envelope {
		env, err := ParseEnvelope([]byte(`{"v":1,"effects":[` + effects + `],"exit":0}`))
		require.NoError(t, err)
		return env
	}
	i := &Instance{}
	full := parse(`{"t":"context_messages","index":0,"id":"b1","messages":[{"customType":"c","content":"one"}]}`)
	require.NoError(t, i.blocks(full))
	require.Equal(t, `[{"customType":"c","content":"one"}]`, string(full.Effects[0].Messages))
	tests := []struct {
		name, effect, messages, err string
	}{
		{"messages without an id", `{"t":"context_messages","index":0,"messages":[{"customType":"c","content":"two"}]}`, `[{"customType":"c","content":"two"}]`, ""},
		{"named, after messages without an id", `{"t":"context_messages","index":2,"same":"b1"}`, `[{"customType":"c","content":"one"}]`, ""},
		{"another name", `{"t":"context_messages","index":0,"same":"b2"}`, "", `names block "b2"`},
		{"no name and no messages", `{"t":"context_messages","index":0}`, "", `names block ""`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env := parse(tt.effect)
			err := i.blocks(env)
			if tt.err != "" {
				require.ErrorIs(t, err, ErrEnvelope)
				require.Contains(t, err.Error(), tt.err)
				return
			}
			require.NoError(t, err)
			require.Equal(t, tt.messages, string(env.Effects[0].Messages))
		})
	}
}
