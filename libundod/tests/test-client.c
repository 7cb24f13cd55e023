/* test-client.c: libundod against a real undod on a private bus. Each test
 * starts its own dbus-daemon (GTestDBus) and undod, and waits only for
 * what it expects to see, within a bound. */
#include <glib/gstdio.h>
#include <signal.h>
#include <undod/undod.h>

#define WAIT_MS 20000

typedef struct {
  GTestDBus *bus;
  char *directory;
  char *config;
  GSubprocess *undod;
  UndodClient *client;
  /* What the apply handler saw and does. */
  GPtrArray *applied;        /* "undo:<payload>" strings */
  gboolean answer_later;
  UndodApply *unanswered;
  UndodStack *push_while_applying;
  guint push_failures;
  /* Every stack registered: its handlers (which point at the fixture) are
   * taken off in teardown, as a stack may outlive the test while its last
   * calls are answered. */
  GPtrArray *stacks;
} Fixture;

static gboolean
flag_timeout (gpointer flag)
{
  *(gboolean *) flag = TRUE;
  return G_SOURCE_REMOVE;
}

/* Runs the main loop until @cond holds, failing the test after WAIT_MS. */
#define WAIT_FOR(cond)                                                     \
  G_STMT_START                                                             \
  {                                                                        \
    gboolean timed_out_ = FALSE;                                           \
    guint timer_ = g_timeout_add (WAIT_MS, flag_timeout, &timed_out_);    \
    while (!(cond) && !timed_out_)                                         \
      g_main_context_iteration (NULL, TRUE);                               \
    if (!timed_out_)                                                       \
      g_source_remove (timer_);                                            \
    if (!(cond))                                                           \
      g_error ("Gave up after %d ms waiting for: %s", WAIT_MS, #cond);     \
  }                                                                        \
  G_STMT_END

/* Like WAIT_FOR, for a condition no event of this process announces (undod's
 * state read over the bus): the loop is run without blocking, a
 * millisecond apart. */
#define WAIT_POLL(cond)                                                    \
  G_STMT_START                                                             \
  {                                                                        \
    gint64 deadline_ = g_get_monotonic_time () + WAIT_MS * 1000;           \
    while (!(cond) && g_get_monotonic_time () < deadline_)                 \
      {                                                                    \
        while (g_main_context_iteration (NULL, FALSE))                     \
          ;                                                                \
        g_usleep (1000);                                                   \
      }                                                                    \
    if (!(cond))                                                           \
      g_error ("Gave up after %d ms waiting for: %s", WAIT_MS, #cond);     \
  }                                                                        \
  G_STMT_END

static void
start_undod (Fixture *f)
{
  const char *undod = g_getenv ("UNDOD");
  g_assert_nonnull (undod);
  g_autoptr (GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_NONE);
  g_subprocess_launcher_unsetenv (launcher, "DISPLAY");
  g_subprocess_launcher_unsetenv (launcher, "WAYLAND_DISPLAY");
  g_subprocess_launcher_unsetenv (launcher, "SWAYSOCK");
  g_autofree char *state = g_build_filename (f->directory, "state", NULL);
  /* undod's log in a file: a child holding the test's stderr would keep
   * meson waiting after a failed test aborted. */
  g_autofree char *log = g_build_filename (f->directory, "undod.log", NULL);
  g_subprocess_launcher_set_stderr_file_path (launcher, log);
  g_autoptr (GError) error = NULL;
  f->undod = g_subprocess_launcher_spawn (launcher, &error, undod, "--address", g_test_dbus_get_bus_address (f->bus),
                                          "--config", f->config, "--state-dir", state, "--verbose", NULL);
  g_assert_no_error (error);
}

static void
stop_undod (Fixture *f)
{
  g_subprocess_send_signal (f->undod, SIGTERM);
  g_autoptr (GError) error = NULL;
  g_subprocess_wait (f->undod, NULL, &error);
  g_assert_no_error (error);
  g_clear_object (&f->undod);
}

static void
setup (Fixture *f, gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  f->directory = g_dir_make_tmp ("libundod-XXXXXX", &error);
  g_assert_no_error (error);
  f->config = g_build_filename (f->directory, "undod.conf", NULL);
  g_file_set_contents (f->config, "[apply]\ntimeout_ms = 60000\n", -1, &error);
  g_assert_no_error (error);
  f->bus = g_test_dbus_new (G_TEST_DBUS_NONE);
  g_test_dbus_up (f->bus);
  start_undod (f);
  f->client = undod_client_new_sync (g_test_dbus_get_bus_address (f->bus), NULL, &error);
  g_assert_no_error (error);
  WAIT_FOR (undod_client_get_daemon_running (f->client));
  f->applied = g_ptr_array_new_with_free_func (g_free);
  f->stacks = g_ptr_array_new_with_free_func (g_object_unref);
}

static void
teardown (Fixture *f, gconstpointer data)
{
  g_clear_object (&f->unanswered);
  for (guint i = 0; i < f->stacks->len; i++)
    g_signal_handlers_disconnect_by_data (g_ptr_array_index (f->stacks, i), f);
  g_ptr_array_unref (f->stacks);
  g_clear_object (&f->client);
  if (f->undod != NULL)
    stop_undod (f);
  g_test_dbus_down (f->bus);
  g_clear_object (&f->bus);
  g_autofree char *command = g_strdup_printf ("rm -rf '%s'", f->directory);
  g_spawn_command_line_sync (command, NULL, NULL, NULL, NULL);
  g_ptr_array_unref (f->applied);
  g_free (f->config);
  g_free (f->directory);
}

static GBytes *
text (const char *s)
{
  return g_bytes_new (s, strlen (s));
}

static gboolean
on_apply (UndodStack *stack, UndodApply *apply, Fixture *f)
{
  GPtrArray *payloads = undod_apply_get_payloads (apply);
  for (guint i = 0; i < payloads->len; i++)
    {
      gsize size = 0;
      const char *data = g_bytes_get_data (g_ptr_array_index (payloads, i), &size);
      g_ptr_array_add (f->applied, g_strdup_printf ("%s:%.*s",
                                                    undod_apply_get_direction (apply) == UNDOD_DIRECTION_UNDO ? "undo" : "redo",
                                                    (int) size, data));
    }
  if (f->push_while_applying != NULL)
    {
      g_autoptr (GBytes) undo = text ("u-during"), redo = text ("r-during");
      undod_stack_push (f->push_while_applying, "During", undo, redo, NULL);
    }
  if (f->answer_later)
    f->unanswered = g_object_ref (apply);
  else
    undod_apply_return_success (apply);
  return TRUE;
}

static void
on_push_failed (UndodStack *stack, const char *name, GError *error, Fixture *f)
{
  g_test_message ("push %s failed: %s", name, error->message);
  f->push_failures++;
}

static void
store_result (GObject *source, GAsyncResult *result, gpointer data)
{
  *(GAsyncResult **) data = g_object_ref (result);
}

static UndodStack *
register_stack (Fixture *f, const char *app_id, UndodOptions *options)
{
  GAsyncResult *result = NULL;
  undod_client_register (f->client, app_id, options, NULL, store_result, &result);
  WAIT_FOR (result != NULL);
  g_autoptr (GError) error = NULL;
  UndodStack *stack = undod_client_register_finish (f->client, result, &error);
  g_object_unref (result);
  g_assert_no_error (error);
  g_signal_connect (stack, "apply", G_CALLBACK (on_apply), f);
  g_signal_connect (stack, "push-failed", G_CALLBACK (on_push_failed), f);
  g_ptr_array_add (f->stacks, g_object_ref (stack));
  return stack;
}

/* Undoes on @stack; returns the group's name, or NULL with @error set. */
static char *
undo_on (UndodStack *stack, GError **error)
{
  GAsyncResult *result = NULL;
  undod_stack_undo (stack, NULL, store_result, &result);
  WAIT_FOR (result != NULL);
  char *name = NULL;
  guint64 group = undod_stack_undo_finish (stack, result, &name, error);
  g_object_unref (result);
  g_assert_true ((group != 0) == (name != NULL));
  return name;
}

/* Undoes on @stack, which must undo the group named @name. */
static void
expect_undo (UndodStack *stack, const char *name)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *undone = undo_on (stack, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (undone, ==, name);
}

static void
test_push_undo_redo (Fixture *f, gconstpointer data)
{
  g_autoptr (UndodStack) stack = register_stack (f, "org.undod.test.Editor", NULL);
  g_autoptr (GBytes) u1 = text ("u1"), r1 = text ("r1"), u2 = text ("u2"), r2 = text ("r2");
  undod_stack_push (stack, "Typing", u1, r1, NULL);
  undod_stack_push (stack, "Paste", u2, r2, NULL);

  g_autoptr (GError) error = NULL;
  g_autofree char *first = undo_on (stack, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (first, ==, "Paste");

  /* The focused stack is the one that registered last: the global path. */
  GAsyncResult *result = NULL;
  undod_client_undo_focused (f->client, NULL, store_result, &result);
  WAIT_FOR (result != NULL);
  g_autofree char *path = NULL, *name = NULL;
  undod_client_undo_focused_finish (f->client, result, &path, &name, &error);
  g_object_unref (result);
  g_assert_no_error (error);
  g_assert_cmpstr (name, ==, "Typing");
  g_assert_cmpstr (path, ==, undod_stack_get_path (stack));

  result = NULL;
  undod_stack_redo (stack, NULL, store_result, &result);
  WAIT_FOR (result != NULL);
  g_autofree char *redone = NULL;
  undod_stack_redo_finish (stack, result, &redone, &error);
  g_object_unref (result);
  g_assert_no_error (error);
  g_assert_cmpstr (redone, ==, "Typing");

  g_assert_cmpuint (f->applied->len, ==, 3);
  g_assert_cmpstr (g_ptr_array_index (f->applied, 0), ==, "undo:u2");
  g_assert_cmpstr (g_ptr_array_index (f->applied, 1), ==, "undo:u1");
  g_assert_cmpstr (g_ptr_array_index (f->applied, 2), ==, "redo:r1");
  g_assert_cmpuint (f->push_failures, ==, 0);
}

static void
test_errors_carry_their_codes (Fixture *f, gconstpointer data)
{
  g_autoptr (UndodStack) stack = register_stack (f, "org.undod.test.Empty", NULL);
  g_autoptr (GError) error = NULL;
  g_autofree char *name = undo_on (stack, &error);
  g_assert_null (name);
  g_assert_error (error, UNDOD_ERROR, UNDOD_ERROR_NOTHING_TO_UNDO);
  g_assert_false (g_str_has_prefix (error->message, "GDBus.Error:"));

  GAsyncResult *result = NULL;
  undod_client_register (f->client, "not an app id", NULL, NULL, store_result, &result);
  WAIT_FOR (result != NULL);
  g_clear_error (&error);
  g_autoptr (UndodStack) none = undod_client_register_finish (f->client, result, &error);
  g_object_unref (result);
  g_assert_null (none);
  g_assert_error (error, UNDOD_ERROR, UNDOD_ERROR_INVALID_APP_ID);
}

/* A push made while the app applies an undo waits for the apply's answer
 * (undod would refuse it with Busy), then leaves, in order. */
static void
test_push_during_apply_waits (Fixture *f, gconstpointer data)
{
  g_autoptr (UndodStack) stack = register_stack (f, "org.undod.test.Busy", NULL);
  g_autoptr (GBytes) u = text ("u-a"), r = text ("r-a");
  undod_stack_push (stack, "A", u, r, NULL);
  f->answer_later = TRUE;
  f->push_while_applying = stack;

  GAsyncResult *result = NULL;
  undod_stack_undo (stack, NULL, store_result, &result);
  WAIT_FOR (f->unanswered != NULL);
  f->push_while_applying = NULL;
  f->answer_later = FALSE;
  /* A second push from the main loop, still during the apply. */
  g_autoptr (GBytes) u2 = text ("u-after"), r2 = text ("r-after");
  undod_stack_push (stack, "After", u2, r2, NULL);
  undod_apply_return_success (f->unanswered);
  g_clear_object (&f->unanswered);
  WAIT_FOR (result != NULL);
  g_autoptr (GError) error = NULL;
  g_autofree char *undone = NULL;
  undod_stack_undo_finish (stack, result, &undone, &error);
  g_object_unref (result);
  g_assert_no_error (error);
  g_assert_cmpstr (undone, ==, "A");

  g_autofree char *second = undo_on (stack, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (second, ==, "After");
  g_autofree char *third = undo_on (stack, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (third, ==, "During");
  g_assert_cmpuint (f->push_failures, ==, 0);
  g_assert_cmpuint (f->applied->len, ==, 3);
  g_assert_cmpstr (g_ptr_array_index (f->applied, 1), ==, "undo:u-after");
  g_assert_cmpstr (g_ptr_array_index (f->applied, 2), ==, "undo:u-during");
}

/* The client's connection (the library's own, for a filter that sees what
 * arrives before the main loop does). */
GDBusConnection *undod_client_get_connection (UndodClient *client);

typedef struct {
  gint applies_arrived;
  gint busy_answers;
} Arrivals;

static GDBusMessage *
count_arrivals (GDBusConnection *connection, GDBusMessage *message, gboolean incoming, gpointer data)
{
  Arrivals *arrivals = data;
  if (!incoming)
    return message;
  if (g_strcmp0 (g_dbus_message_get_member (message), "Apply") == 0)
    g_atomic_int_inc (&arrivals->applies_arrived);
  if (g_strcmp0 (g_dbus_message_get_error_name (message), "org.undod.Undo1.Error.Busy") == 0)
    g_atomic_int_inc (&arrivals->busy_answers);
  return message;
}

/* A push that reaches undod while it waits for the app's Apply answer is
 * refused with Busy; the stack sends it again once the app answered, before
 * the pushes made after it, and nothing fails. */
static void
test_push_refused_busy_is_sent_again_in_order (Fixture *f, gconstpointer data)
{
  g_autoptr (UndodStack) stack = register_stack (f, "org.undod.test.Retry", NULL);
  g_autoptr (GBytes) u = text ("u-first"), r = text ("r-first");
  UndodAction *action = undod_action_new (u, r);
  GAsyncResult *pushed = NULL;
  undod_stack_push_group (stack, "First", &action, 1, NULL, NULL, store_result, &pushed);
  undod_action_free (action);
  WAIT_FOR (pushed != NULL);
  g_clear_object (&pushed);
  Arrivals arrivals = { 0, 0 };
  GDBusConnection *connection = undod_client_get_connection (f->client);
  guint filter = g_dbus_connection_add_filter (connection, count_arrivals, &arrivals, NULL);

  /* Someone else undoes; the Apply reaches this process, not yet its loop. */
  g_autoptr (GError) error = NULL;
  g_autoptr (GDBusConnection) stranger = g_dbus_connection_new_for_address_sync (
    g_test_dbus_get_bus_address (f->bus),
    G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT | G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION, NULL, NULL, &error);
  g_assert_no_error (error);
  GAsyncResult *undone = NULL;
  g_dbus_connection_call (stranger, "org.undod.Undo1", undod_stack_get_path (stack), "org.undod.Undo1.Stack", "Undo",
                          NULL, G_VARIANT_TYPE ("(ts)"), 0, WAIT_MS, NULL, store_result, &undone);
  gint64 deadline = g_get_monotonic_time () + WAIT_MS * 1000;
  /* Without running the main loop, which would hand the Apply to the app. */
  while (g_atomic_int_get (&arrivals.applies_arrived) == 0 && g_get_monotonic_time () < deadline)
    g_usleep (1000);
  g_assert_cmpint (g_atomic_int_get (&arrivals.applies_arrived), ==, 1);

  /* Pushed now, the first is refused (undod is applying); the second waits
   * for it. The pushes leave from the client's own thread: still without
   * running the main loop, wait for the refusal. */
  g_autoptr (GBytes) u2 = text ("u-second"), r2 = text ("r-second"), u3 = text ("u-third"), r3 = text ("r-third");
  f->answer_later = TRUE;
  undod_stack_push (stack, "Second", u2, r2, NULL);
  undod_stack_push (stack, "Third", u3, r3, NULL);
  while (g_atomic_int_get (&arrivals.busy_answers) == 0 && g_get_monotonic_time () < deadline)
    g_usleep (1000);
  g_assert_cmpint (g_atomic_int_get (&arrivals.busy_answers), >=, 1);
  WAIT_FOR (f->unanswered != NULL);
  f->answer_later = FALSE;
  undod_apply_return_success (f->unanswered);
  g_clear_object (&f->unanswered);
  WAIT_FOR (undone != NULL);
  g_autoptr (GVariant) reply = g_dbus_connection_call_finish (stranger, undone, &error);
  g_object_unref (undone);
  g_assert_no_error (error);
  g_dbus_connection_remove_filter (connection, filter);

  g_autofree char *last = undo_on (stack, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (last, ==, "Third");
  g_autofree char *before = undo_on (stack, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (before, ==, "Second");
  g_assert_cmpuint (f->push_failures, ==, 0);
}

static void
on_running_changed (GObject *object, GParamSpec *pspec, guint *changes)
{
  (*changes)++;
}

/* undod restarts under a live stack: the stack registers again, adopts its
 * stored history, and calls made meanwhile go to the new undod. */
static void
test_restart_registers_again (Fixture *f, gconstpointer data)
{
  g_autoptr (UndodOptions) options = undod_options_new ();
  undod_options_set_persist (options, TRUE);
  g_autoptr (UndodStack) stack = register_stack (f, "org.undod.test.Restart", options);
  g_autoptr (GBytes) u = text ("u-before"), r = text ("r-before");
  UndodAction *action = undod_action_new (u, r);
  GAsyncResult *result = NULL;
  undod_stack_push_group (stack, "Before", &action, 1, NULL, NULL, store_result, &result);
  WAIT_FOR (result != NULL);
  g_autoptr (GError) error = NULL;
  g_assert_cmpuint (undod_stack_push_group_finish (stack, result, &error), >, 0);
  g_assert_no_error (error);
  g_clear_object (&result);
  undod_action_free (action);

  guint changes = 0;
  g_signal_connect (f->client, "notify::daemon-running", G_CALLBACK (on_running_changed), &changes);
  stop_undod (f);
  WAIT_FOR (!undod_client_get_daemon_running (f->client));
  start_undod (f);
  WAIT_FOR (undod_client_get_daemon_running (f->client));
  g_assert_cmpuint (changes, ==, 2);
  g_signal_handlers_disconnect_by_data (f->client, &changes);

  g_autofree char *undone = undo_on (stack, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (undone, ==, "Before");
  g_assert_cmpuint (f->applied->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (f->applied, 0), ==, "undo:u-before");
}

/* Gives @stack up, keeping its history for a later register to adopt. */
static void
close_keeping (UndodStack *stack)
{
  GAsyncResult *result = NULL;
  undod_stack_close (stack, FALSE, NULL, store_result, &result);
  WAIT_FOR (result != NULL);
  g_autoptr (GError) error = NULL;
  g_assert_true (undod_stack_close_finish (stack, result, &error));
  g_assert_no_error (error);
  g_object_unref (result);
}

static char *
redo_on (UndodStack *stack, GError **error)
{
  GAsyncResult *result = NULL;
  undod_stack_redo (stack, NULL, store_result, &result);
  WAIT_FOR (result != NULL);
  char *name = NULL;
  undod_stack_redo_finish (stack, result, &name, error);
  g_object_unref (result);
  return name;
}

/* Without undod, a stack keeps a local history: pushes, undo and redo work
 * through the app's apply handler; when undod appears the stack registers
 * and its undo side goes to undod (the redo side, which undod cannot take,
 * is dropped). */
static void
test_local_history_while_undod_is_absent (Fixture *f, gconstpointer data)
{
  stop_undod (f);
  WAIT_FOR (!undod_client_get_daemon_running (f->client));
  g_autoptr (UndodStack) stack = register_stack (f, "org.undod.test.Local", NULL);
  g_assert_null (undod_stack_get_path (stack));
  g_autoptr (GBytes) u1 = text ("u1"), r1 = text ("r1"), u2 = text ("u2"), r2 = text ("r2");
  undod_stack_push (stack, "One", u1, r1, NULL);
  undod_stack_push (stack, "Two", u2, r2, NULL);

  g_autoptr (GError) error = NULL;
  g_autofree char *undone = undo_on (stack, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (undone, ==, "Two");
  g_autofree char *redone = redo_on (stack, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (redone, ==, "Two");
  g_autofree char *again = undo_on (stack, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (again, ==, "Two");

  start_undod (f);
  WAIT_FOR (undod_client_get_daemon_running (f->client) && undod_stack_get_path (stack) != NULL);
  g_autofree char *from_undod = undo_on (stack, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (from_undod, ==, "One");
  g_autofree char *nothing = undo_on (stack, &error);
  g_assert_error (error, UNDOD_ERROR, UNDOD_ERROR_NOTHING_TO_UNDO);
  g_assert_null (nothing);

  g_assert_cmpuint (f->applied->len, ==, 4);
  g_assert_cmpstr (g_ptr_array_index (f->applied, 0), ==, "undo:u2");
  g_assert_cmpstr (g_ptr_array_index (f->applied, 1), ==, "redo:r2");
  g_assert_cmpstr (g_ptr_array_index (f->applied, 2), ==, "undo:u2");
  g_assert_cmpstr (g_ptr_array_index (f->applied, 3), ==, "undo:u1");
  g_assert_cmpuint (f->push_failures, ==, 0);
}

/* The local history merges as undod does: a run with one merge key is one
 * group, until an undo closes it. */
static void
test_local_history_merges_like_undod (Fixture *f, gconstpointer data)
{
  stop_undod (f);
  WAIT_FOR (!undod_client_get_daemon_running (f->client));
  g_autoptr (UndodStack) stack = register_stack (f, "org.undod.test.LocalMerge", NULL);
  g_autoptr (GBytes) u1 = text ("u1"), r1 = text ("r1"), u2 = text ("u2"), r2 = text ("r2");
  g_autoptr (GBytes) u3 = text ("u3"), r3 = text ("r3");
  undod_stack_push (stack, "Typing", u1, r1, "typing");
  undod_stack_push (stack, "Typing", u2, r2, "typing");
  g_autoptr (GError) error = NULL;
  g_autofree char *undone = undo_on (stack, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (undone, ==, "Typing");
  g_assert_false (undod_stack_get_can_undo (stack));
  g_assert_cmpuint (f->applied->len, ==, 2);
  g_assert_cmpstr (g_ptr_array_index (f->applied, 0), ==, "undo:u2");
  g_assert_cmpstr (g_ptr_array_index (f->applied, 1), ==, "undo:u1");

  /* After an undo, the same key starts a group of its own. */
  g_autofree char *redone = redo_on (stack, &error);
  g_assert_no_error (error);
  undod_stack_push (stack, "Typing", u3, r3, "typing");
  g_autofree char *last = undo_on (stack, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (f->applied->len, ==, 5);
  g_assert_cmpstr (g_ptr_array_index (f->applied, 4), ==, "undo:u3");
  g_assert_true (undod_stack_get_can_undo (stack));
}

/* A model for the undo manager: setting the value registers setting it back. */
typedef struct {
  int value;
  UndodManager *manager;
} Model;

typedef struct {
  Model *model;
  int previous;
} SetBack;

static void set_value (Model *model, int value);

static void
set_back (gpointer data)
{
  SetBack *back = data;
  set_value (back->model, back->previous);
}

static void
set_value (Model *model, int value)
{
  SetBack *back = g_new0 (SetBack, 1);
  back->model = model;
  back->previous = model->value;
  undod_manager_register_undo (model->manager, set_back, back, g_free);
  undod_manager_set_action_name (model->manager, "Set");
  model->value = value;
}

/* A connection of the test's own, to read undod's properties with. */
static GDBusConnection *
reader_for (Fixture *f)
{
  g_autoptr (GError) error = NULL;
  GDBusConnection *reader = g_dbus_connection_new_for_address_sync (
    g_test_dbus_get_bus_address (f->bus),
    G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT | G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION, NULL, NULL, &error);
  g_assert_no_error (error);
  return reader;
}

static guint32
undo_depth (GDBusConnection *reader, const char *path)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GVariant) reply = g_dbus_connection_call_sync (
    reader, "org.undod.Undo1", path, "org.freedesktop.DBus.Properties", "Get",
    g_variant_new ("(ss)", "org.undod.Undo1.Stack", "UndoDepth"), G_VARIANT_TYPE ("(v)"), 0, WAIT_MS, NULL, &error);
  g_assert_no_error (error);
  g_autoptr (GVariant) value = NULL;
  g_variant_get (reply, "(v)", &value);
  return g_variant_get_uint32 (value);
}

/* Whether undod owns its name on the bus now. */
static gboolean
undod_on_bus (GDBusConnection *reader)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GVariant) reply = g_dbus_connection_call_sync (
    reader, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "NameHasOwner",
    g_variant_new ("(s)", "org.undod.Undo1"), G_VARIANT_TYPE ("(b)"), 0, WAIT_MS, NULL, &error);
  g_assert_no_error (error);
  gboolean owned = FALSE;
  g_variant_get (reply, "(b)", &owned);
  return owned;
}

static void
undo_or_redo_focused (Fixture *f, gboolean undo)
{
  GAsyncResult *result = NULL;
  if (undo)
    undod_client_undo_focused (f->client, NULL, store_result, &result);
  else
    undod_client_redo_focused (f->client, NULL, store_result, &result);
  WAIT_FOR (result != NULL);
  g_autoptr (GError) error = NULL;
  if (undo)
    undod_client_undo_focused_finish (f->client, result, NULL, NULL, &error);
  else
    undod_client_redo_focused_finish (f->client, result, NULL, NULL, &error);
  g_object_unref (result);
  g_assert_no_error (error);
}

/* The undo manager, NSUndoManager's shape: one group per main-loop turn or
 * per explicit grouping; undod's undo runs the registered functions last
 * first, and what they register is the redo. */
static void
test_undo_manager_runs_registered_functions (Fixture *f, gconstpointer data)
{
  GAsyncResult *result = NULL;
  g_autoptr (UndodOptions) options = undod_options_new ();
  undod_options_set_persist (options, FALSE);
  undod_client_register (f->client, "org.undod.test.Manager", options, NULL, store_result, &result);
  WAIT_FOR (result != NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (UndodStack) stack = undod_client_register_finish (f->client, result, &error);
  g_object_unref (result);
  g_assert_no_error (error);
  g_autoptr (UndodManager) manager = undod_manager_new (stack);
  g_autoptr (GDBusConnection) reader = reader_for (f);
  Model model = { 0, manager };

  set_value (&model, 1);
  WAIT_POLL (undo_depth (reader, undod_stack_get_path (stack)) == 1);
  set_value (&model, 2);
  WAIT_POLL (undo_depth (reader, undod_stack_get_path (stack)) == 2);
  undod_manager_begin_grouping (manager);
  set_value (&model, 3);
  g_main_context_iteration (NULL, FALSE);
  set_value (&model, 4);
  undod_manager_end_grouping (manager);
  WAIT_POLL (undo_depth (reader, undod_stack_get_path (stack)) == 3);

  undo_or_redo_focused (f, TRUE);
  g_assert_cmpint (model.value, ==, 2);
  undo_or_redo_focused (f, FALSE);
  g_assert_cmpint (model.value, ==, 4);
  undo_or_redo_focused (f, TRUE);
  undo_or_redo_focused (f, TRUE);
  g_assert_cmpint (model.value, ==, 1);
  undo_or_redo_focused (f, FALSE);
  g_assert_cmpint (model.value, ==, 2);
  g_assert_cmpuint (undo_depth (reader, undod_stack_get_path (stack)), ==, 2);
}

/* Only undod may call the app's Apply: anyone else is refused, and the
 * app's handler never runs. */
static void
test_apply_only_from_undod (Fixture *f, gconstpointer data)
{
  g_autoptr (UndodStack) stack = register_stack (f, "org.undod.test.Guarded", NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (GDBusConnection) stranger = g_dbus_connection_new_for_address_sync (
    g_test_dbus_get_bus_address (f->bus),
    G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT | G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION, NULL, NULL, &error);
  g_assert_no_error (error);
  const char *client_name = NULL;
  /* The client's unique name: the stack's Owner property in undod. */
  g_autoptr (GVariant) owner = g_dbus_connection_call_sync (
    stranger, "org.undod.Undo1", undod_stack_get_path (stack), "org.freedesktop.DBus.Properties", "Get",
    g_variant_new ("(ss)", "org.undod.Undo1.Stack", "Owner"), G_VARIANT_TYPE ("(v)"), 0, WAIT_MS, NULL, &error);
  g_assert_no_error (error);
  g_autoptr (GVariant) value = NULL;
  g_variant_get (owner, "(v)", &value);
  client_name = g_variant_get_string (value, NULL);
  g_autoptr (GVariant) payloads = g_variant_new_array (G_VARIANT_TYPE ("ay"), NULL, 0);
  /* Asynchronously: the app answers from this thread's main loop. */
  GAsyncResult *result = NULL;
  g_dbus_connection_call (stranger, client_name, "/org/undod/Undo1/Client", "org.undod.Undo1.Client", "Apply",
                          g_variant_new ("(ots@aay)", undod_stack_get_path (stack), (guint64) 1, "undo",
                                         g_variant_ref_sink (payloads)),
                          NULL, 0, WAIT_MS, NULL, store_result, &result);
  WAIT_FOR (result != NULL);
  g_autoptr (GVariant) reply = g_dbus_connection_call_finish (stranger, result, &error);
  g_object_unref (result);
  g_assert_null (reply);
  g_assert_error (error, G_DBUS_ERROR, G_DBUS_ERROR_ACCESS_DENIED);
  g_assert_cmpuint (f->applied->len, ==, 0);
}

/* What a menu shows follows the stack: can-undo at once after a push;
 * after an undo made elsewhere (the global path), what undod says; clean
 * after set-clean, and again when a redo walks back to that state; a clear
 * empties both sides. */
/* Records, each time the redo side gets a name, what the undo side says
 * at that moment: never the name of the group that just left it. */
static void
note_both_names (UndodStack *stack, GParamSpec *pspec, GPtrArray *seen)
{
  g_ptr_array_add (seen, g_strdup_printf ("%s|%s", undod_stack_get_undo_name (stack),
                                          undod_stack_get_redo_name (stack)));
}

static void
test_state_follows_the_stack (Fixture *f, gconstpointer data)
{
  g_autoptr (UndodStack) stack = register_stack (f, "org.undod.test.Menu", NULL);
  g_assert_false (undod_stack_get_can_undo (stack));
  g_autoptr (GBytes) u1 = text ("u1"), r1 = text ("r1"), u2 = text ("u2"), r2 = text ("r2");
  undod_stack_push (stack, "One", u1, r1, NULL);
  undod_stack_push (stack, "Two", u2, r2, NULL);
  g_assert_true (undod_stack_get_can_undo (stack));
  g_assert_false (undod_stack_get_can_redo (stack));
  g_assert_cmpstr (undod_stack_get_undo_name (stack), ==, "Two");
  g_assert_false (undod_stack_get_clean (stack));
  undod_stack_set_clean (stack, NULL, NULL, NULL);
  g_assert_true (undod_stack_get_clean (stack));

  /* Away from the saved state and back: clean follows. The side a group
   * went to has it at once (a key pressed right after works); the rest
   * follows when undod has been asked, never naming meanwhile the group
   * that left it. */
  g_autoptr (GPtrArray) seen = g_ptr_array_new_with_free_func (g_free);
  gulong watch = g_signal_connect (stack, "notify::redo-name", G_CALLBACK (note_both_names), seen);
  undo_or_redo_focused (f, TRUE);
  g_assert_true (undod_stack_get_can_redo (stack));
  g_assert_cmpstr (undod_stack_get_redo_name (stack), ==, "Two");
  WAIT_FOR (!undod_stack_get_clean (stack) && g_str_equal (undod_stack_get_undo_name (stack), "One"));
  g_assert_true (undod_stack_get_can_undo (stack));
  g_assert_true (undod_stack_get_can_redo (stack));
  g_assert_cmpstr (undod_stack_get_redo_name (stack), ==, "Two");
  g_signal_handler_disconnect (stack, watch);
  for (guint i = 0; i < seen->len; i++)
    g_assert_cmpstr (g_ptr_array_index (seen, i), !=, "Two|Two");
  g_assert_cmpuint (seen->len, >, 0);
  undo_or_redo_focused (f, FALSE);
  g_assert_cmpstr (undod_stack_get_undo_name (stack), ==, "Two");
  WAIT_FOR (!undod_stack_get_can_redo (stack));
  g_assert_true (undod_stack_get_clean (stack));
  undo_or_redo_focused (f, TRUE);
  WAIT_FOR (undod_stack_get_can_redo (stack));
  undo_or_redo_focused (f, TRUE);
  WAIT_FOR (!undod_stack_get_can_undo (stack));
  g_assert_cmpstr (undod_stack_get_undo_name (stack), ==, "");
  g_assert_cmpstr (undod_stack_get_redo_name (stack), ==, "One");

  undod_stack_clear (stack, NULL, NULL, NULL);
  WAIT_FOR (!undod_stack_get_can_redo (stack));
  g_assert_false (undod_stack_get_can_undo (stack));
  g_assert_cmpuint (f->push_failures, ==, 0);
}

/* The push hints go to undod: a merge window of the push's own (1 ms keeps
 * two pushes apart that the configured second would merge), and a state
 * tag that lets a later register adopt the history. */
static void
test_hints_reach_undod (Fixture *f, gconstpointer data)
{
  g_autoptr (GDBusConnection) reader = reader_for (f);
  g_autoptr (UndodOptions) options = undod_options_new ();
  undod_options_set_persist (options, FALSE);
  g_autoptr (UndodStack) stack = register_stack (f, "org.undod.test.Hints", options);
  const char *path = undod_stack_get_path (stack);
  g_autoptr (GBytes) u = text ("u"), r = text ("r");
  undod_stack_push (stack, "Typing", u, r, "typing");
  undod_stack_push (stack, "Typing", u, r, "typing");
  WAIT_POLL (undo_depth (reader, path) == 1 && undod_stack_get_can_undo (stack));
  /* Time passes beyond 1 ms, well inside the configured window. */
  g_usleep (5000);
  g_autoptr (UndodHints) hints = undod_hints_new ();
  undod_hints_set_merge_key (hints, "typing");
  undod_hints_set_merge_window_ms (hints, 1);
  undod_hints_set_state_tag (hints, "after-three");
  g_assert_cmpuint (undod_hints_get_merge_window_ms (hints), ==, 1);
  undod_stack_push_full (stack, "Typing", u, r, hints);
  WAIT_POLL (undo_depth (reader, path) == 2);

  /* Given up and registered again with the tag of the state reached: the
   * history is adopted, and can be undone at once. */
  close_keeping (stack);
  undod_options_set_state_tag (options, "after-three");
  g_autoptr (UndodStack) again = register_stack (f, "org.undod.test.Hints", options);
  WAIT_FOR (undod_stack_get_can_undo (again));
  g_assert_cmpuint (undo_depth (reader, undod_stack_get_path (again)), ==, 2);
  g_assert_cmpuint (f->push_failures, ==, 0);
}

/* Clean and clear with undod gone: a stack that was modified stays
 * modified when undod vanishes; a save in the local history is a point no
 * later push merges into; a clear of the local history works (and leaves
 * the stack's calls going) and undod, back, takes the stack on. */
static void
test_local_clean_and_clear (Fixture *f, gconstpointer data)
{
  g_autoptr (GDBusConnection) reader = reader_for (f);
  g_autoptr (UndodStack) stack = register_stack (f, "org.undod.test.LocalClean", NULL);
  g_autoptr (GBytes) u1 = text ("u1"), r1 = text ("r1"), u2 = text ("u2"), r2 = text ("r2");
  g_autoptr (GBytes) u3 = text ("u3"), r3 = text ("r3"), u4 = text ("u4"), r4 = text ("r4");
  undod_stack_push (stack, "One", u1, r1, NULL);
  WAIT_POLL (undo_depth (reader, undod_stack_get_path (stack)) == 1);
  g_assert_false (undod_stack_get_clean (stack));
  stop_undod (f);
  WAIT_FOR (!undod_client_get_daemon_running (f->client));
  g_assert_false (undod_stack_get_clean (stack)); /* still modified: nothing was saved */

  undod_stack_push (stack, "Typing", u2, r2, "typing");
  undod_stack_set_clean (stack, NULL, NULL, NULL);
  g_assert_true (undod_stack_get_clean (stack));
  undod_stack_push (stack, "Typing", u3, r3, "typing");
  g_assert_false (undod_stack_get_clean (stack));
  g_autoptr (GError) error = NULL;
  g_autofree char *undone = undo_on (stack, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (f->applied->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (f->applied, 0), ==, "undo:u3"); /* not merged into the saved group */
  g_assert_true (undod_stack_get_clean (stack));

  GAsyncResult *result = NULL;
  undod_stack_clear (stack, NULL, store_result, &result);
  WAIT_FOR (result != NULL);
  g_assert_true (undod_stack_clear_finish (stack, result, &error));
  g_assert_no_error (error);
  g_clear_object (&result);
  g_assert_false (undod_stack_get_can_undo (stack));
  g_assert_false (undod_stack_get_can_redo (stack));

  start_undod (f);
  WAIT_FOR (undod_client_get_daemon_running (f->client));
  undod_stack_push (stack, "Four", u4, r4, NULL);
  WAIT_POLL (undod_stack_get_path (stack) != NULL && undo_depth (reader, undod_stack_get_path (stack)) >= 1);
  g_assert_cmpuint (f->push_failures, ==, 0);
}

/* Pushes @name with the hint that the document's tag is @tag after it. */
static void
push_tagged (UndodStack *stack, const char *name, const char *tag)
{
  g_autoptr (GBytes) u = text (name), r = text (name);
  g_autoptr (UndodHints) hints = undod_hints_new ();
  undod_hints_set_state_tag (hints, tag);
  undod_stack_push_full (stack, name, u, r, hints);
}

/* An app that follows ADOPTING's state-tag advice keeps its history when
 * undod restarts: the stack registers again without the tag it first gave
 * (the document has moved on since), so undod does not take the history
 * for another document's. */
static void
test_restart_keeps_a_tagged_history (Fixture *f, gconstpointer data)
{
  g_autoptr (GDBusConnection) reader = reader_for (f);
  g_autoptr (UndodOptions) options = undod_options_new ();
  undod_options_set_persist (options, TRUE);
  undod_options_set_state_tag (options, "opened");
  g_autoptr (UndodStack) stack = register_stack (f, "org.undod.test.Tagged", options);
  push_tagged (stack, "A", "after-a");
  push_tagged (stack, "B", "after-b");
  WAIT_POLL (undo_depth (reader, undod_stack_get_path (stack)) == 2);

  stop_undod (f);
  WAIT_FOR (!undod_client_get_daemon_running (f->client));
  start_undod (f);
  WAIT_FOR (undod_client_get_daemon_running (f->client));
  expect_undo (stack, "B");
  expect_undo (stack, "A");
  g_assert_cmpuint (f->push_failures, ==, 0);
}

/* A group pushed while undod was away reaches undod with its state tag:
 * the document reopened with that tag finds its history. */
static void
test_local_pushes_keep_their_state_tag (Fixture *f, gconstpointer data)
{
  g_autoptr (GDBusConnection) reader = reader_for (f);
  g_autoptr (UndodOptions) options = undod_options_new ();
  undod_options_set_persist (options, TRUE);
  undod_options_set_state_tag (options, "opened");
  g_autoptr (UndodStack) stack = register_stack (f, "org.undod.test.LocalTag", options);
  push_tagged (stack, "Online", "after-online");
  WAIT_POLL (undo_depth (reader, undod_stack_get_path (stack)) == 1);

  stop_undod (f);
  WAIT_FOR (!undod_client_get_daemon_running (f->client));
  push_tagged (stack, "Offline", "after-offline");
  start_undod (f);
  g_clear_object (&reader);
  reader = reader_for (f);
  WAIT_POLL (undod_client_get_daemon_running (f->client) && undo_depth (reader, undod_stack_get_path (stack)) == 2);

  close_keeping (stack);
  g_autoptr (UndodOptions) reopened = undod_options_new ();
  undod_options_set_persist (reopened, TRUE);
  undod_options_set_state_tag (reopened, "after-offline");
  g_autoptr (UndodStack) again = register_stack (f, "org.undod.test.LocalTag", reopened);
  g_assert_cmpuint (undo_depth (reader, undod_stack_get_path (again)), ==, 2);
  g_assert_cmpuint (f->push_failures, ==, 0);
}

/* A stream of pushes across an undod stop and start loses none: a push
 * out when undod left, or one that reached the new undod before the stack
 * registered again, goes again (or into the local history). */
static void
test_pushes_across_a_restart_all_arrive (Fixture *f, gconstpointer data)
{
  g_autoptr (UndodOptions) options = undod_options_new ();
  undod_options_set_persist (options, TRUE);
  undod_options_set_limit (options, 5000);
  g_autoptr (UndodStack) stack = register_stack (f, "org.undod.test.Stream", options);
  g_autoptr (GBytes) u = text ("u"), r = text ("r");
  for (guint round = 0; round < 3; round++)
    {
      for (guint i = 0; i < 300; i++)
        undod_stack_push (stack, "Edit", u, r, NULL);
      /* Pushes are out while undod stops, and while the new one starts. */
      while (g_main_context_iteration (NULL, FALSE))
        ;
      stop_undod (f);
      for (guint i = 0; i < 300; i++)
        undod_stack_push (stack, "Edit", u, r, NULL);
      start_undod (f);
      for (guint i = 0; i < 300; i++)
        undod_stack_push (stack, "Edit", u, r, NULL);
      WAIT_FOR (undod_client_get_daemon_running (f->client));
    }
  /* The client may not have seen the last stop yet: the last undod is
   * asked only once it is on the bus. */
  g_autoptr (GDBusConnection) reader = reader_for (f);
  WAIT_POLL (undod_on_bus (reader) && undod_client_get_daemon_running (f->client) &&
             undo_depth (reader, undod_stack_get_path (stack)) == 2700);
  g_assert_cmpuint (f->push_failures, ==, 0);
}

/* `undoctl undo --last` after undod restarted undoes the change made last,
 * whichever stack registered again last: a stack taken up again keeps its
 * groups and their times (a bridge that pushed its history anew would make
 * the older change look newest). */
static void
test_undo_last_after_a_restart (Fixture *f, gconstpointer data)
{
  g_autoptr (GDBusConnection) reader = reader_for (f);
  g_autoptr (UndodOptions) options = undod_options_new ();
  undod_options_set_persist (options, TRUE);
  g_autoptr (UndodStack) older = register_stack (f, "org.undod.test.Older", options);
  g_autoptr (UndodStack) newer = register_stack (f, "org.undod.test.Newer", options);
  g_autoptr (GBytes) u1 = text ("u-older"), r1 = text ("r-older"), u2 = text ("u-newer"), r2 = text ("r-newer");
  undod_stack_push (older, "Older", u1, r1, NULL);
  WAIT_POLL (undo_depth (reader, undod_stack_get_path (older)) == 1);
  undod_stack_push (newer, "Newer", u2, r2, NULL);
  WAIT_POLL (undo_depth (reader, undod_stack_get_path (newer)) == 1);

  stop_undod (f);
  WAIT_FOR (!undod_client_get_daemon_running (f->client));
  start_undod (f);
  g_clear_object (&reader);
  reader = reader_for (f);
  WAIT_POLL (undod_client_get_daemon_running (f->client) && undod_stack_get_path (newer) != NULL &&
             undod_stack_get_path (older) != NULL && undo_depth (reader, undod_stack_get_path (older)) == 1 &&
             undo_depth (reader, undod_stack_get_path (newer)) == 1);

  g_autofree char *bin = g_path_get_dirname (g_getenv ("UNDOD"));
  g_autofree char *undoctl = g_build_filename (bin, "undoctl", NULL);
  const char *argv[] = { undoctl, "--address", g_test_dbus_get_bus_address (f->bus), "undo", "--last", NULL };
  g_autoptr (GError) error = NULL;
  g_autoptr (GSubprocess) run = g_subprocess_newv (argv, G_SUBPROCESS_FLAGS_STDOUT_PIPE, &error);
  g_assert_no_error (error);
  g_autofree char *printed = NULL;
  /* undoctl waits for the Apply that this loop answers: communicate
   * asynchronously, and go on running the loop. */
  GAsyncResult *result = NULL;
  g_subprocess_communicate_utf8_async (run, NULL, NULL, store_result, &result);
  WAIT_FOR (result != NULL);
  g_subprocess_communicate_utf8_finish (run, result, &printed, NULL, &error);
  g_object_unref (result);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_get_if_exited (run) && g_subprocess_get_exit_status (run) == 0);
  g_assert_nonnull (strstr (printed, "Undid \"Newer\""));
  g_assert_cmpuint (f->applied->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (f->applied, 0), ==, "undo:u-newer");
  g_assert_cmpuint (undo_depth (reader, undod_stack_get_path (older)), ==, 1);
}

/* undod's activation file is installed but undod fails to start: the app
 * still gets its stack, with a local history, not a raw bus error. */
static void
test_register_when_undod_cannot_start (Fixture *f, gconstpointer data)
{
  g_autofree char *services = g_build_filename (f->directory, "services", NULL);
  g_assert_cmpint (g_mkdir (services, 0700), ==, 0);
  g_autofree char *file = g_build_filename (services, "org.undod.Undo1.service", NULL);
  g_autoptr (GError) error = NULL;
  g_file_set_contents (file, "[D-BUS Service]\nName=org.undod.Undo1\nExec=/bin/false\n", -1, &error);
  g_assert_no_error (error);
  g_autoptr (GTestDBus) bus = g_test_dbus_new (G_TEST_DBUS_NONE);
  g_test_dbus_add_service_dir (bus, services);
  g_test_dbus_up (bus);
  g_autoptr (UndodClient) client = undod_client_new_sync (g_test_dbus_get_bus_address (bus), NULL, &error);
  g_assert_no_error (error);

  GAsyncResult *result = NULL;
  undod_client_register (client, "org.undod.test.Unstartable", NULL, NULL, store_result, &result);
  WAIT_FOR (result != NULL);
  g_autoptr (UndodStack) stack = undod_client_register_finish (client, result, &error);
  g_object_unref (result);
  g_assert_no_error (error);
  g_assert_nonnull (stack);
  g_assert_null (undod_stack_get_path (stack));
  g_autoptr (GBytes) u = text ("u"), r = text ("r");
  undod_stack_push (stack, "Local", u, r, NULL);
  g_assert_true (undod_stack_get_can_undo (stack));
  g_assert_cmpstr (undod_stack_get_undo_name (stack), ==, "Local");
  g_clear_object (&stack);
  g_clear_object (&client);
  g_test_dbus_down (bus);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add ("/client/push-undo-redo", Fixture, NULL, setup, test_push_undo_redo, teardown);
  g_test_add ("/client/errors-carry-their-codes", Fixture, NULL, setup, test_errors_carry_their_codes, teardown);
  g_test_add ("/client/push-during-apply-waits", Fixture, NULL, setup, test_push_during_apply_waits, teardown);
  g_test_add ("/client/push-refused-busy-is-sent-again-in-order", Fixture, NULL, setup,
              test_push_refused_busy_is_sent_again_in_order, teardown);
  g_test_add ("/client/restart-registers-again", Fixture, NULL, setup, test_restart_registers_again, teardown);
  g_test_add ("/client/local-history-while-undod-is-absent", Fixture, NULL, setup,
              test_local_history_while_undod_is_absent, teardown);
  g_test_add ("/client/local-history-merges-like-undod", Fixture, NULL, setup,
              test_local_history_merges_like_undod, teardown);
  g_test_add ("/client/local-clean-and-clear", Fixture, NULL, setup, test_local_clean_and_clear, teardown);
  g_test_add ("/client/undo-manager-runs-registered-functions", Fixture, NULL, setup,
              test_undo_manager_runs_registered_functions, teardown);
  g_test_add ("/client/apply-only-from-undod", Fixture, NULL, setup, test_apply_only_from_undod, teardown);
  g_test_add ("/client/state-follows-the-stack", Fixture, NULL, setup, test_state_follows_the_stack, teardown);
  g_test_add ("/client/hints-reach-undod", Fixture, NULL, setup, test_hints_reach_undod, teardown);
  g_test_add ("/client/restart-keeps-a-tagged-history", Fixture, NULL, setup, test_restart_keeps_a_tagged_history,
              teardown);
  g_test_add ("/client/local-pushes-keep-their-state-tag", Fixture, NULL, setup,
              test_local_pushes_keep_their_state_tag, teardown);
  g_test_add ("/client/pushes-across-a-restart-all-arrive", Fixture, NULL, setup,
              test_pushes_across_a_restart_all_arrive, teardown);
  g_test_add ("/client/undo-last-after-a-restart", Fixture, NULL, setup, test_undo_last_after_a_restart, teardown);
  g_test_add ("/client/register-when-undod-cannot-start", Fixture, NULL, setup,
              test_register_when_undod_cannot_start, teardown);
  return g_test_run ();
}
