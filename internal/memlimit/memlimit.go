// Package memlimit finds how much memory this process may use: the
// machine's physical memory, and the memory limit of its control group
// (cgroup v1 or v2) when one is set, so that a search can stop itself with
// a report before the kernel's out-of-memory killer ends it without one.
//
// It reads the files Linux provides — /proc/meminfo, /proc/self/cgroup,
// /proc/self/mountinfo and the cgroup files — from an fs.FS rooted at "/",
// so that tests can give it fake ones. It does not watch the limits change,
// and it knows nothing of other operating systems (Detect then finds
// nothing, and the caller goes without a default limit).
package memlimit

import (
	"bufio"
	"bytes"
	"io/fs"
	"os"
	"path"
	"strconv"
	"strings"
)

// Share is the part of the memory available to the process that a search
// takes by default, in percent. The rest is for what the search's own
// accounting does not see or cannot stop in time:
//
//   - the other processes and the kernel: on a desktop, a few GiB; in a
//     container, the page cache of its files, which counts against a
//     cgroup's limit;
//   - the lag of the measurement: the search measures the memory the Go
//     runtime holds every thousand or so expansions, and its visited set
//     grows in steps (a table that doubles), which the search foresees
//     but only roughly;
//   - the runtime's own memory outside the heap, and the slack of huge
//     pages.
//
// The garbage collector is told the same limit (debug.SetMemoryLimit), so
// garbage does not take the room: it is collected before the process
// passes the limit. A quarter of the machine is generous for all of this
// on a large machine and about right on a small one.
const Share = 75

// Info is what was found; zero fields were not.
type Info struct {
	Physical   int64  // bytes of physical memory (MemTotal)
	Cgroup     int64  // the cgroup's memory limit in bytes; 0: none
	CgroupFile string // the file the limit was read from
}

// Available is the smaller of the physical memory and the cgroup limit,
// or 0 when neither is known.
func (in Info) Available() int64 {
	if in.Cgroup > 0 && (in.Physical == 0 || in.Cgroup < in.Physical) {
		return in.Cgroup
	}
	return in.Physical
}

// Default is Share percent of Available, or 0 (no default) when nothing
// is known.
func (in Info) Default() int64 {
	a := in.Available()
	return a/100*Share + a%100*Share/100 // no overflow, to the byte
}

// Source names what Available is: the machine's memory or the cgroup's
// limit.
func (in Info) Source() string {
	if in.Cgroup > 0 && (in.Physical == 0 || in.Cgroup < in.Physical) {
		return "the memory limit of this process's cgroup (" + in.CgroupFile + ")"
	}
	return "this machine's memory"
}

// Detect reads the running system.
func Detect() Info {
	in := Read(os.DirFS("/"))
	if in.Physical == 0 {
		in.Physical = sysinfoTotal()
	}
	return in
}

// Read reads the files under fsys, a file system rooted at "/".
func Read(fsys fs.FS) Info {
	var in Info
	in.Physical = readMemTotal(fsys)
	in.Cgroup, in.CgroupFile = readCgroupLimit(fsys)
	return in
}

// readMemTotal returns MemTotal from proc/meminfo, in bytes.
func readMemTotal(fsys fs.FS) int64 {
	data, err := fs.ReadFile(fsys, "proc/meminfo")
	if err != nil {
		return 0
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) == 3 && f[0] == "MemTotal:" && f[2] == "kB" {
			if n, err := strconv.ParseInt(f[1], 10, 64); err == nil && n > 0 && n < 1<<53 {
				return n << 10
			}
		}
	}
	return 0
}

// A mount of a cgroup hierarchy: where it is, and which cgroup it shows
// there (not "/" when a container sees only its own part).
type mount struct {
	point, root string
}

// cgroupMounts finds the cgroup2 mount and the cgroup v1 mount of the
// memory controller in proc/self/mountinfo, defaulting to the usual
// places when the file cannot be read.
func cgroupMounts(fsys fs.FS) (v2, v1 mount) {
	v2, v1 = mount{"/sys/fs/cgroup", "/"}, mount{"/sys/fs/cgroup/memory", "/"}
	data, err := fs.ReadFile(fsys, "proc/self/mountinfo")
	if err != nil {
		return v2, v1
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		// ID PARENT MAJ:MIN ROOT POINT OPTIONS [OPTIONAL...] - TYPE SOURCE SUPEROPTIONS
		f := strings.Fields(sc.Text())
		sep := -1
		for i, x := range f {
			if x == "-" {
				sep = i
				break
			}
		}
		if sep < 6 || len(f) < sep+4 {
			continue
		}
		m := mount{point: unescape(f[4]), root: unescape(f[3])}
		switch f[sep+1] {
		case "cgroup2":
			v2 = m
		case "cgroup":
			for _, o := range strings.Split(f[sep+3], ",") {
				if o == "memory" {
					v1 = m
				}
			}
		}
	}
	return v2, v1
}

// unescape undoes mountinfo's octal escapes (\040 for a space).
func unescape(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+3 < len(s) {
			if n, err := strconv.ParseUint(s[i+1:i+4], 8, 8); err == nil {
				b.WriteByte(byte(n))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// readCgroupLimit returns the smallest memory limit set on the process's
// cgroup or any cgroup above it, in v2 (memory.max; "max" is none) and in
// v1 (memory.limit_in_bytes of the memory controller; a value of 2^62 or
// more is none), and the file it was read from.
func readCgroupLimit(fsys fs.FS) (int64, string) {
	data, err := fs.ReadFile(fsys, "proc/self/cgroup")
	if err != nil {
		return 0, ""
	}
	v2, v1 := cgroupMounts(fsys)
	best, file := int64(0), ""
	consider := func(m mount, cg, name string) {
		n, f := limitAbove(fsys, m, cg, name)
		if n > 0 && (best == 0 || n < best) {
			best, file = n, f
		}
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		// HIERARCHY-ID:CONTROLLERS:PATH
		id, rest, ok := strings.Cut(sc.Text(), ":")
		if !ok {
			continue
		}
		ctrls, cg, ok := strings.Cut(rest, ":")
		if !ok || !strings.HasPrefix(cg, "/") {
			continue
		}
		if id == "0" && ctrls == "" {
			consider(v2, cg, "memory.max")
			continue
		}
		for _, c := range strings.Split(ctrls, ",") {
			if c == "memory" {
				consider(v1, cg, "memory.limit_in_bytes")
			}
		}
	}
	return best, file
}

// limitAbove reads the limit file in cgroup cg's directory under mount m
// and in each directory above it up to the mount point, and returns the
// smallest limit. When cg is not under the mount's root (a container that
// sees the host's path), the mount point alone is read.
func limitAbove(fsys fs.FS, m mount, cg, name string) (int64, string) {
	base := strings.TrimPrefix(path.Clean(m.point), "/")
	rel, ok := strings.CutPrefix(cg, m.root)
	if !ok || m.root != "/" && rel != "" && !strings.HasPrefix(rel, "/") {
		rel = ""
	}
	dir := path.Join(base, rel)
	if _, err := fs.Stat(fsys, dir); err != nil {
		dir = base
	}
	best, file := int64(0), ""
	for {
		if n := readLimit(fsys, path.Join(dir, name)); n > 0 && (best == 0 || n < best) {
			best, file = n, "/"+path.Join(dir, name)
		}
		if dir == base || dir == "." || dir == "/" {
			return best, file
		}
		dir = path.Dir(dir)
	}
}

// readLimit reads one limit file: a number of bytes, or "max"; 0 for none.
func readLimit(fsys fs.FS, name string) int64 {
	data, err := fs.ReadFile(fsys, name)
	if err != nil {
		return 0
	}
	s := strings.TrimSpace(string(data))
	if s == "max" {
		return 0
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n <= 0 || n >= 1<<62 {
		return 0
	}
	return n
}
