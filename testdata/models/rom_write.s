; rom_write.s -- a calibration table placed in ROM is "updated" at run time.
;
; Expected verdict: violation `rom-write' (any --preempt; one thread).
;
;     const unsigned char gain[4] = { 10, 20, 40, 80 };   /* in ROM */
;
;     void set_gain(unsigned char i, unsigned char g) {
;         ((unsigned char *)gain)[i] = g;   /* BUG: gain is const, in ROM */
;     }
;     void main(void) {
;         set_gain(2, 33);
;         __mc_thread_exit();
;     }
;
; Reasoning: `gain' is in .rodata, which the linker script places in ROM
; right after the code (0xD000 range); every byte the image loads outside
; RAM is read-only, so the STAA in set_gain is a rom-write violation.  The
; path is straight-line: 10 transitions (lds, ldab, pshb, ldab, jsr, tsx,
; ldaa, ldx, abx and the faulting staa).

        .include "harness.inc"

        .sect   .rodata
gain:   .byte   10, 20, 40, 80

        .sect   .bss
stack0: .skip   32

        .sect   .text
        .globl  _start
_start:
        lds     #stack0+32-1
        ldab    #33
        pshb                            ; second argument: g
        ldab    #2                      ; first argument: i
        jsr     set_gain
        ins                             ; pop the argument
        jsr     __mc_thread_exit

; void set_gain(unsigned char i, unsigned char g) -- see the header.
set_gain:
        tsx
        ldaa    2,x                     ; A = g (above the return address)
        ldx     #gain
        abx
        staa    0,x                     ; gain[i] = g  -> rom-write
        rts

        vector_table _start
