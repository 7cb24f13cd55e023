/* gtk3-sourceview: a GTK 3 editor in C on GtkSourceView 4 whose undo
 * history lives in undod (libundod and its GTK 3 text bridge). The view's
 * own Ctrl+Z / Ctrl+Shift+Z, the desktop's global undo key and `undoctl
 * undo` walk one history.
 *
 *   make libundod && .build/libundod/examples/gtk3-sourceview [--trace]
 *
 * --trace prints one JSON line per event (registered, applied) for the tests. */
#include <gdk/gdkx.h>
#include <gtk/gtk.h>
#include <gtksourceview/gtksource.h>
#include <undod-gtk/undod-gtk.h>
#include <undod/undod.h>

static gboolean tracing;
static GtkWidget *window;
static GtkSourceBuffer *buffer;
static UndodTextBridge *bridge;

static void
trace_applied (UndodTextBridge *bridge, UndodDirection direction, gpointer data)
{
  if (!tracing)
    return;
  GtkTextIter start, end;
  gtk_text_buffer_get_bounds (GTK_TEXT_BUFFER (buffer), &start, &end);
  g_autofree char *text = gtk_text_buffer_get_text (GTK_TEXT_BUFFER (buffer), &start, &end, TRUE);
  g_autoptr (GString) json = g_string_new ("{\"event\":\"applied\",\"direction\":\"");
  g_string_append (json, direction == UNDOD_DIRECTION_UNDO ? "undo" : "redo");
  g_string_append (json, "\",\"text\":\"");
  for (const char *c = text; *c != '\0'; c++)
    if (*c == '"' || *c == '\\')
      g_string_append_printf (json, "\\%c", *c);
    else if ((unsigned char) *c < 0x20)
      g_string_append_printf (json, "\\u%04x", *c);
    else
      g_string_append_c (json, *c);
  g_string_append (json, "\"}");
  g_print ("%s\n", json->str);
}

static void
registered (GObject *source, GAsyncResult *result, gpointer view)
{
  g_autoptr (GError) error = NULL;
  UndodStack *stack = undod_client_register_finish (UNDOD_CLIENT (source), result, &error);
  if (stack == NULL)
    {
      g_printerr ("gtk3-sourceview: undod refused the stack: %s\n", error->message);
      return;
    }
  bridge = undod_text_bridge_new (stack, GTK_TEXT_BUFFER (buffer));
  undod_text_bridge_attach_view (bridge, GTK_TEXT_VIEW (view));
  g_signal_connect (bridge, "applied", G_CALLBACK (trace_applied), NULL);
  if (tracing)
    g_print ("{\"event\":\"registered\",\"path\":\"%s\",\"xid\":%lu}\n",
             undod_stack_get_path (stack) ? undod_stack_get_path (stack) : "",
             GDK_IS_X11_WINDOW (gtk_widget_get_window (window))
               ? (unsigned long) gdk_x11_window_get_xid (gtk_widget_get_window (window)) : 0UL);
  g_object_unref (stack); /* the bridge holds it */
}

int
main (int argc, char **argv)
{
  for (int i = 1; i < argc; i++)
    tracing = tracing || g_str_equal (argv[i], "--trace");
  gtk_init (NULL, NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (UndodClient) client = undod_client_new_sync (NULL, NULL, &error);
  if (client == NULL)
    {
      g_printerr ("gtk3-sourceview: no session bus: %s\n", error->message);
      return 1;
    }
  window = gtk_window_new (GTK_WINDOW_TOPLEVEL);
  gtk_window_set_title (GTK_WINDOW (window), "GTK 3 SourceView editor (undod)");
  gtk_window_set_default_size (GTK_WINDOW (window), 480, 320);
  buffer = gtk_source_buffer_new (NULL);
  GtkWidget *view = gtk_source_view_new_with_buffer (buffer);
  gtk_container_add (GTK_CONTAINER (window), view);
  g_signal_connect (window, "destroy", G_CALLBACK (gtk_main_quit), NULL);
  gtk_widget_grab_focus (view);
  gtk_widget_show_all (window);

  g_autoptr (UndodOptions) options = undod_options_new ();
  undod_options_set_title (options, "GTK 3 SourceView editor");
  undod_options_set_persist (options, FALSE);
  undod_client_register (client, "org.undod.examples.Gtk3SourceView", options, NULL, registered, view);
  gtk_main ();
  g_clear_object (&bridge);
  return 0;
}
