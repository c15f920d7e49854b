// Package units formats quantities for people: byte counts in binary units.
package units

import "fmt"

// Bytes formats n in binary units with two decimals ("1.13 MiB"), or as
// plain bytes below 1 KiB.
func Bytes(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.2f %ciB", float64(n)/float64(div), "KMGTPE"[exp])
}
