; wai_deadline.s -- real firmware, no harness, the exact clock: from
; `from' to `to', over a wait in WAI, how long at most?
;
;   hc11mc check wai_deadline.elf --clock exact --input 0x100A=0,1,2,3 --deadline from:to:N
;
; The firmware arms OC1 with I clear, reads n = PORTE & 3 (the input),
; sets TOC1 to K + 8n counts after the TCNT it reads (the prescaler at
; its reset value, E/1: one count per E cycle) and sleeps in WAI until
; OC1 wakes it.  The handler clears OC1F and returns to `to'.
;
; Time spent waiting is time: WAI (M68HC11 Reference Manual, appendix
; A) takes 14 + n cycles from its opcode fetch to the handler's first
; instruction, 12 to stack the frame, n waiting until the interrupt is
; recognised, 2 to fetch the vector.  OC1F sets at the E cycle at which
; TCNT comes to TOC1 (section 10, output compare).  The ADDD reads
; TCNT's high byte in its fourth cycle (the cycle-by-cycle table of
; appendix A, the low byte latched with it), when the counter has counted
; 4 on from the count at the instruction's start, so OC1F sets
; 4 + K + 8n cycles after the first cycle of the ADDD.
;
; Cycles (appendix A; hc11-opcodes.csv), from the arrival at `from'
; (t = 0):
;
;   ldab idx 4 + andb 2 + 3 x lslb 2 + addb 2 + clra 2  -> 16  B = K + 8n
;   addd idx 6 (reads TCNT at t = 19: 16 + 4 - 1) + std idx 5 -> 27
;   wai: 12 cycles stacking                             -> 39
;   the wait, until OC1F sets at 16 + 4 + K + 8n        -> 70 + 8n   (K = 50)
;   vector 2                                            -> 72 + 8n
;   ldaa 2 + staa idx 4 + rti 12                        -> 90 + 8n
;   nop 2                                               -> 92 + 8n   at `to'
;
;   n = 0: 92   n = 1: 100   n = 2: 108   n = 3: 116
;
; Expected: --deadline from:to:116 verified, from:to:115 violated (n = 3).
; Leaving the wait's cycles out (and charging WAI 14 and a full entry of
; 14) would say 75 whatever n.
;
; (`to' is not the instruction right after WAI: a thread's PC is there
; while it waits, and a deadline counts the arrival at TO by the PC.)
;
; After `to' the firmware sleeps; OC1 comes again every 65 536 cycles.

REGS    = 0x1000                ; the register block after reset
PORTE   = 0x0A
TCNT    = 0x0E
TOC1    = 0x16
TMSK1   = 0x22
TFLG1   = 0x23
OC1F    = 0x80                  ; TFLG1 / TMSK1: OC1F / OC1I
K       = 50                    ; TOC1 = TCNT + K + 8n

        .sect   .text
        .globl  _start
_start: lds     #0x01FF
        ldx     #REGS
        ldaa    #OC1F
        staa    TFLG1,x         ; OC1F cleared
        staa    TMSK1,x         ; OC1I: OC1 armed
        cli
        .globl  from
from:   ldab    PORTE,x         ; the input
        andb    #3
        lslb
        lslb
        lslb                    ; 8n
        addb    #K
        clra                    ; D = K + 8n
        addd    TCNT,x          ; + TCNT
        std     TOC1,x          ; OC1F sets when TCNT comes to it
        wai
        nop
        .globl  to
to:     wai
        bra     to

        .globl  oc1_isr
oc1_isr:
        ldaa    #OC1F
        staa    TFLG1,x         ; OC1F cleared
        rti

        .sect   .vectors
        .word   0,0,0,0,0,0,0,0,0,0,0   ; 0xFFC0-0xFFD5 reserved
        .word   0                       ; 0xFFD6 SCI
        .word   0,0,0,0,0,0,0,0         ; 0xFFD8-0xFFE7 SPI ... OC2
        .word   oc1_isr                 ; 0xFFE8 OC1
        .word   0,0,0,0,0,0,0,0,0,0     ; 0xFFEA-0xFFFD
        .word   _start                  ; 0xFFFE reset
