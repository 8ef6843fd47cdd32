/* One machine-readable line per headline figure of a bench, collected by
 * scripts/bench_summary.sh into the table `make bench` prints at the end
 * (docs/performance.md explains each figure):
 *   SUMMARY <TAB> measure <TAB> value <TAB> unit <TAB> comparison (measured
 *   in the same run, or "-") <TAB> ratio (or "-") <TAB> target <TAB> met
 * met is "yes", "no", or "-" when there is no target. */
#ifndef CMDGPU_BENCH_SUMMARY_H
#define CMDGPU_BENCH_SUMMARY_H
#include <stdio.h>
#include <time.h>

/* CPU time of the calling thread, in seconds: figures of single-threaded
 * work stay meaningful on a loaded machine. */
static inline double bench_thread_cpu(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static inline void bench_summary(const char *measure, double value, const char *unit,
                                 const char *comparison, double ratio, const char *target,
                                 int met)
{
    printf("SUMMARY\t%s\t%.2f\t%s\t%s\t", measure, value, unit, comparison);
    if (ratio > 0)
        printf("%.2fx", ratio);
    else
        printf("-");
    printf("\t%s\t%s\n", target, met < 0 ? "-" : met ? "yes" : "no");
    fflush(stdout);
}

#endif
