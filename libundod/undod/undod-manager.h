#pragma once

#if !defined(UNDOD_INSIDE) && !defined(UNDOD_COMPILATION)
#error "Only <undod/undod.h> can be included directly."
#endif

#include <glib-object.h>
#include <undod/undod-stack.h>

G_BEGIN_DECLS

/**
 * UndodUndoFunc:
 * @user_data: what was registered with it
 *
 * Undoes (or, when called during an undo, redoes) one change; what it
 * registers meanwhile becomes the other direction's work.
 */
typedef void (*UndodUndoFunc) (gpointer user_data);

#define UNDOD_TYPE_MANAGER (undod_manager_get_type ())
G_DECLARE_FINAL_TYPE (UndodManager, undod_manager, UNDOD, MANAGER, GObject)

UndodManager *undod_manager_new                  (UndodStack *stack);
void          undod_manager_register_undo        (UndodManager *manager, UndodUndoFunc func, gpointer user_data,
                                                  GDestroyNotify destroy);
void          undod_manager_set_action_name      (UndodManager *manager, const char *name);
void          undod_manager_begin_grouping       (UndodManager *manager);
void          undod_manager_end_grouping         (UndodManager *manager);
gboolean      undod_manager_get_is_undoing       (UndodManager *manager);
gboolean      undod_manager_get_is_redoing       (UndodManager *manager);
void          undod_manager_undo                 (UndodManager *manager);
void          undod_manager_redo                 (UndodManager *manager);

G_END_DECLS
