#include <dbus/dbus.h>

/* The wire size in bytes of the array an iterator recursed into, without reading
   it: libdbus marks dbus_message_iter_get_array_len deprecated (a poor way
   to count elements), but as a size it is exact and costs nothing, which
   is what undod needs to weigh an incoming call before copying any of it. */
static inline int cdbus_iter_array_wire_length(DBusMessageIter *inside) {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
    return dbus_message_iter_get_array_len(inside);
#pragma GCC diagnostic pop
}
