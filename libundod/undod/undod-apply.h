#pragma once

#if !defined(UNDOD_INSIDE) && !defined(UNDOD_COMPILATION)
#error "Only <undod/undod.h> can be included directly."
#endif

#include <gio/gio.h>

G_BEGIN_DECLS

/**
 * UndodDirection:
 * @UNDOD_DIRECTION_UNDO: undo: apply the group's undo payloads
 * @UNDOD_DIRECTION_REDO: redo: apply its redo payloads
 *
 * Which way a group is applied.
 */
typedef enum {
  UNDOD_DIRECTION_UNDO,
  UNDOD_DIRECTION_REDO,
} UndodDirection;

#define UNDOD_TYPE_APPLY (undod_apply_get_type ())
G_DECLARE_FINAL_TYPE (UndodApply, undod_apply, UNDOD, APPLY, GObject)

UndodDirection undod_apply_get_direction    (UndodApply *apply);
guint64        undod_apply_get_group        (UndodApply *apply);
GPtrArray     *undod_apply_get_payloads     (UndodApply *apply);
gboolean       undod_apply_get_finished     (UndodApply *apply);
void           undod_apply_return_success   (UndodApply *apply);
void           undod_apply_return_error     (UndodApply *apply, const GError *error);
void           undod_apply_return_obsolete  (UndodApply *apply);

G_END_DECLS
