/* undod-private.h: the contract's names and the variant helpers the
 * library's files share; apps never see it. What one type lends another
 * is in that type's own private header (undod-stack-private.h,
 * undod-client-private.h, undod-apply-private.h). */
#pragma once

#include <gio/gio.h>

#include "undod-hints.h"
#include "undod-options.h"

G_BEGIN_DECLS

/* The contract's names (Docs/PROTOCOL.md). */
#define UNDOD_BUS_NAME "org.undod.Undo1"
#define UNDOD_MANAGER_PATH "/org/undod/Undo1"
#define UNDOD_MANAGER_INTERFACE "org.undod.Undo1.Manager"
#define UNDOD_STACK_INTERFACE "org.undod.Undo1.Stack"
#define UNDOD_CLIENT_PATH "/org/undod/Undo1/Client"
#define UNDOD_CLIENT_INTERFACE "org.undod.Undo1.Client"

/* How long a call may take: undod bounds an app's Apply by its own
 * apply.timeout_ms, so undo and redo get longer, to end only a hung daemon. */
#define UNDOD_CALL_TIMEOUT_MS 25000
#define UNDOD_APPLY_TIMEOUT_MS 120000

GVariant *undod_options_to_variant (UndodOptions *options);
GVariant *undod_options_to_variant_full (UndodOptions *options, gboolean with_state_tag);
GVariant *undod_hints_to_variant   (UndodHints *hints);
GVariant *undod_hints_variant      (const char *merge_key, guint merge_window_ms, const char *state_tag);

G_END_DECLS
