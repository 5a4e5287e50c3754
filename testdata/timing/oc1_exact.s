; oc1_exact.s -- real firmware, no harness: how late can the OC1 handler
; begin, under the exact clock?
;
;   hc11mc check oc1_exact.elf --clock exact --input 0x100A=0,1,2,3 --latency toc1:N
;
; The CPU comes out of reset with I set.  The firmware arms OC1 (OC1F
; cleared, OC1I set), reads TCNT and sets TOC1 to K counts later (the
; prescaler at its reset value, E/1: one count per E cycle), then stays
; masked for a loop of 1 + n turns, n = PORTE & 3 (the input), and
; clears I.  The LDD reads TCNT's high byte in its fourth cycle (t = 3;
; the manual's cycle-by-cycle table, the low byte latched with it), when
; the counter has counted 4 on from T0, the count of the cycle before
; the LDD (the exact clock's TCNT at an instruction boundary): TOC1 =
; T0 + 4 + K.  OC1F sets at the end of the cycle in which TCNT comes to
; TOC1, t = 4 + K = 19, inside the ANDB.  The interrupt is taken once I
; is clear, after the one instruction that always runs after a CLI (the
; manual's CLI: I clears one E cycle late), and its entry takes 14
; cycles.
;
; Cycles (M68HC11 Reference Manual, appendix A; hc11-opcodes.csv), from
; the first cycle of `ldd TCNT,x' (t = 0):
;
;   ldd idx 5 + addd imm 4 + std idx 5 + ldab 4  -> 18
;   andb imm 2                                   -> 20  OC1F sets at 19
;   incb 2                                       -> 22
;   (1 + n) x (decb 2 + bne 3)                   -> 27 + 5n
;   cli 2 + nop 2                                -> 31 + 5n
;   entry 14: the handler's first instruction at    45 + 5n
;
; latency = 45 + 5n - (4 + K) = 26 + 5n with K = 15:
;
;   n = 0: 26   n = 1: 31   n = 2: 36   n = 3: 41
;
; Expected: --latency toc1:41 verified, toc1:40 violated (n = 3).
;
; After the first interrupt the handler clears OC1F and leaves TOC1: OC1
; comes again every 65 536 cycles while the CPU waits in WAI, and is
; taken at once (14 cycles).

REGS    = 0x1000                ; the register block after reset
PORTE   = 0x0A
TCNT    = 0x0E
TOC1    = 0x16
TMSK1   = 0x22
TFLG1   = 0x23
OC1F    = 0x80                  ; TFLG1 / TMSK1: OC1F / OC1I
K       = 15                    ; TOC1 = TCNT + K

        .sect   .text
        .globl  _start
_start: lds     #0x01FF
        ldx     #REGS
        ldaa    #OC1F
        staa    TFLG1,x         ; OC1F cleared
        staa    TMSK1,x         ; OC1I: OC1 armed
        .globl  arm
arm:    ldd     TCNT,x          ; T0
        addd    #K
        std     TOC1,x          ; OC1F sets when TCNT comes to T0 + K
        ldab    PORTE,x         ; the input
        andb    #3
        incb                    ; 1 + n turns
delay:  decb
        bne     delay
        cli
        nop                     ; runs before the interrupt
loop:   wai
        bra     loop

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
