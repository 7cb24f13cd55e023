/* undod-hints.c: how undod should take one push. */
#include "undod-hints.h"
#include "undod-private.h"

/**
 * UndodHints:
 *
 * The hints of one push (`Push` and `PushGroup`): a merge key, so that a
 * run of typing folds into one group; a merge window for this push
 * instead of undod's configured one; the document's state tag after the
 * change. A hints object can be kept and given to many pushes.
 */
struct _UndodHints {
  GObject parent_instance;
  char *merge_key;
  guint merge_window_ms;
  char *state_tag;
};

G_DEFINE_FINAL_TYPE (UndodHints, undod_hints, G_TYPE_OBJECT)

enum { PROP_MERGE_KEY = 1, PROP_MERGE_WINDOW_MS, PROP_STATE_TAG, N_PROPS };
static GParamSpec *properties[N_PROPS];

static void
undod_hints_finalize (GObject *object)
{
  UndodHints *self = UNDOD_HINTS (object);
  g_free (self->merge_key);
  g_free (self->state_tag);
  G_OBJECT_CLASS (undod_hints_parent_class)->finalize (object);
}

static void
undod_hints_get_property (GObject *object, guint id, GValue *value, GParamSpec *pspec)
{
  UndodHints *self = UNDOD_HINTS (object);
  switch (id)
    {
    case PROP_MERGE_KEY: g_value_set_string (value, self->merge_key); break;
    case PROP_MERGE_WINDOW_MS: g_value_set_uint (value, self->merge_window_ms); break;
    case PROP_STATE_TAG: g_value_set_string (value, self->state_tag); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, id, pspec);
    }
}

static void
undod_hints_set_property (GObject *object, guint id, const GValue *value, GParamSpec *pspec)
{
  UndodHints *self = UNDOD_HINTS (object);
  switch (id)
    {
    case PROP_MERGE_KEY: undod_hints_set_merge_key (self, g_value_get_string (value)); break;
    case PROP_MERGE_WINDOW_MS: undod_hints_set_merge_window_ms (self, g_value_get_uint (value)); break;
    case PROP_STATE_TAG: undod_hints_set_state_tag (self, g_value_get_string (value)); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, id, pspec);
    }
}

static void
undod_hints_class_init (UndodHintsClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  object_class->finalize = undod_hints_finalize;
  object_class->get_property = undod_hints_get_property;
  object_class->set_property = undod_hints_set_property;
  GParamFlags flags = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY;
  /**
   * UndodHints:merge-key:
   *
   * A push with the same key as the top group's merges into it (NULL: none).
   */
  properties[PROP_MERGE_KEY] = g_param_spec_string ("merge-key", NULL, NULL, NULL, flags);
  /**
   * UndodHints:merge-window-ms:
   *
   * How long after the top group's last push this one may still merge
   * into it, in milliseconds (0: undod's configured window).
   */
  properties[PROP_MERGE_WINDOW_MS] = g_param_spec_uint ("merge-window-ms", NULL, NULL, 0, G_MAXUINT, 0, flags);
  /**
   * UndodHints:state-tag:
   *
   * The document's state tag after the change (NULL: none).
   */
  properties[PROP_STATE_TAG] = g_param_spec_string ("state-tag", NULL, NULL, NULL, flags);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
undod_hints_init (UndodHints *self)
{
}

/**
 * undod_hints_new:
 *
 * Returns: (transfer full): hints that ask for nothing yet
 */
UndodHints *
undod_hints_new (void)
{
  return g_object_new (UNDOD_TYPE_HINTS, NULL);
}

/**
 * undod_hints_set_merge_key:
 * @hints: the hints
 * @merge_key: (nullable): a push with the same key as the top group's merges into it
 *   (while no undo or redo came between, within the merge window); %NULL: none
 */
void
undod_hints_set_merge_key (UndodHints *hints, const char *merge_key)
{
  g_return_if_fail (UNDOD_IS_HINTS (hints));
  if (g_strcmp0 (hints->merge_key, merge_key) == 0)
    return;
  g_free (hints->merge_key);
  hints->merge_key = g_strdup (merge_key);
  g_object_notify_by_pspec (G_OBJECT (hints), properties[PROP_MERGE_KEY]);
}

/**
 * undod_hints_get_merge_key:
 * @hints: the hints
 *
 * Returns: (nullable): the merge key
 */
const char *
undod_hints_get_merge_key (UndodHints *hints)
{
  g_return_val_if_fail (UNDOD_IS_HINTS (hints), NULL);
  return hints->merge_key;
}

/**
 * undod_hints_set_merge_window_ms:
 * @hints: the hints
 * @merge_window_ms: how long after the top group's last push this push may
 *   still merge into it, in milliseconds; 0: undod's configured window
 */
void
undod_hints_set_merge_window_ms (UndodHints *hints, guint merge_window_ms)
{
  g_return_if_fail (UNDOD_IS_HINTS (hints));
  if (hints->merge_window_ms == merge_window_ms)
    return;
  hints->merge_window_ms = merge_window_ms;
  g_object_notify_by_pspec (G_OBJECT (hints), properties[PROP_MERGE_WINDOW_MS]);
}

/**
 * undod_hints_get_merge_window_ms:
 * @hints: the hints
 *
 * Returns: the merge window in milliseconds, 0 when undod's configured one
 */
guint
undod_hints_get_merge_window_ms (UndodHints *hints)
{
  g_return_val_if_fail (UNDOD_IS_HINTS (hints), 0);
  return hints->merge_window_ms;
}

/**
 * undod_hints_set_state_tag:
 * @hints: the hints
 * @state_tag: (nullable): the document's state tag after this change (a
 *   content hash, say; see undod_options_set_state_tag()); %NULL: none
 */
void
undod_hints_set_state_tag (UndodHints *hints, const char *state_tag)
{
  g_return_if_fail (UNDOD_IS_HINTS (hints));
  if (g_strcmp0 (hints->state_tag, state_tag) == 0)
    return;
  g_free (hints->state_tag);
  hints->state_tag = g_strdup (state_tag);
  g_object_notify_by_pspec (G_OBJECT (hints), properties[PROP_STATE_TAG]);
}

/**
 * undod_hints_get_state_tag:
 * @hints: the hints
 *
 * Returns: (nullable): the state tag
 */
const char *
undod_hints_get_state_tag (UndodHints *hints)
{
  g_return_val_if_fail (UNDOD_IS_HINTS (hints), NULL);
  return hints->state_tag;
}

/* Push hints as the contract's a{sv} (floating): what is unset (NULL, 0)
 * is left out. */
GVariant *
undod_hints_variant (const char *merge_key, guint merge_window_ms, const char *state_tag)
{
  GVariantBuilder builder;
  g_variant_builder_init (&builder, G_VARIANT_TYPE_VARDICT);
  if (merge_key != NULL)
    g_variant_builder_add (&builder, "{sv}", "merge_key", g_variant_new_string (merge_key));
  if (merge_window_ms != 0)
    g_variant_builder_add (&builder, "{sv}", "merge_window_ms", g_variant_new_uint32 (merge_window_ms));
  if (state_tag != NULL)
    g_variant_builder_add (&builder, "{sv}", "state_tag", g_variant_new_string (state_tag));
  return g_variant_builder_end (&builder);
}

/* @hints (or none) as the contract's a{sv}, floating. */
GVariant *
undod_hints_to_variant (UndodHints *hints)
{
  if (hints == NULL)
    return undod_hints_variant (NULL, 0, NULL);
  return undod_hints_variant (hints->merge_key, hints->merge_window_ms, hints->state_tag);
}
