/* A small check header for cmdgpu's tests: each CHECK records a failure with
 * file:line and the values, and the test's main returns check_report(). */
#ifndef CMDGPU_TEST_CHECK_H
#define CMDGPU_TEST_CHECK_H

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static int check_failures, check_count;

#define CHECK(cond)                                                            \
    do {                                                                       \
        check_count++;                                                         \
        if (!(cond)) {                                                         \
            check_failures++;                                                  \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
        }                                                                      \
    } while (0)

#define CHECK_EQ(a, b)                                                         \
    do {                                                                       \
        unsigned long long check_a_ = (unsigned long long)(a);                 \
        unsigned long long check_b_ = (unsigned long long)(b);                 \
        check_count++;                                                         \
        if (check_a_ != check_b_) {                                            \
            check_failures++;                                                  \
            fprintf(stderr, "%s:%d: CHECK_EQ failed: %s == %s (0x%llx != 0x%llx)\n", \
                    __FILE__, __LINE__, #a, #b, check_a_, check_b_);           \
        }                                                                      \
    } while (0)

#define CHECK_STR(a, b)                                                        \
    do {                                                                       \
        const char *check_a_ = (a), *check_b_ = (b);                           \
        check_count++;                                                         \
        if (!check_a_ || !check_b_ || strcmp(check_a_, check_b_) != 0) {       \
            check_failures++;                                                  \
            fprintf(stderr, "%s:%d: CHECK_STR failed: %s == %s\n  got:  \"%s\"\n  want: \"%s\"\n", \
                    __FILE__, __LINE__, #a, #b, check_a_ ? check_a_ : "(null)", \
                    check_b_ ? check_b_ : "(null)");                           \
        }                                                                      \
    } while (0)

#define CHECK_MEM(a, b, n)                                                     \
    do {                                                                       \
        check_count++;                                                         \
        if (memcmp((a), (b), (n)) != 0) {                                      \
            check_failures++;                                                  \
            fprintf(stderr, "%s:%d: CHECK_MEM failed: %s == %s (%zu bytes)\n", \
                    __FILE__, __LINE__, #a, #b, (size_t)(n));                  \
        }                                                                      \
    } while (0)

static inline int check_report(const char *name)
{
    printf("%s: %d checks, %d failed\n", name, check_count, check_failures);
    return check_failures ? 1 : 0;
}

#endif
