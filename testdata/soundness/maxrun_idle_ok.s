; maxrun_idle_ok.s -- maxrun_idle.s fixed: the worker stores the 16-bit
; setpoint with one instruction, which no interrupt can split.
;
; Expected verdict: verified (--preempt every --irq toc1).
;
;     volatile unsigned int setpoint;           /* 0x0000, then 0x0101 */
;
;     void worker(void) {                       /* thread 1 */
;         setpoint = 0x0101;                    /* one 16-bit store: std */
;     }
;
;     void main(void) {                         /* as in maxrun_idle.s */
;         new_thread(worker, stack1, 0);
;         TMSK1 |= OC1I;
;         for (;;) {
;             cli(); nop(); sei();
;         }
;     }
;
;     void toc1_isr(void) __interrupt {         /* as in maxrun_idle.s */
;         unsigned int s = setpoint;
;         __mc_assert((s >> 8) == (s & 0xFF));
;         TFLG1 = OC1F;
;     }

        .include "harness.inc"

        REGS  = 0x1000                  ; 68HC11 I/O register block
        TMSK1 = 0x22                    ; timer interrupt mask 1
        TFLG1 = 0x23                    ; timer interrupt flags 1
        OC1I  = 0x80                    ; TOC1 interrupt enable / flag bit
        STACK_SIZE = 32

        .sect   .bss
        .type   setpoint, @object
        .size   setpoint, 2
setpoint: .skip 2
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
        ldx     #REGS
        bset    TMSK1,x, #OC1I
idle:
        cli                             ; the window: the handler may run
        nop                             ;   before nop and before sei
        sei
        bra     idle

; void worker(void) -- see the header.
worker:
        ldd     #0x0101
        std     setpoint                ; both bytes at once
        rts

; void toc1_isr(void) -- see the header.
toc1_isr:
        ldd     setpoint
        cba
        beq     ti_ok
        clra                            ; torn
        bra     ti_assert
ti_ok:
        ldaa    #1
ti_assert:
        jsr     __mc_assert
        ldaa    #OC1I
        staa    REGS+TFLG1              ; acknowledge the interrupt
        rti

        vector_table _start, toc1=toc1_isr
