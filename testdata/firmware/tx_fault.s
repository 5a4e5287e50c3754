; tx_fault.s -- real firmware, no harness: it writes "OK" to the SCI
; back to back, then runs into an undefined opcode.
;
; The SCI's transmitter is double-buffered (Reference Manual 9.3): the
; first byte goes from TDR to the idle shift register at once, the second
; waits in TDR (TDRE clear) and follows it when the frame ends, whatever
; the CPU does meanwhile. So on the board both bytes reach the terminal
; although the CPU stops at the fault four instructions later:
;
;   hc11mc run tx_fault.elf     prints OK, then the illegal-opcode violation

REGS    = 0x1000
BAUD    = 0x2B
SCCR2   = 0x2D
SCSR    = 0x2E
SCDR    = 0x2F

        .sect   .text
        .globl  _start
_start: lds     #0x01FF
        ldx     #REGS
        ldaa    #0x30           ; 9600 baud with an 8 MHz crystal
        staa    BAUD,x
        ldaa    #0x08           ; TE
        staa    SCCR2,x
        ldaa    SCSR,x          ; SCSR then SCDR: 'O' goes to the shift register
        ldaa    #'O
        staa    SCDR,x
        ldaa    SCSR,x          ; TDRE is set again: 'K' waits in TDR
        ldaa    #'K
        staa    SCDR,x
        .byte   0x41            ; undefined: the CPU stops here
        bra     .

        .sect   .vectors
        .word   0,0,0,0,0,0,0,0,0,0,0   ; 0xFFC0-0xFFD5 reserved
        .word   0,0,0,0,0,0,0,0,0,0,0   ; 0xFFD6-0xFFEB
        .word   0,0,0,0,0,0,0,0,0       ; 0xFFEC-0xFFFD
        .word   _start                  ; 0xFFFE reset
