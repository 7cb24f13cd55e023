/* undod-client.c: one connection to undod. It exports the app's
 * org.undod.Undo1.Client object (where undod's Apply calls land, accepted
 * only from undod itself), follows undod's name, and registers every live
 * stack again when a new undod appears. */
#include "undod-client.h"
#include "undod-apply-private.h"
#include "undod-client-private.h"
#include "undod-error.h"
#include "undod-private.h"
#include "undod-sender.h"
#include "undod-stack-private.h"

#include <string.h>

/**
 * UndodClient:
 *
 * A connection to undod on the session bus (or another bus). Every call is
 * asynchronous and leaves in the order it is made; nothing blocks the main
 * loop after undod_client_new_sync(). Callbacks and signals run in the
 * thread-default main context the client was made in.
 */
struct _UndodClient {
  GObject parent_instance;
  GDBusConnection *connection;
  guint watch_id;
  guint object_id;
  /* undod's unique name while it runs (only it may call Apply), else NULL. */
  char *daemon;
  /* The undod the stacks last registered with: a new one means a restart. */
  char *registered_with;
  /* Live stacks, not owned: each forgets itself when it goes. */
  GPtrArray *stacks;
  /* Where the calls to undod leave from (its own thread). */
  UndodSender *sender;
};

G_DEFINE_FINAL_TYPE (UndodClient, undod_client, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_DAEMON_RUNNING,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static const char client_xml[] =
  "<node>"
  "  <interface name='" UNDOD_CLIENT_INTERFACE "'>"
  "    <method name='Apply'>"
  "      <arg name='stack' type='o' direction='in'/>"
  "      <arg name='group' type='t' direction='in'/>"
  "      <arg name='direction' type='s' direction='in'/>"
  "      <arg name='payloads' type='aay' direction='in'/>"
  "    </method>"
  "  </interface>"
  "</node>";

static UndodStack *
stack_at (UndodClient *self, const char *path)
{
  for (guint i = 0; i < self->stacks->len; i++)
    {
      UndodStack *stack = g_ptr_array_index (self->stacks, i);
      if (g_strcmp0 (undod_stack_get_path (stack), path) == 0)
        return stack;
    }
  return NULL;
}

static void
apply_called (GDBusConnection *connection, const char *sender, const char *object_path,
              const char *interface_name, const char *method_name, GVariant *parameters,
              GDBusMethodInvocation *invocation, gpointer user_data)
{
  UndodClient *self = user_data;
  if (self->daemon == NULL || g_strcmp0 (sender, self->daemon) != 0)
    {
      g_dbus_method_invocation_return_dbus_error (invocation, "org.freedesktop.DBus.Error.AccessDenied",
                                                  "Only undod may call Apply.");
      return;
    }
  const char *path = NULL, *direction = NULL;
  guint64 group = 0;
  g_autoptr (GVariant) payloads = NULL;
  g_variant_get (parameters, "(&ot&s@aay)", &path, &group, &direction, &payloads);
  UndodStack *stack = stack_at (self, path);
  if (stack == NULL)
    {
      g_dbus_method_invocation_return_dbus_error (invocation, "org.freedesktop.DBus.Error.UnknownObject",
                                                  "This application has no stack at that path.");
      return;
    }
  UndodDirection which;
  if (g_str_equal (direction, "undo"))
    which = UNDOD_DIRECTION_UNDO;
  else if (g_str_equal (direction, "redo"))
    which = UNDOD_DIRECTION_REDO;
  else
    {
      g_dbus_method_invocation_return_dbus_error (invocation, "org.freedesktop.DBus.Error.InvalidArgs",
                                                  "The direction must be \"undo\" or \"redo\".");
      return;
    }
  g_autoptr (GPtrArray) list = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  GVariantIter iter;
  GVariant *payload;
  g_variant_iter_init (&iter, payloads);
  while ((payload = g_variant_iter_next_value (&iter)) != NULL)
    {
      g_ptr_array_add (list, g_variant_get_data_as_bytes (payload));
      g_variant_unref (payload);
    }
  g_autoptr (UndodApply) apply = undod_apply_new_for_invocation (invocation, which, group, list);
  undod_stack_dispatch_apply (stack, apply);
}

static const GDBusInterfaceVTable client_vtable = { apply_called, NULL, NULL, { 0 } };

static void register_again (UndodClient *self, gboolean all);

static void
daemon_appeared (GDBusConnection *connection, const char *name, const char *owner, gpointer user_data)
{
  UndodClient *self = user_data;
  g_free (self->daemon);
  self->daemon = g_strdup (owner);
  /* A new undod (or the first, for stacks made while it was absent). */
  gboolean restarted = self->registered_with != NULL && g_strcmp0 (self->registered_with, owner) != 0;
  g_free (self->registered_with);
  self->registered_with = g_strdup (owner);
  register_again (self, restarted);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DAEMON_RUNNING]);
}

static void
daemon_vanished (GDBusConnection *connection, const char *name, gpointer user_data)
{
  UndodClient *self = user_data;
  gboolean was = self->daemon != NULL;
  g_clear_pointer (&self->daemon, g_free);
  /* Undo and redo now walk the stacks' local histories. */
  for (guint i = 0; i < self->stacks->len; i++)
    undod_stack_go_local (g_ptr_array_index (self->stacks, i));
  if (was)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DAEMON_RUNNING]);
}

static void
undod_client_dispose (GObject *object)
{
  UndodClient *self = UNDOD_CLIENT (object);
  if (self->watch_id != 0)
    g_bus_unwatch_name (self->watch_id);
  self->watch_id = 0;
  if (self->object_id != 0 && self->connection != NULL)
    g_dbus_connection_unregister_object (self->connection, self->object_id);
  self->object_id = 0;
  g_clear_object (&self->connection);
  G_OBJECT_CLASS (undod_client_parent_class)->dispose (object);
}

static void
undod_client_finalize (GObject *object)
{
  UndodClient *self = UNDOD_CLIENT (object);
  g_free (self->daemon);
  g_free (self->registered_with);
  g_ptr_array_unref (self->stacks);
  g_clear_pointer (&self->sender, undod_sender_close);
  G_OBJECT_CLASS (undod_client_parent_class)->finalize (object);
}

static void
undod_client_get_property (GObject *object, guint id, GValue *value, GParamSpec *pspec)
{
  UndodClient *self = UNDOD_CLIENT (object);
  switch (id)
    {
    case PROP_DAEMON_RUNNING: g_value_set_boolean (value, self->daemon != NULL); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, id, pspec);
    }
}

static void
undod_client_class_init (UndodClientClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  object_class->dispose = undod_client_dispose;
  object_class->finalize = undod_client_finalize;
  object_class->get_property = undod_client_get_property;
  /**
   * UndodClient:daemon-running:
   *
   * Whether undod runs on the bus (owns `org.undod.Undo1`), as last seen.
   */
  properties[PROP_DAEMON_RUNNING] = g_param_spec_boolean ("daemon-running", NULL, NULL, FALSE,
                                                          G_PARAM_READABLE | G_PARAM_STATIC_STRINGS |
                                                            G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
undod_client_init (UndodClient *self)
{
  self->stacks = g_ptr_array_new ();
}

/**
 * undod_client_new_sync:
 * @address: (nullable): a D-Bus address, or %NULL for the session bus
 * @cancellable: (nullable): cancels the connecting
 * @error: where a failure goes
 *
 * Connects to the bus (this blocks only while connecting) and starts
 * following undod there; undod need not run yet.
 *
 * Returns: (transfer full): the client, or %NULL when the bus cannot be reached
 */
UndodClient *
undod_client_new_sync (const char *address, GCancellable *cancellable, GError **error)
{
  g_autoptr (GDBusConnection) connection = NULL;
  if (address == NULL)
    connection = g_bus_get_sync (G_BUS_TYPE_SESSION, cancellable, error);
  else
    connection = g_dbus_connection_new_for_address_sync (
      address, G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT | G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION,
      NULL, cancellable, error);
  if (connection == NULL)
    return NULL;

  g_autoptr (GDBusNodeInfo) node = g_dbus_node_info_new_for_xml (client_xml, NULL);
  UndodClient *self = g_object_new (UNDOD_TYPE_CLIENT, NULL);
  self->connection = g_steal_pointer (&connection);
  self->sender = undod_sender_new (self->connection);
  self->object_id = g_dbus_connection_register_object (self->connection, UNDOD_CLIENT_PATH, node->interfaces[0],
                                                       &client_vtable, self, NULL, error);
  if (self->object_id == 0)
    {
      g_object_unref (self);
      return NULL;
    }
  self->watch_id = g_bus_watch_name_on_connection (self->connection, UNDOD_BUS_NAME, G_BUS_NAME_WATCHER_FLAGS_NONE,
                                                   daemon_appeared, daemon_vanished, self, NULL);
  return self;
}

/**
 * undod_client_get_daemon_running:
 * @client: the client
 *
 * Returns: whether undod runs, as last seen (#UndodClient:daemon-running)
 */
gboolean
undod_client_get_daemon_running (UndodClient *client)
{
  g_return_val_if_fail (UNDOD_IS_CLIENT (client), FALSE);
  return client->daemon != NULL;
}

GDBusConnection *
undod_client_get_connection (UndodClient *client)
{
  return client->connection;
}

UndodSender *
undod_client_get_sender (UndodClient *client)
{
  return client->sender;
}

void
undod_client_forget_stack (UndodClient *client, UndodStack *stack)
{
  g_ptr_array_remove (client->stacks, stack);
}

static void
call_done (GObject *source, GAsyncResult *result, gpointer data)
{
  GTask *task = data;
  GError *error = NULL;
  GVariant *reply = g_dbus_connection_call_finish (G_DBUS_CONNECTION (source), result, &error);
  if (reply != NULL)
    g_task_return_pointer (task, reply, (GDestroyNotify) g_variant_unref);
  else
    g_task_return_error (task, undod_daemon_error (error));
  g_object_unref (task);
}

/* Calls the manager's @method from this thread at once (Register: it goes
 * before the stack's own calls, which wait for it). */
static void
call_manager (UndodClient *self, const char *method, GVariant *parameters, const GVariantType *reply_type,
              GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data)
{
  (void) UNDOD_ERROR; /* registers the error names before any reply */
  GTask *task = g_task_new (self, cancellable, callback, user_data);
  g_dbus_connection_call (self->connection, UNDOD_BUS_NAME, UNDOD_MANAGER_PATH, UNDOD_MANAGER_INTERFACE, method,
                          parameters, reply_type, G_DBUS_CALL_FLAGS_NONE, UNDOD_CALL_TIMEOUT_MS, cancellable,
                          call_done, task);
}

typedef struct {
  char *app_id;
  UndodOptions *options;
} Registration;

static void
registration_free (Registration *registration)
{
  g_free (registration->app_id);
  g_clear_object (&registration->options);
  g_free (registration);
}

static void
registered (GObject *source, GAsyncResult *result, gpointer data)
{
  g_autoptr (GTask) task = data;
  UndodClient *self = g_task_get_source_object (task);
  Registration *registration = g_task_get_task_data (task);
  GError *error = NULL;
  g_autoptr (GVariant) reply = g_task_propagate_pointer (G_TASK (result), &error);
  const char *path = NULL;
  if (reply == NULL && g_error_matches (error, UNDOD_ERROR, UNDOD_ERROR_DAEMON_UNAVAILABLE))
    {
      /* No undod: a stack with a local history, registered when undod appears. */
      g_clear_error (&error);
      UndodStack *stack = undod_stack_new_registered (self, NULL, registration->app_id, registration->options);
      g_ptr_array_add (self->stacks, stack);
      return g_task_return_pointer (task, stack, g_object_unref);
    }
  if (reply == NULL)
    return g_task_return_error (task, error);
  g_variant_get (reply, "(&o)", &path);
  UndodStack *stack = stack_at (self, path);
  if (stack != NULL)
    g_object_ref (stack);
  else
    {
      stack = undod_stack_new_registered (self, path, registration->app_id, registration->options);
      g_ptr_array_add (self->stacks, stack);
    }
  g_task_return_pointer (task, stack, g_object_unref);
}

/* The contract's rule for app ids, checked here too: a stack made while
 * undod is absent must be one it will take. */
static gboolean
app_id_is_valid (const char *app_id)
{
  gsize length = strlen (app_id);
  if (length == 0 || length > 255)
    return FALSE;
  for (const char *c = app_id; *c != '\0'; c++)
    if (!g_ascii_isalnum (*c) && *c != '.' && *c != '_' && *c != '-')
      return FALSE;
  return TRUE;
}

/**
 * undod_client_register:
 * @client: the client
 * @app_id: the app's id (1–255 characters of `[A-Za-z0-9._-]`)
 * @options: (nullable): the stack's options (%NULL: undod's defaults)
 * @cancellable: (nullable): cancels the call
 * @callback: (scope async): called with the stack
 * @user_data: for @callback
 *
 * Opens the app's stack for @options' document: adopts it with its history
 * if it was left by an earlier run, or makes a new one. undod is started
 * by D-Bus activation if it is installed and not running.
 */
void
undod_client_register (UndodClient *client, const char *app_id, UndodOptions *options, GCancellable *cancellable,
                       GAsyncReadyCallback callback, gpointer user_data)
{
  g_return_if_fail (UNDOD_IS_CLIENT (client));
  g_return_if_fail (app_id != NULL);
  GTask *task = g_task_new (client, cancellable, callback, user_data);
  g_task_set_source_tag (task, undod_client_register);
  if (!app_id_is_valid (app_id))
    {
      g_task_return_new_error (task, UNDOD_ERROR, UNDOD_ERROR_INVALID_APP_ID,
                               "The app id must be 1 to 255 characters of letters, digits, '.', '_' and '-'.");
      g_object_unref (task);
      return;
    }
  Registration *registration = g_new0 (Registration, 1);
  registration->app_id = g_strdup (app_id);
  registration->options = options != NULL ? g_object_ref (options) : NULL;
  g_task_set_task_data (task, registration, (GDestroyNotify) registration_free);
  call_manager (client, "Register", g_variant_new ("(s@a{sv})", app_id, undod_options_to_variant (options)),
                G_VARIANT_TYPE ("(o)"), cancellable, registered, task);
}

/**
 * undod_client_register_finish:
 * @client: the client
 * @result: the result
 * @error: where a failure goes
 *
 * Returns: (transfer full): the stack, or %NULL on failure
 */
UndodStack *
undod_client_register_finish (UndodClient *client, GAsyncResult *result, GError **error)
{
  g_return_val_if_fail (g_task_is_valid (result, client), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
registered_again (GObject *source, GAsyncResult *result, gpointer data)
{
  g_autoptr (UndodStack) stack = data;
  g_autoptr (GError) error = NULL;
  g_autoptr (GVariant) reply = g_task_propagate_pointer (G_TASK (result), &error);
  if (reply != NULL)
    {
      const char *path = NULL;
      g_variant_get (reply, "(&o)", &path);
      undod_stack_set_path (stack, path);
      undod_stack_catch_up (stack);
    }
  else if (undod_left_meanwhile (error))
    /* undod left again before answering: the stack stays local, and
     * registers once more when an undod appears. */
    g_debug ("The stack of %s will register when undod is back: %s", undod_stack_get_app_id (stack), error->message);
  else
    g_warning ("The stack of %s could not register with undod: %s", undod_stack_get_app_id (stack), error->message);
  undod_stack_release (stack);
}

/* undod appeared: with @all (it restarted) every live stack registers again
 * (adopting its stored history), else those made while it was absent; their
 * calls wait meanwhile, and their local history goes to undod first. */
static void
register_again (UndodClient *self, gboolean all)
{
  for (guint i = 0; i < self->stacks->len; i++)
    {
      UndodStack *stack = g_ptr_array_index (self->stacks, i);
      if (!all && undod_stack_get_path (stack) != NULL)
        continue;
      /* A stack undod had taken before goes without its first state tag. */
      gboolean taken_before = undod_stack_get_path (stack) != NULL;
      undod_stack_hold (stack);
      const char *app_id = undod_stack_get_app_id (stack);
      UndodOptions *options = undod_stack_get_options (stack);
      call_manager (self, "Register",
                    g_variant_new ("(s@a{sv})", app_id, undod_options_to_variant_full (options, !taken_before)),
                    G_VARIANT_TYPE ("(o)"), NULL, registered_again, g_object_ref (stack));
    }
}

/* UndoFocused and RedoFocused leave once every call the app made before
 * them is answered, so that they undo its last push. */
static void
apply_focused (UndodClient *client, const char *method, gpointer tag, GCancellable *cancellable,
               GAsyncReadyCallback callback, gpointer user_data)
{
  (void) UNDOD_ERROR;
  GTask *task = g_task_new (client, cancellable, callback, user_data);
  g_task_set_source_tag (task, tag);
  undod_sender_call_ordered (client->sender, UNDOD_MANAGER_PATH, UNDOD_MANAGER_INTERFACE, method, NULL,
                             G_VARIANT_TYPE ("(ots)"), UNDOD_APPLY_TIMEOUT_MS, task);
}

static guint64
apply_focused_finish (UndodClient *client, GAsyncResult *result, char **stack, char **name, GError **error)
{
  g_return_val_if_fail (g_task_is_valid (result, client), 0);
  g_autoptr (GVariant) reply = g_task_propagate_pointer (G_TASK (result), error);
  const char *path = NULL, *group_name = NULL;
  guint64 group = 0;
  if (reply != NULL)
    g_variant_get (reply, "(&ot&s)", &path, &group, &group_name);
  if (stack != NULL)
    *stack = g_strdup (path);
  if (name != NULL)
    *name = g_strdup (group_name);
  return group;
}

/**
 * undod_client_undo_focused:
 * @client: the client
 * @cancellable: (nullable): cancels the call
 * @callback: (scope async): called once the group is undone
 * @user_data: for @callback
 *
 * Undoes on the stack that has the user's focus, as the global key does.
 */
void
undod_client_undo_focused (UndodClient *client, GCancellable *cancellable, GAsyncReadyCallback callback,
                           gpointer user_data)
{
  g_return_if_fail (UNDOD_IS_CLIENT (client));
  apply_focused (client, "UndoFocused", undod_client_undo_focused, cancellable, callback, user_data);
}

/**
 * undod_client_undo_focused_finish:
 * @client: the client
 * @result: the result
 * @stack: (out) (optional) (transfer full): the path of the stack undone
 * @name: (out) (optional) (transfer full): the group's name
 * @error: where a failure goes (%UNDOD_ERROR_NO_FOCUSED_STACK, say)
 *
 * Returns: the id of the group undone, or 0 on failure
 */
guint64
undod_client_undo_focused_finish (UndodClient *client, GAsyncResult *result, char **stack, char **name,
                                  GError **error)
{
  return apply_focused_finish (client, result, stack, name, error);
}

/**
 * undod_client_redo_focused:
 * @client: the client
 * @cancellable: (nullable): cancels the call
 * @callback: (scope async): called once the group is redone
 * @user_data: for @callback
 *
 * Redoes on the stack that has the user's focus.
 */
void
undod_client_redo_focused (UndodClient *client, GCancellable *cancellable, GAsyncReadyCallback callback,
                           gpointer user_data)
{
  g_return_if_fail (UNDOD_IS_CLIENT (client));
  apply_focused (client, "RedoFocused", undod_client_redo_focused, cancellable, callback, user_data);
}

/**
 * undod_client_redo_focused_finish:
 * @client: the client
 * @result: the result
 * @stack: (out) (optional) (transfer full): the path of the stack redone
 * @name: (out) (optional) (transfer full): the group's name
 * @error: where a failure goes
 *
 * Returns: the id of the group redone, or 0 on failure
 */
guint64
undod_client_redo_focused_finish (UndodClient *client, GAsyncResult *result, char **stack, char **name,
                                  GError **error)
{
  return apply_focused_finish (client, result, stack, name, error);
}
