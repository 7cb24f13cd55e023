/* undod-stack.c: one registered stack. Its calls leave in the order the
 * app makes them, from the client's sender thread (undod-sender.c); while
 * an Apply is being answered, or while the stack registers again after
 * undod restarted, they wait, then leave in order (to the stack's new path). */
#include "undod-stack.h"
#include "undod-apply-private.h"
#include "undod-client-private.h"
#include "undod-error.h"
#include "undod-local-history.h"
#include "undod-private.h"
#include "undod-sender.h"
#include "undod-stack-private.h"

/**
 * UndodStack:
 *
 * One undo stack the app owns in undod, made by undod_client_register().
 * Push a group after each change the user makes, with the payloads that
 * undo and redo it; answer #UndodStack::apply when undod hands a group
 * back (the global key, `undoctl undo`, or undod_stack_undo()).
 */
struct _UndodStack {
  GObject parent_instance;
  UndodClient *client;
  char *path;
  char *app_id;
  UndodOptions *options;
  /* Where its calls wait and leave (undod-sender.c). */
  UndodSendQueue *queue;
  gboolean closed;
  /* The local history: groups kept while undod is absent, sent to undod
   * when it appears (undod-local-history.c). */
  UndodLocalHistory local;
  /* What the stack can undo and redo, for menus (undod_stack_refresh_state). */
  gboolean can_undo;
  gboolean can_redo;
  gboolean clean;
  char *undo_name;
  char *redo_name;
  /* Counts what changes the state the app knows of (a push, a set-clean,
   * a read of undod's state, undod vanishing): an answer to a read asked
   * before the latest of them is not taken. */
  guint state_serial;
};

G_DEFINE_FINAL_TYPE (UndodStack, undod_stack, G_TYPE_OBJECT)

static void undod_stack_refresh_state (UndodStack *stack);

enum {
  PROP_0,
  PROP_PATH,
  PROP_CAN_UNDO,
  PROP_CAN_REDO,
  PROP_UNDO_NAME,
  PROP_REDO_NAME,
  PROP_CLEAN,
  N_PROPS
};

enum {
  SIGNAL_APPLY,
  SIGNAL_PUSH_FAILED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

static void
undod_stack_dispose (GObject *object)
{
  UndodStack *self = UNDOD_STACK (object);
  g_clear_pointer (&self->queue, undod_send_queue_free);
  undod_local_history_clear (&self->local);
  if (self->client != NULL)
    {
      undod_client_forget_stack (self->client, self);
      g_clear_object (&self->client);
    }
  g_clear_object (&self->options);
  G_OBJECT_CLASS (undod_stack_parent_class)->dispose (object);
}

static void
undod_stack_finalize (GObject *object)
{
  UndodStack *self = UNDOD_STACK (object);
  g_free (self->path);
  g_free (self->app_id);
  g_free (self->undo_name);
  g_free (self->redo_name);
  G_OBJECT_CLASS (undod_stack_parent_class)->finalize (object);
}

static void
undod_stack_get_property (GObject *object, guint id, GValue *value, GParamSpec *pspec)
{
  UndodStack *self = UNDOD_STACK (object);
  switch (id)
    {
    case PROP_PATH: g_value_set_string (value, self->path); break;
    case PROP_CAN_UNDO: g_value_set_boolean (value, self->can_undo); break;
    case PROP_CAN_REDO: g_value_set_boolean (value, self->can_redo); break;
    case PROP_UNDO_NAME: g_value_set_string (value, self->undo_name); break;
    case PROP_REDO_NAME: g_value_set_string (value, self->redo_name); break;
    case PROP_CLEAN: g_value_set_boolean (value, self->clean); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, id, pspec);
    }
}

static void
undod_stack_class_init (UndodStackClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  object_class->dispose = undod_stack_dispose;
  object_class->finalize = undod_stack_finalize;
  object_class->get_property = undod_stack_get_property;

  /**
   * UndodStack:path:
   *
   * The stack's object path in undod; it changes when undod restarts and
   * the stack registers again.
   */
  properties[PROP_PATH] = g_param_spec_string ("path", NULL, NULL, NULL,
                                               G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  /**
   * UndodStack:can-undo:
   *
   * Whether there is a group to undo: set by a push at once, and read from
   * undod after an undo, a redo (whoever asked for it), a clear or a failed
   * push. For an Undo menu item's sensitivity.
   */
  properties[PROP_CAN_UNDO] = g_param_spec_boolean ("can-undo", NULL, NULL, FALSE,
                                                    G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  /**
   * UndodStack:can-redo:
   *
   * Whether there is a group to redo (see #UndodStack:can-undo).
   */
  properties[PROP_CAN_REDO] = g_param_spec_boolean ("can-redo", NULL, NULL, FALSE,
                                                    G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  /**
   * UndodStack:undo-name:
   *
   * The name of the group an undo would undo ("Typing"), "" when none: for
   * a menu item "Undo Typing".
   */
  properties[PROP_UNDO_NAME] = g_param_spec_string ("undo-name", NULL, NULL, "",
                                                    G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  /**
   * UndodStack:redo-name:
   *
   * The name of the group a redo would redo, "" when none.
   */
  properties[PROP_REDO_NAME] = g_param_spec_string ("redo-name", NULL, NULL, "",
                                                    G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  /**
   * UndodStack:clean:
   *
   * Whether the document is in the state last marked clean
   * (undod_stack_set_clean(), a save): false after a push, true again when
   * undo or redo walks back to that state. For a window's "modified" mark.
   */
  properties[PROP_CLEAN] = g_param_spec_boolean ("clean", NULL, NULL, TRUE,
                                                 G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * UndodStack::apply:
   * @stack: the stack
   * @apply: the group's payloads, and where to answer
   *
   * undod hands back a group to undo or redo. Apply its payloads in the
   * order given, then call undod_apply_return_success(), or
   * undod_apply_return_error() if they could not be applied (the stack
   * then stays as it was). The answer may come later; keep a reference.
   *
   * Returns: %TRUE if the handler answers (now or later)
   */
  signals[SIGNAL_APPLY] = g_signal_new ("apply", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                        g_signal_accumulator_true_handled, NULL, NULL,
                                        G_TYPE_BOOLEAN, 1, UNDOD_TYPE_APPLY);
  /**
   * UndodStack::push-failed:
   * @stack: the stack
   * @name: the name of the group that was not pushed
   * @error: why
   *
   * A push made with undod_stack_push() failed (undod is not running, the
   * group is too large…). Pushes with a callback report there instead.
   */
  signals[SIGNAL_PUSH_FAILED] = g_signal_new ("push-failed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                              NULL, NULL, NULL, G_TYPE_NONE, 2, G_TYPE_STRING, G_TYPE_ERROR);
}

static void
undod_stack_init (UndodStack *self)
{
  undod_local_history_init (&self->local);
  self->undo_name = g_strdup ("");
  self->redo_name = g_strdup ("");
  self->clean = TRUE;
}

static void
set_name (UndodStack *self, char **field, const char *name, guint property)
{
  if (g_strcmp0 (*field, name) == 0)
    return;
  g_free (*field);
  *field = g_strdup (name);
  g_object_notify_by_pspec (G_OBJECT (self), properties[property]);
}

/* Sets what the stack can undo and redo (a NULL name: nothing) and whether
 * it is clean; notifies what changed. */
static void
set_state (UndodStack *self, const char *undo_name, const char *redo_name, gboolean clean)
{
  g_object_freeze_notify (G_OBJECT (self));
  if (self->clean != clean)
    {
      self->clean = clean;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CLEAN]);
    }
  gboolean can_undo = undo_name != NULL, can_redo = redo_name != NULL;
  if (self->can_undo != can_undo)
    {
      self->can_undo = can_undo;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CAN_UNDO]);
    }
  if (self->can_redo != can_redo)
    {
      self->can_redo = can_redo;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CAN_REDO]);
    }
  set_name (self, &self->undo_name, can_undo ? undo_name : "", PROP_UNDO_NAME);
  set_name (self, &self->redo_name, can_redo ? redo_name : "", PROP_REDO_NAME);
  g_object_thaw_notify (G_OBJECT (self));
}

/* Keeps a push in the local history (undod is absent); returns the id
 * of the group that holds it. */
static guint64
keep_locally (UndodStack *self, const char *name, GPtrArray *actions, GVariant *hints)
{
  self->state_serial++;
  UndodLocalGroup *group = undod_local_history_push (&self->local, name, actions, hints);
  set_state (self, group->name, NULL, FALSE);
  return group->id;
}

/* The actions of a Push or PushGroup body. */
static GPtrArray *
actions_of (const char *method, GVariant *body, const char **name, GVariant **hints)
{
  GPtrArray *actions = g_ptr_array_new_with_free_func ((GDestroyNotify) undod_action_free);
  if (g_str_equal (method, "Push"))
    {
      g_autoptr (GVariant) undo = NULL, redo = NULL;
      g_variant_get (body, "(&s@ay@ay@a{sv})", name, &undo, &redo, hints);
      g_autoptr (GBytes) u = g_variant_get_data_as_bytes (undo), r = g_variant_get_data_as_bytes (redo);
      g_ptr_array_add (actions, undod_action_new (u, r));
      return actions;
    }
  g_autoptr (GVariant) list = NULL;
  g_variant_get (body, "(&s@a(ayay)@a{sv})", name, &list, hints);
  for (gsize i = 0; i < g_variant_n_children (list); i++)
    {
      g_autoptr (GVariant) pair = g_variant_get_child_value (list, i);
      g_autoptr (GVariant) undo = g_variant_get_child_value (pair, 0), redo = g_variant_get_child_value (pair, 1);
      g_autoptr (GBytes) u = g_variant_get_data_as_bytes (undo), r = g_variant_get_data_as_bytes (redo);
      g_ptr_array_add (actions, undod_action_new (u, r));
    }
  return actions;
}

/* A call without a callback failed: a push undod was not there to take is
 * kept locally; anything else is told by push-failed. */
static void
push_failed (GObject *owner, const char *method, GVariant *body, const GError *error)
{
  UndodStack *self = UNDOD_STACK (owner);
  const char *name = NULL;
  g_autoptr (GVariant) hints = NULL;
  g_autoptr (GPtrArray) actions = g_str_has_prefix (method, "Push") ? actions_of (method, body, &name, &hints) : NULL;
  if (actions != NULL && g_error_matches (error, UNDOD_ERROR, UNDOD_ERROR_DAEMON_UNAVAILABLE))
    {
      keep_locally (self, name, actions, hints);
      return;
    }
  g_signal_emit (self, signals[SIGNAL_PUSH_FAILED], 0, name != NULL ? name : method, error);
  undod_stack_refresh_state (self);
}

/* Whether the stack's calls reach an undod now: else its history is local. */
static gboolean
is_local (UndodStack *self)
{
  return self->path == NULL || self->client == NULL || !undod_client_get_daemon_running (self->client);
}

/* undod is back and the stack registered: its local undo side goes to undod
 * ahead of every call made meanwhile, oldest first; the local redo side,
 * which undod cannot take, is dropped. */
void
undod_stack_catch_up (UndodStack *stack)
{
  /* Saved while undod was absent, at the top of the local history: undod
   * is told after the groups (queued ahead first, it lands behind them). */
  if (undod_local_history_top (&stack->local, UNDOD_DIRECTION_UNDO) != NULL &&
      undod_local_history_is_clean (&stack->local))
    undod_send_queue_call_ahead (stack->queue, "SetClean", g_variant_new ("()"), G_VARIANT_TYPE_UNIT,
                                 UNDOD_CALL_TIMEOUT_MS, "SetClean");
  for (GList *link = stack->local.undo.tail; link != NULL; link = link->prev)
    {
      UndodLocalGroup *group = link->data;
      undod_send_queue_call_ahead (stack->queue, "PushGroup", undod_local_group_push_group_body (group),
                                   G_VARIANT_TYPE ("(t)"), UNDOD_CALL_TIMEOUT_MS, group->name);
    }
  undod_local_history_clear (&stack->local);
  undod_stack_refresh_state (stack);
}

UndodStack *
undod_stack_new_registered (UndodClient *client, const char *path, const char *app_id, UndodOptions *options)
{
  UndodStack *self = g_object_new (UNDOD_TYPE_STACK, NULL);
  self->client = g_object_ref (client);
  self->path = g_strdup (path);
  self->app_id = g_strdup (app_id);
  self->options = options != NULL ? g_object_ref (options) : undod_options_new ();
  self->queue = undod_send_queue_new (undod_client_get_sender (client), path, G_OBJECT (self), push_failed);
  if (path != NULL)
    undod_stack_refresh_state (self); /* an adopted history can be undone at once */
  return self;
}

const char *
undod_stack_get_app_id (UndodStack *stack)
{
  return stack->app_id;
}

UndodOptions *
undod_stack_get_options (UndodStack *stack)
{
  return stack->options;
}

/**
 * undod_stack_get_path:
 * @stack: the stack
 *
 * Returns: the stack's object path in undod (`/org/undod/Undo1/stack/<n>`)
 */
const char *
undod_stack_get_path (UndodStack *stack)
{
  g_return_val_if_fail (UNDOD_IS_STACK (stack), NULL);
  return stack->path;
}

void
undod_stack_set_path (UndodStack *stack, const char *path)
{
  if (g_strcmp0 (stack->path, path) == 0)
    return;
  g_free (stack->path);
  stack->path = g_strdup (path);
  undod_send_queue_set_path (stack->queue, path);
  g_object_notify_by_pspec (G_OBJECT (stack), properties[PROP_PATH]);
}

/* Queues a call to the stack's object on @interface, in order with its others. */
static void
enqueue_on (UndodStack *self, const char *interface, const char *method, GVariant *parameters,
            const GVariantType *reply_type, int timeout_ms, GTask *task, const char *group_name)
{
  GError *error = NULL;
  if (self->closed)
    error = g_error_new (UNDOD_ERROR, UNDOD_ERROR_CLOSED, "The stack %s was closed.", self->path);
  else if (self->path == NULL) /* registered while undod was absent, and not yet again */
    error = g_error_new (UNDOD_ERROR, UNDOD_ERROR_DAEMON_UNAVAILABLE,
                         "undod is not running: %s cannot reach the stack of %s.", method, self->app_id);
  if (error != NULL)
    {
      g_variant_unref (g_variant_ref_sink (parameters));
      if (task != NULL)
        {
          g_task_return_error (task, error);
          g_object_unref (task);
        }
      else
        {
          g_signal_emit (self, signals[SIGNAL_PUSH_FAILED], 0, group_name, error);
          g_error_free (error);
        }
      return;
    }
  /* Mutations wait out an Apply (Busy) and go again. */
  gboolean mutation = g_str_has_prefix (method, "Push") || g_str_equal (method, "SetClean") ||
                      g_str_equal (method, "Clear") || g_str_equal (method, "Close");
  undod_send_queue_call (self->queue, interface, method, parameters, reply_type, timeout_ms, mutation, task,
                         group_name);
}

/* Queues a call to the stack, in order with its others. */
static void
enqueue (UndodStack *self, const char *method, GVariant *parameters, const GVariantType *reply_type,
         int timeout_ms, GTask *task, const char *group_name)
{
  enqueue_on (self, UNDOD_STACK_INTERFACE, method, parameters, reply_type, timeout_ms, task, group_name);
}

static void
properties_read (GObject *source, GAsyncResult *result, gpointer data)
{
  UndodStack *self = UNDOD_STACK (source);
  g_autoptr (GVariant) reply = g_task_propagate_pointer (G_TASK (result), NULL);
  if (reply == NULL)
    return; /* undod went away: its vanishing sets the local state */
  if (GPOINTER_TO_UINT (data) != self->state_serial || is_local (self))
    return; /* something changed the state after it was asked */
  g_autoptr (GVariant) all = g_variant_get_child_value (reply, 0);
  gboolean can_undo = FALSE, can_redo = FALSE, clean = TRUE;
  const char *undo_name = "", *redo_name = "";
  g_variant_lookup (all, "CanUndo", "b", &can_undo);
  g_variant_lookup (all, "CanRedo", "b", &can_redo);
  g_variant_lookup (all, "UndoName", "&s", &undo_name);
  g_variant_lookup (all, "RedoName", "&s", &redo_name);
  g_variant_lookup (all, "Clean", "b", &clean);
  set_state (self, can_undo ? undo_name : NULL, can_redo ? redo_name : NULL, clean);
}

/* undod went away: from now on undo and redo walk the local history,
 * which starts empty at the state undod left; that state stays clean or
 * modified as it was. */
void
undod_stack_go_local (UndodStack *stack)
{
  stack->state_serial++;
  undod_local_history_start_at (&stack->local, stack->clean);
  undod_stack_refresh_state (stack);
}

/* Reads what the stack can undo and redo and whether it is clean: from the
 * local history while undod is absent, else from undod's properties, asked
 * in order after the stack's calls queued so far. Called after every
 * change the app cannot work out itself: an apply, a clear, a set-clean, a
 * failed push, registering. */
static void
undod_stack_refresh_state (UndodStack *stack)
{
  if (stack->closed)
    return;
  if (is_local (stack))
    {
      return set_state (stack, undod_local_history_top_name (&stack->local, UNDOD_DIRECTION_UNDO),
                        undod_local_history_top_name (&stack->local, UNDOD_DIRECTION_REDO),
                        undod_local_history_is_clean (&stack->local));
    }
  GTask *task = g_task_new (stack, NULL, properties_read, GUINT_TO_POINTER (++stack->state_serial));
  enqueue_on (stack, "org.freedesktop.DBus.Properties", "GetAll", g_variant_new ("(s)", UNDOD_STACK_INTERFACE),
              G_VARIANT_TYPE ("(a{sv})"), UNDOD_CALL_TIMEOUT_MS, task, "GetAll");
}

void
undod_stack_hold (UndodStack *stack)
{
  undod_send_queue_hold (stack->queue);
}

void
undod_stack_release (UndodStack *stack)
{
  undod_send_queue_release (stack->queue);
}

/* A group was applied in @direction: it went to the other side (undod
 * hands out only the top group), so that side has something at once, by
 * that name, and a key pressed right after works. The side it left is read
 * from undod: until then it may still have a group, name unknown (""),
 * never the name of the group that left it. */
static void
note_applied (UndodStack *self, UndodDirection direction)
{
  g_autofree char *moved = g_strdup (direction == UNDOD_DIRECTION_UNDO ? self->undo_name : self->redo_name);
  if (direction == UNDOD_DIRECTION_UNDO)
    set_state (self, self->can_undo ? "" : NULL, moved, self->clean);
  else
    set_state (self, moved, self->can_redo ? "" : NULL, self->clean);
  undod_stack_refresh_state (self);
}

static void
apply_finished (UndodApply *apply, gpointer data)
{
  g_autoptr (UndodStack) self = data;
  undod_stack_release (self);
  if (undod_apply_get_error (apply) == NULL)
    note_applied (self, undod_apply_get_direction (apply));
  else
    undod_stack_refresh_state (self);
}

/* Hands @apply to the app's apply handler, the stack's calls held until it
 * is answered (@finished then runs, and releases them); answers it with an
 * error when no handler takes it. */
static gboolean
hand_to_app (UndodStack *stack, UndodApply *apply, GCallback finished, gpointer data)
{
  undod_stack_hold (stack);
  undod_apply_set_finished_func (apply, finished, data);
  gboolean handled = FALSE;
  g_signal_emit (stack, signals[SIGNAL_APPLY], 0, apply, &handled);
  if (!handled && !undod_apply_get_finished (apply))
    {
      g_autoptr (GError) error = g_error_new (UNDOD_ERROR, UNDOD_ERROR_FAILED,
                                              "The application has no apply handler for the stack of %s.",
                                              stack->app_id);
      undod_apply_return_error (apply, error);
    }
  return handled;
}

/* An Apply from undod, handed to the app. */
gboolean
undod_stack_dispatch_apply (UndodStack *stack, UndodApply *apply)
{
  return hand_to_app (stack, apply, G_CALLBACK (apply_finished), g_object_ref (stack));
}

static GVariant *
bytes_variant (GBytes *bytes)
{
  return g_variant_new_from_bytes (G_VARIANT_TYPE_BYTESTRING, bytes, TRUE);
}

/**
 * undod_stack_push:
 * @stack: the stack
 * @name: the group's name, as menus show it ("Typing")
 * @undo: the bytes that undo the change
 * @redo: the bytes that redo it
 * @merge_key: (nullable): pushes with the same key coalesce into the top group
 *
 * Records a group of one action. Returns at once: the push leaves in order
 * with the stack's other calls; a failure is reported by
 * #UndodStack::push-failed.
 */
static void push_one (UndodStack *stack, const char *name, GBytes *undo, GBytes *redo, GVariant *hints);

void
undod_stack_push (UndodStack *stack, const char *name, GBytes *undo, GBytes *redo, const char *merge_key)
{
  push_one (stack, name, undo, redo, undod_hints_variant (merge_key, 0, NULL));
}

/**
 * undod_stack_push_full:
 * @stack: the stack
 * @name: the group's name, as menus show it ("Typing")
 * @undo: the bytes that undo the change
 * @redo: the bytes that redo it
 * @hints: (nullable): how undod should take it (merge key and window, state tag)
 *
 * undod_stack_push() with all of the contract's hints.
 */
void
undod_stack_push_full (UndodStack *stack, const char *name, GBytes *undo, GBytes *redo, UndodHints *hints)
{
  push_one (stack, name, undo, redo, undod_hints_to_variant (hints));
}

/* A Push with @hints (a floating a{sv}). */
static void
push_one (UndodStack *stack, const char *name, GBytes *undo, GBytes *redo, GVariant *hints)
{
  g_return_if_fail (UNDOD_IS_STACK (stack));
  g_return_if_fail (name != NULL && undo != NULL && redo != NULL);
  GVariant *parameters = g_variant_new ("(s@ay@ay@a{sv})", name, bytes_variant (undo), bytes_variant (redo), hints);
  if (is_local (stack) && !stack->closed)
    {
      g_autoptr (GVariant) body = g_variant_ref_sink (parameters);
      const char *ignored = NULL;
      g_autoptr (GVariant) sent_hints = NULL;
      g_autoptr (GPtrArray) actions = actions_of ("Push", body, &ignored, &sent_hints);
      keep_locally (stack, name, actions, sent_hints);
      return;
    }
  enqueue (stack, "Push", parameters, G_VARIANT_TYPE ("(t)"), UNDOD_CALL_TIMEOUT_MS, NULL, name);
  if (stack->closed)
    return;
  stack->state_serial++;
  set_state (stack, name, NULL, FALSE);
}

/**
 * undod_stack_push_group:
 * @stack: the stack
 * @name: the group's name
 * @actions: (array length=n_actions): the actions, in the order they were done
 * @n_actions: how many
 * @merge_key: (nullable): pushes with the same key coalesce into the top group
 * @cancellable: (nullable): cancels the push while it has not left
 * @callback: (scope async) (nullable): called with the group's id
 * @user_data: for @callback
 *
 * Records a group of several actions, undone and redone as one.
 */
static void push_group (UndodStack *stack, const char *name, UndodAction **actions, guint n_actions,
                        GVariant *hints, GCancellable *cancellable, GAsyncReadyCallback callback,
                        gpointer user_data);

void
undod_stack_push_group (UndodStack *stack, const char *name, UndodAction **actions, guint n_actions,
                        const char *merge_key, GCancellable *cancellable, GAsyncReadyCallback callback,
                        gpointer user_data)
{
  push_group (stack, name, actions, n_actions, undod_hints_variant (merge_key, 0, NULL), cancellable, callback,
              user_data);
}

/**
 * undod_stack_push_group_full:
 * @stack: the stack
 * @name: the group's name
 * @actions: (array length=n_actions): the actions, in the order they were done
 * @n_actions: how many
 * @hints: (nullable): how undod should take it (merge key and window, state tag)
 * @cancellable: (nullable): cancels the push while it has not left
 * @callback: (scope async) (nullable): called with the group's id
 * @user_data: for @callback
 *
 * undod_stack_push_group() with all of the contract's hints.
 */
void
undod_stack_push_group_full (UndodStack *stack, const char *name, UndodAction **actions, guint n_actions,
                             UndodHints *hints, GCancellable *cancellable, GAsyncReadyCallback callback,
                             gpointer user_data)
{
  push_group (stack, name, actions, n_actions, undod_hints_to_variant (hints), cancellable, callback, user_data);
}

/* A PushGroup with @hints (a floating a{sv}). */
static void
push_group (UndodStack *stack, const char *name, UndodAction **actions, guint n_actions, GVariant *hints,
            GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data)
{
  g_return_if_fail (UNDOD_IS_STACK (stack));
  g_return_if_fail (name != NULL);
  GVariantBuilder list;
  g_variant_builder_init (&list, G_VARIANT_TYPE ("a(ayay)"));
  for (guint i = 0; i < n_actions; i++)
    g_variant_builder_add (&list, "(@ay@ay)", bytes_variant (undod_action_get_undo (actions[i])),
                           bytes_variant (undod_action_get_redo (actions[i])));
  GVariant *parameters = g_variant_new ("(s@a(ayay)@a{sv})", name, g_variant_builder_end (&list), hints);
  GTask *task = callback != NULL ? g_task_new (stack, cancellable, callback, user_data) : NULL;
  if (task != NULL)
    g_task_set_source_tag (task, undod_stack_push_group);
  if (is_local (stack) && !stack->closed)
    {
      g_autoptr (GVariant) body = g_variant_ref_sink (parameters);
      const char *ignored = NULL;
      g_autoptr (GVariant) sent_hints = NULL;
      g_autoptr (GPtrArray) kept = actions_of ("PushGroup", body, &ignored, &sent_hints);
      guint64 id = keep_locally (stack, name, kept, sent_hints);
      if (task != NULL)
        {
          g_task_return_pointer (task, g_variant_ref_sink (g_variant_new ("(t)", id)), (GDestroyNotify) g_variant_unref);
          g_object_unref (task);
        }
      return;
    }
  enqueue (stack, "PushGroup", parameters, G_VARIANT_TYPE ("(t)"), UNDOD_CALL_TIMEOUT_MS, task, name);
  if (n_actions > 0 && !stack->closed)
    {
      stack->state_serial++;
      set_state (stack, name, NULL, FALSE);
    }
}

/**
 * undod_stack_get_can_undo:
 * @stack: the stack
 *
 * Returns: whether there is a group to undo (#UndodStack:can-undo)
 */
gboolean
undod_stack_get_can_undo (UndodStack *stack)
{
  g_return_val_if_fail (UNDOD_IS_STACK (stack), FALSE);
  return stack->can_undo;
}

/**
 * undod_stack_get_can_redo:
 * @stack: the stack
 *
 * Returns: whether there is a group to redo (#UndodStack:can-redo)
 */
gboolean
undod_stack_get_can_redo (UndodStack *stack)
{
  g_return_val_if_fail (UNDOD_IS_STACK (stack), FALSE);
  return stack->can_redo;
}

/**
 * undod_stack_get_undo_name:
 * @stack: the stack
 *
 * Returns: the name of the group an undo would undo, "" when none
 */
const char *
undod_stack_get_undo_name (UndodStack *stack)
{
  g_return_val_if_fail (UNDOD_IS_STACK (stack), NULL);
  return stack->undo_name;
}

/**
 * undod_stack_get_redo_name:
 * @stack: the stack
 *
 * Returns: the name of the group a redo would redo, "" when none
 */
const char *
undod_stack_get_redo_name (UndodStack *stack)
{
  g_return_val_if_fail (UNDOD_IS_STACK (stack), NULL);
  return stack->redo_name;
}

/**
 * undod_stack_get_clean:
 * @stack: the stack
 *
 * Returns: whether the document is in the state last marked clean (#UndodStack:clean)
 */
gboolean
undod_stack_get_clean (UndodStack *stack)
{
  g_return_val_if_fail (UNDOD_IS_STACK (stack), FALSE);
  return stack->clean;
}

static GVariant *
finish_reply (UndodStack *stack, GAsyncResult *result, gpointer tag, GError **error)
{
  g_return_val_if_fail (g_task_is_valid (result, stack), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == tag, NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}

/**
 * undod_stack_push_group_finish:
 * @stack: the stack
 * @result: the result
 * @error: where a failure goes
 *
 * Returns: the group's id, or 0 on failure
 */
guint64
undod_stack_push_group_finish (UndodStack *stack, GAsyncResult *result, GError **error)
{
  g_autoptr (GVariant) reply = finish_reply (stack, result, undod_stack_push_group, error);
  guint64 group = 0;
  if (reply != NULL)
    g_variant_get (reply, "(t)", &group);
  else
    undod_stack_refresh_state (stack); /* can-undo was set when it was pushed */
  return group;
}

static void
call_simple (UndodStack *stack, const char *method, GVariant *parameters, const GVariantType *reply_type,
             int timeout_ms, gpointer tag, GCancellable *cancellable, GAsyncReadyCallback callback,
             gpointer user_data)
{
  GTask *task = g_task_new (stack, cancellable, callback, user_data);
  g_task_set_source_tag (task, tag);
  enqueue (stack, method, parameters != NULL ? parameters : g_variant_new ("()"), reply_type, timeout_ms, task, method);
}

/* An undo or redo of the local history: the app applies the group, and on
 * success it moves to the other side. */
typedef struct {
  UndodStack *stack;
  GTask *task;
  UndodDirection direction;
  /* The group's id and name: a push meanwhile may free the group itself
   * (it clears the redo side). */
  guint64 group_id;
  char *group_name;
} LocalApply;

static void
local_apply_finished (UndodApply *apply, gpointer data)
{
  LocalApply *local = data;
  UndodStack *self = local->stack;
  const GError *error = undod_apply_get_error (apply);
  if (error != NULL)
    g_task_return_error (local->task, g_error_new (UNDOD_ERROR, UNDOD_ERROR_CLIENT_FAILED,
                                                   "The application could not apply “%s”: %s", local->group_name,
                                                   error->message));
  else
    {
      undod_local_history_moved (&self->local, local->direction, local->group_id);
      g_task_return_pointer (local->task, g_variant_ref_sink (g_variant_new ("(ts)", local->group_id, local->group_name)),
                             (GDestroyNotify) g_variant_unref);
    }
  undod_stack_release (self);
  undod_stack_refresh_state (self);
  g_object_unref (local->task);
  g_object_unref (self);
  g_free (local->group_name);
  g_free (local);
}

static void
apply_locally (UndodStack *self, UndodDirection direction, GTask *task)
{
  UndodLocalGroup *group = undod_local_history_top (&self->local, direction);
  if (group == NULL)
    {
      g_task_return_new_error (task, UNDOD_ERROR, UNDOD_ERROR_DAEMON_UNAVAILABLE,
                               "undod is not running, and the local history has nothing to %s.",
                               direction == UNDOD_DIRECTION_UNDO ? "undo" : "redo");
      g_object_unref (task);
      return;
    }
  g_autoptr (GPtrArray) payloads = undod_local_group_payloads (group, direction);
  LocalApply *local = g_new0 (LocalApply, 1);
  local->stack = g_object_ref (self);
  local->task = task;
  local->direction = direction;
  local->group_id = group->id;
  local->group_name = g_strdup (group->name);
  undod_local_history_begin_move (&self->local);
  g_autoptr (UndodApply) apply = undod_apply_new_local (direction, group->id, payloads);
  hand_to_app (self, apply, G_CALLBACK (local_apply_finished), local);
}

static guint64
finish_applied (UndodStack *stack, GAsyncResult *result, gpointer tag, char **name, GError **error)
{
  g_autoptr (GVariant) reply = finish_reply (stack, result, tag, error);
  guint64 group = 0;
  const char *group_name = "";
  if (reply != NULL)
    g_variant_get (reply, "(t&s)", &group, &group_name);
  if (name != NULL)
    *name = reply != NULL ? g_strdup (group_name) : NULL;
  return group;
}

/* An undo or redo nobody waits for: its failure is logged, unless the side
 * was only empty. */
static void
moved_unwatched (GObject *source, GAsyncResult *result, gpointer data)
{
  g_autoptr (GError) error = NULL;
  gboolean undo = g_task_get_source_tag (G_TASK (result)) == undod_stack_undo;
  if (undo)
    undod_stack_undo_finish (UNDOD_STACK (source), result, NULL, &error);
  else
    undod_stack_redo_finish (UNDOD_STACK (source), result, NULL, &error);
  if (error != NULL && !g_error_matches (error, UNDOD_ERROR, UNDOD_ERROR_NOTHING_TO_UNDO) &&
      !g_error_matches (error, UNDOD_ERROR, UNDOD_ERROR_NOTHING_TO_REDO))
    g_message ("%s failed: %s", undo ? "Undo" : "Redo", error->message);
}

/* Undo or redo: on the local history while undod is absent, else through undod. */
static void
move (UndodStack *stack, UndodDirection direction, GCancellable *cancellable, GAsyncReadyCallback callback,
      gpointer user_data)
{
  gboolean undo = direction == UNDOD_DIRECTION_UNDO;
  gpointer tag = undo ? (gpointer) undod_stack_undo : (gpointer) undod_stack_redo;
  if (callback == NULL)
    callback = moved_unwatched;
  if (is_local (stack) && !stack->closed)
    {
      GTask *task = g_task_new (stack, cancellable, callback, user_data);
      g_task_set_source_tag (task, tag);
      return apply_locally (stack, direction, task);
    }
  call_simple (stack, undo ? "Undo" : "Redo", NULL, G_VARIANT_TYPE ("(ts)"), UNDOD_APPLY_TIMEOUT_MS, tag,
               cancellable, callback, user_data);
}

/**
 * undod_stack_undo:
 * @stack: the stack
 * @cancellable: (nullable): cancels the call while it has not left
 * @callback: (scope async) (nullable): called once the group is undone (%NULL: a failure is logged)
 * @user_data: for @callback
 *
 * Undoes the top group: undod emits #UndodStack::apply with its undo
 * payloads, and answers once the app applied them.
 */
void
undod_stack_undo (UndodStack *stack, GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data)
{
  g_return_if_fail (UNDOD_IS_STACK (stack));
  move (stack, UNDOD_DIRECTION_UNDO, cancellable, callback, user_data);
}

/**
 * undod_stack_undo_finish:
 * @stack: the stack
 * @result: the result
 * @name: (out) (optional) (transfer full): the group's name
 * @error: where a failure goes (%UNDOD_ERROR_NOTHING_TO_UNDO, say)
 *
 * Returns: the id of the group undone, or 0 on failure
 */
guint64
undod_stack_undo_finish (UndodStack *stack, GAsyncResult *result, char **name, GError **error)
{
  return finish_applied (stack, result, undod_stack_undo, name, error);
}

/**
 * undod_stack_redo:
 * @stack: the stack
 * @cancellable: (nullable): cancels the call while it has not left
 * @callback: (scope async) (nullable): called once the group is redone (%NULL: a failure is logged)
 * @user_data: for @callback
 *
 * Redoes the top redo group.
 */
void
undod_stack_redo (UndodStack *stack, GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data)
{
  g_return_if_fail (UNDOD_IS_STACK (stack));
  move (stack, UNDOD_DIRECTION_REDO, cancellable, callback, user_data);
}

/**
 * undod_stack_redo_finish:
 * @stack: the stack
 * @result: the result
 * @name: (out) (optional) (transfer full): the group's name
 * @error: where a failure goes
 *
 * Returns: the id of the group redone, or 0 on failure
 */
guint64
undod_stack_redo_finish (UndodStack *stack, GAsyncResult *result, char **name, GError **error)
{
  return finish_applied (stack, result, undod_stack_redo, name, error);
}

static gboolean
finish_simple (UndodStack *stack, GAsyncResult *result, gpointer tag, GError **error)
{
  g_autoptr (GVariant) reply = finish_reply (stack, result, tag, error);
  return reply != NULL;
}

/* A call the local history answered at once (undod is absent): its
 * callback gets success, as from undod. */
static void
done_locally (UndodStack *stack, gpointer tag, GCancellable *cancellable, GAsyncReadyCallback callback,
              gpointer user_data)
{
  GTask *task = g_task_new (stack, cancellable, callback, user_data);
  g_task_set_source_tag (task, tag);
  g_task_return_pointer (task, g_variant_ref_sink (g_variant_new ("()")), (GDestroyNotify) g_variant_unref);
  g_object_unref (task);
}

#define SIMPLE_CALL(fn, method)                                                                   \
  void undod_stack_##fn (UndodStack *stack, GCancellable *cancellable, GAsyncReadyCallback callback,  \
                         gpointer user_data)                                                           \
  {                                                                                                    \
    g_return_if_fail (UNDOD_IS_STACK (stack));                                                         \
    call_simple (stack, method, NULL, G_VARIANT_TYPE_UNIT, UNDOD_CALL_TIMEOUT_MS, undod_stack_##fn,    \
                 cancellable, callback, user_data);                                                    \
  }                                                                                                    \
  gboolean undod_stack_##fn##_finish (UndodStack *stack, GAsyncResult *result, GError **error)        \
  {                                                                                                    \
    return finish_simple (stack, result, undod_stack_##fn, error);                                     \
  }

/**
 * undod_stack_set_clean:
 * @stack: the stack
 * @cancellable: (nullable): cancels the call while it has not left
 * @callback: (scope async) (nullable): called once undod marked it
 * @user_data: for @callback
 *
 * Marks the present state as clean (saved).
 */
/**
 * undod_stack_set_clean_finish:
 * @stack: the stack
 * @result: the result
 * @error: where a failure goes
 *
 * Returns: whether undod marked it
 */
void
undod_stack_set_clean (UndodStack *stack, GCancellable *cancellable, GAsyncReadyCallback callback,
                       gpointer user_data)
{
  g_return_if_fail (UNDOD_IS_STACK (stack));
  if (is_local (stack) && !stack->closed)
    {
      undod_local_history_set_clean (&stack->local);
      undod_stack_refresh_state (stack);
      return done_locally (stack, undod_stack_set_clean, cancellable, callback, user_data);
    }
  call_simple (stack, "SetClean", NULL, G_VARIANT_TYPE_UNIT, UNDOD_CALL_TIMEOUT_MS, undod_stack_set_clean,
               cancellable, callback, user_data);
  stack->state_serial++;
  set_state (stack, stack->can_undo ? stack->undo_name : NULL, stack->can_redo ? stack->redo_name : NULL, TRUE);
  undod_stack_refresh_state (stack);
}

gboolean
undod_stack_set_clean_finish (UndodStack *stack, GAsyncResult *result, GError **error)
{
  return finish_simple (stack, result, undod_stack_set_clean, error);
}

/**
 * undod_stack_activate:
 * @stack: the stack
 * @cancellable: (nullable): cancels the call while it has not left
 * @callback: (scope async) (nullable): called once undod knows
 * @user_data: for @callback
 *
 * Tells undod this app now has the user's focus (a window of the
 * document's came to the front).
 */
/**
 * undod_stack_activate_finish:
 * @stack: the stack
 * @result: the result
 * @error: where a failure goes
 *
 * Returns: whether undod took it
 */
SIMPLE_CALL (activate, "Activate")

/**
 * undod_stack_deactivate:
 * @stack: the stack
 * @cancellable: (nullable): cancels the call while it has not left
 * @callback: (scope async) (nullable): called once undod knows
 * @user_data: for @callback
 *
 * Tells undod the app's windows lost the user's focus.
 */
/**
 * undod_stack_deactivate_finish:
 * @stack: the stack
 * @result: the result
 * @error: where a failure goes
 *
 * Returns: whether undod took it
 */
SIMPLE_CALL (deactivate, "Deactivate")

/**
 * undod_stack_clear:
 * @stack: the stack
 * @cancellable: (nullable): cancels the call while it has not left
 * @callback: (scope async) (nullable): called once the history is gone
 * @user_data: for @callback
 *
 * Drops the whole history, both sides.
 */
/**
 * undod_stack_clear_finish:
 * @stack: the stack
 * @result: the result
 * @error: where a failure goes
 *
 * Returns: whether undod dropped it
 */
void
undod_stack_clear (UndodStack *stack, GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data)
{
  g_return_if_fail (UNDOD_IS_STACK (stack));
  if (is_local (stack) && !stack->closed)
    {
      undod_local_history_clear (&stack->local);
      undod_stack_refresh_state (stack);
      return done_locally (stack, undod_stack_clear, cancellable, callback, user_data);
    }
  call_simple (stack, "Clear", NULL, G_VARIANT_TYPE_UNIT, UNDOD_CALL_TIMEOUT_MS, undod_stack_clear, cancellable,
               callback, user_data);
  undod_stack_refresh_state (stack);
}

gboolean
undod_stack_clear_finish (UndodStack *stack, GAsyncResult *result, GError **error)
{
  return finish_simple (stack, result, undod_stack_clear, error);
}

/**
 * undod_stack_close:
 * @stack: the stack
 * @discard: %TRUE: delete the stack; %FALSE: keep it for a later register to adopt
 * @cancellable: (nullable): cancels the call while it has not left
 * @callback: (scope async) (nullable): called once undod let go
 * @user_data: for @callback
 *
 * Gives the stack up. Calls made after it fail with %UNDOD_ERROR_CLOSED.
 */
void
undod_stack_close (UndodStack *stack, gboolean discard, GCancellable *cancellable, GAsyncReadyCallback callback,
                   gpointer user_data)
{
  g_return_if_fail (UNDOD_IS_STACK (stack));
  call_simple (stack, "Close", g_variant_new ("(b)", discard), G_VARIANT_TYPE_UNIT, UNDOD_CALL_TIMEOUT_MS,
               undod_stack_close, cancellable, callback, user_data);
  stack->closed = TRUE;
  if (stack->client != NULL)
    undod_client_forget_stack (stack->client, stack);
}

/**
 * undod_stack_close_finish:
 * @stack: the stack
 * @result: the result
 * @error: where a failure goes
 *
 * Returns: whether undod let go of it
 */
gboolean
undod_stack_close_finish (UndodStack *stack, GAsyncResult *result, GError **error)
{
  return finish_simple (stack, result, undod_stack_close, error);
}
