; heater.s -- the heater controller with its bug (see heater.inc).
FIXED = 0
        .include "heater.inc"
