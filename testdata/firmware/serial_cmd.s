; serial_cmd.s -- the command interpreter with its two bugs (see serial_cmd.inc).
FIXED = 0
        .include "serial_cmd.inc"
