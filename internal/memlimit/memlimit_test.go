package memlimit

import (
	"strings"
	"testing"
	"testing/fstest"
)

const meminfo = "MemTotal:       24684096 kB\nMemFree:         1234567 kB\nMemAvailable:   20000000 kB\n"

// mountinfo lines for a cgroup v1 memory hierarchy and a cgroup v2 one
// (the hybrid layout: v2 at /sys/fs/cgroup/unified).
const (
	v1Mount     = "40 30 0:35 / /sys/fs/cgroup/memory rw,nosuid,nodev,noexec,relatime shared:17 - cgroup cgroup rw,memory\n"
	v1CPUMount  = "41 30 0:36 / /sys/fs/cgroup/cpu rw,relatime shared:18 - cgroup cgroup rw,cpu\n"
	hybridMount = "42 30 0:37 / /sys/fs/cgroup/unified rw,relatime shared:19 - cgroup2 cgroup2 rw\n"
	v2Mount     = "29 23 0:26 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime shared:4 - cgroup2 cgroup2 rw,nsdelegate\n"
	rootMount   = "23 1 8:1 / / rw,relatime shared:1 - ext4 /dev/sda1 rw\n"
)

func TestRead(t *testing.T) {
	const gib = 1 << 30
	for _, tt := range []struct {
		name  string
		files map[string]string
		phys  int64
		cg    int64
		file  string
	}{
		{"no cgroup files", map[string]string{"proc/meminfo": meminfo}, 24684096 << 10, 0, ""},
		{"v2 limit", map[string]string{
			"proc/meminfo":        meminfo,
			"proc/self/mountinfo": rootMount + v2Mount,
			"proc/self/cgroup":    "0::/user.slice/job.scope\n",
			"sys/fs/cgroup/user.slice/job.scope/memory.max": "2147483648\n",
		}, 24684096 << 10, 2 * gib, "/sys/fs/cgroup/user.slice/job.scope/memory.max"},
		{"v2 max", map[string]string{
			"proc/meminfo":        meminfo,
			"proc/self/mountinfo": rootMount + v2Mount,
			"proc/self/cgroup":    "0::/user.slice/job.scope\n",
			"sys/fs/cgroup/user.slice/job.scope/memory.max": "max\n",
		}, 24684096 << 10, 0, ""},
		{"v2 parent's limit applies", map[string]string{
			"proc/meminfo":                 meminfo,
			"proc/self/mountinfo":          rootMount + v2Mount,
			"proc/self/cgroup":             "0::/a/b\n",
			"sys/fs/cgroup/a/b/memory.max": "max\n",
			"sys/fs/cgroup/a/memory.max":   "1073741824\n",
		}, 24684096 << 10, gib, "/sys/fs/cgroup/a/memory.max"},
		{"v2 in a namespace: the mount is the process's cgroup", map[string]string{
			"proc/meminfo":             meminfo,
			"proc/self/mountinfo":      rootMount + v2Mount,
			"proc/self/cgroup":         "0::/\n",
			"sys/fs/cgroup/memory.max": "536870912\n",
		}, 24684096 << 10, gib / 2, "/sys/fs/cgroup/memory.max"},
		{"v2 without mountinfo: the usual place", map[string]string{
			"proc/meminfo":             meminfo,
			"proc/self/cgroup":         "0::/\n",
			"sys/fs/cgroup/memory.max": "536870912\n",
		}, 24684096 << 10, gib / 2, "/sys/fs/cgroup/memory.max"},
		{"v1 limit", map[string]string{
			"proc/meminfo":        meminfo,
			"proc/self/mountinfo": rootMount + v1Mount + v1CPUMount + hybridMount,
			"proc/self/cgroup":    "9:name=systemd:/\n4:memory:/process_api/d327\n1:cpu:/\n0::/\n",
			"sys/fs/cgroup/memory/process_api/d327/memory.limit_in_bytes": "4294967296\n",
			"sys/fs/cgroup/memory/memory.limit_in_bytes":                  "9223372036854771712\n",
		}, 24684096 << 10, 4 * gib, "/sys/fs/cgroup/memory/process_api/d327/memory.limit_in_bytes"},
		{"v1 unlimited", map[string]string{
			"proc/meminfo":        meminfo,
			"proc/self/mountinfo": rootMount + v1Mount + hybridMount,
			"proc/self/cgroup":    "4:memory:/process_api/d327\n0::/\n",
			"sys/fs/cgroup/memory/process_api/d327/memory.limit_in_bytes": "9223372036854771712\n",
			"sys/fs/cgroup/memory/memory.limit_in_bytes":                  "9223372036854771712\n",
		}, 24684096 << 10, 0, ""},
		{"v1 controllers together, a host path not in the mount", map[string]string{
			"proc/meminfo":        meminfo,
			"proc/self/mountinfo": rootMount + "40 30 0:35 / /sys/fs/cgroup/cpu,memory rw - cgroup cgroup rw,cpu,memory\n",
			"proc/self/cgroup":    "4:cpu,memory:/docker/abc\n",
			"sys/fs/cgroup/cpu,memory/memory.limit_in_bytes": "3221225472\n",
		}, 24684096 << 10, 3 * gib, "/sys/fs/cgroup/cpu,memory/memory.limit_in_bytes"},
		{"v1 mount root is the container's cgroup", map[string]string{
			"proc/meminfo":        meminfo,
			"proc/self/mountinfo": rootMount + "40 30 0:35 /docker/abc /sys/fs/cgroup/memory ro - cgroup cgroup rw,memory\n",
			"proc/self/cgroup":    "4:memory:/docker/abc\n",
			"sys/fs/cgroup/memory/memory.limit_in_bytes": "1073741824\n",
		}, 24684096 << 10, gib, "/sys/fs/cgroup/memory/memory.limit_in_bytes"},
		{"garbage", map[string]string{
			"proc/meminfo":        "MemTotal: lots\n",
			"proc/self/mountinfo": "nonsense\n",
			"proc/self/cgroup":    "also nonsense\n0::\n",
		}, 0, 0, ""},
	} {
		fsys := fstest.MapFS{}
		for name, data := range tt.files {
			fsys[name] = &fstest.MapFile{Data: []byte(data)}
		}
		in := Read(fsys)
		if in.Physical != tt.phys || in.Cgroup != tt.cg || in.CgroupFile != tt.file {
			t.Errorf("%s: %+v, want physical %d, cgroup %d from %q", tt.name, in, tt.phys, tt.cg, tt.file)
		}
	}
}

func TestDefault(t *testing.T) {
	for _, tt := range []struct {
		in   Info
		want int64
		says string
	}{
		{Info{Physical: 16 << 30}, 12 << 30, "this machine's memory"},
		{Info{Physical: 16 << 30, Cgroup: 4 << 30, CgroupFile: "/sys/fs/cgroup/memory.max"}, 3 << 30, "memory limit"},
		{Info{Physical: 4 << 30, Cgroup: 16 << 30, CgroupFile: "x"}, 3 << 30, "this machine's memory"},
		{Info{}, 0, ""},
	} {
		if got := tt.in.Default(); got != tt.want {
			t.Errorf("%+v: Default() = %d, want %d", tt.in, got, tt.want)
		}
		if got := tt.in.Source(); tt.says != "" && !strings.Contains(got, tt.says) {
			t.Errorf("%+v: Source() = %q, want it to say %q", tt.in, got, tt.says)
		}
	}
}

// On this machine: whatever it has, Detect finds some memory.
func TestDetect(t *testing.T) {
	in := Detect()
	if in.Physical <= 0 {
		t.Skipf("no physical memory figure here: %+v", in)
	}
	t.Logf("%+v: default %d bytes (%s)", in, in.Default(), in.Source())
}
