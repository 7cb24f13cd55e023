#pragma once

#include <gtk/gtk.h>
#include <undod/undod.h>

G_BEGIN_DECLS

#define UNDOD_TYPE_TEXT_BRIDGE (undod_text_bridge_get_type ())
G_DECLARE_FINAL_TYPE (UndodTextBridge, undod_text_bridge, UNDOD, TEXT_BRIDGE, GObject)

UndodTextBridge *undod_text_bridge_new         (UndodStack *stack, GtkTextBuffer *buffer);
void             undod_text_bridge_attach_view (UndodTextBridge *bridge, GtkTextView *view);
void             undod_text_bridge_undo        (UndodTextBridge *bridge);
void             undod_text_bridge_redo        (UndodTextBridge *bridge);

G_END_DECLS
