; heater_fixed.s -- the heater controller with its bug fixed (see heater.inc).
FIXED = 1
        .include "heater.inc"
