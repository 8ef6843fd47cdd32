/* cmdgpu core: the device, error strings, version, host-memory accounting. */
#include <stdlib.h>
#include <string.h>
#include "internal.h"
#include "version.h"

const char *cg_version(void) { return CMDGPU_VERSION_STRING; }

const char *cg_strerror(int err)
{
    switch (err) {
#define CG_X_CASE(name, value, text)                                           \
    case value:                                                                \
        return text;
        CG_ERR_TABLE(CG_X_CASE)
#undef CG_X_CASE
    default:
        return "unknown error";
    }
}

int cg_device_create(cg_device **out)
{
    if (!out)
        return CG_ERR_INVAL;
    *out = NULL;
    cg_device *dev = calloc(1, sizeof(*dev));
    if (!dev)
        return CG_ERR_NOMEM;
    pthread_mutexattr_t attr;
    bool lock_ok = pthread_mutexattr_init(&attr) == 0;
    if (lock_ok) {
        lock_ok = pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_RECURSIVE) == 0 &&
                  pthread_mutex_init(&dev->lock, &attr) == 0;
        pthread_mutexattr_destroy(&attr);
    }
    if (!lock_ok) {
        free(dev);
        return CG_ERR_NOMEM;
    }
    dev->coherency = CG_COHERENCY_WARN;
    dev->mem_next_id = 1;
    atomic_init(&dev->host_bytes, 0);
    atomic_init(&dev->host_peak, 0);
    atomic_init(&dev->nsinks, 0);
    atomic_init(&dev->cpu_write_seq, 0);
    *out = dev;
    return 0;
}

void cg_device_destroy(cg_device *dev)
{
    if (!dev)
        return;
    cg__vas_teardown(dev);
    cg__mem_teardown(dev);
    cg__mem_pool_teardown(dev);
    for (size_t i = 0; i < CG_ARRAY_SIZE(dev->fault_chunks); i++)
        free(dev->fault_chunks[i]);
    pthread_mutex_destroy(&dev->lock);
    free(dev);
}

void cg_device_set_coherency(cg_device *dev, cg_coherency policy)
{
    if (dev && policy >= CG_COHERENCY_OFF && policy <= CG_COHERENCY_FAULT)
        dev->coherency = policy;
}

cg_coherency cg_device_coherency(const cg_device *dev)
{
    return dev ? dev->coherency : CG_COHERENCY_OFF;
}

size_t cg_device_host_bytes(const cg_device *dev)
{
    return dev ? atomic_load(&dev->host_bytes) : 0;
}

size_t cg_device_host_peak(const cg_device *dev)
{
    return dev ? atomic_load(&dev->host_peak) : 0;
}

void cg__host_account(cg_device *dev, long long n)
{
    if (n < 0) {
        atomic_fetch_sub(&dev->host_bytes, (size_t)-n);
        return;
    }
    size_t now = atomic_fetch_add(&dev->host_bytes, (size_t)n) + (size_t)n;
    size_t peak = atomic_load(&dev->host_peak);
    while (now > peak && !atomic_compare_exchange_weak(&dev->host_peak, &peak, now))
        ;
}

void *cg__alloc(cg_device *dev, size_t n)
{
    void *p = calloc(1, n ? n : 1);
    if (p)
        cg__host_account(dev, (long long)n);
    return p;
}

void *cg__realloc(cg_device *dev, void *p, size_t old_n, size_t new_n)
{
    void *q = realloc(p, new_n ? new_n : 1);
    if (!q)
        return NULL;
    if (new_n > old_n) {
        memset((char *)q + old_n, 0, new_n - old_n);
        cg__host_account(dev, (long long)(new_n - old_n));
    } else {
        cg__host_account(dev, -(long long)(old_n - new_n));
    }
    return q;
}

void cg__free(cg_device *dev, void *p, size_t n)
{
    if (!p)
        return;
    cg__host_account(dev, -(long long)n);
    free(p);
}

/* ---- budgets ------------------------------------------------------------- */

static const struct {
    const char *name;
    uint64_t def;
    const char *what;
} budgets[CG_BUDGET_COUNT] = {
#define CG_X_ROW(id, name, def, what) {name, def, what},
    CG_BUDGET_TABLE(CG_X_ROW)
#undef CG_X_ROW
};

int cg_device_set_budget(cg_device *dev, cg_budget b, uint64_t value)
{
    if (!dev || (unsigned)b >= CG_BUDGET_COUNT)
        return CG_ERR_INVAL;
    dev->budget[b] = value;
    return 0;
}

uint64_t cg_device_budget(const cg_device *dev, cg_budget b)
{
    if ((unsigned)b >= CG_BUDGET_COUNT)
        return 0;
    return dev && dev->budget[b] ? dev->budget[b] : budgets[b].def;
}

const char *cg_budget_name(cg_budget b)
{
    return (unsigned)b < CG_BUDGET_COUNT ? budgets[b].name : "?";
}

const char *cg_budget_description(cg_budget b)
{
    return (unsigned)b < CG_BUDGET_COUNT ? budgets[b].what : "";
}

uint64_t cg_budget_default(cg_budget b)
{
    return (unsigned)b < CG_BUDGET_COUNT ? budgets[b].def : 0;
}

int cg_budget_from_name(const char *name, cg_budget *out)
{
    for (int i = 0; name && i < CG_BUDGET_COUNT; i++)
        if (strcmp(budgets[i].name, name) == 0) {
            if (out)
                *out = (cg_budget)i;
            return 0;
        }
    return CG_ERR_NOENT;
}
