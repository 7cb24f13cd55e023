/* undod-text-bridge.c: a GtkTextBuffer whose history lives in undod.
 *
 * Every edit becomes an action whose payloads invert it: an insertion's
 * undo deletes the text it inserted, a deletion's undo inserts the text it
 * deleted. The edits of one user action (a paste over a selection: delete,
 * then insert) go as one group; single characters typed go with the merge
 * key "typing", so undod folds a run of typing into one "Typing" group.
 * Applying a group edits the buffer with recording off. The buffer's own
 * history gives way to undod's, so the app's undo and the global key walk
 * one history: in GTK 4 the buffer's undo is turned off and a view's
 * Ctrl+Z / Ctrl+Shift+Z / Ctrl+Y ask undod; in GTK 3 a GtkSourceBuffer gets
 * an undo manager that asks undod (undod-source-undo-manager.c), so its
 * views' keys and gtk_source_buffer_undo() do.
 *
 * A payload is UTF-8 text: "i<offset>:<text>" inserts <text> at character
 * <offset>; "d<offset>:<count>" deletes <count> characters from <offset>.
 *
 * Every push carries a state tag of its own, new for each state of the
 * buffer (a random one: a buffer's text has no cheap name): the history
 * undod stores is taken up again after undod restarts (libundod registers
 * again without the first tag), and never by a later run of the app, which
 * registers with a tag of its own. */
#include "undod-text-bridge.h"

#include <stdlib.h>
#include <string.h>

#if !GTK_CHECK_VERSION(4, 0, 0)
#include "undod-source-undo-manager.h"
#endif

/**
 * UndodTextBridge:
 *
 * Connects a #GtkTextBuffer to an #UndodStack: one call, and the buffer's
 * edits are undone by the app's Ctrl+Z, the desktop's global undo key and
 * `undoctl undo` alike.
 */
struct _UndodTextBridge {
  GObject parent_instance;
  UndodStack *stack;
  GtkTextBuffer *buffer;
  gulong buffer_handlers[5];
  gulong stack_handlers[2];
  /* Applying a group: its edits are not recorded. */
  gboolean applying;
  /* Setting the buffer's modified flag from the stack's clean state: not
   * a save to tell undod of. */
  gboolean following_clean;
  /* Inside begin/end-user-action: the edits wait to go as one group. */
  guint user_action_depth;
  GPtrArray *pending; /* UndodAction */
  char *pending_name;
  gboolean pending_typing;
#if !GTK_CHECK_VERSION(4, 0, 0)
  /* A GtkSourceBuffer's undo manager, when the buffer is one. */
  UndodSourceUndoManager *source_manager;
#endif
};

G_DEFINE_FINAL_TYPE (UndodTextBridge, undod_text_bridge, G_TYPE_OBJECT)

enum {
  SIGNAL_APPLIED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static GBytes *
payload (char kind, int offset, const char *text)
{
  char *bytes = g_strdup_printf ("%c%d:%s", kind, offset, text);
  return g_bytes_new_take (bytes, strlen (bytes));
}

/* Whether the buffer's edits are recorded now: not while a group is
 * applied, nor inside a GtkSourceBuffer's not-undoable action. */
static gboolean
is_recording (UndodTextBridge *self)
{
#if !GTK_CHECK_VERSION(4, 0, 0)
  if (self->source_manager != NULL && !undod_source_undo_manager_is_recording (self->source_manager))
    return FALSE;
#endif
  return !self->applying;
}

/* A push's hints: the merge key for typing, and a new state tag. */
static UndodHints *
hints_for (gboolean typing)
{
  UndodHints *hints = undod_hints_new ();
  g_autofree char *tag = g_uuid_string_random ();
  undod_hints_set_merge_key (hints, typing ? "typing" : NULL);
  undod_hints_set_state_tag (hints, tag);
  return hints;
}

static void
record (UndodTextBridge *self, UndodAction *action, const char *name, gboolean typing)
{
  if (self->user_action_depth > 0)
    {
      g_ptr_array_add (self->pending, action);
      if (self->pending_name == NULL)
        self->pending_name = g_strdup (name);
      else if (g_strcmp0 (self->pending_name, name) != 0)
        {
          g_free (self->pending_name);
          self->pending_name = g_strdup ("Replace");
        }
      self->pending_typing = self->pending->len == 1 && typing;
      return;
    }
  g_autoptr (UndodHints) hints = hints_for (typing);
  undod_stack_push_full (self->stack, name, undod_action_get_undo (action), undod_action_get_redo (action), hints);
  undod_action_free (action);
}

static void
on_insert_text (GtkTextBuffer *buffer, GtkTextIter *location, const char *text, int length, UndodTextBridge *self)
{
  if (!is_recording (self) || length == 0)
    return;
  int offset = gtk_text_iter_get_offset (location);
  g_autofree char *inserted = g_strndup (text, length);
  glong chars = g_utf8_strlen (inserted, -1);
  g_autofree char *count = g_strdup_printf ("%ld", chars);
  g_autoptr (GBytes) undo = payload ('d', offset, count);
  g_autoptr (GBytes) redo = payload ('i', offset, inserted);
  gboolean typing = chars == 1 && inserted[0] != '\n';
  record (self, undod_action_new (undo, redo), typing ? "Typing" : "Insert", typing);
}

static void
on_delete_range (GtkTextBuffer *buffer, GtkTextIter *start, GtkTextIter *end, UndodTextBridge *self)
{
  if (!is_recording (self) || gtk_text_iter_equal (start, end))
    return;
  int offset = gtk_text_iter_get_offset (start);
  g_autofree char *deleted = gtk_text_buffer_get_slice (buffer, start, end, TRUE);
  g_autofree char *count = g_strdup_printf ("%ld", g_utf8_strlen (deleted, -1));
  g_autoptr (GBytes) undo = payload ('i', offset, deleted);
  g_autoptr (GBytes) redo = payload ('d', offset, count);
  record (self, undod_action_new (undo, redo), "Delete", FALSE);
}

/* User actions are counted whether or not edits are recorded, so that one
 * that began before a not-undoable action and ends inside it still ends. */
static void
on_begin_user_action (GtkTextBuffer *buffer, UndodTextBridge *self)
{
  self->user_action_depth++;
}

static void
on_end_user_action (GtkTextBuffer *buffer, UndodTextBridge *self)
{
  if (self->user_action_depth == 0 || --self->user_action_depth > 0)
    return;
  g_autoptr (GPtrArray) actions = g_steal_pointer (&self->pending);
  self->pending = g_ptr_array_new_with_free_func ((GDestroyNotify) undod_action_free);
  g_autofree char *name = g_steal_pointer (&self->pending_name);
  if (!is_recording (self))
    return; /* it ends inside a not-undoable action: its edits no longer fit the history */
  g_autoptr (UndodHints) hints = hints_for (actions->len == 1 && self->pending_typing);
  if (actions->len == 1)
    undod_stack_push_full (self->stack, name, undod_action_get_undo (g_ptr_array_index (actions, 0)),
                           undod_action_get_redo (g_ptr_array_index (actions, 0)), hints);
  else if (actions->len > 1)
    undod_stack_push_group_full (self->stack, name, (UndodAction **) actions->pdata, actions->len, hints,
                                 NULL, NULL, NULL);
}

/* Applies one payload to the buffer; FALSE if it does not fit the text. */
static gboolean
apply_payload (UndodTextBridge *self, GBytes *bytes)
{
  gsize size = 0;
  const char *data = g_bytes_get_data (bytes, &size);
  g_autofree char *text = g_strndup (data, size);
  char *colon = strchr (text, ':');
  if (size < 3 || (text[0] != 'i' && text[0] != 'd') || colon == NULL || !g_utf8_validate (text, -1, NULL))
    return FALSE;
  char *rest = NULL;
  long offset = strtol (text + 1, &rest, 10);
  int characters = gtk_text_buffer_get_char_count (self->buffer);
  if (rest != colon || offset < 0 || offset > characters)
    return FALSE;
  GtkTextIter at;
  gtk_text_buffer_get_iter_at_offset (self->buffer, &at, (int) offset);
  if (text[0] == 'i')
    {
      gtk_text_buffer_insert (self->buffer, &at, colon + 1, -1);
      gtk_text_buffer_place_cursor (self->buffer, &at);
      return TRUE;
    }
  long count = strtol (colon + 1, &rest, 10);
  if (*rest != '\0' || count < 0 || offset + count > characters)
    return FALSE;
  GtkTextIter end;
  gtk_text_buffer_get_iter_at_offset (self->buffer, &end, (int) (offset + count));
  gtk_text_buffer_delete (self->buffer, &at, &end);
  gtk_text_buffer_place_cursor (self->buffer, &at);
  return TRUE;
}

static gboolean
on_apply (UndodStack *stack, UndodApply *apply, UndodTextBridge *self)
{
  GPtrArray *payloads = undod_apply_get_payloads (apply);
  GtkTextIter start, end;
  gtk_text_buffer_get_bounds (self->buffer, &start, &end);
  g_autofree char *before = gtk_text_buffer_get_slice (self->buffer, &start, &end, TRUE);
  gboolean was_modified = gtk_text_buffer_get_modified (self->buffer);
  self->applying = TRUE;
  guint applied = 0;
  while (applied < payloads->len && apply_payload (self, g_ptr_array_index (payloads, applied)))
    applied++;
  if (applied < payloads->len)
    {
      /* The text is not the one the group was recorded on: put back what
       * was applied, so that the buffer and undod's stack stay as they were. */
      gtk_text_buffer_set_text (self->buffer, before, -1);
      self->following_clean = TRUE;
      gtk_text_buffer_set_modified (self->buffer, was_modified);
      self->following_clean = FALSE;
      self->applying = FALSE;
      g_autoptr (GError) error = g_error_new (UNDOD_ERROR, UNDOD_ERROR_FAILED,
                                              "The text changed outside undod's history: action %u of %u does not fit.",
                                              applied + 1, payloads->len);
      undod_apply_return_error (apply, error);
      return TRUE;
    }
  self->applying = FALSE;
  undod_apply_return_success (apply);
  g_signal_emit (self, signals[SIGNAL_APPLIED], 0, undod_apply_get_direction (apply));
  return TRUE;
}

/* The app saved (it marks the buffer unmodified): the state is clean. */
static void
on_modified_changed (GtkTextBuffer *buffer, UndodTextBridge *self)
{
  if (!self->following_clean && !gtk_text_buffer_get_modified (buffer))
    undod_stack_set_clean (self->stack, NULL, NULL, NULL);
}

/* Undo or redo reached the saved state, or left it: the buffer's modified
 * flag (a window's "*") follows. */
static void
on_clean_changed (UndodStack *stack, GParamSpec *pspec, UndodTextBridge *self)
{
  self->following_clean = TRUE;
  gtk_text_buffer_set_modified (self->buffer, !undod_stack_get_clean (stack));
  self->following_clean = FALSE;
}

static void
undod_text_bridge_dispose (GObject *object)
{
  UndodTextBridge *self = UNDOD_TEXT_BRIDGE (object);
#if !GTK_CHECK_VERSION(4, 0, 0)
  if (self->source_manager != NULL)
    {
      GtkSourceBuffer *source = GTK_SOURCE_BUFFER (self->buffer);
      if (gtk_source_buffer_get_undo_manager (source) == GTK_SOURCE_UNDO_MANAGER (self->source_manager))
        gtk_source_buffer_set_undo_manager (source, NULL);
      g_clear_object (&self->source_manager);
    }
#endif
  if (self->buffer != NULL)
    {
      for (guint i = 0; i < G_N_ELEMENTS (self->buffer_handlers); i++)
        g_clear_signal_handler (&self->buffer_handlers[i], self->buffer);
      g_clear_object (&self->buffer);
    }
  if (self->stack != NULL)
    {
      for (guint i = 0; i < G_N_ELEMENTS (self->stack_handlers); i++)
        g_clear_signal_handler (&self->stack_handlers[i], self->stack);
      g_clear_object (&self->stack);
    }
  G_OBJECT_CLASS (undod_text_bridge_parent_class)->dispose (object);
}

static void
undod_text_bridge_finalize (GObject *object)
{
  UndodTextBridge *self = UNDOD_TEXT_BRIDGE (object);
  g_ptr_array_unref (self->pending);
  g_free (self->pending_name);
  G_OBJECT_CLASS (undod_text_bridge_parent_class)->finalize (object);
}

static void
undod_text_bridge_class_init (UndodTextBridgeClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  object_class->dispose = undod_text_bridge_dispose;
  object_class->finalize = undod_text_bridge_finalize;
  /**
   * UndodTextBridge::applied:
   * @bridge: the bridge
   * @direction: undo or redo
   *
   * A group was applied to the buffer (by the app's keys, the global key,
   * or anyone else's undo).
   */
  signals[SIGNAL_APPLIED] = g_signal_new ("applied", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                                          NULL, G_TYPE_NONE, 1, UNDOD_TYPE_DIRECTION);
}

static void
undod_text_bridge_init (UndodTextBridge *self)
{
  self->pending = g_ptr_array_new_with_free_func ((GDestroyNotify) undod_action_free);
}

/* The buffer's own history would be a second one: GTK 4's buffers have
 * one, turned off; a GTK 3 GtkSourceBuffer has an undo manager, replaced
 * by one that asks undod (a plain GTK 3 buffer has none). */
static void
replace_own_undo (UndodTextBridge *self)
{
#if GTK_CHECK_VERSION(4, 0, 0)
  gtk_text_buffer_set_enable_undo (self->buffer, FALSE);
#else
  if (!GTK_SOURCE_IS_BUFFER (self->buffer))
    return;
  self->source_manager = undod_source_undo_manager_new (self->stack);
  gtk_source_buffer_set_undo_manager (GTK_SOURCE_BUFFER (self->buffer),
                                      GTK_SOURCE_UNDO_MANAGER (self->source_manager));
#endif
}

/**
 * undod_text_bridge_new:
 * @stack: the stack the buffer's history goes to
 * @buffer: the buffer
 *
 * Records @buffer's edits in @stack and applies the groups undod hands
 * back. Marking the buffer unmodified (a save) marks the stack clean, and
 * the buffer's modified flag follows the stack's clean state through undo
 * and redo. The buffer's own undo gives way: GTK 4's is turned off; a GTK 3
 * #GtkSourceBuffer's undo manager becomes one that asks undod, so its
 * views' undo keys and gtk_source_buffer_undo() (an Edit menu) go through
 * undod, and its can-undo and can-redo follow undod's stack.
 *
 * Returns: (transfer full): the bridge; dropping it ends the recording
 */
UndodTextBridge *
undod_text_bridge_new (UndodStack *stack, GtkTextBuffer *buffer)
{
  g_return_val_if_fail (UNDOD_IS_STACK (stack), NULL);
  g_return_val_if_fail (GTK_IS_TEXT_BUFFER (buffer), NULL);
  UndodTextBridge *self = g_object_new (UNDOD_TYPE_TEXT_BRIDGE, NULL);
  self->stack = g_object_ref (stack);
  self->buffer = g_object_ref (buffer);
  replace_own_undo (self);
  self->buffer_handlers[0] = g_signal_connect (buffer, "insert-text", G_CALLBACK (on_insert_text), self);
  self->buffer_handlers[1] = g_signal_connect (buffer, "delete-range", G_CALLBACK (on_delete_range), self);
  self->buffer_handlers[2] = g_signal_connect (buffer, "begin-user-action", G_CALLBACK (on_begin_user_action), self);
  self->buffer_handlers[3] = g_signal_connect (buffer, "end-user-action", G_CALLBACK (on_end_user_action), self);
  self->buffer_handlers[4] = g_signal_connect (buffer, "modified-changed", G_CALLBACK (on_modified_changed), self);
  self->stack_handlers[0] = g_signal_connect (stack, "apply", G_CALLBACK (on_apply), self);
  self->stack_handlers[1] = g_signal_connect (stack, "notify::clean", G_CALLBACK (on_clean_changed), self);
  return self;
}

/**
 * undod_text_bridge_undo:
 * @bridge: the bridge
 *
 * Undoes the buffer's last group through undod (what the view's Ctrl+Z does).
 */
void
undod_text_bridge_undo (UndodTextBridge *bridge)
{
  g_return_if_fail (UNDOD_IS_TEXT_BRIDGE (bridge));
  undod_stack_undo (bridge->stack, NULL, NULL, NULL);
}

/**
 * undod_text_bridge_redo:
 * @bridge: the bridge
 *
 * Redoes through undod (the view's Ctrl+Shift+Z and Ctrl+Y).
 */
void
undod_text_bridge_redo (UndodTextBridge *bridge)
{
  g_return_if_fail (UNDOD_IS_TEXT_BRIDGE (bridge));
  undod_stack_redo (bridge->stack, NULL, NULL, NULL);
}

#if GTK_CHECK_VERSION(4, 0, 0)
static gboolean
shortcut_undo (GtkWidget *widget, GVariant *arguments, gpointer data)
{
  undod_text_bridge_undo (data);
  return TRUE;
}

static gboolean
shortcut_redo (GtkWidget *widget, GVariant *arguments, gpointer data)
{
  undod_text_bridge_redo (data);
  return TRUE;
}
#endif

/**
 * undod_text_bridge_attach_view:
 * @bridge: the bridge
 * @view: a view of the bridge's buffer
 *
 * Makes the view's undo keys go through undod: in GTK 4, Ctrl+Z,
 * Ctrl+Shift+Z and Ctrl+Y (before the view's own handling). In GTK 3 there
 * is nothing to do: a GtkSourceView's keys already reach the buffer's undo
 * manager, which is undod's, and a plain GTK 3 text view has no undo keys.
 */
void
undod_text_bridge_attach_view (UndodTextBridge *bridge, GtkTextView *view)
{
  g_return_if_fail (UNDOD_IS_TEXT_BRIDGE (bridge));
  g_return_if_fail (GTK_IS_TEXT_VIEW (view));
#if GTK_CHECK_VERSION(4, 0, 0)
  GtkEventController *keys = gtk_shortcut_controller_new ();
  gtk_event_controller_set_propagation_phase (keys, GTK_PHASE_CAPTURE);
  struct { const char *trigger; GtkShortcutFunc func; } bindings[] = {
    { "<Control>z", shortcut_undo },
    { "<Control><Shift>z", shortcut_redo },
    { "<Control>y", shortcut_redo },
  };
  for (guint i = 0; i < G_N_ELEMENTS (bindings); i++)
    gtk_shortcut_controller_add_shortcut (
      GTK_SHORTCUT_CONTROLLER (keys),
      gtk_shortcut_new (gtk_shortcut_trigger_parse_string (bindings[i].trigger),
                        gtk_callback_action_new (bindings[i].func, g_object_ref (bridge), g_object_unref)));
  gtk_widget_add_controller (GTK_WIDGET (view), keys);
#endif
}
