; wai_sleep_ok.s -- wai_sleep.s fixed: the real-time interrupt (every
; 2^13 E cycles, PACTL's RTR1:RTR0 at their reset value 0) wakes the CPU
; from WAI; its handler clears RTIF and counts the tick.
;
; Expected verdict: verified (no deadlock) with --clock exact.

REGS    = 0x1000                        ; register block (INIT's reset value)
TMSK2   = 0x24
TFLG2   = 0x25
RTII    = 0x40                          ; TMSK2: real-time interrupt enable
RTIF    = 0x40                          ; TFLG2: real-time interrupt flag

        .sect   .bss
status: .skip   1
ticks:  .skip   1
stack:  .skip   16
stack_top = stack + 15

        .sect   .text
        .globl  _start
_start: lds     #stack_top
        ldaa    #0x5A
        staa    status
        ldx     #REGS
        ldaa    #RTII
        staa    TMSK2,x                 ; the real-time interrupt on
        cli
sleep:  wai                             ; woken by each tick
        bra     sleep

; rti_isr: clears RTIF (writing 1 to it) and counts the tick.
rti_isr:
        ldx     #REGS
        ldaa    #RTIF
        staa    TFLG2,x
        inc     ticks
        rti

        .sect   .vectors
        .word   0,0,0,0,0,0,0,0,0,0,0   ; 0xFFC0-0xFFD5: reserved
        .word   0,0,0,0,0,0,0,0,0,0,0,0,0 ; SCI .. TIC1
        .word   rti_isr                 ; 0xFFF0: real-time interrupt
        .word   0,0,0,0,0,0             ; IRQ .. COP failure
        .word   _start                  ; reset
