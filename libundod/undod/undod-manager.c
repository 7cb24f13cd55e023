/* undod-manager.c: NSUndoManager's shape on an UndodStack. The app
 * registers functions that undo its changes; they stay in the process, and
 * undod gets one group per change whose payload is only a token naming the
 * group. When undod hands a group back (the app's own undo, the global key),
 * its functions run, last first, and what they register becomes the group's
 * work for the other direction, as with NSUndoManager. */
#include "undod-manager.h"
#include "undod-apply.h"
#include "undod-error.h"
#include "undod-private.h"

/**
 * UndodManager:
 *
 * For apps that think in functions rather than payloads. Registrations
 * made outside an explicit group (undod_manager_begin_grouping()) form one
 * group per main-loop turn; the group goes to undod, named by
 * undod_manager_set_action_name(), when the turn ends. The functions do not
 * outlive the process: a group adopted after a restart is answered as
 * obsolete, so register the stack with persist off.
 */
struct _UndodManager {
  GObject parent_instance;
  UndodStack *stack;
  gulong apply_handler;
  /* Groups by token: GPtrArray of Registration, the work for the next apply. */
  GHashTable *groups;
  guint64 next_token;
  /* The group being filled: by the app, or by functions running in an apply. */
  GPtrArray *open;
  char *open_name;
  guint explicit_depth;
  guint close_source;
  gboolean undoing;
  gboolean redoing;
};

typedef struct {
  UndodUndoFunc func;
  gpointer user_data;
  GDestroyNotify destroy;
} Registration;

G_DEFINE_FINAL_TYPE (UndodManager, undod_manager, G_TYPE_OBJECT)

static void
registration_free (Registration *registration)
{
  if (registration->destroy != NULL)
    registration->destroy (registration->user_data);
  g_free (registration);
}

static GPtrArray *
new_group (void)
{
  return g_ptr_array_new_with_free_func ((GDestroyNotify) registration_free);
}

/* Sends the open group to undod, under a new token. */
static void
close_group (UndodManager *self)
{
  g_clear_handle_id (&self->close_source, g_source_remove);
  if (self->open == NULL || self->open->len == 0)
    return;
  guint64 token = ++self->next_token;
  g_hash_table_insert (self->groups, g_memdup2 (&token, sizeof token), g_steal_pointer (&self->open));
  g_autofree char *text = g_strdup_printf ("undod-manager:%" G_GUINT64_FORMAT, token);
  g_autoptr (GBytes) payload = g_bytes_new (text, strlen (text));
  g_autofree char *name = g_steal_pointer (&self->open_name);
  undod_stack_push (self->stack, name != NULL ? name : "Edit", payload, payload, NULL);
}

static gboolean
close_at_turn_end (gpointer data)
{
  UndodManager *self = data;
  self->close_source = 0;
  if (self->explicit_depth == 0)
    close_group (self);
  return G_SOURCE_REMOVE;
}

static gboolean
on_apply (UndodStack *stack, UndodApply *apply, UndodManager *self)
{
  GPtrArray *payloads = undod_apply_get_payloads (apply);
  gsize size = 0;
  const char *data = payloads->len == 1 ? g_bytes_get_data (g_ptr_array_index (payloads, 0), &size) : NULL;
  g_autofree char *text = data != NULL ? g_strndup (data, size) : NULL;
  guint64 token = 0;
  GPtrArray *work = NULL;
  if (text != NULL && g_str_has_prefix (text, "undod-manager:"))
    {
      token = g_ascii_strtoull (text + strlen ("undod-manager:"), NULL, 10);
      work = g_hash_table_lookup (self->groups, &token);
    }
  if (work == NULL)
    {
      undod_apply_return_obsolete (apply);
      return TRUE;
    }
  /* What the functions register while they run is the other direction's work. */
  g_hash_table_steal (self->groups, &token);
  close_group (self);
  self->open = new_group ();
  gboolean undo = undod_apply_get_direction (apply) == UNDOD_DIRECTION_UNDO;
  self->undoing = undo;
  self->redoing = !undo;
  for (guint i = work->len; i > 0; i--)
    {
      Registration *registration = g_ptr_array_index (work, i - 1);
      registration->func (registration->user_data);
    }
  self->undoing = self->redoing = FALSE;
  g_ptr_array_unref (work);
  g_hash_table_insert (self->groups, g_memdup2 (&token, sizeof token), g_steal_pointer (&self->open));
  g_clear_pointer (&self->open_name, g_free);
  undod_apply_return_success (apply);
  return TRUE;
}

static void
undod_manager_dispose (GObject *object)
{
  UndodManager *self = UNDOD_MANAGER (object);
  g_clear_handle_id (&self->close_source, g_source_remove);
  if (self->stack != NULL)
    g_clear_signal_handler (&self->apply_handler, self->stack);
  g_clear_object (&self->stack);
  g_clear_pointer (&self->groups, g_hash_table_unref);
  g_clear_pointer (&self->open, g_ptr_array_unref);
  G_OBJECT_CLASS (undod_manager_parent_class)->dispose (object);
}

static void
undod_manager_finalize (GObject *object)
{
  g_free (UNDOD_MANAGER (object)->open_name);
  G_OBJECT_CLASS (undod_manager_parent_class)->finalize (object);
}

static void
undod_manager_class_init (UndodManagerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  object_class->dispose = undod_manager_dispose;
  object_class->finalize = undod_manager_finalize;
}

static void
undod_manager_init (UndodManager *self)
{
  self->groups = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, (GDestroyNotify) g_ptr_array_unref);
}

/**
 * undod_manager_new:
 * @stack: the stack whose history the manager keeps (it answers its apply signal)
 *
 * Returns: (transfer full): a manager for @stack
 */
UndodManager *
undod_manager_new (UndodStack *stack)
{
  g_return_val_if_fail (UNDOD_IS_STACK (stack), NULL);
  UndodManager *self = g_object_new (UNDOD_TYPE_MANAGER, NULL);
  self->stack = g_object_ref (stack);
  self->apply_handler = g_signal_connect (stack, "apply", G_CALLBACK (on_apply), self);
  return self;
}

/**
 * undod_manager_register_undo:
 * @manager: the manager
 * @func: (scope notified): what undoes the change (or, while undoing, redoes it)
 * @user_data: (closure): for @func
 * @destroy: (destroy user_data) (nullable): frees @user_data when the group goes
 *
 * Registers the undo of a change just made. Outside an explicit group, the
 * registrations of one main-loop turn form one group.
 */
void
undod_manager_register_undo (UndodManager *manager, UndodUndoFunc func, gpointer user_data, GDestroyNotify destroy)
{
  g_return_if_fail (UNDOD_IS_MANAGER (manager));
  g_return_if_fail (func != NULL);
  if (manager->open == NULL)
    manager->open = new_group ();
  Registration *registration = g_new0 (Registration, 1);
  registration->func = func;
  registration->user_data = user_data;
  registration->destroy = destroy;
  g_ptr_array_add (manager->open, registration);
  if (!manager->undoing && !manager->redoing && manager->explicit_depth == 0 && manager->close_source == 0)
    /* Before the loop dispatches anything else (an Apply, above all). */
    manager->close_source = g_idle_add_full (G_PRIORITY_HIGH, close_at_turn_end, manager, NULL);
}

/**
 * undod_manager_set_action_name:
 * @manager: the manager
 * @name: the name of the group being made ("Typing"), as menus show it
 *
 * Names the group the registrations go to.
 */
void
undod_manager_set_action_name (UndodManager *manager, const char *name)
{
  g_return_if_fail (UNDOD_IS_MANAGER (manager));
  if (manager->undoing || manager->redoing)
    return; /* the group keeps its name both ways */
  g_free (manager->open_name);
  manager->open_name = g_strdup (name);
}

/**
 * undod_manager_begin_grouping:
 * @manager: the manager
 *
 * Opens an explicit group: the registrations until the matching
 * undod_manager_end_grouping() form one group, across main-loop turns.
 */
void
undod_manager_begin_grouping (UndodManager *manager)
{
  g_return_if_fail (UNDOD_IS_MANAGER (manager));
  if (manager->explicit_depth++ == 0)
    close_group (manager);
}

/**
 * undod_manager_end_grouping:
 * @manager: the manager
 *
 * Closes the explicit group; the outermost end sends it to undod.
 */
void
undod_manager_end_grouping (UndodManager *manager)
{
  g_return_if_fail (UNDOD_IS_MANAGER (manager));
  g_return_if_fail (manager->explicit_depth > 0);
  if (--manager->explicit_depth == 0)
    close_group (manager);
}

/**
 * undod_manager_get_is_undoing:
 * @manager: the manager
 *
 * Returns: whether the manager is running a group's functions for an undo
 */
gboolean
undod_manager_get_is_undoing (UndodManager *manager)
{
  g_return_val_if_fail (UNDOD_IS_MANAGER (manager), FALSE);
  return manager->undoing;
}

/**
 * undod_manager_get_is_redoing:
 * @manager: the manager
 *
 * Returns: whether the manager is running a group's functions for a redo
 */
gboolean
undod_manager_get_is_redoing (UndodManager *manager)
{
  g_return_val_if_fail (UNDOD_IS_MANAGER (manager), FALSE);
  return manager->redoing;
}

/**
 * undod_manager_undo:
 * @manager: the manager
 *
 * Closes the open group, then undoes the last group through undod (the
 * app's Undo action): its functions run when undod hands it back.
 */
void
undod_manager_undo (UndodManager *manager)
{
  g_return_if_fail (UNDOD_IS_MANAGER (manager));
  if (manager->explicit_depth == 0)
    close_group (manager);
  undod_stack_undo (manager->stack, NULL, NULL, NULL);
}

/**
 * undod_manager_redo:
 * @manager: the manager
 *
 * Redoes the last undone group through undod.
 */
void
undod_manager_redo (UndodManager *manager)
{
  g_return_if_fail (UNDOD_IS_MANAGER (manager));
  undod_stack_redo (manager->stack, NULL, NULL, NULL);
}
