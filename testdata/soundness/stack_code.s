; stack_code.s -- real firmware (no harness stubs, the chip's peripherals
; on).  It reads bytes at computed addresses the way the 6800 code it was
; ported from did: peek builds the routine `ldaa addr; rts' on the stack
; with pushes, calls it, and pops it again.  The firmware sends two
; readings; for the second it means to build a new routine, but calls the
; one it has already popped: on the hardware its bytes are still there,
; below SP, and it reads the first reading's address again.
;
; Expected verdict: violation `output' with
;     --expect-output 'AA'               (the first reading sent twice)
;
;     const char reading[2] = { 'A', 'B' };     /* ROM */
;     void (*again)(void);                      /* the routine built last */
;
;     char peek(const char *p) {
;         /* on the stack: 0xB6, p >> 8, p & 0xFF, 0x39: ldaa p; rts */
;         again = (void (*)(void))SP + 1;
;         char c = again();
;         /* pop it: ins; pulx (X = p again); ins */
;         return c;
;     }
;
;     void main(void) {
;         sci_init();
;         putc(peek(&reading[0]));
;         putc(again());                        /* BUG: peek(&reading[1]) */
;         for (;;)
;             ;
;     }
;
; Counterexample: "AA".  The second call fetches the popped routine: its
; address bytes were pulled by the PULX that popped it.  Dead-data
; elimination under --reduce dead makes a pulled byte read as 0 and
; notices when the firmware reads one below SP with a load -- but not when
; the CPU fetches it as part of an instruction: the stale routine then
; runs as `ldaa 0x0000', the firmware sends "A" and a 0, and the search
; reports verified.  stack_code_ok.s is the fixed program.

REGS    = 0x1000                        ; register block (INIT's reset value)
BAUD    = 0x2B
SCCR2   = 0x2D
SCSR    = 0x2E
SCDR    = 0x2F
TE      = 0x08
TDRE    = 0x80

LDAA_EXT = 0xB6
RTS_OP   = 0x39

        .sect   .bss
again:  .skip   2                       ; the routine peek built last
stack:  .skip   32
stack_top = stack + 31

        .sect   .rodata
reading:
        .byte   'A', 'B'

        .sect   .text
        .globl  _start
_start: lds     #stack_top
        jsr     sci_init
        ldx     #reading
        jsr     peek
        jsr     putc                    ; the first reading
        ldx     again                   ; BUG: ldx #reading+1; jsr peek
        jsr     0,x
        jsr     putc                    ; the second
idle:   bra     idle

; peek: A = the byte at X, read by a routine built on the stack; X kept.
peek:   ldaa    #RTS_OP
        psha
        pshx                            ; the address, high byte first
        ldaa    #LDAA_EXT
        psha
        tsx                             ; X = the routine
        stx     again
        jsr     0,x                     ; A = *address
        ins                             ; pop the routine
        pulx                            ;   (X = the address again)
        ins
        rts

; putc: send A when TDR is free.
putc:   ldx     #REGS
pc_wait:
        brclr   SCSR,x TDRE pc_wait
        staa    SCDR,x
        rts

; sci_init: 9600 baud at 8 MHz, transmitter on.
sci_init:
        ldx     #REGS
        ldaa    #0x30
        staa    BAUD,x
        ldaa    #TE
        staa    SCCR2,x
        rts

        .sect   .vectors
        .word   0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0
        .word   0,0,0,0,0,0,0,0,0,0,0,0,0,0,0
        .word   _start                  ; reset
