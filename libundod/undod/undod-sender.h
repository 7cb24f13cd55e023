/* undod-sender.h: where a client's calls wait and leave (private). */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* One client's thread for the bus: every call to undod is sent from it and
 * answered on it, so the app's main loop only queues (a push costs it a
 * few microseconds). Tasks complete, and push-failed is emitted, in the
 * main context the client was made in. Thread-safe. */
typedef struct _UndodSender UndodSender;

/* One stack's calls: they leave one at a time, in order, each once the one
 * before is answered; a mutation refused with Busy is sent again first. */
typedef struct _UndodSendQueue UndodSendQueue;

/* Called in the app's context when a call without a task failed; @body is
 * the call's parameters, for a push undod could not take. */
typedef void (*UndodSendFailedFunc) (GObject *owner, const char *method, GVariant *body, const GError *error);

UndodSender    *undod_sender_new          (GDBusConnection *connection);
void            undod_sender_close        (UndodSender *sender);
void            undod_sender_call_ordered (UndodSender *sender, const char *path, const char *interface,
                                           const char *method, GVariant *parameters, const GVariantType *reply_type,
                                           int timeout_ms, GTask *task);

UndodSendQueue *undod_send_queue_new      (UndodSender *sender, const char *path, GObject *owner,
                                           UndodSendFailedFunc failed);
void            undod_send_queue_free     (UndodSendQueue *queue);
void            undod_send_queue_set_path (UndodSendQueue *queue, const char *path);
void            undod_send_queue_hold     (UndodSendQueue *queue);
void            undod_send_queue_release  (UndodSendQueue *queue);
void            undod_send_queue_call     (UndodSendQueue *queue, const char *interface, const char *method,
                                           GVariant *parameters,
                                           const GVariantType *reply_type, int timeout_ms, gboolean retries_when_busy,
                                           GTask *task, const char *group_name);

void            undod_send_queue_call_ahead (UndodSendQueue *queue, const char *method, GVariant *parameters,
                                             const GVariantType *reply_type, int timeout_ms, const char *group_name);

GError         *undod_daemon_error        (GError *error);
gboolean        undod_left_meanwhile      (const GError *error);

G_END_DECLS
