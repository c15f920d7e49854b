// Package global_mmlu ports lm_eval/tasks/global_mmlu's utils.py files:
// process_<subject> (full/<lang>/utils.py) and process_<category>
// (default/<lang>/utils.py), which the modules make at import time with
// functools.partial and globals().update: each keeps the documents of one
// subject or category.
package global_mmlu

import (
	"strings"

	"github.com/lmeval/lmeval/harness/task"
	"github.com/lmeval/lmeval/python/pyval"
)

// Subjects is full/*/utils.py's SUBJECTS (MMLU's 57 subjects).
var Subjects = []string{
	"abstract_algebra",
	"anatomy",
	"astronomy",
	"business_ethics",
	"clinical_knowledge",
	"college_biology",
	"college_chemistry",
	"college_computer_science",
	"college_mathematics",
	"college_medicine",
	"college_physics",
	"computer_security",
	"conceptual_physics",
	"econometrics",
	"electrical_engineering",
	"elementary_mathematics",
	"formal_logic",
	"global_facts",
	"high_school_biology",
	"high_school_chemistry",
	"high_school_computer_science",
	"high_school_european_history",
	"high_school_geography",
	"high_school_government_and_politics",
	"high_school_macroeconomics",
	"high_school_mathematics",
	"high_school_microeconomics",
	"high_school_physics",
	"high_school_psychology",
	"high_school_statistics",
	"high_school_us_history",
	"high_school_world_history",
	"human_aging",
	"human_sexuality",
	"international_law",
	"jurisprudence",
	"logical_fallacies",
	"machine_learning",
	"management",
	"marketing",
	"medical_genetics",
	"miscellaneous",
	"moral_disputes",
	"moral_scenarios",
	"nutrition",
	"philosophy",
	"prehistory",
	"professional_accounting",
	"professional_law",
	"professional_medicine",
	"professional_psychology",
	"public_relations",
	"security_studies",
	"sociology",
	"us_foreign_policy",
	"virology",
	"world_religions",
}

// Categories is default/*/utils.py's CATEGORIES.
var Categories = []string{"Business", "Humanities", "Medical", "Other", "STEM", "Social Sciences"}

// Filter keeps the documents whose column equals value (Python ==).
func Filter(docs []task.Doc, column, value string) []task.Doc {
	out := []task.Doc{}
	for _, d := range docs {
		if pyval.Equal(d[column], value) {
			out = append(out, d)
		}
	}
	return out
}

// CategoryFunc is the name default/*/utils.py gives a category's filter.
func CategoryFunc(category string) string {
	return "process_" + strings.ReplaceAll(strings.ToLower(category), " ", "_")
}
