/* selftest_trees_test.c: the board self-test's trees (tools/gen_selftest.py, compiled into
 * the RTL's program) are the fabric manager's: canopy_fm_build on the board's torus gives
 * the same entry for every node, and canopy_fm_verify accepts them. */
#include <stdio.h>

#include "canopy_fm.h"
#include "selftest_trees.h"

int main(void)
{
    const unsigned trees = sizeof selftest_trees / sizeof selftest_trees[0];
    for (unsigned k = 0; k < trees; ++k) {
        struct canopy_fm_torus t = {.ndims = 2, .size = {selftest_trees[k].size_x, selftest_trees[k].size_y, 1, 1}};
        const unsigned N = selftest_trees[k].size_x * selftest_trees[k].size_y;
        uint32_t e[4];
        char err[256] = "";
        int rc = canopy_fm_build(&t, selftest_trees[k].root, NULL, e, err, sizeof err);
        if (rc) {
            fprintf(stderr, "selftest_trees_test: canopy_fm_build: %s: %s\n", canopy_strerror(rc), err);
            return 1;
        }
        for (unsigned n = 0; n < N; ++n) {
            if (e[n] != selftest_trees[k].entry[n]) {
                fprintf(stderr, "selftest_trees_test: %ux%u tree %u node %u: self-test entry 0x%08x, fabric manager 0x%08x\n",
                        selftest_trees[k].size_x, selftest_trees[k].size_y, k, n, selftest_trees[k].entry[n], e[n]);
                return 1;
            }
        }
        uint32_t mine[4];
        for (unsigned n = 0; n < N; ++n) mine[n] = selftest_trees[k].entry[n];
        if ((rc = canopy_fm_verify(&t, mine, err, sizeof err))) {
            fprintf(stderr, "selftest_trees_test: canopy_fm_verify: %s\n", err);
            return 1;
        }
    }
    printf("selftest_trees_test: the self-test's %u tree(s) match the fabric manager\n", trees);
    return 0;
}
