package dataset

import (
	"github.com/lmeval/lmeval/python/pyval"

	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
)

// format is a file format datasets' packaged builders read.
type format string

const (
	formatJSON    format = "json"
	formatCSV     format = "csv"
	formatParquet format = "parquet"
	formatText    format = "text"
)

// formatOf infers a file's format from its extension, as datasets does for
// data files of repositories and directories ("" if not a data file).
func formatOf(name string) format {
	n := strings.ToLower(strings.TrimSuffix(name, ".gz"))
	switch {
	case strings.HasSuffix(n, ".parquet"):
		return formatParquet
	case strings.HasSuffix(n, ".jsonl"), strings.HasSuffix(n, ".json"), strings.HasSuffix(n, ".ndjson"):
		return formatJSON
	case strings.HasSuffix(n, ".csv"), strings.HasSuffix(n, ".tsv"):
		return formatCSV
	case strings.HasSuffix(n, ".txt"):
		return formatText
	}
	return ""
}

// Builder is the packaged builder (dataset_path) that reads a data file
// named name: json, csv, parquet or text; "" for a name it cannot read.
func Builder(name string) string {
	return string(formatOf(name))
}

// readFile reads one data file in the given format.
func readFile(name string, f format, kwargs map[string]any) ([]map[string]any, *pyval.Columns, error) {
	var docs []map[string]any
	var cols *pyval.Columns
	var err error
	switch f {
	case formatParquet:
		docs, cols, err = readParquet(name)
	case formatJSON:
		docs, cols, err = readJSONFile(name, kwargs)
	case formatCSV:
		docs, cols, err = readCSVFile(name, kwargs)
	case formatText:
		docs, err = readTextFile(name)
		cols = &pyval.Columns{}
		cols.Add("text")
	default:
		return nil, nil, fmt.Errorf("%s: unsupported data file format", name)
	}
	if err != nil && !strings.Contains(err.Error(), name) {
		err = fmt.Errorf("%s: %w", name, err)
	}
	return docs, cols, err
}

func openMaybeGzip(name string) (io.ReadCloser, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	if !strings.HasSuffix(strings.ToLower(name), ".gz") {
		return f, nil
	}
	z, err := gzip.NewReader(f)
	if err != nil {
		f.Close()
		return nil, err
	}
	return struct {
		io.Reader
		io.Closer
	}{z, f}, nil
}

// readJSONFile reads JSON Lines (one object per line), a JSON array of
// objects, an object whose kwargs["field"] member holds the rows, or an
// object of equal-length columns, as datasets' json builder does.
func readJSONFile(name string, kwargs map[string]any) ([]map[string]any, *pyval.Columns, error) {
	rc, err := openMaybeGzip(name)
	if err != nil {
		return nil, nil, err
	}
	defer rc.Close()
	data, err := io.ReadAll(rc)
	if err != nil {
		return nil, nil, err
	}
	docs, err := decodeJSONRows(name, data, kwargs)
	if err != nil {
		return nil, nil, err
	}
	// The key order, learnt from the text (the rows decoded to maps lost
	// it): every object's keys in order of first appearance, lists seen
	// through, the rows being the top level's objects (JSON Lines, an
	// array, a one-line object), kwargs["field"]'s, or the columns of a
	// column table.
	cols := &pyval.Columns{}
	dec := json.NewDecoder(bytes.NewReader(data))
	for dec.More() {
		if err := learnJSON(dec, cols); err != nil {
			break // decodeJSONRows read it; keep what was learnt
		}
	}
	if field, _ := kwargs["field"].(string); field != "" {
		cols = cols.Field(field)
	}
	return docs, cols, nil
}

// learnJSON adds the key order of the objects in the next JSON value to
// cols, objects inside lists counting as the list's column's fields.
func learnJSON(dec *json.Decoder, cols *pyval.Columns) error {
	t, err := dec.Token()
	if err != nil {
		return err
	}
	switch t {
	case json.Delim('{'):
		for dec.More() {
			kt, err := dec.Token()
			if err != nil {
				return err
			}
			k, _ := kt.(string)
			if err := learnJSON(dec, cols.Add(k)); err != nil {
				return err
			}
		}
		_, err = dec.Token()
	case json.Delim('['):
		for dec.More() {
			if err := learnJSON(dec, cols); err != nil {
				return err
			}
		}
		_, err = dec.Token()
	}
	return err
}

func decodeJSONRows(name string, data []byte, kwargs map[string]any) ([]map[string]any, error) {
	field, _ := kwargs["field"].(string)
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var values []any
	for {
		var v any
		if err := dec.Decode(&v); err == io.EOF {
			break
		} else if err != nil {
			return nil, fmt.Errorf("%s: line %d: %w", name, lineAt(data, dec.InputOffset()), err)
		}
		values = append(values, v)
	}
	if len(values) == 1 {
		switch top := values[0].(type) {
		case []any:
			values = top
		case map[string]any:
			if field != "" {
				rows, ok := top[field].([]any)
				if !ok {
					return nil, fmt.Errorf("%s: field %q is not a list", name, field)
				}
				values = rows
			} else if cols, ok := columnar(top); ok && bytes.Count(bytes.TrimSpace(data), []byte("\n")) > 0 {
				// A multi-line single object of lists is a column table; a
				// one-line object is a one-row JSON Lines file.
				values = cols
			}
		}
	}
	docs := make([]map[string]any, 0, len(values))
	for i, v := range values {
		m, ok := v.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("%s: row %d is %T, not an object", name, i, v)
		}
		docs = append(docs, convertJSON(m).(map[string]any))
	}
	return docs, nil
}

// lineAt is the line of the first non-space byte at or after off.
func lineAt(data []byte, off int64) int {
	for off < int64(len(data)) && (data[off] == ' ' || data[off] == '\n' || data[off] == '\r' || data[off] == '\t') {
		off++
	}
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	return bytes.Count(data[:off], []byte("\n")) + 1
}

// columnar turns {"a": [..], "b": [..]} into rows when every member is a
// list of one length.
func columnar(m map[string]any) ([]any, bool) {
	n := -1
	for _, v := range m {
		l, ok := v.([]any)
		if !ok || n >= 0 && len(l) != n {
			return nil, false
		}
		n = len(l)
	}
	if n < 0 {
		return nil, false
	}
	rows := make([]any, n)
	for i := range rows {
		row := make(map[string]any, len(m))
		for k, v := range m {
			row[k] = v.([]any)[i]
		}
		rows[i] = row
	}
	return rows, true
}

// convertJSON replaces json.Number by int64 (integers) or float64.
func convertJSON(v any) any {
	switch x := v.(type) {
	case json.Number:
		if i, err := strconv.ParseInt(string(x), 10, 64); err == nil {
			return i
		}
		f, _ := x.Float64()
		return f
	case []any:
		for i := range x {
			x[i] = convertJSON(x[i])
		}
		return x
	case map[string]any:
		for k := range x {
			x[k] = convertJSON(x[k])
		}
		return x
	}
	return v
}

// readCSVFile reads a CSV file with a header row, or with the columns
// kwargs["column_names"] names (see csvHeader); a .tsv file, or
// kwargs["sep"]/["delimiter"], sets the separator, and infers column types as
// pandas does for the common cases: a column whose every non-empty value is
// an integer is int64 (float64 if some are empty, as pandas turns it into a
// float column with NaN), else one that parses as numbers is float64, else
// one of True/False values is bool; anything else stays string. Empty cells
// and pandas' other NA markers ("NA", "N/A", "NaN", "None", "null", ...) are
// nil.
func readCSVFile(name string, kwargs map[string]any) ([]map[string]any, *pyval.Columns, error) {
	rc, err := openMaybeGzip(name)
	if err != nil {
		return nil, nil, err
	}
	defer rc.Close()
	r := csv.NewReader(bufio.NewReader(rc))
	if strings.HasSuffix(strings.TrimSuffix(strings.ToLower(name), ".gz"), ".tsv") {
		r.Comma = '\t'
	}
	for _, k := range []string{"sep", "delimiter"} {
		if s, ok := kwargs[k].(string); ok && len([]rune(s)) == 1 {
			r.Comma = []rune(s)[0]
		}
	}
	r.FieldsPerRecord = -1
	records, err := r.ReadAll()
	if err != nil {
		return nil, nil, err
	}
	if len(records) > 0 && len(records[0]) > 0 {
		records[0][0] = strings.TrimPrefix(records[0][0], "\ufeff")
	}
	header, rows, err := csvHeader(records, kwargs)
	if err != nil {
		return nil, nil, err
	}
	cols := &pyval.Columns{}
	for _, h := range header {
		cols.Add(h)
	}
	convs := make([]func(string) any, len(header))
	for j := range header {
		convs[j] = inferColumn(rows, j)
	}
	docs := make([]map[string]any, len(rows))
	for i, rec := range rows {
		doc := make(map[string]any, len(header))
		for j, h := range header {
			cell := ""
			if j < len(rec) {
				cell = rec[j]
			}
			doc[h] = convs[j](cell)
		}
		docs[i] = doc
	}
	return docs, cols, nil
}

// csvHeader splits the records into column names and data rows as
// datasets' CSV builder (pandas.read_csv) does with its header and
// column_names (or names) arguments: by default the first row names the
// columns; given names, there is no header row unless header is a row
// number (whose row, and those before it, are skipped); header None
// means no header row.
func csvHeader(records [][]string, kwargs map[string]any) ([]string, [][]string, error) {
	var names []string
	for _, k := range []string{"names", "column_names"} { // CsvConfig: column_names wins
		v, ok := kwargs[k]
		if !ok || v == nil {
			continue
		}
		l, ok := v.([]any)
		if !ok {
			return nil, nil, fmt.Errorf("CSV %s: want a list of column names, got %T", k, v)
		}
		names = names[:0]
		for _, e := range l {
			s, ok := e.(string)
			if !ok {
				return nil, nil, fmt.Errorf("CSV %s: column name %v is not text", k, e)
			}
			names = append(names, s)
		}
	}
	headerRow := 0 // "infer"
	if names != nil {
		headerRow = -1
	}
	if h, ok := kwargs["header"]; ok {
		switch x := h.(type) {
		case nil:
			headerRow = -1
		case string:
			if x != "infer" {
				return nil, nil, fmt.Errorf("CSV header %q: want a row number, None or \"infer\"", x)
			}
		case int:
			headerRow = x
		case int64:
			headerRow = int(x)
		case float64:
			headerRow = int(x)
		default:
			return nil, nil, fmt.Errorf("CSV header: want a row number, None or \"infer\", got %T", h)
		}
	}
	if headerRow < 0 {
		if names == nil {
			return nil, nil, errors.New("CSV without a header row needs column_names")
		}
		return names, records, nil
	}
	if headerRow >= len(records) {
		return nil, nil, errors.New("empty CSV file (no header row)")
	}
	header := records[headerRow]
	if names != nil {
		header = names
	}
	return header, records[headerRow+1:], nil
}

// naValues are the cells pandas.read_csv reads as NaN by default; datasets
// turns them into None.
var naValues = map[string]bool{
	"": true, "#N/A": true, "#N/A N/A": true, "#NA": true, "-1.#IND": true, "-1.#QNAN": true,
	"-NaN": true, "-nan": true, "1.#IND": true, "1.#QNAN": true, "<NA>": true, "N/A": true,
	"NA": true, "NULL": true, "NaN": true, "None": true, "n/a": true, "nan": true, "null": true,
}

func inferColumn(rows [][]string, j int) func(string) any {
	allInt, allFloat, allBool, anyEmpty, anyValue := true, true, true, false, false
	for _, rec := range rows {
		if j >= len(rec) || naValues[rec[j]] {
			anyEmpty = true
			continue
		}
		anyValue = true
		s := strings.TrimSpace(rec[j])
		if _, err := strconv.ParseInt(s, 10, 64); err != nil {
			allInt = false
		}
		if _, err := strconv.ParseFloat(s, 64); err != nil {
			allFloat = false
		}
		switch s {
		case "True", "False", "TRUE", "FALSE", "true", "false":
		default:
			allBool = false
		}
	}
	empty := func(s string, f func(string) any) any {
		if naValues[s] {
			return nil
		}
		return f(strings.TrimSpace(s))
	}
	switch {
	case !anyValue:
		return func(string) any { return nil }
	case allInt && !anyEmpty:
		return func(s string) any {
			return empty(s, func(s string) any { i, _ := strconv.ParseInt(s, 10, 64); return i })
		}
	case allFloat:
		return func(s string) any {
			return empty(s, func(s string) any {
				f, _ := strconv.ParseFloat(s, 64)
				if math.IsNaN(f) {
					return nil
				}
				return f
			})
		}
	case allBool:
		return func(s string) any {
			return empty(s, func(s string) any { return strings.EqualFold(s, "true") })
		}
	}
	return func(s string) any {
		if naValues[s] {
			return nil
		}
		return s
	}
}

// readTextFile gives one {"text": line} document per line, as datasets' text
// builder does: Python's str.splitlines, so \r\n, \r, \v, \f, \x1c-\x1e,
// \x85, U+2028 and U+2029 end lines too, and a final line break adds no
// empty line.
func readTextFile(name string) ([]map[string]any, error) {
	rc, err := openMaybeGzip(name)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	data, err := io.ReadAll(rc)
	if err != nil {
		return nil, err
	}
	var docs []map[string]any
	for _, line := range pySplitlines(string(data)) {
		docs = append(docs, map[string]any{"text": line})
	}
	return docs, nil
}

// pySplitlines is Python's str.splitlines().
func pySplitlines(s string) []string {
	var out []string
	start := 0
	rs := []rune(s)
	flush := func(i int) { out = append(out, string(rs[start:i])) }
	for i := 0; i < len(rs); i++ {
		switch rs[i] {
		case '\n', '\v', '\f', '\x1c', '\x1d', '\x1e', '\u0085', '\u2028', '\u2029':
			flush(i)
			start = i + 1
		case '\r':
			flush(i)
			if i+1 < len(rs) && rs[i+1] == '\n' {
				i++
			}
			start = i + 1
		}
	}
	if start < len(rs) {
		flush(len(rs))
	}
	return out
}

// unifyColumns makes the documents of one split share a schema, as an Arrow
// table does: a key missing from some documents is nil there, and a column
// mixing integers and floats is all float64.
func unifyColumns(docs []map[string]any) {
	keys := map[string]bool{}
	hasInt, hasFloat := map[string]bool{}, map[string]bool{}
	for _, d := range docs {
		for k, v := range d {
			keys[k] = true
			switch v.(type) {
			case int64:
				hasInt[k] = true
			case float64:
				hasFloat[k] = true
			}
		}
	}
	for _, d := range docs {
		for k := range keys {
			v, ok := d[k]
			if !ok {
				d[k] = nil
				continue
			}
			if i, isInt := v.(int64); isInt && hasFloat[k] {
				d[k] = float64(i)
			}
		}
	}
}
