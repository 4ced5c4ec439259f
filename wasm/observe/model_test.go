package observe

import (
	"strings"
	"testing"

	"github.com/pi-memory/pi-memory/internal/require"
)

func TestObserverModelNamesAProviderAndAnIdOrAnIdAlone(t *testing.T) {
	tests := []struct {
		name, value, why string
	}{
		{"the session's model", "", ""},
		{"provider/id", "anthropic/claude-haiku-4-5", ""},
		{"the e2e fake model", "fake/fake-model", ""},
		{"an id that holds a slash, after its provider", "openrouter/anthropic/claude-3.5", ""},
		{"an id alone", "claude-haiku-4-5", ""},
		{"no provider before the slash", "/claude-haiku-4-5", "names no provider before the slash"},
		{"no id after the provider", "anthropic/", "names no model after the provider"},
		{"spaces", "claude haiku", "without spaces"},
		{"a control character", "fake\x1b[2J", "without spaces"},
		{"too long", strings.Repeat("m", maxModelName+1), "longer than 200 bytes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := checkModelName(tt.value)
			if tt.why == "" {
				require.Equal(t, "", got)
				return
			}
			require.Contains(t, got, tt.why)
		})
	}
}

func TestAConfiguredModelNameThatCannotNameAModelKeepsTheCurrentOne(t *testing.T) {
	c := parse(`{"observerModel": "anthropic/"}`, "")
	require.Equal(t, "", c.ObserverModel)
	require.Equal(t, 1, len(c.Warnings))
	require.Contains(t, c.Warnings[0], `"observerModel" names no model after the provider (got "anthropic/"); write provider/id, as pi --list-models shows it; using ""`)
	c = parse(`{"observerModel": "fake/fake-model"}`, "")
	require.Equal(t, "fake/fake-model", c.ObserverModel)
	require.Equal(t, 0, len(c.Warnings))
}

// What the host reports when it finds no usable model is worded here, once:
// each says what to do.
func TestAModelPiCannotUseIsRefusedSayingWhatToDo(t *testing.T) {
	tests := []struct {
		name, model, why, provider string
		want                       []string
	}{
		{"unknown", "anthropic/claude-nope", modelUnknown, "", []string{`observerModel "anthropic/claude-nope" is not a model pi knows`, "pi --list-models"}},
		{"no credentials", "anthropic/claude-haiku-4-5", modelNoCredentials, "anthropic", []string{"a model of anthropic, which has no credentials here", "/login", "API key", "pi --list-models"}},
		{"an id alone without credentials", "claude-haiku-4-5", modelNoCredentials, "", []string{"a model of its provider, which has no credentials"}},
		{"no session model", "", modelNone, "", []string{"no model is selected in this session", "/model"}},
		{"a report this core does not know", "x/y", "rate-limited", "", []string{`"x/y" is not a model pi knows`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := modelProblem(tt.model, tt.why, tt.provider)
			for _, w := range tt.want {
				require.Contains(t, got, w)
			}
		})
	}
}

// An observerModel pi does not know was said only when the observer failed:
// it is checked against the models the host says pi can use, when the
// configuration is read.
func TestUnusableModelIsToldFromTheModelsPiCanUse(t *testing.T) {
	usable := []string{"fake/fake-model", "openrouter/anthropic/claude"}
	for _, tc := range []struct {
		name   string
		usable []string
		bad    bool
	}{
		{"", usable, false},
		{"fake/fake-model", usable, false},
		{"fake-model", usable, false},
		{"openrouter/anthropic/claude", usable, false},
		{"anthropic/claude", usable, true}, // a provider and id: exactly, never an id's end
		{"nope/no-such-model", usable, true},
		{"no-such-model", usable, true},
		{"fake/fake-model", []string{}, true}, // pi can use no model here
		{"nope/no-such-model", nil, false},    // the host did not say (pimem)
	} {
		why := unusableModel(tc.name, tc.usable)
		require.Equal(t, tc.bad, why != "", "%q among %v: %q", tc.name, tc.usable, why)
		if tc.bad {
			require.Contains(t, why, `observerModel "`+tc.name+`" is not a model pi can use here`)
			require.Contains(t, why, "pi --list-models")
		}
	}
}
