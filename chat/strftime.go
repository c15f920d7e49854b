package chat

import (
	"strconv"
	"strings"
	"time"
)

// strftime formats t as Python's datetime.strftime does for the naive
// datetime.now() that transformers' strftime_now reads: CPython hands the
// format to the C library's strftime (glibc, C locale), after filling %f
// (microseconds) itself and %z and %Z (empty for a naive datetime).
// glibc's flags - (no padding), _ (spaces), 0 (zeros) and ^ (upper case)
// and a field width are honoured; an unknown directive is kept as written.
func strftime(t time.Time, format string) string {
	var b strings.Builder
	for i := 0; i < len(format); i++ {
		c := format[i]
		if c != '%' || i+1 == len(format) {
			b.WriteByte(c)
			continue
		}
		start := i
		i++
		var pad byte // 0: the directive's own
		upper := false
		for ; i < len(format) && strings.IndexByte("-_0^#", format[i]) >= 0; i++ {
			switch format[i] {
			case '^':
				upper = true
			case '#':
			default:
				pad = format[i]
			}
		}
		width := 0
		for ; i < len(format) && format[i] >= '0' && format[i] <= '9'; i++ {
			width = width*10 + int(format[i]-'0')
		}
		if i == len(format) {
			b.WriteString(format[start:])
			break
		}
		s, ok := directive(t, format[i], pad, width)
		if !ok {
			b.WriteString(format[start : i+1])
			continue
		}
		if upper {
			s = strings.ToUpper(s)
		}
		b.WriteString(s)
	}
	return b.String()
}

// directive is one conversion. Numbers get their default padding (zeros
// to their natural width, or spaces for %e %k %l), changed by the flag
// pad and widened to width.
func directive(t time.Time, c, pad byte, width int) (string, bool) {
	num := func(n, digits int, fill byte) string {
		if pad != 0 {
			fill = pad
		}
		if width > digits {
			digits = width
		}
		s := strconv.Itoa(n)
		switch fill {
		case '-':
			return s
		case '_':
			return strings.Repeat(" ", max(0, digits-len(s))) + s
		}
		return strings.Repeat("0", max(0, digits-len(s))) + s
	}
	text := func(s string) string {
		if width > len(s) {
			fill := " "
			if pad == '0' {
				fill = "0"
			}
			return strings.Repeat(fill, width-len(s)) + s
		}
		return s
	}
	hour12 := t.Hour() % 12
	if hour12 == 0 {
		hour12 = 12
	}
	isoYear, isoWeek := t.ISOWeek()
	switch c {
	case 'a':
		return text(t.Weekday().String()[:3]), true
	case 'A':
		return text(t.Weekday().String()), true
	case 'b', 'h':
		return text(t.Month().String()[:3]), true
	case 'B':
		return text(t.Month().String()), true
	case 'c':
		return text(strftime(t, "%a %b %e %H:%M:%S %Y")), true
	case 'C':
		return num(t.Year()/100, 2, '0'), true
	case 'd':
		return num(t.Day(), 2, '0'), true
	case 'D', 'x':
		return text(strftime(t, "%m/%d/%y")), true
	case 'e':
		return num(t.Day(), 2, '_'), true
	case 'f':
		return num(t.Nanosecond()/1000, 6, '0'), true
	case 'F':
		return text(strftime(t, "%Y-%m-%d")), true
	case 'g':
		return num(isoYear%100, 2, '0'), true
	case 'G':
		return num(isoYear, 1, '0'), true
	case 'H':
		return num(t.Hour(), 2, '0'), true
	case 'I':
		return num(hour12, 2, '0'), true
	case 'j':
		return num(t.YearDay(), 3, '0'), true
	case 'k':
		return num(t.Hour(), 2, '_'), true
	case 'l':
		return num(hour12, 2, '_'), true
	case 'm':
		return num(int(t.Month()), 2, '0'), true
	case 'M':
		return num(t.Minute(), 2, '0'), true
	case 'n':
		return "\n", true
	case 'p':
		if t.Hour() < 12 {
			return text("AM"), true
		}
		return text("PM"), true
	case 'P':
		if t.Hour() < 12 {
			return text("am"), true
		}
		return text("pm"), true
	case 'r':
		return text(strftime(t, "%I:%M:%S %p")), true
	case 'R':
		return text(strftime(t, "%H:%M")), true
	case 's':
		return num(int(t.Unix()), 1, '0'), true
	case 'S':
		return num(t.Second(), 2, '0'), true
	case 't':
		return "\t", true
	case 'T', 'X':
		return text(strftime(t, "%H:%M:%S")), true
	case 'u':
		return num((int(t.Weekday())+6)%7+1, 1, '0'), true
	case 'U':
		return num((t.YearDay()+6-int(t.Weekday()))/7, 2, '0'), true
	case 'V':
		return num(isoWeek, 2, '0'), true
	case 'w':
		return num(int(t.Weekday()), 1, '0'), true
	case 'W':
		return num((t.YearDay()+6-(int(t.Weekday())+6)%7)/7, 2, '0'), true
	case 'y':
		return num(t.Year()%100, 2, '0'), true
	case 'Y':
		return num(t.Year(), 1, '0'), true
	case 'z', 'Z':
		// datetime.now() is naive: no offset, no zone name.
		return text(""), true
	case '%':
		return "%", true
	}
	return "", false
}
