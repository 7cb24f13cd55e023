#pragma once

#if !defined(UNDOD_INSIDE) && !defined(UNDOD_COMPILATION)
#error "Only <undod/undod.h> can be included directly."
#endif

#include <gio/gio.h>
#include <undod/undod-options.h>
#include <undod/undod-stack.h>

G_BEGIN_DECLS

#define UNDOD_TYPE_CLIENT (undod_client_get_type ())
G_DECLARE_FINAL_TYPE (UndodClient, undod_client, UNDOD, CLIENT, GObject)

UndodClient *undod_client_new_sync            (const char *address, GCancellable *cancellable, GError **error);
gboolean     undod_client_get_daemon_running  (UndodClient *client);

void         undod_client_register            (UndodClient *client, const char *app_id, UndodOptions *options,
                                               GCancellable *cancellable, GAsyncReadyCallback callback,
                                               gpointer user_data);
UndodStack  *undod_client_register_finish     (UndodClient *client, GAsyncResult *result, GError **error);

void         undod_client_undo_focused        (UndodClient *client, GCancellable *cancellable,
                                               GAsyncReadyCallback callback, gpointer user_data);
guint64      undod_client_undo_focused_finish (UndodClient *client, GAsyncResult *result, char **stack,
                                               char **name, GError **error);
void         undod_client_redo_focused        (UndodClient *client, GCancellable *cancellable,
                                               GAsyncReadyCallback callback, gpointer user_data);
guint64      undod_client_redo_focused_finish (UndodClient *client, GAsyncResult *result, char **stack,
                                               char **name, GError **error);

G_END_DECLS
