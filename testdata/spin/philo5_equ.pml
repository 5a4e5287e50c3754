/*
 * philo5_equ.pml -- the SPIN twin of testdata/bench/philo5_equ.s: the
 * five philosophers of philo5_ordered.pml (the same program, instruction
 * for instruction) laid out with equates: the forks at 0x0040, the start
 * of RAM, and the stacks above them from 0x0060.  Only FORK and STACK0
 * differ from philo5_ordered.pml.
 *
 * Shape of the twins in this directory (each mirrors one 68HC11 image):
 *
 *   - One 68HC11 thread is one process.  Thread 0 is the active proctype
 *     main, which starts at _start; __mc_thread_create is `run', so the
 *     threads it creates get _pid 1, 2, ..., the thread ids hc11mc gives
 *     them.  Code that several threads run (philosopher) is an inline,
 *     expanded into each proctype.
 *   - One Promela step per instruction, in the order of the listing, each
 *     commented with its address and the instruction.  An instruction with
 *     several effects (a push, a load that sets flags) is one d_step.  A
 *     conditional branch is the guard of an if: taken or not, one step.
 *     BRA is `skip' (a bare goto is no step in SPIN).  A call of a harness
 *     stub is two steps, as in hc11mc: the JSR, which pushes the return
 *     address, and the stub's effect, which pulls it again.
 *   - The registers are locals of the process, holding the values the
 *     68HC11 holds (addresses are those of the image): a and b (D = a:b),
 *     x, y, sp, and the condition codes n, z, v, c, set as the reference
 *     manual says each instruction sets them.  H, X, I and S never change
 *     in these programs and are left out.  A created thread starts with
 *     D = its argument, SP = the X of the creator, X = Y = 0, and the
 *     creator's condition codes.
 *   - RAM that threads share (fork) is global.  Each thread's stack is the
 *     local array stk, and M(addr) is the byte of that stack at address
 *     addr: every access through SP, or through X after TSX, goes there.
 *     Return addresses are pushed and pulled as the 68HC11 does them, so a
 *     stack holds the same bytes, stale ones included.
 *   - __mc_lock (X = the lock byte) is a d_step whose guard blocks until
 *     the byte is 0 and which sets it to _pid + 1; __mc_unlock asserts it
 *     is _pid + 1 and clears it.
 *
 * So a state of the twin holds what a state of hc11mc holds -- registers,
 * flags, shared RAM, each thread's stack -- and with every reduction off
 * the two count the same states: `spin -o1 -o3 -a' (no dead variable
 * elimination, no statement merging), `gcc -DSAFETY -DNOREDUCE' and pan
 * store exactly as many as `hc11mc check --reduce none': 14,508,790 here
 * (make compare-spin checks this on examples/philosophers.s, and here with
 * TWIN_CHECK=all).
 *
 * With SPIN's defaults -- partial-order reduction, dead variable
 * elimination, statement merging --
 *
 *     spin -a philo5_equ.pml && gcc -O2 -DSAFETY -o pan pan.c && ./pan -m1000000
 *
 * reports no errors: no invalid end state (no deadlock), no assertion
 * violated.
 */

#define NPHIL      5
#define FORK       64                      /* 0x0040 fork: NPHIL lock bytes */
#define STACK0     96                      /* 0x0060 stack i: STACK0 + 32 i, 32 bytes */
#define STACK_SIZE 32

#define M(addr)   stk[((addr) - STACK0) % STACK_SIZE]

/* condition codes after a 16-bit load (LDX, LDY, LDS: N, Z, V) */
#define NZV16(r)  n = ((r) < 0); z = ((r) == 0); v = 0
/* PSHX */
#define PSHX      d_step { M(sp) = x % 256; M(sp - 1) = x / 256; sp = sp - 2 }
/* JSR: push the return address 0xD0lo, the address after the JSR */
#define JSR(lo)   d_step { M(sp) = lo; M(sp - 1) = 208; sp = sp - 2 }
/* the harness stubs, X = the lock byte; each ends as RTS does */
#define MC_LOCK   d_step { fork[x - FORK] == 0 -> fork[x - FORK] = _pid + 1; sp = sp + 2 }
#define MC_UNLOCK d_step { assert(fork[x - FORK] == _pid + 1); fork[x - FORK] = 0; sp = sp + 2 }

byte fork[NPHIL];

/* void philosopher(unsigned char id): work out the two fork addresses,
   keep them on the stack, then lock the lower-numbered fork, the other,
   and unlock both, for ever */
inline philosopher_code() {
        d_step { x = FORK; NZV16(x) }                           /* d04d ldx #fork */
        x = x + b;                                              /* d050 abx */
        d_step {                                                /* d051 cmpb #4 */
                n = ((b - (NPHIL - 1)) & 255) >> 7; z = (b == NPHIL - 1);
                v = ((b ^ (NPHIL - 1)) & (b ^ ((b - (NPHIL - 1)) & 255))) >> 7;
                c = (b < NPHIL - 1) }
        if                                                      /* d053 beq ph_last */
        :: z ->                                                 /* ph_last: */
                PSHX;                                           /* d05b pshx */
                d_step { x = FORK; NZV16(x) };                  /* d05c ldx #fork */
                PSHX                                            /* d05f pshx */
        :: else ->
                d_step { x = x + 1; z = (x == 0) };             /* d055 inx */
                PSHX;                                           /* d056 pshx */
                d_step { x = x - 1; z = (x == 0) };             /* d057 dex */
                PSHX;                                           /* d058 pshx */
                skip                                            /* d059 bra ph_loop */
        fi;
ph_loop:
        x = sp + 1;                                             /* d060 tsx */
        d_step { x = M(x) * 256 + M(x + 1); NZV16(x) }          /* d061 ldx 0,x */
        JSR(102);                                               /* d063 jsr __mc_lock */
        MC_LOCK;                                                /*      the lower fork */
        x = sp + 1;                                             /* d066 tsx */
        d_step { x = M(x + 2) * 256 + M(x + 3); NZV16(x) }      /* d067 ldx 2,x */
        JSR(108);                                               /* d069 jsr __mc_lock */
        MC_LOCK;                                                /*      the higher fork */
        x = sp + 1;                                             /* d06c tsx */
        d_step { x = M(x + 2) * 256 + M(x + 3); NZV16(x) }      /* d06d ldx 2,x */
        JSR(114);                                               /* d06f jsr __mc_unlock */
        MC_UNLOCK;
        x = sp + 1;                                             /* d072 tsx */
        d_step { x = M(x) * 256 + M(x + 1); NZV16(x) }          /* d073 ldx 0,x */
        JSR(120);                                               /* d075 jsr __mc_unlock */
        MC_UNLOCK;
        skip; goto ph_loop                                      /* d078 bra ph_loop */
}

/* threads 1-4, created by main */
proctype philosopher(byte a, b; short sp; bit n, z, v, c) {
        short x, y;
        byte stk[STACK_SIZE];
        philosopher_code()
}

/* the harness's __mc_thread_create, after the JSR: D = the new thread's id */
#define MC_THREAD_CREATE \
        atomic { b = run philosopher(y / 256, y % 256, x, n, z, v, c); a = 0; sp = sp + 2 }

/* thread 0, from the reset vector */
active proctype main() {
        byte a, b;
        short x, y, sp;
        bit n, z, v, c;
        byte stk[STACK_SIZE];

        d_step { sp = STACK0 + STACK_SIZE - 1; NZV16(sp) }      /* d00d lds #stack0+31 */

        d_step { y = 1; NZV16(y) }                              /* d010 ldy #1 */
        d_step { x = STACK0 + 2 * STACK_SIZE - 1; NZV16(x) }    /* d014 ldx #stack1+31 */
        d_step { a = 208; b = 77; n = 1; z = 0; v = 0 }         /* d017 ldd #philosopher (0xD04D) */
        JSR(29);                                                /* d01a jsr __mc_thread_create */
        MC_THREAD_CREATE;

        d_step { y = 2; NZV16(y) }                              /* d01d ldy #2 */
        d_step { x = STACK0 + 3 * STACK_SIZE - 1; NZV16(x) }    /* d021 ldx #stack2+31 */
        d_step { a = 208; b = 77; n = 1; z = 0; v = 0 }         /* d024 ldd #philosopher */
        JSR(42);                                                /* d027 jsr __mc_thread_create */
        MC_THREAD_CREATE;

        d_step { y = 3; NZV16(y) }                              /* d02a ldy #3 */
        d_step { x = STACK0 + 4 * STACK_SIZE - 1; NZV16(x) }    /* d02e ldx #stack3+31 */
        d_step { a = 208; b = 77; n = 1; z = 0; v = 0 }         /* d031 ldd #philosopher */
        JSR(55);                                                /* d034 jsr __mc_thread_create */
        MC_THREAD_CREATE;

        d_step { y = 4; NZV16(y) }                              /* d037 ldy #4 */
        d_step { x = STACK0 + 5 * STACK_SIZE - 1; NZV16(x) }    /* d03b ldx #stack4+31 */
        d_step { a = 208; b = 77; n = 1; z = 0; v = 0 }         /* d03e ldd #philosopher */
        JSR(68);                                                /* d041 jsr __mc_thread_create */
        MC_THREAD_CREATE;

        d_step { a = 0; b = 0; n = 0; z = 1; v = 0 }            /* d044 ldd #0 */
        JSR(74);                                                /* d047 jsr philosopher */
        philosopher_code()                                      /* never returns */
}
