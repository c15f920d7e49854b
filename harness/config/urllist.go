package config

import "regexp"

// urlList finds a value that lists URLs separated by commas
// (base_url=http://a:8000/v1,http://b:8000/v1, a fleet of servers), which
// ParseModelArgs quotes so that the commas between URLs do not split
// arguments.
var urlList = regexp.MustCompile(`(=)(https?://[^,="']*(?:,https?://[^,="']*)+)`)
