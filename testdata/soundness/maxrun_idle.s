; maxrun_idle.s -- main ends in an idle loop of four instructions that
; opens a window for the timer interrupt on each pass; a worker thread
; updates a 16-bit setpoint one byte at a time; the handler checks it.
;
; Expected verdict: violation `assert' (--preempt every --irq toc1).
;
;     volatile unsigned int setpoint;           /* 0x0000, then 0x0101 */
;
;     void worker(void) {                       /* thread 1: interrupts masked */
;         ((volatile unsigned char *)&setpoint)[0] = 1;   /* BUG: two stores */
;         ((volatile unsigned char *)&setpoint)[1] = 1;
;     }
;
;     void main(void) {                         /* interrupts masked from reset */
;         new_thread(worker, stack1, 0);
;         TMSK1 |= OC1I;                        /* enable the TOC1 interrupt */
;         for (;;) {                            /* idle: */
;             cli(); nop(); sei();              /*   let the timer in */
;         }
;     }
;
;     void toc1_isr(void) __interrupt {         /* vector 0xFFE8 */
;         unsigned int s = setpoint;            /* one 16-bit load */
;         __mc_assert((s >> 8) == (s & 0xFF));  /* 0x0000 or 0x0101, never torn */
;         TFLG1 = OC1F;                         /* acknowledge */
;     }
;
; Counterexample: the worker stores the high byte; main, idling, clears I;
; after the NOP (the instruction after a CLI runs before any interrupt:
; the manual's CLI) the interrupt is taken and the handler reads 0x0100: the assertion
; fails.  Under --preempt every the idle loop is just a loop with a
; window.  Under a coarser scheduling it is a run of 100,000 instructions
; that touch no memory, cut by --max-run; as 4 divides 100,000, every cut
; lands at the same place in the loop, a `bra' with I set, so the
; interrupt was never offered: the former --preempt shared said `verified'
; (so it did with loops of 5 and 8 instructions; with 6 or 7, which do not
; divide 100,000, the cuts moved round the loop and it found the bug).
; maxrun_idle_ok.s is the fixed program.

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
        ldaa    #1
        staa    setpoint                ; the high byte ...
        staa    setpoint+1              ; ... then the low byte
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
