#pragma once

#if !defined(UNDOD_INSIDE) && !defined(UNDOD_COMPILATION)
#error "Only <undod/undod.h> can be included directly."
#endif

#include <gio/gio.h>
#include <undod/undod-action.h>
#include <undod/undod-apply.h>
#include <undod/undod-hints.h>

G_BEGIN_DECLS

#define UNDOD_TYPE_STACK (undod_stack_get_type ())
G_DECLARE_FINAL_TYPE (UndodStack, undod_stack, UNDOD, STACK, GObject)

const char *undod_stack_get_path        (UndodStack *stack);

void        undod_stack_push            (UndodStack *stack, const char *name, GBytes *undo, GBytes *redo,
                                         const char *merge_key);
void        undod_stack_push_group      (UndodStack *stack, const char *name, UndodAction **actions,
                                         guint n_actions, const char *merge_key, GCancellable *cancellable,
                                         GAsyncReadyCallback callback, gpointer user_data);
guint64     undod_stack_push_group_finish (UndodStack *stack, GAsyncResult *result, GError **error);
void        undod_stack_push_full       (UndodStack *stack, const char *name, GBytes *undo, GBytes *redo,
                                         UndodHints *hints);
void        undod_stack_push_group_full (UndodStack *stack, const char *name, UndodAction **actions,
                                         guint n_actions, UndodHints *hints, GCancellable *cancellable,
                                         GAsyncReadyCallback callback, gpointer user_data);

gboolean    undod_stack_get_can_undo    (UndodStack *stack);
gboolean    undod_stack_get_can_redo    (UndodStack *stack);
const char *undod_stack_get_undo_name   (UndodStack *stack);
const char *undod_stack_get_redo_name   (UndodStack *stack);
gboolean    undod_stack_get_clean       (UndodStack *stack);

void        undod_stack_undo            (UndodStack *stack, GCancellable *cancellable,
                                         GAsyncReadyCallback callback, gpointer user_data);
guint64     undod_stack_undo_finish     (UndodStack *stack, GAsyncResult *result, char **name, GError **error);
void        undod_stack_redo            (UndodStack *stack, GCancellable *cancellable,
                                         GAsyncReadyCallback callback, gpointer user_data);
guint64     undod_stack_redo_finish     (UndodStack *stack, GAsyncResult *result, char **name, GError **error);

void        undod_stack_set_clean       (UndodStack *stack, GCancellable *cancellable,
                                         GAsyncReadyCallback callback, gpointer user_data);
gboolean    undod_stack_set_clean_finish (UndodStack *stack, GAsyncResult *result, GError **error);
void        undod_stack_activate        (UndodStack *stack, GCancellable *cancellable,
                                         GAsyncReadyCallback callback, gpointer user_data);
gboolean    undod_stack_activate_finish (UndodStack *stack, GAsyncResult *result, GError **error);
void        undod_stack_deactivate      (UndodStack *stack, GCancellable *cancellable,
                                         GAsyncReadyCallback callback, gpointer user_data);
gboolean    undod_stack_deactivate_finish (UndodStack *stack, GAsyncResult *result, GError **error);
void        undod_stack_clear           (UndodStack *stack, GCancellable *cancellable,
                                         GAsyncReadyCallback callback, gpointer user_data);
gboolean    undod_stack_clear_finish    (UndodStack *stack, GAsyncResult *result, GError **error);
void        undod_stack_close           (UndodStack *stack, gboolean discard, GCancellable *cancellable,
                                         GAsyncReadyCallback callback, gpointer user_data);
gboolean    undod_stack_close_finish    (UndodStack *stack, GAsyncResult *result, GError **error);

G_END_DECLS
