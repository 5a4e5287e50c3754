package symbolic

import "github.com/hc11mc/hc11mc/sim/alu"

// concreteBranch is the branch test of package sim/alu on plain values.
func concreteBranch(op, ccr uint8) bool { return alu.BranchTaken(alu.Concrete{}, op, ccr) }
