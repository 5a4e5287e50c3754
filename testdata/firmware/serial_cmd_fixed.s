; serial_cmd_fixed.s -- the command interpreter with both bugs fixed (see serial_cmd.inc).
FIXED = 1
        .include "serial_cmd.inc"
