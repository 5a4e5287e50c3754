; port_const.s -- real firmware (no harness stubs, the chip's peripherals
; on).  At reset it reads the board's configuration jumpers on PORTE bits
; 1:0 and runs the start-up routine they select, from a table.  The entry
; for jumper setting 3 still holds an address from an older ROM layout,
; where nothing is programmed now: the CPU fetches 0x00 (TEST), an illegal
; opcode outside the test modes.
;
; Expected verdict: violation `illegal-opcode' with --input PORTE (the
; jumpers may be set any way).  Without --input, PORTE is not an input of
; the check: it reads back its reset value, 0, every time, only setting 0
; is explored, and the verdict is verified -- which is only the verdict
; for jumpers set to 0, and must say that PORTE was held constant.
;
;     void (*const setup[4])(void) = {
;         s_9600, s_4800, s_2400, (void (*)(void))0xE010  /* BUG: s_1200 */
;     };
;
;     void main(void) {
;         setup[PORTE & 3]();
;         for (;;)
;             ;
;     }
;
; Counterexample (--input PORTE): PORTE reads 3 (or any value whose low
; bits are 3); the call of 0xE010 fetches 0x00.  port_const_ok.s is the
; fixed program.

REGS    = 0x1000                        ; register block (INIT's reset value)
PORTE   = 0x0A
BAUD    = 0x2B
SCCR2   = 0x2D
TE      = 0x08

        .sect   .bss
stack:  .skip   16
stack_top = stack + 15

        .sect   .text
        .globl  _start
_start: lds     #stack_top
        ldx     #REGS
        ldab    PORTE,x                 ; the jumpers
        andb    #3
        aslb                            ; a word per entry
        ldx     #setup
        abx
        ldx     0,x
        jsr     0,x                     ; setup[jumpers]()
idle:   bra     idle

; s_NNNN: the SCI at NNNN baud (8 MHz crystal), transmitter on.
s_9600: ldaa    #0x30
        bra     s_baud
s_4800: ldaa    #0x31
        bra     s_baud
s_2400: ldaa    #0x32
        bra     s_baud
s_1200: ldaa    #0x33
s_baud: ldx     #REGS
        staa    BAUD,x
        ldaa    #TE
        staa    SCCR2,x
        rts

        .sect   .rodata
setup:  .word   s_9600, s_4800, s_2400
        .word   0xE010                  ; BUG: s_1200

        .sect   .vectors
        .word   0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0
        .word   0,0,0,0,0,0,0,0,0,0,0,0,0,0,0
        .word   _start                  ; reset
