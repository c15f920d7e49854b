// Package language indexes the languages of the registry's tasks, groups
// and tags (ISO 639-3 codes, with an ISO 15924 script where the files say
// one), read from their names, dataset_name, folders, sibling variants
// and lm-eval's README, for `lmeval ls languages` and `--language`.
// NewIndex builds the index; Parse, LookupCode and LookupName read the
// ISO tables generated from iso-codes.
package language
