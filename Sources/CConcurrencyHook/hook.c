#include "CConcurrencyHook.h"

extern void *swift_task_enqueueGlobal_hook;

void **insetd_swift_task_enqueueGlobal_hook(void) {
    return &swift_task_enqueueGlobal_hook;
}
