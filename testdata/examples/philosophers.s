; philosophers.s -- the classic dining philosophers deadlock, in 68HC11
; machine code.  Start here.
;
; Three philosophers sit at a round table with one fork between each pair.
; To eat, a philosopher picks up the fork on the left, then the fork on the
; right, eats, and puts both down.  If all three pick up their left fork at
; the same moment, each waits forever for the right one, which its
; neighbour holds: a deadlock.  Find it with
;
;     hc11mc check testdata/examples/philosophers.elf
;
; which reports violation `deadlock' and prints the schedule that leads to
; it (three philosophers, each stopped inside __mc_lock on its right fork).
;
; How the program talks to the checker.  The firmware calls small stub
; routines from harness.inc, e.g. `jsr __mc_lock'.  The checker notices
; when a thread reaches a stub and performs its effect; on real hardware
; each stub is just RTS.  The ones used here:
;
;     __mc_thread_create  D = entry, X = stack pointer, Y = argument
;                         (the new thread starts with its argument in D)
;     __mc_lock           X = address of a lock byte: take it, or wait
;                         until it is free (a waiting thread cannot run)
;     __mc_unlock         X = address of a lock byte held by this thread
;     __mc_thread_exit    end this thread
;
; The same program in C:
;
;     unsigned char fork[3];                /* lock bytes, 0 = on the table */
;     unsigned char last;                   /* who ate last */
;
;     unsigned char *forkaddr(unsigned char f) { return &fork[f]; }
;     unsigned char rightof(unsigned char id) { return id == 2 ? 0 : id + 1; }
;     void eat(unsigned char id) { last = id; }
;
;     void philosopher(unsigned char id) {  /* one thread per philosopher */
;         for (;;) {
;             __mc_lock(forkaddr(id));               /* left fork  */
;             __mc_lock(forkaddr(rightof(id)));      /* right fork */
;             eat(id);
;             __mc_unlock(forkaddr(rightof(id)));
;             __mc_unlock(forkaddr(id));
;         }
;     }
;
;     void main(void) {             /* thread 0, from the reset vector */
;         new_thread(philosopher, stack1 top, 1);
;         new_thread(philosopher, stack2 top, 2);
;         philosopher(0);
;     }
;
; The philosophers never stop, but nothing in the program grows without
; bound, so the checker sees a finite set of states (about 150 thousand
; with --preempt every) and the deadlock within the first few tens of
; thousands of them in breadth-first order; the shortest schedule is about
; 70 instructions long.
;
; To fix it, let one philosopher pick up the forks in the other order (or
; always take the lower-numbered fork first): then no cycle of waiting can
; form.  bench/philo_big.s does that and verifies.
;
; Build: make -C testdata (see testdata/README.md).

        .include "harness.inc"

        NPHIL = 3
        STACK_SIZE = 32                 ; bytes of stack per thread

; ---- variables, in the 512 bytes of RAM -----------------------------------
        .sect   .bss
fork:   .skip   NPHIL                   ; fork[i] lies left of philosopher i
last:   .skip   1                       ; who ate last
stack0: .skip   STACK_SIZE              ; thread 0 (main, then philosopher 0)
stack1: .skip   STACK_SIZE              ; thread 1 (philosopher 1)
stack2: .skip   STACK_SIZE              ; thread 2 (philosopher 2)

; ---- code, in ROM -----------------------------------------------------------
        .sect   .text

; main: the reset vector points here.  The 68HC11 stack grows downwards and
; SP points at the next free byte, so a stack starts at its last byte.
        .globl  _start
_start:
        lds     #stack0+STACK_SIZE-1    ; our own stack

        ldy     #1                      ; argument: philosopher 1
        ldx     #stack1+STACK_SIZE-1    ; its stack
        ldd     #philosopher            ; where it starts
        jsr     __mc_thread_create

        ldy     #2                      ; philosopher 2
        ldx     #stack2+STACK_SIZE-1
        ldd     #philosopher
        jsr     __mc_thread_create

        ldd     #0                      ; and we are philosopher 0
        jsr     philosopher
        jsr     __mc_thread_exit        ; (not reached: never stops)

; void philosopher(unsigned char id)        -- id arrives in B
philosopher:
        pshb                            ; keep id on the stack: 0,x after TSX
ph_loop:
        tsx
        ldab    0,x
        jsr     forkaddr                ; X = &fork[id]
        jsr     __mc_lock               ; pick up the left fork

        tsx
        ldab    0,x
        jsr     rightof                 ; B = (id + 1) % 3
        jsr     forkaddr
        jsr     __mc_lock               ; pick up the right fork: may wait

        tsx
        ldab    0,x
        jsr     eat

        tsx
        ldab    0,x
        jsr     rightof
        jsr     forkaddr
        jsr     __mc_unlock             ; put down the right fork
        tsx
        ldab    0,x
        jsr     forkaddr
        jsr     __mc_unlock             ; put down the left fork
        bra     ph_loop

; unsigned char *forkaddr(unsigned char f) { return &fork[f]; }
; (returns the pointer in X, ready for __mc_lock / __mc_unlock)
forkaddr:
        ldx     #fork
        abx
        rts

; unsigned char rightof(unsigned char id) { return id == 2 ? 0 : id + 1; }
rightof:
        incb
        cmpb    #NPHIL
        bne     ro_done
        clrb                            ; past the last seat: back to fork 0
ro_done:
        rts

; void eat(unsigned char id) { last = id; }
eat:
        stab    last
        rts

; The interrupt vector table: only the reset vector is used.
        vector_table _start
