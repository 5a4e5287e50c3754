; dining2.s -- 2 dining philosophers (the paper's benchmark), in the
; dining flavour: every round a nondeterministic choice -- sleep, eat, or
; take the left fork and put it back.
;
; The model is in phil.inc (shared by naive2/3, dining2/3, moody2/3).
; Expected verdict: violation `error' -- all philosophers hold their
; left fork when one of them runs checkfordeadlock.
;
; Paper row (Table 1), flags, and the states a breadth-first search
; stores before it finds the error (full states: registers of every
; thread and all of RAM), next to the paper's BFS column:
;
;     Dining-Phil2, --preempt every:
;         50,164 states (paper: 48,068)

        .equ    NPHIL, 2
        .equ    FLAVOUR, 1

        .include "phil.inc"
