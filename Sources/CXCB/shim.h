#include <xcb/xcb.h>
#include <xcb/xcbext.h>
