#!/usr/bin/python3
"""A GTK 4 text editor whose undo history lives in undod, written on
libundod's typelib: one call (UndodGtk.TextBridge.new) connects the buffer.
Ctrl+Z in the window, the desktop's global undo key and `undoctl undo` walk
one history; without undod the editor keeps a local one.

    make libundod && /usr/bin/python3 Examples/gtk4-editor.py [--address ADDR] [--trace]

The Edit menu's Undo and Redo name the next group and grey out with the
stack. --trace prints one JSON line per event (registered, changed, applied,
menu) for the tests.
"""
import argparse
import json
import os
import sys

import gi
gi.require_version("GIRepository", "2.0")
from gi.repository import GIRepository  # noqa: E402

# Run from a checkout: the typelibs and libraries `make libundod` built.
HERE = os.path.dirname(os.path.abspath(__file__))
for part in ("undod", "undod-gtk"):
    built = os.path.join(HERE, "..", ".build", "libundod", part)
    if os.path.isdir(built):
        GIRepository.Repository.prepend_search_path(built)
        GIRepository.Repository.prepend_library_path(built)

gi.require_version("Gtk", "4.0")
gi.require_version("Undod", "1.0")
gi.require_version("UndodGtk", "1.0")
from gi.repository import Gio, GLib, Gtk, Undod, UndodGtk  # noqa: E402


def trace(enabled, event, **fields):
    if enabled:
        print(json.dumps({"event": event, **fields}), flush=True)


def main():
    parser = argparse.ArgumentParser(description="A GTK 4 editor with its undo history in undod.")
    parser.add_argument("--address", help="the bus (default: the session bus)")
    parser.add_argument("--trace", action="store_true", help="print events as JSON lines")
    args = parser.parse_args()

    app = Gtk.Application(application_id="org.undod.examples.Gtk4Editor")
    client = Undod.Client.new_sync(args.address, None)
    kept = {}

    def text_of(buffer):
        return buffer.get_text(buffer.get_start_iter(), buffer.get_end_iter(), True)

    def registered(client, result, window, view):
        stack = client.register_finish(result)
        bridge = UndodGtk.TextBridge.new(stack, view.get_buffer())
        bridge.attach_view(view)
        bridge.connect("applied", lambda b, direction: trace(
            args.trace, "applied", direction=direction.value_nick, text=text_of(view.get_buffer())))
        window.connect("notify::is-active", lambda w, _: w.props.is_active and stack.activate(None, None))
        kept.update(stack=stack, bridge=bridge)
        # The Edit menu: its items ask the bridge, and name and grey
        # themselves from the stack's state, whoever moved it.
        undo, redo = app.lookup_action("undo"), app.lookup_action("redo")
        undo.connect("activate", lambda *_: bridge.undo())
        redo.connect("activate", lambda *_: bridge.redo())

        def follow(*_):
            undo.set_enabled(stack.props.can_undo)
            redo.set_enabled(stack.props.can_redo)
            edit.remove_all()
            edit.append(f"Undo {stack.props.undo_name}" if stack.props.can_undo else "Undo", "app.undo")
            edit.append(f"Redo {stack.props.redo_name}" if stack.props.can_redo else "Redo", "app.redo")
            trace(args.trace, "menu", undo=edit.get_item_attribute_value(0, "label").get_string(),
                  redo=edit.get_item_attribute_value(1, "label").get_string(),
                  can_undo=undo.get_enabled(), can_redo=redo.get_enabled())
        for name in ("can-undo", "can-redo", "undo-name", "redo-name"):
            stack.connect(f"notify::{name}", follow)
        follow()
        view.get_buffer().connect("changed", lambda b: trace(args.trace, "changed", text=text_of(b)))
        trace(args.trace, "registered", path=stack.get_path(), xid=xid_of(window))

    edit = Gio.Menu()

    def activate(app):
        for name in ("undo", "redo"):
            action = Gio.SimpleAction.new(name, None)
            action.set_enabled(False)
            app.add_action(action)
        # No accelerators: the view's own Ctrl+Z and Ctrl+Shift+Z already go
        # through undod (attach_view), and would otherwise act twice.
        edit.append("Undo", "app.undo")
        edit.append("Redo", "app.redo")
        menus = Gio.Menu()
        menus.append_submenu("Edit", edit)
        app.set_menubar(menus)
        window = Gtk.ApplicationWindow(application=app, title="GTK 4 editor (undod)", default_width=480,
                                       default_height=320, show_menubar=True)
        view = Gtk.TextView(monospace=True)
        window.set_child(Gtk.ScrolledWindow(child=view))
        window.present()
        # Kept on disk, so that the history outlives an undod restart; a tag of
        # this run's own, so that the next run (an empty text) does not take it
        # up: the bridge tags each change, and undod's restart keeps it.
        options = Undod.Options(title="GTK 4 editor", state_tag=GLib.uuid_string_random())
        client.register("org.undod.examples.Gtk4Editor", options, None,
                        lambda client, result: registered(client, result, window, view))

    app.connect("activate", activate)
    return app.run([sys.argv[0]])


def xid_of(window):
    """The X11 window id (0 on Wayland): what the tests activate."""
    try:
        gi.require_version("GdkX11", "4.0")
        from gi.repository import GdkX11
        surface = window.get_surface()
        return GdkX11.X11Surface.get_xid(surface) if isinstance(surface, GdkX11.X11Surface) else 0
    except (ValueError, ImportError):
        return 0


if __name__ == "__main__":
    GLib.set_prgname("gtk4-editor")
    sys.exit(main())
