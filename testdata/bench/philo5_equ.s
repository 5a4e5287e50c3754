; philo5_equ.s -- philo5_ordered.s laid out the usual assembly way: the
; forks and the stacks are equates, fork = 0x0040 at the start of RAM and
; the five stacks above it, with nothing in a data section.  The forks have
; no symbol in the image (the build strips local absolute symbols), so
; nothing tells the checker where the lowest stack's region ends: the
; first access of a fork by __mc_lock falls in that region, which then
; shrinks to exclude it (sim/private.go).
;
; Expected verdict: verified (run with --preempt every; exhaustive).  Not
; in manifest.json, like philo5_ordered.
;
; Build: make -C testdata (see testdata/README.md).

        .include "harness.inc"

        NPHIL = 5
        STACK_SIZE = 32                 ; bytes of stack per thread
        fork = 0x0040                   ; fork[i] lies left of philosopher i
        stack0 = 0x0060                 ; thread 0 (main, then philosopher 0)
        stack1 = stack0 + STACK_SIZE
        stack2 = stack1 + STACK_SIZE
        stack3 = stack2 + STACK_SIZE
        stack4 = stack3 + STACK_SIZE

        .sect   .text

        .globl  _start
_start:
        lds     #stack0+STACK_SIZE-1    ; our own stack

        ldy     #1                      ; argument: philosopher 1
        ldx     #stack1+STACK_SIZE-1    ; its stack
        ldd     #philosopher            ; where it starts
        jsr     __mc_thread_create

        ldy     #2
        ldx     #stack2+STACK_SIZE-1
        ldd     #philosopher
        jsr     __mc_thread_create

        ldy     #3
        ldx     #stack3+STACK_SIZE-1
        ldd     #philosopher
        jsr     __mc_thread_create

        ldy     #4
        ldx     #stack4+STACK_SIZE-1
        ldd     #philosopher
        jsr     __mc_thread_create

        ldd     #0                      ; and we are philosopher 0
        jsr     philosopher
        jsr     __mc_thread_exit        ; (not reached: never stops)

; void philosopher(unsigned char id)        -- id arrives in B
; {
;     unsigned char *lo, *hi;           /* frame: 0,x = lo, 2,x = hi */
;     if (id == NPHIL - 1) { lo = &fork[0];  hi = &fork[id]; }
;     else                 { lo = &fork[id]; hi = &fork[id + 1]; }
;     for (;;) { ... }
; }
philosopher:
        ldx     #fork
        abx                             ; X = &fork[id]
        cmpb    #NPHIL-1
        beq     ph_last
        inx
        pshx                            ; hi = &fork[id + 1]
        dex
        pshx                            ; lo = &fork[id]
        bra     ph_loop
ph_last:
        pshx                            ; hi = &fork[NPHIL - 1]
        ldx     #fork
        pshx                            ; lo = &fork[0]: the lower-numbered
ph_loop:
        tsx
        ldx     0,x                     ; lo
        jsr     __mc_lock               ; the lower-numbered fork first
        tsx
        ldx     2,x                     ; hi
        jsr     __mc_lock               ; then the other: eating
        tsx
        ldx     2,x
        jsr     __mc_unlock             ; put both down
        tsx
        ldx     0,x
        jsr     __mc_unlock
        bra     ph_loop

        vector_table _start
