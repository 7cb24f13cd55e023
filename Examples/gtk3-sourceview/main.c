/* gtk3-sourceview: a GTK 3 editor in C on GtkSourceView 4 whose undo
 * history lives in undod (libundod and its GTK 3 text bridge). The bridge
 * becomes the buffer's undo manager, so the view's own Ctrl+Z /
 * Ctrl+Shift+Z, the Edit menu, the desktop's global undo key and `undoctl
 * undo` walk one history, and the menu's items follow it ("Undo Typing").
 * File → Save (Ctrl+S) writes the text to FILE and marks the state clean;
 * the title's "*" follows undo and redo back to it and away.
 *
 *   make libundod && .build/libundod/examples/gtk3-sourceview [--trace] [FILE]
 *
 * --trace prints one JSON line per event (registered, changed, applied,
 * menu, modified) for the tests. */
#include <gtk/gtk.h>
#include <gtksourceview/gtksource.h>
#include <undod-gtk/undod-gtk.h>
#include <undod/undod.h>
#ifdef GDK_WINDOWING_X11
#include <gdk/gdkx.h>
#endif

static gboolean tracing;
static const char *file;
static GtkWidget *window;
static GtkSourceBuffer *buffer;
static UndodTextBridge *bridge;
static GtkWidget *undo_item;
static GtkWidget *redo_item;

/* One trace line: the event, its direction (or NULL) and the text now. */
static void
trace (const char *event, const char *direction)
{
  if (!tracing)
    return;
  GtkTextIter start, end;
  gtk_text_buffer_get_bounds (GTK_TEXT_BUFFER (buffer), &start, &end);
  g_autofree char *text = gtk_text_buffer_get_text (GTK_TEXT_BUFFER (buffer), &start, &end, TRUE);
  g_autoptr (GString) json = g_string_new (NULL);
  g_string_append_printf (json, "{\"event\":\"%s\",", event);
  if (direction != NULL)
    g_string_append_printf (json, "\"direction\":\"%s\",", direction);
  g_string_append (json, "\"text\":\"");
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
changed (GtkTextBuffer *buffer, gpointer data)
{
  trace ("changed", NULL);
}

/* The title's "*" and the trace follow the buffer's modified flag, which
 * the bridge keeps equal to "not in the saved state". */
static void
modified_changed (GtkTextBuffer *buffer, gpointer data)
{
  gboolean modified = gtk_text_buffer_get_modified (buffer);
  g_autofree char *title = g_strdup_printf ("%sGTK 3 SourceView editor (undod)", modified ? "*" : "");
  gtk_window_set_title (GTK_WINDOW (window), title);
  if (tracing)
    g_print ("{\"event\":\"modified\",\"modified\":%s}\n", modified ? "true" : "false");
}

/* File → Save: writes the text, then marks the buffer unmodified, which
 * the bridge tells undod (SetClean). */
static void
save (GtkTextBuffer *target)
{
  GtkTextIter start, end;
  gtk_text_buffer_get_bounds (GTK_TEXT_BUFFER (buffer), &start, &end);
  g_autofree char *text = gtk_text_buffer_get_text (GTK_TEXT_BUFFER (buffer), &start, &end, TRUE);
  g_autoptr (GError) error = NULL;
  if (file != NULL && !g_file_set_contents (file, text, -1, &error))
    {
      g_printerr ("gtk3-sourceview: cannot save %s: %s\n", file, error->message);
      return;
    }
  gtk_text_buffer_set_modified (GTK_TEXT_BUFFER (buffer), FALSE);
}

static void
applied (UndodTextBridge *bridge, UndodDirection direction, gpointer data)
{
  trace ("applied", direction == UNDOD_DIRECTION_UNDO ? "undo" : "redo");
}

/* The Edit menu as the user sees it: each item's label and whether it can
 * be chosen. */
static void
trace_menu (void)
{
  if (tracing && undo_item != NULL && redo_item != NULL)
    g_print ("{\"event\":\"menu\",\"undo\":\"%s\",\"undoSensitive\":%s,\"redo\":\"%s\",\"redoSensitive\":%s}\n",
             gtk_menu_item_get_label (GTK_MENU_ITEM (undo_item)),
             gtk_widget_get_sensitive (undo_item) ? "true" : "false",
             gtk_menu_item_get_label (GTK_MENU_ITEM (redo_item)),
             gtk_widget_get_sensitive (redo_item) ? "true" : "false");
}

/* The Edit menu's labels follow the stack: "Undo Typing", "Redo Delete". */
static void
names_changed (UndodStack *stack, GParamSpec *pspec, gpointer data)
{
  const char *undo = undod_stack_get_undo_name (stack), *redo = undod_stack_get_redo_name (stack);
  g_autofree char *undo_label = *undo != '\0' ? g_strdup_printf ("_Undo %s", undo) : g_strdup ("_Undo");
  g_autofree char *redo_label = *redo != '\0' ? g_strdup_printf ("_Redo %s", redo) : g_strdup ("_Redo");
  gtk_menu_item_set_label (GTK_MENU_ITEM (undo_item), undo_label);
  gtk_menu_item_set_label (GTK_MENU_ITEM (redo_item), redo_label);
}

static unsigned long
window_xid (void)
{
#ifdef GDK_WINDOWING_X11
  GdkWindow *native = gtk_widget_get_window (window);
  if (GDK_IS_X11_WINDOW (native))
    return (unsigned long) gdk_x11_window_get_xid (native);
#endif
  return 0;
}

static void
registered (GObject *source, GAsyncResult *result, gpointer data)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (UndodStack) stack = undod_client_register_finish (UNDOD_CLIENT (source), result, &error);
  if (stack == NULL)
    {
      g_printerr ("gtk3-sourceview: undod refused the stack: %s\n", error->message);
      return;
    }
  bridge = undod_text_bridge_new (stack, GTK_TEXT_BUFFER (buffer));
  g_signal_connect (bridge, "applied", G_CALLBACK (applied), NULL);
  g_signal_connect (stack, "notify::undo-name", G_CALLBACK (names_changed), NULL);
  g_signal_connect (stack, "notify::redo-name", G_CALLBACK (names_changed), NULL);
  if (tracing)
    g_print ("{\"event\":\"registered\",\"path\":\"%s\",\"xid\":%lu}\n",
             undod_stack_get_path (stack) ? undod_stack_get_path (stack) : "", window_xid ());
}

/* A menu item with its accelerator. Edit → Undo and Redo are the buffer's
 * own calls, which its undo manager (the bridge's) sends to undod. */
static GtkWidget *
menu_item (GtkWidget *menu, GtkAccelGroup *accels, const char *label, guint key, GdkModifierType modifiers,
           GCallback activate)
{
  GtkWidget *item = gtk_menu_item_new_with_mnemonic (label);
  gtk_widget_add_accelerator (item, "activate", accels, key, modifiers, GTK_ACCEL_VISIBLE);
  g_signal_connect_swapped (item, "activate", activate, buffer);
  gtk_menu_shell_append (GTK_MENU_SHELL (menu), item);
  return item;
}

static GtkWidget *
edit_item (GtkWidget *menu, GtkAccelGroup *accels, const char *label, guint key, GdkModifierType modifiers,
           const char *sensitive_property, GCallback activate)
{
  GtkWidget *item = menu_item (menu, accels, label, key, modifiers, activate);
  g_object_bind_property (buffer, sensitive_property, item, "sensitive", G_BINDING_SYNC_CREATE);
  g_signal_connect_swapped (item, "notify::sensitive", G_CALLBACK (trace_menu), NULL);
  g_signal_connect_swapped (item, "notify::label", G_CALLBACK (trace_menu), NULL);
  return item;
}

static GtkWidget *
menu_bar (void)
{
  GtkAccelGroup *accels = gtk_accel_group_new ();
  gtk_window_add_accel_group (GTK_WINDOW (window), accels);
  GtkWidget *file_menu = gtk_menu_new ();
  menu_item (file_menu, accels, "_Save", GDK_KEY_s, GDK_CONTROL_MASK, G_CALLBACK (save));
  GtkWidget *file_item = gtk_menu_item_new_with_mnemonic ("_File");
  gtk_menu_item_set_submenu (GTK_MENU_ITEM (file_item), file_menu);
  GtkWidget *menu = gtk_menu_new ();
  undo_item = edit_item (menu, accels, "_Undo", GDK_KEY_z, GDK_CONTROL_MASK, "can-undo",
                         G_CALLBACK (gtk_source_buffer_undo));
  redo_item = edit_item (menu, accels, "_Redo", GDK_KEY_z, GDK_CONTROL_MASK | GDK_SHIFT_MASK, "can-redo",
                         G_CALLBACK (gtk_source_buffer_redo));
  GtkWidget *edit = gtk_menu_item_new_with_mnemonic ("_Edit");
  gtk_menu_item_set_submenu (GTK_MENU_ITEM (edit), menu);
  GtkWidget *bar = gtk_menu_bar_new ();
  gtk_menu_shell_append (GTK_MENU_SHELL (bar), file_item);
  gtk_menu_shell_append (GTK_MENU_SHELL (bar), edit);
  g_object_unref (accels);
  return bar;
}

int
main (int argc, char **argv)
{
  for (int i = 1; i < argc; i++)
    if (g_str_equal (argv[i], "--trace"))
      tracing = TRUE;
    else
      file = argv[i];
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
  g_signal_connect (buffer, "changed", G_CALLBACK (changed), NULL);
  g_signal_connect (buffer, "modified-changed", G_CALLBACK (modified_changed), NULL);
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  gtk_box_pack_start (GTK_BOX (box), menu_bar (), FALSE, FALSE, 0);
  GtkWidget *view = gtk_source_view_new_with_buffer (buffer);
  gtk_box_pack_start (GTK_BOX (box), view, TRUE, TRUE, 0);
  gtk_container_add (GTK_CONTAINER (window), box);
  g_signal_connect (window, "destroy", G_CALLBACK (gtk_main_quit), NULL);
  gtk_widget_grab_focus (view);
  gtk_widget_show_all (window);

  g_autoptr (UndodOptions) options = undod_options_new ();
  undod_options_set_title (options, "GTK 3 SourceView editor");
  /* Kept on disk, so that the history outlives an undod restart; a tag of
   * this run's own, so that the next run (its text read anew) does not take
   * it up: the bridge tags each change, and undod's restart keeps it. */
  g_autofree char *tag = g_uuid_string_random ();
  undod_options_set_state_tag (options, tag);
  undod_client_register (client, "org.undod.examples.Gtk3SourceView", options, NULL, registered, NULL);
  gtk_main ();
  g_clear_object (&bridge);
  return 0;
}
