package cli

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/hc11mc/hc11mc/internal/units"
)

// Sizes, counts and durations are read exactly: a value is either read in
// full, to the byte, the unit or the nanosecond, or refused with the forms
// that are accepted (pflag's own readers take "2X" for an error but "-5"
// for a count, and know no sizes at all).
//
//   - A count is decimal digits only: no sign, no 0x, no grouping; each
//     flag says its range (--max-states 0 means no bound).
//   - A duration is Go's: a number with a unit (ns, us, ms, s, m, h), e.g.
//     30s, 1.5m, 1h30m; never negative; a bare 0 means no limit.
//   - A size is a number of bytes, or a number with K, M, G or T — with
//     or without B or iB, in any case — for binary multiples (1K = 1KB =
//     1KiB = 1024 bytes: memory is counted in powers of two). A decimal
//     point is allowed when the result is a whole number of bytes (1.5G,
//     0.5K), refused when it is not (0.1K). 0 and none mean no limit.

const (
	countForms    = "decimal digits only"
	durationForms = "a number with a unit (ns, us, ms, s, m, h), e.g. 30s, 5m, 1h30m"
	sizeForms     = "bytes, or a number with K, M, G or T (binary: 1K = 1KB = 1KiB = 1024), e.g. 512M, 2G, 1.5G; 0 or none: no limit"
)

// parseCount reads a count in [lo, hi].
func parseCount(s string, lo, hi uint64) (uint64, error) {
	rng := fmt.Sprintf("from %d to %d", lo, hi)
	if hi == math.MaxUint64 || hi == math.MaxInt64 {
		rng = fmt.Sprintf("%d or more", lo)
	}
	if s == "" || strings.TrimLeft(s, "0123456789") != "" {
		return 0, fmt.Errorf("not a count: want a whole number %s, in %s", rng, countForms)
	}
	n, err := strconv.ParseUint(s, 10, 64)
	if err != nil || n < lo || n > hi {
		return 0, fmt.Errorf("out of range: want a whole number %s", rng)
	}
	return n, nil
}

// intValue is an int flag read by parseCount.
type intValue struct {
	p      *int
	lo, hi int
}

func (v *intValue) String() string { return strconv.Itoa(*v.p) }
func (v *intValue) Type() string   { return "N" }
func (v *intValue) Set(s string) error {
	n, err := parseCount(s, uint64(v.lo), uint64(v.hi))
	if err != nil {
		return err
	}
	*v.p = int(n)
	return nil
}

// countVar defines an int flag taking counts in [lo, hi].
func countVar(fs *pflag.FlagSet, p *int, name string, def, lo, hi int, usage string) {
	*p = def
	fs.Var(&intValue{p: p, lo: lo, hi: hi}, name, usage)
}

// uintValue is a uint64 flag read by parseCount; set records that the
// flag was given (for flags whose absence means something).
type uintValue struct {
	p      *uint64
	lo, hi uint64
	set    *bool
}

func (v *uintValue) String() string { return strconv.FormatUint(*v.p, 10) }
func (v *uintValue) Type() string   { return "N" }
func (v *uintValue) Set(s string) error {
	n, err := parseCount(s, v.lo, v.hi)
	if err != nil {
		return err
	}
	*v.p = n
	if v.set != nil {
		*v.set = true
	}
	return nil
}

// uintVar defines a uint64 flag taking counts in [lo, hi]; set, when not
// nil, becomes true when the flag is given.
func uintVar(fs *pflag.FlagSet, p *uint64, set *bool, name string, def, lo, hi uint64, usage string) {
	*p = def
	fs.Var(&uintValue{p: p, lo: lo, hi: hi, set: set}, name, usage)
}

// parseDuration reads a duration of 0 or more.
func parseDuration(s string) (time.Duration, error) {
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		return 0, fmt.Errorf("not a duration: want %s; 0: no limit", durationForms)
	}
	return d, nil
}

type durationValue struct{ p *time.Duration }

func (v *durationValue) String() string {
	if *v.p == 0 {
		return "0" // what pflag takes for no default
	}
	return v.p.String()
}
func (v *durationValue) Type() string { return "DURATION" }
func (v *durationValue) Set(s string) error {
	d, err := parseDuration(s)
	if err != nil {
		return err
	}
	*v.p = d
	return nil
}

// durationVar defines a duration flag read by parseDuration.
func durationVar(fs *pflag.FlagSet, p *time.Duration, name string, def time.Duration, usage string) {
	*p = def
	fs.Var(&durationValue{p: p}, name, usage)
}

var errSize = errors.New("not a size: want " + sizeForms)

// sizeUnits are the binary multiples by suffix, in lower case.
var sizeUnits = map[string]int64{"": 1, "b": 1}

func init() {
	for i, u := range []string{"k", "m", "g", "t"} {
		m := int64(1) << (10 * (i + 1))
		sizeUnits[u], sizeUnits[u+"b"], sizeUnits[u+"ib"] = m, m, m
	}
}

// parseSize reads a size in bytes; 0 means no limit.
func parseSize(s string) (int64, error) {
	if strings.EqualFold(s, "none") {
		return 0, nil
	}
	num := strings.TrimRight(s, "bBiIkKmMgGtT")
	mult, ok := sizeUnits[strings.ToLower(s[len(num):])]
	if !ok || num == "" {
		return 0, errSize
	}
	whole, frac, dot := strings.Cut(num, ".")
	if whole == "" || strings.TrimLeft(whole, "0123456789") != "" || dot && (frac == "" || strings.TrimLeft(frac, "0123456789") != "") {
		return 0, errSize
	}
	r, ok := new(big.Rat).SetString(num)
	if !ok {
		return 0, errSize
	}
	r.Mul(r, new(big.Rat).SetInt64(mult))
	if !r.IsInt() {
		return 0, fmt.Errorf("%s is not a whole number of bytes: want %s", s, sizeForms)
	}
	if !r.Num().IsInt64() {
		return 0, fmt.Errorf("%s is too large: want %s", s, sizeForms)
	}
	return r.Num().Int64(), nil
}

// sizeValue is a size flag; set records that it was given.
type sizeValue struct {
	p   *int64
	set *bool
}

func (v *sizeValue) String() string {
	if *v.p == 0 {
		return "none"
	}
	return units.Size(*v.p)
}
func (v *sizeValue) Type() string { return "SIZE" }
func (v *sizeValue) Set(s string) error {
	n, err := parseSize(s)
	if err != nil {
		return err
	}
	*v.p = n
	if v.set != nil {
		*v.set = true
	}
	return nil
}

// freqValue is a frequency flag in hertz: a number with an optional
// multiplier k or M and an optional "Hz" (8MHz, 4.9152M, 32768).
type freqValue struct{ p *float64 }

func (v freqValue) String() string { return formatFreq(*v.p) }
func (v freqValue) Type() string   { return "FREQ" }
func (v freqValue) Set(s string) error {
	f, err := parseFreq(s)
	if err != nil {
		return err
	}
	*v.p = f
	return nil
}

// parseFreq reads a frequency: a positive number of hertz up to 100 MHz.
func parseFreq(s string) (float64, error) {
	t := strings.TrimSuffix(strings.TrimSuffix(strings.ReplaceAll(s, " ", ""), "Hz"), "hz")
	mul := 1.0
	switch {
	case strings.HasSuffix(t, "M"):
		t, mul = t[:len(t)-1], 1e6
	case strings.HasSuffix(t, "k"), strings.HasSuffix(t, "K"):
		t, mul = t[:len(t)-1], 1e3
	}
	f, err := strconv.ParseFloat(t, 64)
	if err != nil || f <= 0 || f*mul > 100e6 {
		return 0, fmt.Errorf("not a frequency: want e.g. 8MHz, 4.9152MHz or 8000000 (at most 100 MHz)")
	}
	return f * mul, nil
}

// formatFreq writes a frequency as parseFreq reads it.
func formatFreq(f float64) string {
	switch {
	case f >= 1e6:
		return strconv.FormatFloat(f/1e6, 'f', -1, 64) + " MHz"
	case f >= 1e3:
		return strconv.FormatFloat(f/1e3, 'f', -1, 64) + " kHz"
	}
	return strconv.FormatFloat(f, 'f', -1, 64) + " Hz"
}
