package config

import (
	"fmt"
	"sort"
	"strings"
)

// HubLogArgs are lm-eval's --hf_hub_log_args: where EvaluationTracker
// publishes the results file and the samples files on the Hugging Face Hub.
type HubLogArgs struct {
	// HubResultsOrg owns the repositories; "" is the token's owner.
	HubResultsOrg string `json:"hub_results_org,omitempty"`
	// HubRepoName, when set, names both repositories (deprecated in
	// lm-eval for DetailsRepoName and ResultsRepoName).
	HubRepoName     string `json:"hub_repo_name,omitempty"`
	DetailsRepoName string `json:"details_repo_name,omitempty"`
	ResultsRepoName string `json:"results_repo_name,omitempty"`
	// PushResultsToHub and PushSamplesToHub push the results file and the
	// samples files (the latter needs --log_samples).
	PushResultsToHub bool `json:"push_results_to_hub,omitempty"`
	PushSamplesToHub bool `json:"push_samples_to_hub,omitempty"`
	// PublicRepo pushes to public repositories; otherwise to private ones
	// named with a "-private" suffix.
	PublicRepo bool `json:"public_repo,omitempty"`
	// Gated gates the details repository ("auto" approval).
	Gated bool `json:"gated,omitempty"`
}

// Push reports whether anything is to be pushed.
func (h HubLogArgs) Push() bool { return h.PushResultsToHub || h.PushSamplesToHub }

// Repos are the details (samples) and results repositories, "org/name", as
// EvaluationTracker names them: lm-eval-results by default, with
// "-private" appended unless PublicRepo. org is HubResultsOrg or the
// token's owner.
func (h HubLogArgs) Repos(org string) (details, results string) {
	dn, rn := h.DetailsRepoName, h.ResultsRepoName
	if h.HubRepoName != "" {
		dn, rn = h.HubRepoName, h.HubRepoName
	} else {
		if dn == "" {
			dn = "lm-eval-results"
		}
		if rn == "" {
			rn = dn
		}
	}
	details, results = org+"/"+dn, org+"/"+rn
	if !h.PublicRepo {
		details += "-private"
		results += "-private"
	}
	return details, results
}

// hubLogKeys are the keys --hf_hub_log_args takes.
var hubLogKeys = map[string]func(h *HubLogArgs, v any) error{
	"hub_results_org":     func(h *HubLogArgs, v any) error { return setString(&h.HubResultsOrg, v) },
	"hub_repo_name":       func(h *HubLogArgs, v any) error { return setString(&h.HubRepoName, v) },
	"details_repo_name":   func(h *HubLogArgs, v any) error { return setString(&h.DetailsRepoName, v) },
	"results_repo_name":   func(h *HubLogArgs, v any) error { return setString(&h.ResultsRepoName, v) },
	"push_results_to_hub": func(h *HubLogArgs, v any) error { return setBool(&h.PushResultsToHub, v) },
	"push_samples_to_hub": func(h *HubLogArgs, v any) error { return setBool(&h.PushSamplesToHub, v) },
	"public_repo":         func(h *HubLogArgs, v any) error { return setBool(&h.PublicRepo, v) },
	"gated":               func(h *HubLogArgs, v any) error { return setBool(&h.Gated, v) },
}

// setHubLogArgs merges "k=v,..." strings, JSON objects or a mapping into h.
func setHubLogArgs(h *HubLogArgs, v any) error {
	m, err := asDict(v)
	if err != nil {
		return err
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		set, ok := hubLogKeys[k]
		if !ok {
			known := make([]string, 0, len(hubLogKeys))
			for n := range hubLogKeys {
				known = append(known, n)
			}
			sort.Strings(known)
			why := ""
			if k == "leaderboard_url" || k == "point_of_contact" || k == "token" || k == "output_path" {
				why = " (lmeval takes the token from HF_TOKEN, the path from --output_path, and writes no dataset card)"
			}
			return fmt.Errorf("unknown key %q%s; known keys: %s", k, why, strings.Join(known, ", "))
		}
		if err := set(h, m[k]); err != nil {
			return fmt.Errorf("%s: %w", k, err)
		}
	}
	return nil
}
