; collect.s -- real firmware, no harness: reads serial bytes into a
; 16-byte line buffer until a carriage return, with no bounds check.
; A long enough line runs over the buffer, through the rest of RAM and
; the stack, and off the end of RAM.
;
;   hc11mc check collect.elf --sci-input A      finds the overrun

REGS    = 0x1000                ; the register block after reset
BAUD    = 0x2B
SCCR2   = 0x2D
SCSR    = 0x2E
SCDR    = 0x2F
RDRF    = 0x20

        .sect   .bss
line:   .skip   16              ; the line buffer
count:  .skip   1               ; lines read

        .sect   .text
        .globl  _start
_start: lds     #0x01FF
        ldx     #REGS
        ldaa    #0x30           ; 9600 baud with an 8 MHz crystal
        staa    BAUD,x
        ldaa    #0x0C           ; TE, RE
        staa    SCCR2,x
newline:
        ldy     #line
wait:   brclr   SCSR,x,#RDRF,wait       ; until a byte arrives
        ldaa    SCDR,x                  ; (reading SCSR then SCDR clears RDRF)
        cmpa    #13
        beq     eol
        staa    0,y                     ; no check that y is still in line
        iny
        bra     wait
eol:    inc     count
        bra     newline

        .sect   .vectors
        .word   0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0
        .word   0,0,0,0,0,0,0,0,0,0,0,0,0,0,0
        .word   _start                  ; reset
