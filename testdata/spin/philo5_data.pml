/*
 * philo5_data.pml -- the SPIN twin of testdata/bench/philo5_data.s: the
 * five philosophers with the forks a data symbol (.bss, 0x0014) and each
 * philosopher's descriptor an initialised variable (.data, 0x0000), in RAM
 * and never written; the stacks (32 bytes each) from 0x0019; thread 0
 * creates the five and ends; eating and thinking are NOPs.
 *
 * The shape is that of philo5_ordered.pml (see its head).  The
 * descriptors are RAM, so they are a global (desc, words): the image holds
 * them from reset, here the first step of main writes them before it runs
 * its first instruction (one state either way).
 *
 *     spin -a philo5_data.pml && gcc -O2 -DSAFETY -o pan pan.c && ./pan -m1000000
 *
 * reports no errors.  With every reduction off on both sides both store
 * the same number of states (make compare-spin, TWIN_CHECK=all).
 */

#define DESC       0                       /* 0x0000 desc: the descriptors, in RAM */
#define FORK       20                      /* 0x0014 fork[0..4] */
#define STACK0     25                      /* 0x0019 stack i: STACK0 + 32 i, 32 bytes */
#define STACK_SIZE 32

#define M(addr)   stk[((addr) - STACK0) % STACK_SIZE]
#define RAMW(a)   desc[((a) - DESC) / 2]

/* condition codes after a 16-bit load (N, Z, V) */
#define NZV16(r)  n = ((r) < 0); z = ((r) == 0); v = 0
/* JSR: push the return address 0xD0lo, the address after the JSR */
#define JSR(lo)   d_step { M(sp) = lo; M(sp - 1) = 208; sp = sp - 2 }
/* the harness stubs, X = the lock byte; each ends as RTS does */
#define MC_LOCK   d_step { fork[x - FORK] == 0 -> fork[x - FORK] = _pid + 1; sp = sp + 2 }
#define MC_UNLOCK d_step { assert(fork[x - FORK] == _pid + 1); fork[x - FORK] = 0; sp = sp + 2 }

short desc[10];                            /* desc[i]: fork + lo(i), fork + hi(i) */
byte fork[5];

/* philosophers 1-5, created by main; D = the descriptor's address */
proctype philosopher(byte a, b; short sp; bit n, z, v, c) {
        short x, y;
        byte stk[STACK_SIZE];

        d_step { y = a * 256 + b; a = 0; b = 0 }                /* d054 xgdy (Y was 0) */
        do                                                      /* loop: */
        :: d_step { x = RAMW(y); NZV16(x) }                     /* d056 ldx 0,y */
        JSR(92);                                                /* d059 jsr __mc_lock */
        MC_LOCK;
        d_step { x = RAMW(y + 2); NZV16(x) }                    /* d05c ldx 2,y */
        JSR(98);                                                /* d05f jsr __mc_lock */
        MC_LOCK;
        skip;                                                   /* d062 nop: eat */
        d_step { x = RAMW(y + 2); NZV16(x) }                    /* d063 ldx 2,y */
        JSR(105);                                               /* d066 jsr __mc_unlock */
        MC_UNLOCK;
        d_step { x = RAMW(y); NZV16(x) }                        /* d069 ldx 0,y */
        JSR(111);                                               /* d06c jsr __mc_unlock */
        MC_UNLOCK;
        skip;                                                   /* d06f nop: think */
        skip                                                    /* d070 bra loop */
        od
}

/* the harness's __mc_thread_create, after the JSR: D = the new thread's id */
#define MC_THREAD_CREATE \
        atomic { b = run philosopher(y / 256, y % 256, x, n, z, v, c); a = 0; sp = sp + 2 }
/* one creation: Y = the argument, X = the stack top, D = philosopher (0xD054) */
#define CREATE(arg, top, lo) \
        d_step { y = arg; NZV16(y) };                           /* ldy #arg */ \
        d_step { x = top; NZV16(x) };                           /* ldx #top */ \
        d_step { a = 208; b = 84; n = 1; z = 0; v = 0 };        /* ldd #philosopher */ \
        JSR(lo);                                                /* jsr __mc_thread_create */ \
        MC_THREAD_CREATE

/* thread 0, from the reset vector */
active proctype main() {
        byte a, b;
        short x, y, sp;
        bit n, z, v, c;
        byte stk[STACK_SIZE];

        d_step {
                desc[0] = FORK; desc[1] = FORK + 1;             /* the image's .data */
                desc[2] = FORK + 1; desc[3] = FORK + 2;
                desc[4] = FORK + 2; desc[5] = FORK + 3;
                desc[6] = FORK + 3; desc[7] = FORK + 4;
                desc[8] = FORK; desc[9] = FORK + 4;
                sp = STACK0 + STACK_SIZE - 1; NZV16(sp)         /* d00d lds #stacks+31 */
        }
        CREATE(DESC,      STACK0 + 2 * STACK_SIZE - 1, 29);     /* d010 */
        CREATE(DESC + 4,  STACK0 + 3 * STACK_SIZE - 1, 42);     /* d01d */
        CREATE(DESC + 8,  STACK0 + 4 * STACK_SIZE - 1, 55);     /* d02a */
        CREATE(DESC + 12, STACK0 + 5 * STACK_SIZE - 1, 68);     /* d037 */
        CREATE(DESC + 16, STACK0 + 6 * STACK_SIZE - 1, 81);     /* d044 */
        JSR(84);                                                /* d051 jsr __mc_thread_exit */
        skip                                                    /* the thread ends */
}
