/* undod-options.c: what an app asks of its stack when it registers. */
#include "undod-options.h"
#include "undod-private.h"

/**
 * UndodOptions:
 *
 * The options of `Register`: which document the stack is for, its title,
 * limits, whether it persists and whether the global key may undo it.
 * What is left unset takes undod's configured value (or, for a stack
 * adopted again, the value it had).
 */
struct _UndodOptions {
  GObject parent_instance;
  char *document;
  char *title;
  guint limit;
  guint64 max_bytes;
  gboolean persist;
  gboolean persist_set;
  gboolean global_trigger;
  char *state_tag;
};

G_DEFINE_FINAL_TYPE (UndodOptions, undod_options, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_DOCUMENT,
  PROP_TITLE,
  PROP_LIMIT,
  PROP_MAX_BYTES,
  PROP_PERSIST,
  PROP_GLOBAL_TRIGGER,
  PROP_STATE_TAG,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
undod_options_finalize (GObject *object)
{
  UndodOptions *self = UNDOD_OPTIONS (object);
  g_free (self->document);
  g_free (self->title);
  g_free (self->state_tag);
  G_OBJECT_CLASS (undod_options_parent_class)->finalize (object);
}

static void
undod_options_get_property (GObject *object, guint id, GValue *value, GParamSpec *pspec)
{
  UndodOptions *self = UNDOD_OPTIONS (object);
  switch (id)
    {
    case PROP_DOCUMENT: g_value_set_string (value, self->document); break;
    case PROP_TITLE: g_value_set_string (value, self->title); break;
    case PROP_LIMIT: g_value_set_uint (value, self->limit); break;
    case PROP_MAX_BYTES: g_value_set_uint64 (value, self->max_bytes); break;
    case PROP_PERSIST: g_value_set_boolean (value, self->persist); break;
    case PROP_GLOBAL_TRIGGER: g_value_set_boolean (value, self->global_trigger); break;
    case PROP_STATE_TAG: g_value_set_string (value, self->state_tag); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, id, pspec);
    }
}

static void
undod_options_set_property (GObject *object, guint id, const GValue *value, GParamSpec *pspec)
{
  UndodOptions *self = UNDOD_OPTIONS (object);
  switch (id)
    {
    case PROP_DOCUMENT: undod_options_set_document (self, g_value_get_string (value)); break;
    case PROP_TITLE: undod_options_set_title (self, g_value_get_string (value)); break;
    case PROP_LIMIT: undod_options_set_limit (self, g_value_get_uint (value)); break;
    case PROP_MAX_BYTES: undod_options_set_max_bytes (self, g_value_get_uint64 (value)); break;
    case PROP_PERSIST: undod_options_set_persist (self, g_value_get_boolean (value)); break;
    case PROP_GLOBAL_TRIGGER: undod_options_set_global_trigger (self, g_value_get_boolean (value)); break;
    case PROP_STATE_TAG: undod_options_set_state_tag (self, g_value_get_string (value)); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, id, pspec);
    }
}

static void
undod_options_class_init (UndodOptionsClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  object_class->finalize = undod_options_finalize;
  object_class->get_property = undod_options_get_property;
  object_class->set_property = undod_options_set_property;

  GParamFlags flags = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY;
  /**
   * UndodOptions:document:
   *
   * The document the stack is for: one stack per document of an app.
   */
  properties[PROP_DOCUMENT] = g_param_spec_string ("document", NULL, NULL, "", flags);
  /**
   * UndodOptions:title:
   *
   * The name undoctl and notifications show (unset: the app id).
   */
  properties[PROP_TITLE] = g_param_spec_string ("title", NULL, NULL, NULL, flags);
  /**
   * UndodOptions:limit:
   *
   * The most undo groups kept (0: undod's configured value).
   */
  properties[PROP_LIMIT] = g_param_spec_uint ("limit", NULL, NULL, 0, G_MAXUINT32, 0, flags);
  /**
   * UndodOptions:max-bytes:
   *
   * The most payload bytes the stack keeps (0: undod's configured value).
   */
  properties[PROP_MAX_BYTES] = g_param_spec_uint64 ("max-bytes", NULL, NULL, 0, G_MAXUINT64, 0, flags);
  /**
   * UndodOptions:persist:
   *
   * Whether the history is kept on disk (unset until set: undod's configured value).
   */
  properties[PROP_PERSIST] = g_param_spec_boolean ("persist", NULL, NULL, FALSE, flags);
  /**
   * UndodOptions:global-trigger:
   *
   * Whether the global undo key may undo this stack.
   */
  properties[PROP_GLOBAL_TRIGGER] = g_param_spec_boolean ("global-trigger", NULL, NULL, TRUE, flags);
  /**
   * UndodOptions:state-tag:
   *
   * A tag of the document's present state; an adopted history whose tag
   * differs is discarded.
   */
  properties[PROP_STATE_TAG] = g_param_spec_string ("state-tag", NULL, NULL, NULL, flags);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
undod_options_init (UndodOptions *self)
{
  self->document = g_strdup ("");
  self->global_trigger = TRUE;
}

/**
 * undod_options_new:
 *
 * Returns: (transfer full): options with everything at undod's defaults
 */
UndodOptions *
undod_options_new (void)
{
  return g_object_new (UNDOD_TYPE_OPTIONS, NULL);
}

static void
replace_string (UndodOptions *self, char **field, const char *value, guint prop)
{
  if (g_strcmp0 (*field, value) == 0)
    return;
  g_free (*field);
  *field = g_strdup (value);
  g_object_notify_by_pspec (G_OBJECT (self), properties[prop]);
}

/**
 * undod_options_set_document:
 * @options: the options
 * @document: (nullable): the document's name (%NULL: none)
 *
 * Sets #UndodOptions:document.
 */
void
undod_options_set_document (UndodOptions *options, const char *document)
{
  g_return_if_fail (UNDOD_IS_OPTIONS (options));
  replace_string (options, &options->document, document ? document : "", PROP_DOCUMENT);
}

/**
 * undod_options_get_document:
 * @options: the options
 *
 * Returns: the document the stack is for (`""`: none)
 */
const char *
undod_options_get_document (UndodOptions *options)
{
  g_return_val_if_fail (UNDOD_IS_OPTIONS (options), NULL);
  return options->document;
}

/**
 * undod_options_set_title:
 * @options: the options
 * @title: (nullable): the title (%NULL: the app id)
 *
 * Sets #UndodOptions:title.
 */
void
undod_options_set_title (UndodOptions *options, const char *title)
{
  g_return_if_fail (UNDOD_IS_OPTIONS (options));
  replace_string (options, &options->title, title, PROP_TITLE);
}

/**
 * undod_options_set_limit:
 * @options: the options
 * @limit: the most undo groups kept (0: undod's configured value)
 *
 * Sets #UndodOptions:limit.
 */
void
undod_options_set_limit (UndodOptions *options, guint limit)
{
  g_return_if_fail (UNDOD_IS_OPTIONS (options));
  if (options->limit == limit)
    return;
  options->limit = limit;
  g_object_notify_by_pspec (G_OBJECT (options), properties[PROP_LIMIT]);
}

/**
 * undod_options_set_max_bytes:
 * @options: the options
 * @max_bytes: the most payload bytes kept (0: undod's configured value)
 *
 * Sets #UndodOptions:max-bytes.
 */
void
undod_options_set_max_bytes (UndodOptions *options, guint64 max_bytes)
{
  g_return_if_fail (UNDOD_IS_OPTIONS (options));
  if (options->max_bytes == max_bytes)
    return;
  options->max_bytes = max_bytes;
  g_object_notify_by_pspec (G_OBJECT (options), properties[PROP_MAX_BYTES]);
}

/**
 * undod_options_set_persist:
 * @options: the options
 * @persist: whether the history is kept on disk
 *
 * Sets #UndodOptions:persist; until it is set, undod's configured value holds.
 */
void
undod_options_set_persist (UndodOptions *options, gboolean persist)
{
  g_return_if_fail (UNDOD_IS_OPTIONS (options));
  gboolean changed = !options->persist_set || options->persist != !!persist;
  options->persist = !!persist;
  options->persist_set = TRUE;
  if (changed)
    g_object_notify_by_pspec (G_OBJECT (options), properties[PROP_PERSIST]);
}

/**
 * undod_options_set_global_trigger:
 * @options: the options
 * @global_trigger: whether the global undo key may undo this stack
 *
 * Sets #UndodOptions:global-trigger.
 */
void
undod_options_set_global_trigger (UndodOptions *options, gboolean global_trigger)
{
  g_return_if_fail (UNDOD_IS_OPTIONS (options));
  if (options->global_trigger == !!global_trigger)
    return;
  options->global_trigger = !!global_trigger;
  g_object_notify_by_pspec (G_OBJECT (options), properties[PROP_GLOBAL_TRIGGER]);
}

/**
 * undod_options_set_state_tag:
 * @options: the options
 * @state_tag: (nullable): a tag of the document's present state
 *
 * Sets #UndodOptions:state-tag.
 */
void
undod_options_set_state_tag (UndodOptions *options, const char *state_tag)
{
  g_return_if_fail (UNDOD_IS_OPTIONS (options));
  replace_string (options, &options->state_tag, state_tag, PROP_STATE_TAG);
}

/* The options as Register's a{sv}: only what was set. */
GVariant *
undod_options_to_variant (UndodOptions *options)
{
  return undod_options_to_variant_full (options, TRUE);
}

/* The options as Register takes them; without @with_state_tag, the state
 * tag left out: a stack registering again after undod restarted has moved
 * its document on since the tag was given, and its history in undod
 * follows that document (undod would discard the history on a tag that no
 * longer describes it). */
GVariant *
undod_options_to_variant_full (UndodOptions *options, gboolean with_state_tag)
{
  GVariantBuilder builder;
  g_variant_builder_init (&builder, G_VARIANT_TYPE_VARDICT);
  if (options != NULL)
    {
      g_variant_builder_add (&builder, "{sv}", "document", g_variant_new_string (options->document));
      if (options->title != NULL)
        g_variant_builder_add (&builder, "{sv}", "title", g_variant_new_string (options->title));
      if (options->limit != 0)
        g_variant_builder_add (&builder, "{sv}", "limit", g_variant_new_uint32 (options->limit));
      if (options->max_bytes != 0)
        g_variant_builder_add (&builder, "{sv}", "max_bytes", g_variant_new_uint64 (options->max_bytes));
      if (options->persist_set)
        g_variant_builder_add (&builder, "{sv}", "persist", g_variant_new_boolean (options->persist));
      g_variant_builder_add (&builder, "{sv}", "global_trigger", g_variant_new_boolean (options->global_trigger));
      if (with_state_tag && options->state_tag != NULL)
        g_variant_builder_add (&builder, "{sv}", "state_tag", g_variant_new_string (options->state_tag));
    }
  return g_variant_builder_end (&builder);
}
