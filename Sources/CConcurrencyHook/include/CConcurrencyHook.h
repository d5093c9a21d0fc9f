#ifndef INSETD_CCONCURRENCYHOOK_H
#define INSETD_CCONCURRENCYHOOK_H

/// Where the Swift runtime keeps its global-executor hook
/// (`swift_task_enqueueGlobal_hook`, from the runtime's ConcurrencyHooks).
///
/// Why a C target: the hook is reached by name at link time, which works
/// whether the runtime is a shared library or linked in with
/// `--static-swift-stdlib`. NIO finds it with `dlsym`, which a static
/// executable cannot answer (the symbol is not exported), so there NIO's
/// take-over fails and Swift concurrency falls back to libdispatch's pool.
void *_Nullable *_Nonnull insetd_swift_task_enqueueGlobal_hook(void);

#endif
