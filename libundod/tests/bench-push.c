/* bench-push.c: what a push costs the app's main loop with libundod. Runs
 * undod ($UNDOD) on a private bus, registers a memory-only stack, and
 * pushes N groups of one 64-byte action with undod_stack_push:
 *  - the call itself (it returns once the push is queued), median and p99;
 *  - the main thread's CPU time per push from the first push until every
 *    answer has been handled (GDBus's own thread writes and reads; the main
 *    loop builds the message and runs the reply's completion).
 * Prints one line per figure. `meson test --benchmark -C .build/libundod`. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <undod/undod.h>

#define PUSHES 10000

static gint64
thread_cpu_ns (void)
{
  struct timespec now;
  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &now);
  return (gint64) now.tv_sec * 1000000000 + now.tv_nsec;
}

static gint64
monotonic_ns (void)
{
  struct timespec now;
  clock_gettime (CLOCK_MONOTONIC, &now);
  return (gint64) now.tv_sec * 1000000000 + now.tv_nsec;
}

static int
compare (const void *a, const void *b)
{
  gint64 x = *(const gint64 *) a, y = *(const gint64 *) b;
  return (x > y) - (x < y);
}

static void
store_result (GObject *source, GAsyncResult *result, gpointer data)
{
  *(GAsyncResult **) data = g_object_ref (result);
}

static void
count_failure (UndodStack *stack, const char *name, GError *error, guint *failures)
{
  if ((*failures)++ == 0)
    g_printerr ("The first push that failed: %s\n", error->message);
}

static void
wait_for_result (GAsyncResult **result)
{
  gint64 deadline = monotonic_ns () + G_GINT64_CONSTANT (60000000000);
  while (*result == NULL && monotonic_ns () < deadline)
    g_main_context_iteration (NULL, TRUE);
  if (*result == NULL)
    g_error ("No answer within 60 s.");
}

int
main (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GTestDBus) bus = g_test_dbus_new (G_TEST_DBUS_NONE);
  g_test_dbus_up (bus);
  g_autofree char *directory = g_dir_make_tmp ("libundod-bench-XXXXXX", &error);
  g_assert_no_error (error);
  g_autofree char *config = g_build_filename (directory, "undod.conf", NULL);
  g_autofree char *state = g_build_filename (directory, "state", NULL);
  g_file_set_contents (config, "[limits]\nlevels = 100000\n", -1, &error);
  g_assert_no_error (error);
  g_autoptr (GSubprocess) undod = g_subprocess_new (G_SUBPROCESS_FLAGS_NONE, &error, g_getenv ("UNDOD"), "--address",
                                                    g_test_dbus_get_bus_address (bus), "--config", config,
                                                    "--state-dir", state, NULL);
  g_assert_no_error (error);
  g_autoptr (UndodClient) client = undod_client_new_sync (g_test_dbus_get_bus_address (bus), NULL, &error);
  g_assert_no_error (error);
  while (!undod_client_get_daemon_running (client))
    g_main_context_iteration (NULL, TRUE);

  g_autoptr (UndodOptions) options = undod_options_new ();
  undod_options_set_persist (options, FALSE);
  GAsyncResult *result = NULL;
  undod_client_register (client, "org.undod.bench.Push", options, NULL, store_result, &result);
  wait_for_result (&result);
  g_autoptr (UndodStack) stack = undod_client_register_finish (client, result, &error);
  g_clear_object (&result);
  g_assert_no_error (error);
  guint failures = 0;
  g_signal_connect (stack, "push-failed", G_CALLBACK (count_failure), &failures);

  guint8 bytes[64];
  memset (bytes, 7, sizeof bytes);
  g_autoptr (GBytes) payload = g_bytes_new (bytes, sizeof bytes);
  gint64 *calls = g_new (gint64, PUSHES);
  gint64 cpu_start = thread_cpu_ns ();
  gint64 wall_start = monotonic_ns ();
  for (guint i = 0; i < PUSHES; i++)
    {
      gint64 start = monotonic_ns ();
      undod_stack_push (stack, "Typing", payload, payload, NULL);
      calls[i] = monotonic_ns () - start;
    }
  /* Answered in order: once SetClean's answer is handled, every push's is. */
  undod_stack_set_clean (stack, NULL, store_result, &result);
  wait_for_result (&result);
  gint64 cpu = thread_cpu_ns () - cpu_start;
  gint64 wall = monotonic_ns () - wall_start;
  undod_stack_set_clean_finish (stack, result, &error);
  g_clear_object (&result);
  g_assert_no_error (error);
  if (failures > 0)
    g_error ("%u of %d pushes failed.", failures, PUSHES);

  qsort (calls, PUSHES, sizeof calls[0], compare);
  printf ("undod_stack_push, the call: median %.2f µs, p99 %.2f µs over %d pushes\n", calls[PUSHES / 2] / 1000.0,
          calls[PUSHES * 99 / 100] / 1000.0, PUSHES);
  printf ("main thread CPU per push, answers included: %.2f µs (all %d answered in %.0f ms)\n",
          (double) cpu / PUSHES / 1000.0, PUSHES, wall / 1e6);
  g_free (calls);

  g_clear_object (&stack);
  g_clear_object (&client);
  g_subprocess_send_signal (undod, SIGTERM);
  g_subprocess_wait (undod, NULL, NULL);
  g_test_dbus_down (bus);
  g_autofree char *command = g_strdup_printf ("rm -rf '%s'", directory);
  g_spawn_command_line_sync (command, NULL, NULL, NULL, NULL);
  return 0;
}
