; moody2.s -- 2 dining philosophers (the paper's benchmark), in the
; moody flavour: like dining, and every sleep lasts 0..3 turns of its
; delay loop.
;
; The model is in phil.inc (shared by naive2/3, dining2/3, moody2/3).
; Expected verdict: violation `error' -- all philosophers hold their
; left fork when one of them runs checkfordeadlock.
;
; Paper row (Table 1), flags, and the states a breadth-first search
; stores before it finds the error (full states: registers of every
; thread and all of RAM), next to the paper's BFS column:
;
;     Moody Dining-Phil2, --preempt every:
;         96,903 states (paper: 87,974)

        .equ    NPHIL, 2
        .equ    FLAVOUR, 2

        .include "phil.inc"
