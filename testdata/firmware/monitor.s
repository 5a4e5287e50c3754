; monitor.s -- a small ROM monitor for an MC68HC11E9 board, real firmware
; (no harness stubs). It starts at the reset vector, sets up the chip in
; its first 64 cycles (INIT, OPTION), clears the board's LED latch at
; 0x4000 (outside the chip: give it with --device 0x4000-0x4001), sets up
; the SCI, prints a banner and a prompt by polling TDRE, and reads
; command lines by polling RDRF, echoing them:
;
;   ?        help
;   L        count the LED latch up and show it
;   S        show the board's status byte (0x4001)
;   D hhhh   show the byte at address hhhh
;
;   hc11mc run monitor.elf --device 0x4000-0x4001 --sci-input '?\rL\rD d000\r'
;   hc11mc check monitor.elf --device 0x4000-0x4001 --sci-input 'L,S,\r' ...

REGS    = 0x1000
BAUD    = 0x2B
SCCR2   = 0x2D
SCSR    = 0x2E
SCDR    = 0x2F
OPTION  = 0x39
INIT    = 0x3D
TDRE    = 0x80
RDRF    = 0x20
LATCH   = 0x4000            ; board: LED latch (write)
STATUS  = 0x4001            ; board: status switches (read)
LINE    = 8

        .sect   .bss
line:   .skip   LINE
leds:   .skip   1
addr:   .skip   2
stack:  .skip   32
stack_top = stack + 31

        .sect   .text
        .globl  _start
_start: ldaa    #0x01           ; INIT: RAM at 0x0000, registers at 0x1000
        staa    REGS+INIT       ;   (writable only in the first 64 cycles)
        ldaa    #0x10           ; OPTION: DLY, COP rate 0
        staa    REGS+OPTION
        lds     #stack_top
        clr     leds
        ldaa    #0xFF           ; all LEDs off (active low)
        staa    LATCH
        ldx     #REGS
        ldaa    #0x30           ; 9600 baud with an 8 MHz crystal
        staa    BAUD,x
        ldaa    #0x0C           ; TE, RE
        staa    SCCR2,x
        ldy     #banner
        jsr     puts
loop:   ldy     #prompt
        jsr     puts
        jsr     getline         ; B = length
        ldaa    line
        cmpa    #'?
        beq     help
        cmpa    #'L
        beq     latch
        cmpa    #'S
        beq     status
        cmpa    #'D
        beq     dump
        tstb
        beq     loop            ; an empty line
        ldy     #what
        jsr     puts
        bra     loop
help:   ldy     #helptext
        jsr     puts
        bra     loop
latch:  inc     leds
        ldaa    leds
        coma
        staa    LATCH
        ldaa    #'L
        bra     show
status: ldab    STATUS
        ldaa    #'S
        bra     showb
dump:   ldy     #line+2         ; "D hhhh"
        jsr     gethex          ; D = the address, C set if bad
        bcs     bad
        xgdx
        ldab    0,x
        ldaa    #'=
        bra     showb
bad:    ldy     #what
        jsr     puts
        bra     loop
show:   ldab    leds
showb:  jsr     putc            ; A, then B in hex
        tba
        lsra
        lsra
        lsra
        lsra
        jsr     puthex
        tba
        jsr     puthex
        ldy     #crlf
        jsr     puts
        bra     loop

; getline reads a line into line (at most LINE-1 bytes, the rest are
; dropped), echoing it, and returns its length in B.
getline:
        clrb
        ldy     #line
gl_next:
        bsr     getc
        cmpa    #13
        beq     gl_end
        cmpb    #LINE-1
        bhs     gl_next         ; full: drop it
        staa    0,y
        iny
        incb
        bsr     putc            ; echo
        bra     gl_next
gl_end: clr     0,y
        ldy     #crlf
        bra     puts

; getc waits for a received byte and returns it in A.
getc:   ldx     #REGS
gc_wait:
        brclr   SCSR,x,#RDRF,gc_wait
        ldaa    SCDR,x
        rts

; puts sends the 0-terminated string at Y.
puts:   ldaa    0,y
        beq     ps_end
        bsr     putc
        iny
        bra     puts
ps_end: rts

; putc sends A when the transmitter has room.
putc:   ldx     #REGS
pc_wait:
        brclr   SCSR,x,#TDRE,pc_wait
        staa    SCDR,x
        rts

; puthex sends the low nibble of A as a hex digit.
puthex: anda    #0x0F
        adda    #'0
        cmpa    #'9
        bls     putc
        adda    #'A-'9-1
        bra     putc

; gethex reads four hex digits at Y into D; C set when one is not a digit.
gethex: clr     addr
        clr     addr+1
        ldab    #4
gh_next:
        ldaa    0,y
        suba    #'0
        bcs     gh_bad
        cmpa    #9
        bls     gh_digit
        suba    #'A-'0-10       ; 'A'-'F' -> 10-15
        cmpa    #10
        blo     gh_bad
        cmpa    #15
        bhi     gh_bad
gh_digit:
        psha                    ; addr = addr * 16 + digit
        pshb
        ldd     addr
        asld
        asld
        asld
        asld
        std     addr
        pulb
        pula
        oraa    addr+1
        staa    addr+1
        iny
        decb
        bne     gh_next
        ldd     addr
        clc
        rts
gh_bad: sec
        rts

        .sect   .rodata
banner: .asciz  "\r\nHC11 monitor 1.0\r\n"
prompt: .asciz  "> "
what:   .asciz  "?\r\n"
crlf:   .asciz  "\r\n"
helptext:
        .asciz  "L latch  S status  D hhhh dump\r\n"

        .sect   .vectors
        .word   0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0
        .word   0,0,0,0,0,0,0,0,0,0,0,0,0,0,0
        .word   _start                  ; reset
