; rx_count.s -- real firmware, no harness: a receive interrupt counts the
; bytes that arrive while the main loop sends one byte, by polling TC.
; If three or more arrived during that one byte, it writes to an
; unmapped address (the unmapped property reports it).
;
; At equal rates on both sides of the line that cannot happen: a frame
; (start bit, eight data bits, stop bit) takes the same ten bit times to
; send as to receive, so while one byte leaves at most two can complete
; (one already under way, one more). The abstract clock lets bytes arrive
; at any rate and finds the write; the exact clock does not.
;
;   hc11mc check rx_count.elf --sci-input A --clock abstract   unmapped
;   hc11mc check rx_count.elf --sci-input A --clock exact      verified

REGS    = 0x1000
BAUD    = 0x2B
SCCR2   = 0x2D
SCSR    = 0x2E
SCDR    = 0x2F
TC      = 0x40
RDRF    = 0x20

        .sect   .bss
count:  .skip   1               ; bytes received since the send began

        .sect   .text
        .globl  _start
_start: lds     #0x01FF
        ldx     #REGS
        ldaa    #0x30           ; 9600 baud with an 8 MHz crystal
        staa    BAUD,x
        ldaa    #0x2C           ; RIE, TE, RE
        staa    SCCR2,x
        cli
loop:   clr     count
        ldaa    SCSR,x          ; SCSR then SCDR: the send begins
        ldaa    #'.
        staa    SCDR,x
wait:   brclr   SCSR,x,#TC,wait ; until the byte is out
        ldaa    count
        cmpa    #3
        blo     loop
        staa    0x4000          ; three bytes during one: unmapped
        bra     loop

sci_isr:
        ldaa    SCSR,x
        ldaa    SCDR,x          ; SCSR then SCDR: clears RDRF and OR
        inc     count
        rti

        .sect   .vectors
        .word   0,0,0,0,0,0,0,0,0,0,0   ; 0xFFC0-0xFFD5 reserved
        .word   sci_isr                 ; 0xFFD6 SCI
        .word   0,0,0,0,0,0,0,0,0,0     ; 0xFFD8-0xFFEB
        .word   0,0,0,0,0,0,0,0,0       ; 0xFFEC-0xFFFD
        .word   _start                  ; 0xFFFE reset
