package memlimit

import "syscall"

// sysinfoTotal asks the kernel for the physical memory, for when
// /proc/meminfo cannot be read.
func sysinfoTotal() int64 {
	var si syscall.Sysinfo_t
	if err := syscall.Sysinfo(&si); err != nil {
		return 0
	}
	return int64(si.Totalram) * int64(si.Unit)
}
