/* undod-sender.c: a client's calls, sent from a thread of its own.
 *
 * The app's thread only queues a call (and wakes the sender's thread when
 * the call can leave at once); the sender's thread sends it and takes the
 * answer, so neither building the message nor reading the reply costs the
 * app's main loop. Tasks complete in the context they were made in (GTask
 * does that); a failure without a task is reported in the client's context.
 *
 * Order: every call gets a number when the app makes it. A stack's calls
 * leave one at a time, each once the one before is answered; a mutation
 * refused with Busy (it reached undod while the app's Apply was out) goes
 * again first, after a short wait or as soon as the app answered. An
 * ordered client call (UndoFocused) leaves only once every call made
 * before it has been answered, and no stack call made after it leaves
 * before it. At most MAX_IN_FLIGHT calls are out at once: dbus-daemon's
 * own default max_replies_per_connection is 128 (session.conf raises it).
 * A mutation that met undod restarting (it left with the call out, or a
 * new undod answered before the stack registered again) goes again too,
 * the same way, for RESTART_GRACE_MS.
 *
 * Everything below the lock is touched by both threads under `lock`. */
#include "undod-sender.h"
#include "undod-error.h"
#include "undod-private.h"

#define MAX_IN_FLIGHT 64
/* A mutation refused with Busy is sent again after this long, doubling up
 * to RETRY_MOST_MS, for as long as an undo itself may take. */
#define RETRY_FIRST_MS 10
#define RETRY_MOST_MS 500
/* How long a mutation that met a restarting undod (undod_changed_under)
 * goes again: registering again takes milliseconds, and an undod that
 * does not come back answers ServiceUnknown, which ends it at once. */
#define RESTART_GRACE_MS 10000
/* How long closing waits for the answers to calls already made. */
#define CLOSE_DRAIN_MS 2000

typedef struct {
  UndodSender *sender;
  UndodSendQueue *queue; /* NULL: an ordered client call */
  guint64 sequence;
  char *path;            /* an ordered call's; a stack's calls go to its present path */
  const char *interface;
  char *method;
  GVariant *parameters;
  const GVariantType *reply_type;
  int timeout_ms;
  GTask *task;
  char *group_name;
  gboolean retries_when_busy;
  gint64 first_sent;
  guint retry_ms;
} SendCall;

struct _UndodSender {
  GDBusConnection *connection;
  GMainContext *app_context;
  GMainContext *context;
  GMainLoop *loop;
  GThread *thread;
  GMutex lock;
  guint64 next_sequence;
  guint in_flight;
  GPtrArray *queues;
  GQueue ordered;
  gboolean kick_pending;
  gboolean closing;
};

struct _UndodSendQueue {
  gint refs;
  UndodSender *sender;
  char *path;
  guint holds;
  GQueue waiting;
  SendCall *out;
  GSource *retry;
  GWeakRef owner;
  UndodSendFailedFunc failed;
};

/* Whether @error is the bus's word that undod could not be started by
 * D-Bus activation (its service file names a program that fails, say). */
static gboolean
is_failed_activation (const GError *error)
{
  if (error->domain != G_DBUS_ERROR)
    return FALSE;
  switch (error->code)
    {
    case G_DBUS_ERROR_SPAWN_EXEC_FAILED:
    case G_DBUS_ERROR_SPAWN_FORK_FAILED:
    case G_DBUS_ERROR_SPAWN_CHILD_EXITED:
    case G_DBUS_ERROR_SPAWN_CHILD_SIGNALED:
    case G_DBUS_ERROR_SPAWN_FAILED:
    case G_DBUS_ERROR_SPAWN_SETUP_FAILED:
    case G_DBUS_ERROR_SPAWN_CONFIG_INVALID:
    case G_DBUS_ERROR_SPAWN_SERVICE_INVALID:
    case G_DBUS_ERROR_SPAWN_SERVICE_NOT_FOUND:
    case G_DBUS_ERROR_SPAWN_PERMISSIONS_INVALID:
    case G_DBUS_ERROR_SPAWN_FILE_INVALID:
    case G_DBUS_ERROR_SPAWN_NO_MEMORY:
      return TRUE;
    default:
      return FALSE;
    }
}

/* undod's answer as an #UndodError: a bus without undod, or one where
 * starting undod failed, is DAEMON_UNAVAILABLE (the app then keeps a local
 * history), and GDBus's remote-error prefix is stripped. */
GError *
undod_daemon_error (GError *error)
{
  GError *unavailable = NULL;
  if (g_error_matches (error, G_DBUS_ERROR, G_DBUS_ERROR_SERVICE_UNKNOWN) ||
      g_error_matches (error, G_DBUS_ERROR, G_DBUS_ERROR_NAME_HAS_NO_OWNER))
    unavailable = g_error_new_literal (UNDOD_ERROR, UNDOD_ERROR_DAEMON_UNAVAILABLE,
                                       "undod is not running on this bus.");
  else if (is_failed_activation (error))
    {
      g_dbus_error_strip_remote_error (error);
      unavailable = g_error_new (UNDOD_ERROR, UNDOD_ERROR_DAEMON_UNAVAILABLE,
                                 "undod is not running on this bus, and starting it failed: %s", error->message);
    }
  if (unavailable == NULL)
    {
      g_dbus_error_strip_remote_error (error);
      return error;
    }
  g_error_free (error);
  return unavailable;
}

/* Whether a call failed because undod is gone: it left with the call out
 * (NoReply), or was not there (an error undod_daemon_error made). */
gboolean
undod_left_meanwhile (const GError *error)
{
  return g_error_matches (error, G_DBUS_ERROR, G_DBUS_ERROR_NO_REPLY) ||
         g_error_matches (error, UNDOD_ERROR, UNDOD_ERROR_DAEMON_UNAVAILABLE);
}

/* Whether a stack's mutation failed because the undod it reached is not
 * the one the stack registered with: the old one left with the call out
 * (NoReply), or a new one took the name before the stack registered again
 * with it (the stack's path unknown there, or another's). Such a call goes
 * again, to the path the stack gets, or into its local history if no undod
 * comes back: never lost. */
static gboolean
undod_changed_under (const GError *error)
{
  return g_error_matches (error, G_DBUS_ERROR, G_DBUS_ERROR_NO_REPLY) ||
         g_error_matches (error, G_DBUS_ERROR, G_DBUS_ERROR_UNKNOWN_OBJECT) ||
         g_error_matches (error, G_DBUS_ERROR, G_DBUS_ERROR_UNKNOWN_METHOD) ||
         g_error_matches (error, UNDOD_ERROR, UNDOD_ERROR_NOT_OWNER) ||
         g_error_matches (error, UNDOD_ERROR, UNDOD_ERROR_UNKNOWN_STACK);
}

static void
queue_unref (UndodSendQueue *queue)
{
  if (!g_atomic_int_dec_and_test (&queue->refs))
    return;
  UndodSender *sender = queue->sender;
  g_mutex_lock (&sender->lock);
  g_ptr_array_remove (sender->queues, queue);
  if (queue->retry != NULL)
    {
      g_source_destroy (queue->retry);
      g_source_unref (queue->retry);
    }
  g_mutex_unlock (&sender->lock);
  g_weak_ref_clear (&queue->owner);
  g_free (queue->path);
  g_free (queue);
}

static void
send_call_free (SendCall *call)
{
  g_free (call->path);
  g_free (call->method);
  g_free (call->group_name);
  g_clear_pointer (&call->parameters, g_variant_unref);
  g_clear_object (&call->task);
  if (call->queue != NULL)
    queue_unref (call->queue);
  g_free (call);
}

/* A failure without a task, told in the client's context. */
typedef struct {
  UndodSendQueue *queue;
  char *method;
  GVariant *body;
  GError *error;
} FailureReport;

static gboolean
report_failure (gpointer data)
{
  FailureReport *report = data;
  GObject *owner = g_weak_ref_get (&report->queue->owner);
  if (owner != NULL)
    {
      report->queue->failed (owner, report->method, report->body, report->error);
      g_object_unref (owner);
    }
  queue_unref (report->queue);
  g_free (report->method);
  g_variant_unref (report->body);
  g_error_free (report->error);
  g_free (report);
  return G_SOURCE_REMOVE;
}

/* A task's answer, given in the client's context: there the task's last
 * reference may go, and with it the stack or client it holds (never on
 * the sender's thread, which cannot join itself). */
typedef struct {
  GTask *task;
  GVariant *reply;
  GError *error;
} TaskAnswer;

static gboolean
answer_task (gpointer data)
{
  TaskAnswer *answer = data;
  if (answer->reply != NULL)
    g_task_return_pointer (answer->task, answer->reply, (GDestroyNotify) g_variant_unref);
  else
    g_task_return_error (answer->task, answer->error);
  g_object_unref (answer->task);
  g_free (answer);
  return G_SOURCE_REMOVE;
}

/* Ends @call with its answer (taking @reply and @error), outside the lock. */
static void
complete (UndodSender *self, SendCall *call, GVariant *reply, GError *error)
{
  if (call->task != NULL)
    {
      TaskAnswer *answer = g_new0 (TaskAnswer, 1);
      answer->task = g_steal_pointer (&call->task);
      answer->reply = reply;
      answer->error = error;
      g_main_context_invoke (self->app_context, answer_task, answer);
    }
  else
    {
      g_clear_pointer (&reply, g_variant_unref);
      if (error != NULL && call->queue != NULL && !self->closing)
        {
          FailureReport *report = g_new0 (FailureReport, 1);
          report->queue = call->queue;
          g_atomic_int_inc (&call->queue->refs);
          report->method = g_strdup (call->method);
          report->body = g_variant_ref (call->parameters);
          report->error = error;
          g_main_context_invoke (self->app_context, report_failure, report);
        }
      else if (error != NULL)
        g_error_free (error);
    }
  send_call_free (call);
}

static gboolean
everything_answered (UndodSender *self)
{
  if (self->in_flight > 0 || !g_queue_is_empty (&self->ordered))
    return FALSE;
  for (guint i = 0; i < self->queues->len; i++)
    if (!g_queue_is_empty (&((UndodSendQueue *) g_ptr_array_index (self->queues, i))->waiting))
      return FALSE;
  return TRUE;
}

static void pump (UndodSender *self);
static gboolean retry_fired (gpointer data);

static void
answered (GObject *source, GAsyncResult *result, gpointer data)
{
  SendCall *call = data;
  UndodSender *self = call->sender;
  GError *error = NULL;
  GVariant *reply = g_dbus_connection_call_finish (G_DBUS_CONNECTION (source), result, &error);
  if (reply == NULL)
    error = undod_daemon_error (error);

  g_mutex_lock (&self->lock);
  self->in_flight--;
  UndodSendQueue *queue = call->queue;
  if (queue != NULL)
    queue->out = NULL;
  gint64 waited_ms = (g_get_monotonic_time () - call->first_sent) / 1000;
  gboolean busy = g_error_matches (error, UNDOD_ERROR, UNDOD_ERROR_BUSY) && waited_ms < UNDOD_APPLY_TIMEOUT_MS;
  gboolean moved = undod_changed_under (error) && waited_ms < RESTART_GRACE_MS;
  if (queue != NULL && reply == NULL && call->retries_when_busy && !self->closing && (busy || moved))
    {
      g_error_free (error);
      g_queue_push_head (&queue->waiting, call);
      queue->retry = g_timeout_source_new (call->retry_ms);
      call->retry_ms = MIN (call->retry_ms * 2, RETRY_MOST_MS);
      g_source_set_callback (queue->retry, retry_fired, queue, NULL);
      g_source_attach (queue->retry, self->context);
      pump (self);
      g_mutex_unlock (&self->lock);
      return;
    }
  pump (self);
  gboolean done_closing = self->closing && everything_answered (self);
  g_mutex_unlock (&self->lock);
  complete (self, call, reply, error);
  if (done_closing)
    g_main_loop_quit (self->loop);
}

static gboolean
retry_fired (gpointer data)
{
  UndodSendQueue *queue = data;
  UndodSender *self = queue->sender;
  g_mutex_lock (&self->lock);
  g_clear_pointer (&queue->retry, g_source_unref);
  pump (self);
  g_mutex_unlock (&self->lock);
  return G_SOURCE_REMOVE;
}

/* Sends @call (on the sender's thread, under the lock). */
static void
send_now (UndodSender *self, SendCall *call, const char *path)
{
  self->in_flight++;
  if (call->first_sent == 0)
    call->first_sent = g_get_monotonic_time ();
  /* A stack's calls go to the undod it registered with: never start one. */
  GDBusCallFlags flags = call->queue != NULL ? G_DBUS_CALL_FLAGS_NO_AUTO_START : G_DBUS_CALL_FLAGS_NONE;
  g_dbus_connection_call (self->connection, UNDOD_BUS_NAME, path, call->interface, call->method,
                          g_variant_ref (call->parameters), call->reply_type, flags,
                          call->timeout_ms, call->task != NULL ? g_task_get_cancellable (call->task) : NULL,
                          answered, call);
}

/* Sends every call that may leave now (on the sender's thread, under the lock). */
static void
pump (UndodSender *self)
{
  gboolean sent = TRUE;
  while (sent && self->in_flight < MAX_IN_FLIGHT)
    {
      sent = FALSE;
      SendCall *first_ordered = g_queue_peek_head (&self->ordered);
      guint64 ordered_from = first_ordered != NULL ? first_ordered->sequence : G_MAXUINT64;
      guint64 earliest_stack_call = G_MAXUINT64;
      for (guint i = 0; i < self->queues->len && self->in_flight < MAX_IN_FLIGHT; i++)
        {
          UndodSendQueue *queue = g_ptr_array_index (self->queues, i);
          SendCall *head = g_queue_peek_head (&queue->waiting);
          if (queue->out == NULL && queue->holds == 0 && queue->retry == NULL && head != NULL &&
              head->sequence < ordered_from)
            {
              queue->out = g_queue_pop_head (&queue->waiting);
              send_now (self, queue->out, queue->path);
              sent = TRUE;
            }
          if (queue->out != NULL)
            earliest_stack_call = MIN (earliest_stack_call, queue->out->sequence);
          head = g_queue_peek_head (&queue->waiting);
          if (head != NULL)
            earliest_stack_call = MIN (earliest_stack_call, head->sequence);
        }
      if (first_ordered != NULL && earliest_stack_call > ordered_from && self->in_flight < MAX_IN_FLIGHT)
        {
          SendCall *call = g_queue_pop_head (&self->ordered);
          send_now (self, call, call->path);
          sent = TRUE;
        }
    }
}

static gboolean
kicked (gpointer data)
{
  UndodSender *self = data;
  g_mutex_lock (&self->lock);
  self->kick_pending = FALSE;
  pump (self);
  g_mutex_unlock (&self->lock);
  return G_SOURCE_REMOVE;
}

/* Wakes the sender's thread to send what may leave (under the lock). */
static void
kick (UndodSender *self)
{
  if (self->kick_pending)
    return;
  self->kick_pending = TRUE;
  g_main_context_invoke (self->context, kicked, self);
}

static gpointer
run (gpointer data)
{
  UndodSender *self = data;
  g_main_context_push_thread_default (self->context);
  g_main_loop_run (self->loop);
  g_main_context_pop_thread_default (self->context);
  return NULL;
}

UndodSender *
undod_sender_new (GDBusConnection *connection)
{
  UndodSender *self = g_new0 (UndodSender, 1);
  self->connection = g_object_ref (connection);
  self->app_context = g_main_context_ref_thread_default ();
  self->context = g_main_context_new ();
  self->loop = g_main_loop_new (self->context, FALSE);
  g_mutex_init (&self->lock);
  self->queues = g_ptr_array_new ();
  g_queue_init (&self->ordered);
  self->thread = g_thread_new ("undod-sender", run, self);
  return self;
}

static gboolean
give_up_waiting (gpointer data)
{
  g_main_loop_quit (data);
  return G_SOURCE_REMOVE;
}

static gboolean
start_closing (gpointer data)
{
  UndodSender *self = data;
  g_mutex_lock (&self->lock);
  gboolean done = everything_answered (self);
  g_mutex_unlock (&self->lock);
  if (done)
    g_main_loop_quit (self->loop);
  else
    {
      GSource *timer = g_timeout_source_new (CLOSE_DRAIN_MS);
      g_source_set_callback (timer, give_up_waiting, self->loop, NULL);
      g_source_attach (timer, self->context);
      g_source_unref (timer);
    }
  return G_SOURCE_REMOVE;
}

/* Waits up to CLOSE_DRAIN_MS for the answers to calls already made, then
 * stops the thread and frees the sender. Calls still waiting are dropped. */
void
undod_sender_close (UndodSender *sender)
{
  g_mutex_lock (&sender->lock);
  sender->closing = TRUE;
  g_mutex_unlock (&sender->lock);
  g_main_context_invoke (sender->context, start_closing, sender);
  g_thread_join (sender->thread);
  /* Nothing runs on the sender's context any more; what is left is dropped. */
  SendCall *call;
  while ((call = g_queue_pop_head (&sender->ordered)) != NULL)
    send_call_free (call);
  /* The stacks are gone (each held the client): the queues left are held
   * only by their calls, and go with them. */
  for (guint i = 0; i < sender->queues->len; i++)
    {
      UndodSendQueue *queue = g_ptr_array_index (sender->queues, i);
      while ((call = g_queue_pop_head (&queue->waiting)) != NULL)
        {
          call->queue = NULL;
          send_call_free (call);
        }
      if (queue->retry != NULL)
        {
          g_source_destroy (queue->retry);
          g_source_unref (queue->retry);
        }
      g_weak_ref_clear (&queue->owner);
      g_free (queue->path);
      g_free (queue);
    }
  g_main_loop_unref (sender->loop);
  g_main_context_unref (sender->context);
  g_main_context_unref (sender->app_context);
  g_object_unref (sender->connection);
  g_ptr_array_unref (sender->queues);
  g_mutex_clear (&sender->lock);
  g_free (sender);
}

static SendCall *
new_send_call (UndodSender *sender, const char *interface, const char *method, GVariant *parameters,
               const GVariantType *reply_type, int timeout_ms, GTask *task)
{
  SendCall *call = g_new0 (SendCall, 1);
  call->sender = sender;
  call->interface = interface;
  call->method = g_strdup (method);
  call->parameters = parameters != NULL ? g_variant_ref_sink (parameters) : g_variant_ref_sink (g_variant_new ("()"));
  call->reply_type = reply_type;
  call->timeout_ms = timeout_ms;
  call->task = task;
  call->retry_ms = RETRY_FIRST_MS;
  return call;
}

/* Calls @method on the manager or elsewhere, once every call made before
 * it is answered (taking @task; its result is the reply). */
void
undod_sender_call_ordered (UndodSender *sender, const char *path, const char *interface, const char *method,
                           GVariant *parameters, const GVariantType *reply_type, int timeout_ms, GTask *task)
{
  SendCall *call = new_send_call (sender, interface, method, parameters, reply_type, timeout_ms, task);
  call->path = g_strdup (path);
  g_mutex_lock (&sender->lock);
  call->sequence = sender->next_sequence++;
  g_queue_push_tail (&sender->ordered, call);
  kick (sender);
  g_mutex_unlock (&sender->lock);
}

UndodSendQueue *
undod_send_queue_new (UndodSender *sender, const char *path, GObject *owner, UndodSendFailedFunc failed)
{
  UndodSendQueue *queue = g_new0 (UndodSendQueue, 1);
  queue->refs = 1;
  queue->sender = sender;
  queue->path = g_strdup (path);
  g_queue_init (&queue->waiting);
  g_weak_ref_init (&queue->owner, owner);
  queue->failed = failed;
  g_mutex_lock (&sender->lock);
  g_ptr_array_add (sender->queues, queue);
  g_mutex_unlock (&sender->lock);
  return queue;
}

/* The stack lets go; its calls still leave, and the queue goes once they are answered. */
void
undod_send_queue_free (UndodSendQueue *queue)
{
  queue_unref (queue);
}

void
undod_send_queue_set_path (UndodSendQueue *queue, const char *path)
{
  g_mutex_lock (&queue->sender->lock);
  g_free (queue->path);
  queue->path = g_strdup (path);
  g_mutex_unlock (&queue->sender->lock);
}

void
undod_send_queue_hold (UndodSendQueue *queue)
{
  g_mutex_lock (&queue->sender->lock);
  queue->holds++;
  g_mutex_unlock (&queue->sender->lock);
}

void
undod_send_queue_release (UndodSendQueue *queue)
{
  UndodSender *sender = queue->sender;
  g_mutex_lock (&sender->lock);
  g_warn_if_fail (queue->holds > 0);
  if (queue->holds > 0 && --queue->holds == 0)
    {
      /* A mutation refused while the app applied may go now. */
      if (queue->retry != NULL)
        {
          g_source_destroy (queue->retry);
          g_clear_pointer (&queue->retry, g_source_unref);
        }
      if (!g_queue_is_empty (&queue->waiting))
        kick (sender);
    }
  g_mutex_unlock (&sender->lock);
}

/* A call to @queue's stack object on @interface (a static string), holding
 * the queue (taking @parameters if floating, and @task). */
static SendCall *
new_stack_call (UndodSendQueue *queue, const char *interface, const char *method, GVariant *parameters,
                const GVariantType *reply_type, int timeout_ms, gboolean retries_when_busy, GTask *task,
                const char *group_name)
{
  SendCall *call = new_send_call (queue->sender, interface, method, parameters, reply_type, timeout_ms, task);
  call->retries_when_busy = retries_when_busy;
  call->group_name = g_strdup (group_name);
  g_atomic_int_inc (&queue->refs);
  call->queue = queue;
  return call;
}

/* Queues a call to the stack's object on @interface (a static string:
 * the stack's own, or the properties'), taking @parameters if floating,
 * and @task. */
void
undod_send_queue_call (UndodSendQueue *queue, const char *interface, const char *method, GVariant *parameters,
                       const GVariantType *reply_type, int timeout_ms, gboolean retries_when_busy, GTask *task,
                       const char *group_name)
{
  UndodSender *sender = queue->sender;
  SendCall *call = new_stack_call (queue, interface, method, parameters, reply_type, timeout_ms, retries_when_busy,
                                   task, group_name);
  g_mutex_lock (&sender->lock);
  call->sequence = sender->next_sequence++;
  gboolean may_leave_now = queue->out == NULL && queue->holds == 0 && queue->retry == NULL &&
                           g_queue_is_empty (&queue->waiting) && g_queue_is_empty (&sender->ordered) &&
                           sender->in_flight < MAX_IN_FLIGHT;
  g_queue_push_tail (&queue->waiting, call);
  if (may_leave_now)
    kick (sender);
  g_mutex_unlock (&sender->lock);
}

/* Queues a mutation ahead of every call waiting on the stack (the local
 * history catching up, while the stack is held for registering): queue
 * the newest first. It counts as made before everything else. */
void
undod_send_queue_call_ahead (UndodSendQueue *queue, const char *method, GVariant *parameters,
                             const GVariantType *reply_type, int timeout_ms, const char *group_name)
{
  SendCall *call = new_stack_call (queue, UNDOD_STACK_INTERFACE, method, parameters, reply_type, timeout_ms, TRUE,
                                   NULL, group_name);
  g_mutex_lock (&queue->sender->lock);
  call->sequence = 0;
  g_queue_push_head (&queue->waiting, call);
  g_mutex_unlock (&queue->sender->lock);
}
