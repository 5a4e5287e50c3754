; philo5_ordered.s -- five dining philosophers who cannot deadlock: each
; takes the lower-numbered of its two forks first.
;
; Expected verdict: verified (run with --preempt every; exhaustive).
;
; Philosopher i needs forks i and (i + 1) % 5 and takes the lower-numbered
; one first, so philosopher 4 takes fork 0 before fork 4: the fix that
; examples/philosophers.s suggests for its deadlock.  The forks are then
; locked in one global order, no cycle of waiting threads can form, and no
; deadlock is reachable; each philosopher unlocks only forks it holds, so
; `unlock' cannot fail either.  The philosophers never stop, but nothing
; grows without bound: the state space is finite.
;
; It is the model of the comparison with SPIN (make compare-spin), and
; testdata/spin/philo5_ordered.pml mirrors it, one Promela step per
; instruction.  Each philosopher works out the addresses of its two forks
; once, keeps them in its stack frame as a compiler would keep two locals,
; and then only locks and unlocks: with five threads interleaved at every
; instruction, a longer loop (examples/philosophers.s recomputes the fork
; addresses through three procedure calls per lock) makes a state space of
; hundreds of millions of states (extrapolated from that loop with three and
; four philosophers: 0.16 and 10.4 million states with the default
; reductions).  Eating is the time between the second lock and the first
; unlock.
;
; Size under --preempt every: 14,508,790 states with --reduce none; with
; the default reductions (por,dead) 5,005 depth-first, breadth-first and
; best-first: each philosopher's stack accesses run alone, and only the
; fork operations interleave.  Not in manifest.json: the tests check every
; model there under several strategies, and --reduce none takes a minute.
;
; The same program in C:
;
;     unsigned char fork[5];                /* lock bytes, 0 = on the table */
;
;     void philosopher(unsigned char id) {  /* one thread per philosopher */
;         unsigned char *lo, *hi;
;         if (id == 4) { lo = &fork[0];  hi = &fork[4]; }
;         else         { lo = &fork[id]; hi = &fork[id + 1]; }
;         for (;;) {
;             __mc_lock(lo);                /* the lower-numbered fork */
;             __mc_lock(hi);
;             __mc_unlock(hi);              /* eaten: put both down */
;             __mc_unlock(lo);
;         }
;     }
;
;     void main(void) {             /* thread 0, from the reset vector */
;         for (i = 1; i < 5; i++)           /* unrolled */
;             new_thread(philosopher, stack i top, i);
;         philosopher(0);
;     }
;
; Build: make -C testdata (see testdata/README.md).

        .include "harness.inc"

        NPHIL = 5
        STACK_SIZE = 32                 ; bytes of stack per thread

        .sect   .bss
fork:   .skip   NPHIL                   ; fork[i] lies left of philosopher i
stack0: .skip   STACK_SIZE              ; thread 0 (main, then philosopher 0)
stack1: .skip   STACK_SIZE
stack2: .skip   STACK_SIZE
stack3: .skip   STACK_SIZE
stack4: .skip   STACK_SIZE

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
