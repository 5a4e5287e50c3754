; exit_in_cs_ok.s -- exit_in_cs.s fixed: the job leaves its critical
; section before it gives the lock back.
;
; Expected verdict: verified (--preempt every).
;
;     unsigned char lock;
;
;     void job(void) {                          /* threads 0 and 1 */
;         __mc_lock(&lock);
;         __mc_cs_enter();
;         __mc_cs_exit();
;         __mc_unlock(&lock);
;     }                                         /* returns: the thread ends */
;
;     void main(void) {
;         new_thread(job, stack1, 0);
;         job();                                /* a jump, SP at its top */
;     }

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
        jsr     __mc_cs_exit
        ldx     #lock
        jsr     __mc_unlock
        rts

        vector_table _start
