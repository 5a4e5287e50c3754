; naive2.s -- 2 dining philosophers (the paper's benchmark), in the
; naive flavour: sleep, take the left fork, check, take the right fork,
; release, forever.
;
; The model is in phil.inc (shared by naive2/3, dining2/3, moody2/3).
; Expected verdict: violation `error' -- all philosophers hold their
; left fork when one of them runs checkfordeadlock.
;
; Paper row (Table 1), flags, and the states a breadth-first search
; stores before it finds the error (full states: registers of every
; thread and all of RAM), next to the paper's BFS column:
;
;     Naive Dining-Phil2, --preempt every:
;         9,010 states (paper: 19,013)

        .equ    NPHIL, 2
        .equ    FLAVOUR, 0

        .include "phil.inc"
