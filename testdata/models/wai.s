; wai.s -- waiting for a timer interrupt with interrupts masked.
;
; Expected verdict: violation `deadlock' (run with --irq toc1; one thread).
;
;     volatile unsigned char ticks;
;
;     void toc1_isr(void) __interrupt {     /* vector 0xFFE8 */
;         ticks = 1;
;         TFLG1 = OC1F;                     /* acknowledge */
;     }
;     void wait_tick(void) {
;         sei();                            /* test ticks without a race... */
;         if (ticks == 0)
;             wai();                        /* BUG: ...but I is still set,  */
;         ticks = 0;                        /* so no interrupt can wake us  */
;         cli();
;     }
;     void main(void) {
;         TMSK1 |= OC1I;
;         cli();
;         wait_tick();
;         __mc_thread_exit();
;     }
;
; Reasoning: if the TOC1 interrupt is not taken between CLI and SEI, the
; thread reaches WAI with CCR.I = 1.  WAI stacks the registers and waits
; for an interrupt, but a masked TOC1 cannot be taken (and there is no
; XIRQ), so the only thread can never run again: a deadlock, 9 transitions
; from reset (lds, ldx, bset, cli, jsr, sei, tst, bne, wai).  If the
; interrupt comes first, ticks == 1, WAI is skipped and the program ends.
; The fix is `cli' immediately before `wai'.

        .include "harness.inc"

        REGS  = 0x1000
        TMSK1 = 0x22
        TFLG1 = 0x23
        OC1I  = 0x80

        .sect   .bss
ticks:  .skip   1
stack0: .skip   48

        .sect   .text
        .globl  _start
_start:
        lds     #stack0+48-1
        ldx     #REGS
        bset    TMSK1,x, #OC1I          ; TMSK1 |= OC1I
        cli
        jsr     wait_tick
        jsr     __mc_thread_exit

; void wait_tick(void) -- see the header.
wait_tick:
        sei
        tst     ticks
        bne     wt_got
        wai                             ; never wakes: I = 1
wt_got:
        clr     ticks
        cli
        rts

; void toc1_isr(void) -- see the header.
toc1_isr:
        ldaa    #1
        staa    ticks
        ldaa    #OC1I
        staa    REGS+TFLG1
        rti

        vector_table _start, toc1=toc1_isr
