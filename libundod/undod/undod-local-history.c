/* undod-local-history.c: the history a stack keeps in the app while undod
 * is absent (undod-local-history.h), under undod's rules. */
#include "undod-local-history.h"
#include "undod-action.h"

static void
local_group_free (UndodLocalGroup *group)
{
  g_free (group->name);
  g_free (group->merge_key);
  g_free (group->state_tag);
  g_ptr_array_unref (group->actions);
  g_free (group);
}

void
undod_local_history_init (UndodLocalHistory *history)
{
  g_queue_init (&history->undo);
  g_queue_init (&history->redo);
  history->last_id = 0;
  history->merge_open = FALSE;
  history->clean_id = 0;
}

/* Drops both sides: the empty state is the clean one, and no merge is open. */
void
undod_local_history_clear (UndodLocalHistory *history)
{
  g_queue_clear_full (&history->undo, (GDestroyNotify) local_group_free);
  g_queue_clear_full (&history->redo, (GDestroyNotify) local_group_free);
  history->clean_id = 0;
  history->merge_open = FALSE;
}

/* undod went away: the history starts here (empty, as undod's groups stay
 * in undod), in a state that stays clean or modified as it was. */
void
undod_local_history_start_at (UndodLocalHistory *history, gboolean clean)
{
  history->clean_id = clean ? 0 : G_MAXUINT64;
  history->merge_open = FALSE;
}

/* Keeps a push: it clears the redo side, as undod's does, and merges into
 * the top group as undod's would (same merge key, within the window, no
 * undo or redo since, not into a saved state: undo would go past it, and
 * it could never be reached again). Returns the group that holds it. */
UndodLocalGroup *
undod_local_history_push (UndodLocalHistory *history, const char *name, GPtrArray *actions, GVariant *hints)
{
  const char *merge_key = NULL, *state_tag = NULL;
  guint32 window_ms = UNDOD_LOCAL_MERGE_WINDOW_MS;
  if (hints != NULL)
    {
      g_variant_lookup (hints, "merge_key", "&s", &merge_key);
      g_variant_lookup (hints, "merge_window_ms", "u", &window_ms);
      g_variant_lookup (hints, "state_tag", "&s", &state_tag);
    }
  gint64 now = g_get_monotonic_time ();
  g_queue_clear_full (&history->redo, (GDestroyNotify) local_group_free);
  UndodLocalGroup *top = g_queue_peek_tail (&history->undo);
  if (top != NULL && merge_key != NULL && *merge_key != '\0' && history->merge_open &&
      history->clean_id != top->id && g_strcmp0 (top->merge_key, merge_key) == 0 &&
      now - top->last_push_us <= (gint64) window_ms * 1000)
    {
      for (guint i = 0; i < actions->len; i++)
        g_ptr_array_add (top->actions, undod_action_copy (g_ptr_array_index (actions, i)));
      top->last_push_us = now;
      g_free (top->name);
      top->name = g_strdup (name); /* the group takes the latest push's name, as in undod */
      if (state_tag != NULL)
        {
          g_free (top->state_tag);
          top->state_tag = g_strdup (state_tag);
        }
      return top;
    }
  UndodLocalGroup *group = g_new0 (UndodLocalGroup, 1);
  group->id = ++history->last_id;
  group->name = g_strdup (name);
  group->actions = g_ptr_array_ref (actions);
  group->merge_key = g_strdup (merge_key);
  group->state_tag = g_strdup (state_tag);
  group->last_push_us = now;
  g_queue_push_tail (&history->undo, group);
  history->merge_open = TRUE;
  return group;
}

/* The top group of a side (the next to undo, or to redo), or NULL. */
UndodLocalGroup *
undod_local_history_top (UndodLocalHistory *history, UndodDirection side)
{
  return g_queue_peek_tail (side == UNDOD_DIRECTION_UNDO ? &history->undo : &history->redo);
}

/* The name of that group, or NULL when the side is empty. */
const char *
undod_local_history_top_name (UndodLocalHistory *history, UndodDirection side)
{
  UndodLocalGroup *top = undod_local_history_top (history, side);
  return top != NULL ? top->name : NULL;
}

/* Whether the present state is the one marked clean. */
gboolean
undod_local_history_is_clean (UndodLocalHistory *history)
{
  UndodLocalGroup *top = undod_local_history_top (history, UNDOD_DIRECTION_UNDO);
  return (top != NULL ? top->id : 0) == history->clean_id;
}

/* Marks the present state clean. */
void
undod_local_history_set_clean (UndodLocalHistory *history)
{
  UndodLocalGroup *top = undod_local_history_top (history, UNDOD_DIRECTION_UNDO);
  history->clean_id = top != NULL ? top->id : 0;
}

/* An undo or redo is handed to the app: from now on a push starts a group
 * of its own (undod's rule). */
void
undod_local_history_begin_move (UndodLocalHistory *history)
{
  history->merge_open = FALSE;
}

/* The app applied @group in @direction: it moves to the other side, if it
 * is still the top of its own (a push meanwhile may have dropped it). */
void
undod_local_history_moved (UndodLocalHistory *history, UndodDirection direction, guint64 group)
{
  GQueue *from = direction == UNDOD_DIRECTION_UNDO ? &history->undo : &history->redo;
  GQueue *to = direction == UNDOD_DIRECTION_UNDO ? &history->redo : &history->undo;
  UndodLocalGroup *top = g_queue_peek_tail (from);
  if (top != NULL && top->id == group)
    g_queue_push_tail (to, g_queue_pop_tail (from));
}

/* What the app applies for @group in @direction: undo applies the actions
 * last first, redo first first (the contract's order). GBytes, owned. */
GPtrArray *
undod_local_group_payloads (UndodLocalGroup *group, UndodDirection direction)
{
  GPtrArray *payloads = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  for (guint i = 0; i < group->actions->len; i++)
    {
      UndodAction *action = g_ptr_array_index (group->actions,
                                               direction == UNDOD_DIRECTION_UNDO ? group->actions->len - 1 - i : i);
      GBytes *bytes = direction == UNDOD_DIRECTION_UNDO ? undod_action_get_undo (action) : undod_action_get_redo (action);
      g_ptr_array_add (payloads, g_bytes_ref (bytes));
    }
  return payloads;
}

/* The `PushGroup` body that hands @group to undod: its state tag goes with
 * it (a reopened document is checked against it); its merge key does not
 * (undod must not merge it into another). Floating. */
GVariant *
undod_local_group_push_group_body (UndodLocalGroup *group)
{
  GVariantBuilder list;
  g_variant_builder_init (&list, G_VARIANT_TYPE ("a(ayay)"));
  for (guint i = 0; i < group->actions->len; i++)
    {
      UndodAction *action = g_ptr_array_index (group->actions, i);
      g_variant_builder_add (&list, "(@ay@ay)",
                             g_variant_new_from_bytes (G_VARIANT_TYPE_BYTESTRING, undod_action_get_undo (action), TRUE),
                             g_variant_new_from_bytes (G_VARIANT_TYPE_BYTESTRING, undod_action_get_redo (action), TRUE));
    }
  GVariantBuilder hints;
  g_variant_builder_init (&hints, G_VARIANT_TYPE_VARDICT);
  if (group->state_tag != NULL)
    g_variant_builder_add (&hints, "{sv}", "state_tag", g_variant_new_string (group->state_tag));
  return g_variant_new ("(s@a(ayay)@a{sv})", group->name, g_variant_builder_end (&list),
                        g_variant_builder_end (&hints));
}
