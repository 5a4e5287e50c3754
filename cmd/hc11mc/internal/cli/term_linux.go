package cli

import (
	"os"
	"syscall"
	"unsafe"
)

// rawTerminal puts the terminal f into a mode where each key reaches the
// firmware as it is typed — no line editing, no echo (the firmware echoes
// what it wants shown), Enter as a carriage return — with Ctrl-C still an
// interrupt, and returns the function that restores it; ok is false when
// f is not a terminal.
func rawTerminal(f *os.File) (restore func(), ok bool) {
	fd := f.Fd()
	var old syscall.Termios
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, fd, syscall.TCGETS, uintptr(unsafe.Pointer(&old))); e != 0 {
		return nil, false
	}
	raw := old
	raw.Lflag &^= syscall.ICANON | syscall.ECHO
	raw.Iflag &^= syscall.ICRNL
	raw.Cc[syscall.VMIN], raw.Cc[syscall.VTIME] = 1, 0
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, fd, syscall.TCSETS, uintptr(unsafe.Pointer(&raw))); e != 0 {
		return nil, false
	}
	return func() { syscall.Syscall(syscall.SYS_IOCTL, fd, syscall.TCSETS, uintptr(unsafe.Pointer(&old))) }, true
}
