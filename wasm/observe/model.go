package observe

import "strings"

// The observer's model: which names "observerModel" may hold, and what is
// said when pi cannot use the model named. The rule is here; the host only
// looks a name up in pi's model registry and reports what it found (decision
// 001, the complete effect): the model, or why there is none — the name is
// unknown ("unknown"), its provider has no credentials ("no-credentials"), or
// the session has no model ("no-model").
//
//	""                              the session's current model
//	"anthropic/claude-haiku-4-5"    exactly that provider's model
//	"openrouter/anthropic/claude"   provider "openrouter", id "anthropic/claude"
//	"claude-haiku-4-5"              that id, of a provider with credentials
//	                                (the session's provider first)

// maxModelName bounds an "observerModel" value.
const maxModelName = 200

// checkModelName says why name cannot name a model, or "" when it can: one
// word (no spaces or control characters), at most maxModelName bytes, and
// when it holds a slash, a provider before the first one and an id after it.
//
//	checkModelName("anthropic/claude-haiku-4-5") => ""
//	checkModelName("anthropic/") => `"anthropic/" names no model after the provider`
func checkModelName(name string) string {
	for i := 0; i < len(name); i++ {
		if name[i] <= ' ' || name[i] == 0x7f {
			return "must be one model name without spaces (got " + quote(name) + ")"
		}
	}
	if len(name) > maxModelName {
		return "is longer than " + itoa(maxModelName) + " bytes"
	}
	provider, id, ok := strings.Cut(name, "/")
	switch {
	case !ok:
		return ""
	case provider == "":
		return "names no provider before the slash (got " + quote(name) + "); write provider/id, as pi --list-models shows it"
	case id == "":
		return "names no model after the provider (got " + quote(name) + "); write provider/id, as pi --list-models shows it"
	}
	return ""
}

// What the host reports when it finds no model for a name.
const (
	modelUnknown       = "unknown"
	modelNoCredentials = "no-credentials"
	modelNone          = "no-model"
)

// modelProblem words the host's report that it found no usable model for
// name (the observerModel in force, "" for the session's): why is one of
// the reports above, provider the provider of the model it found without
// credentials. An unknown report is worded as unknown.
func modelProblem(name, why, provider string) string {
	if name == "" {
		return "no model is selected in this session: choose one with /model, or set \"observerModel\" in om-config.json (/om config)"
	}
	switch why {
	case modelNoCredentials:
		if provider == "" {
			provider = "its provider"
		}
		return "observerModel " + quote(name) + " is a model of " + provider + ", which has no credentials here: log in to it (/login) or set its API key, or choose a model that pi --list-models shows; \"\" uses the session's model"
	case modelNone:
		return "no model is selected in this session: choose one with /model"
	}
	return "observerModel " + quote(name) + " is not a model pi knows: choose one that pi --list-models shows (provider/id), or \"\" for the session's model"
}

// unusableModel says why pi cannot use the model name names, from the
// models it can (usable: "provider/id" each, what pi --list-models lists;
// nil when the host did not say, and nothing is said): a name with a slash
// must be one of them, an id alone the id of one. "" when pi can, or for
// "" (the session's model).
//
//	unusableModel("nope/no-such-model", ["fake/fake-model"]) => `observerModel "nope/no-such-model" is not a model pi can use here: …`
//	unusableModel("fake-model", ["fake/fake-model"])         => ""
func unusableModel(name string, usable []string) string {
	if name == "" || usable == nil {
		return ""
	}
	for _, m := range usable {
		_, id, _ := strings.Cut(m, "/")
		if m == name || !strings.Contains(name, "/") && id == name {
			return ""
		}
	}
	return "observerModel " + quote(name) + " is not a model pi can use here (unknown, or its provider has no credentials), so the observer and reflector would fail: choose one that pi --list-models shows (provider/id), or \"\" for the session's model"
}
