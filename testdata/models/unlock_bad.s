; unlock_bad.s -- a thread releases a lock that another thread took.
;
; Expected verdict: violation `unlock' (--preempt every).
;
;     unsigned char lock, shared;
;
;     void release(void) {                  /* thread 1: "helpfully" frees */
;         __mc_unlock(&lock);               /* BUG: not the owner          */
;     }
;     void main(void) {
;         new_thread(release, stack1, 0);
;         __mc_lock(&lock);
;         shared++;
;         __mc_unlock(&lock);
;         __mc_thread_exit();
;     }
;
; Reasoning: thread 1's __mc_unlock finds the lock byte either 0 (free) or
; 1 (held by thread 0); it must be 2 (thread 1's id + 1), so it is a
; violation on every interleaving.  Shortest: 9 transitions (thread 0's
; lds, ldy, ldx, ldd, jsr and the thread creation, then thread 1's ldx,
; jsr and the unlock itself).

        .include "harness.inc"

        STACK_SIZE = 32

        .sect   .bss
lock:   .skip   1
shared: .skip   1
stack0: .skip   STACK_SIZE
stack1: .skip   STACK_SIZE

        .sect   .text
        .globl  _start
_start:
        lds     #stack0+STACK_SIZE-1
        ldy     #0
        ldx     #stack1+STACK_SIZE-1
        ldd     #release
        jsr     __mc_thread_create
        ldx     #lock
        jsr     __mc_lock
        inc     shared
        ldx     #lock
        jsr     __mc_unlock
        jsr     __mc_thread_exit

; void release(void) -- see the header.
release:
        ldx     #lock
        jsr     __mc_unlock
        rts

        vector_table _start
