#pragma once

#if !defined(UNDOD_INSIDE) && !defined(UNDOD_COMPILATION)
#error "Only <undod/undod.h> can be included directly."
#endif

#include <glib-object.h>

G_BEGIN_DECLS

#define UNDOD_TYPE_HINTS (undod_hints_get_type ())
G_DECLARE_FINAL_TYPE (UndodHints, undod_hints, UNDOD, HINTS, GObject)

UndodHints *undod_hints_new                 (void);
void        undod_hints_set_merge_key       (UndodHints *hints, const char *merge_key);
const char *undod_hints_get_merge_key       (UndodHints *hints);
void        undod_hints_set_merge_window_ms (UndodHints *hints, guint merge_window_ms);
guint       undod_hints_get_merge_window_ms (UndodHints *hints);
void        undod_hints_set_state_tag       (UndodHints *hints, const char *state_tag);
const char *undod_hints_get_state_tag       (UndodHints *hints);

G_END_DECLS
