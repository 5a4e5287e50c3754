; exit_in_cs.s -- main starts a worker and then does the worker's job
; itself.  The job takes a lock and works inside a critical section; it
; gives the lock back, but leaves the section only by returning, which
; ends the thread while it is still inside.
;
; Expected verdict: violation `mutex' (--preempt every).
;
;     unsigned char lock;
;
;     void job(void) {                          /* threads 0 and 1 */
;         __mc_lock(&lock);
;         __mc_cs_enter();
;         __mc_unlock(&lock);                   /* BUG: still inside */
;     }                                         /* returns: the thread ends */
;
;     void main(void) {
;         new_thread(job, stack1, 0);
;         job();                                /* a jump, SP at its top */
;     }
;
; Counterexample: one thread locks, enters and unlocks; the other locks
; and enters before the first one's RTS ends it: both inside at once.
; That RTS finds SP at the top of its stack, so it touches no memory at
; all: a reduction that took it for a step private to its thread, to be
; run alone right after the unlock, ends the first thread before the
; other can take the lock and never shows the two inside together.
; exit_in_cs_ok.s is the fixed program.

        .include "harness.inc"

        STACK_SIZE = 16

lock    = 0x0040                        ; the lock byte

        .sect   .bss
stack0: .skip   STACK_SIZE
stack1: .skip   STACK_SIZE

        .sect   .text
        .globl  _start
_start:
        lds     #stack0+STACK_SIZE-1
        ldy     #0
        ldx     #stack1+STACK_SIZE-1
        ldd     #job
        jsr     __mc_thread_create
        jmp     job                     ; main's share: with its stack empty

; void job(void) -- entered with SP at the top of its thread's stack.
job:
        ldx     #lock
        jsr     __mc_lock
        jsr     __mc_cs_enter
        ldx     #lock
        jsr     __mc_unlock             ; BUG: the section is still held
        rts                             ; ... until the thread ends

        vector_table _start
