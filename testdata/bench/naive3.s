; naive3.s -- 3 dining philosophers (the paper's benchmark), in the
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
;     Naive Dining-Phil3, --preempt every:
;         1,029,182 states (paper: 485,648)
;     Naive Dining-Phil3 (branch points), --preempt calls:
;         8,781 states (paper: 18,281)

        .equ    NPHIL, 3
        .equ    FLAVOUR, 0

        .include "phil.inc"
