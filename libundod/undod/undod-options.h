#pragma once

#if !defined(UNDOD_INSIDE) && !defined(UNDOD_COMPILATION)
#error "Only <undod/undod.h> can be included directly."
#endif

#include <glib-object.h>

G_BEGIN_DECLS

#define UNDOD_TYPE_OPTIONS (undod_options_get_type ())
G_DECLARE_FINAL_TYPE (UndodOptions, undod_options, UNDOD, OPTIONS, GObject)

UndodOptions *undod_options_new               (void);
void          undod_options_set_document      (UndodOptions *options, const char *document);
const char   *undod_options_get_document      (UndodOptions *options);
void          undod_options_set_title         (UndodOptions *options, const char *title);
void          undod_options_set_limit         (UndodOptions *options, guint limit);
void          undod_options_set_max_bytes     (UndodOptions *options, guint64 max_bytes);
void          undod_options_set_persist       (UndodOptions *options, gboolean persist);
void          undod_options_set_global_trigger (UndodOptions *options, gboolean global_trigger);
void          undod_options_set_state_tag     (UndodOptions *options, const char *state_tag);

G_END_DECLS
