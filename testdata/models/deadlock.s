; deadlock.s -- two threads take two locks in opposite orders.
;
; Expected verdict: violation `deadlock' (--preempt every).
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
;     void worker(void) {                   /* thread 1: b, then a */
;         lock2(&lock_b, &lock_a); shared++; unlock2(&lock_b, &lock_a);
;     }
;     void main(void) {                     /* thread 0: a, then b */
;         new_thread(worker, stack1, 0);
;         lock2(&lock_a, &lock_b); shared++; unlock2(&lock_a, &lock_b);
;         __mc_thread_exit();
;     }
;
; Counterexample: thread 0 takes lock_a, thread 1 takes lock_b; each then
; blocks in __mc_lock on the lock the other holds, and no thread can run.
; The shortest reaches that state in 26 transitions.  All other
; interleavings end with both threads finished.

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
        ldx     #lock_a
        pshx                            ; second = &lock_a
        ldd     #lock_b                 ; first = &lock_b
        jsr     lock2
        inc     shared
        ldd     #lock_b
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
