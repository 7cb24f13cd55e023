/* undod-apply-private.h: how the library makes an UndodApply (for undod's
 * Apply call, or for the local history) and learns how it ended. */
#pragma once

#include <gio/gio.h>

#include "undod-apply.h"

G_BEGIN_DECLS

UndodApply *undod_apply_new_for_invocation (GDBusMethodInvocation *invocation, UndodDirection direction,
                                            guint64 group, GPtrArray *payloads);
UndodApply *undod_apply_new_local          (UndodDirection direction, guint64 group, GPtrArray *payloads);
const GError *undod_apply_get_error        (UndodApply *apply);
void        undod_apply_set_finished_func  (UndodApply *apply, GCallback func, gpointer data);

G_END_DECLS
