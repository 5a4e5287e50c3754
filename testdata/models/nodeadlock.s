; nodeadlock.s -- two threads take the same two locks, in the same order.
;
; Expected verdict: verified (--preempt every; about 500 states).
;
;     unsigned char lock_a, lock_b, shared;
;
;     void lock2(unsigned char *first, unsigned char *second) {
;         __mc_lock(first);
;         __mc_lock(second);
;     }
;     void unlock2(unsigned char *first, unsigned char *second) {
;         __mc_unlock(second);
;         __mc_unlock(first);
;     }
;     void worker(void) {                   /* thread 1: a, then b */
;         lock2(&lock_a, &lock_b); shared++; unlock2(&lock_a, &lock_b);
;     }
;     void main(void) {                     /* thread 0: a, then b */
;         new_thread(worker, stack1, 0);
;         lock2(&lock_a, &lock_b); shared++; unlock2(&lock_a, &lock_b);
;         __mc_thread_exit();
;     }
;
; Reasoning: both threads take lock_a first.  Whoever holds lock_a can
; always get lock_b (only a holder of lock_a ever takes lock_b), so a
; thread blocked on a lock always waits for one that is running: no cycle,
; no deadlock.  Every interleaving ends with both threads finished and
; shared == 2 (deadlock.s is the same program with thread 1's order
; reversed).

        .include "harness.inc"

        STACK_SIZE = 32

        .sect   .bss
lock_a: .skip   1
lock_b: .skip   1
shared: .skip   1
stack0: .skip   STACK_SIZE
stack1: .skip   STACK_SIZE

        .sect   .text
        .globl  _start
_start:
        lds     #stack0+STACK_SIZE-1
        ldy     #0
        ldx     #stack1+STACK_SIZE-1
        ldd     #worker
        jsr     __mc_thread_create
        ldx     #lock_b
        pshx                            ; second = &lock_b
        ldd     #lock_a                 ; first = &lock_a
        jsr     lock2
        inc     shared
        ldd     #lock_a
        jsr     unlock2
        pulx                            ; pop the argument
        jsr     __mc_thread_exit

; void worker(void) -- see the header.
worker:
        ldx     #lock_b
        pshx                            ; second = &lock_b
        ldd     #lock_a                 ; first = &lock_a
        jsr     lock2
        inc     shared
        ldd     #lock_a
        jsr     unlock2                 ; (the pushed argument is reused)
        pulx
        rts                             ; returning ends thread 1

; void lock2(unsigned char *first, unsigned char *second)
lock2:
        xgdx                            ; X = first
        jsr     __mc_lock
        tsx
        ldx     2,x                     ; X = second (above the return address)
        jsr     __mc_lock
        rts

; void unlock2(unsigned char *first, unsigned char *second)
unlock2:
        pshb
        psha                            ; frame: 0,x = first, 4,x = second
        tsx
        ldx     4,x
        jsr     __mc_unlock
        pulx                            ; X = first, frame gone
        jsr     __mc_unlock
        rts

        vector_table _start
