package sim

import "fmt"

// statusNames spell the values of Thread.Status for people.
var statusNames = [...]string{
	Running: "running",
	Waiting: "waiting (WAI)",
	Stopped: "stopped (STOP)",
	Exited:  "exited",
}

// StatusName returns how output names a value of Thread.Status:
// "running", "waiting (WAI)", "stopped (STOP)" or "exited".
func StatusName(status uint8) string {
	if int(status) < len(statusNames) {
		return statusNames[status]
	}
	return fmt.Sprintf("status %d", status)
}
