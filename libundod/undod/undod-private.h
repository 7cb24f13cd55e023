/* undod-private.h: what the library's files share and apps never see. */
#pragma once

#include <gio/gio.h>

#include "undod-apply.h"
#include "undod-client.h"
#include "undod-hints.h"
#include "undod-options.h"
#include "undod-stack.h"

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

UndodStack *undod_stack_new_registered (UndodClient *client, const char *path, const char *app_id,
                                        UndodOptions *options);
void        undod_stack_set_path       (UndodStack *stack, const char *path);
void        undod_stack_catch_up       (UndodStack *stack);
void        undod_stack_refresh_state  (UndodStack *stack);
void        undod_stack_go_local       (UndodStack *stack);
void        undod_stack_hold           (UndodStack *stack);
void        undod_stack_release        (UndodStack *stack);
gboolean    undod_stack_dispatch_apply (UndodStack *stack, UndodApply *apply);
const char *undod_stack_get_app_id     (UndodStack *stack);
UndodOptions *undod_stack_get_options  (UndodStack *stack);

UndodApply *undod_apply_new_for_invocation (GDBusMethodInvocation *invocation, UndodDirection direction,
                                            guint64 group, GPtrArray *payloads);
UndodApply *undod_apply_new_local          (UndodDirection direction, guint64 group, GPtrArray *payloads);
const GError *undod_apply_get_error  (UndodApply *apply);
void        undod_apply_set_finished_func  (UndodApply *apply, GCallback func, gpointer data);

GDBusConnection *undod_client_get_connection (UndodClient *client);
struct _UndodSender *undod_client_get_sender (UndodClient *client);
void             undod_client_forget_stack   (UndodClient *client, UndodStack *stack);

G_END_DECLS
